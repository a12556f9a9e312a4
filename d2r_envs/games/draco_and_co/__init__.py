"""Draco & Co (Schacht & Faidutti, 2001) for 3 to 6 players."""

from d2r_envs.games.draco_and_co.config import Config
from d2r_envs.games.draco_and_co.encode import Observer
from d2r_envs.games.draco_and_co.env import env, raw_env
from d2r_envs.games.draco_and_co.rules import Game

DEFAULT_PLAYERS = 4

__all__ = ["Config", "Game", "Observer", "env", "raw_env", "DEFAULT_PLAYERS"]
