"""Draco & Co (Schacht & Faidutti, 2001) for 3 to 6 players."""

from d2r_envs.games.draco_and_co import invariants
from d2r_envs.games.draco_and_co.actions import ACTIONS
from d2r_envs.games.draco_and_co.config import Config
from d2r_envs.games.draco_and_co.encode import LAYOUT, Observer
from d2r_envs.games.draco_and_co.env import env, raw_env
from d2r_envs.games.draco_and_co.rules import VERSION, Game

DEFAULT_PLAYERS = 4

__all__ = ["VERSION", "ACTIONS", "LAYOUT", "Config", "Game", "Observer", "env", "raw_env", "invariants", "DEFAULT_PLAYERS"]
