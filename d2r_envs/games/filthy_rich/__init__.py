"""Filthy Rich (Richard Garfield, Wizards of the Coast, 1998), the three-dimensional sign book, for 2 to 5 players."""

from d2r_envs.games.filthy_rich import invariants
from d2r_envs.games.filthy_rich.actions import ACTIONS
from d2r_envs.games.filthy_rich.config import Config
from d2r_envs.games.filthy_rich.encode import LAYOUT, Observer
from d2r_envs.games.filthy_rich.env import env, raw_env
from d2r_envs.games.filthy_rich.rules import VERSION, Game

DEFAULT_PLAYERS = 4

__all__ = ["VERSION", "ACTIONS", "LAYOUT", "Config", "Game", "Observer", "env", "raw_env", "invariants", "DEFAULT_PLAYERS"]
