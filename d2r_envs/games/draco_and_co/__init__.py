"""Draco & Co (Schacht & Faidutti, 2001) for 3 to 6 players."""

from d2r_envs.core.package import entry_points
from d2r_envs.games.draco_and_co import invariants
from d2r_envs.games.draco_and_co.actions import ACTIONS
from d2r_envs.games.draco_and_co.config import Config
from d2r_envs.games.draco_and_co.encode import LAYOUT
from d2r_envs.games.draco_and_co.encode_fast import Observer
from d2r_envs.games.draco_and_co.rules import NAME, VERSION, Game

DEFAULT_PLAYERS = 4
env, raw_env = entry_points(NAME, Game, Config, Observer, DEFAULT_PLAYERS)

__all__ = ["VERSION", "ACTIONS", "LAYOUT", "Config", "Game", "Observer", "env", "raw_env", "invariants", "DEFAULT_PLAYERS"]
