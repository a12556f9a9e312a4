"""Rap Godz (Board Game Brothas): albums, beef and plaques, for 2 to 4 players."""

from d2r_envs.core.package import entry_points
from d2r_envs.games.rap_godz import invariants
from d2r_envs.games.rap_godz.actions import ACTIONS
from d2r_envs.games.rap_godz.config import Config
from d2r_envs.games.rap_godz.encode import LAYOUT
from d2r_envs.games.rap_godz.encode_fast import Observer
from d2r_envs.games.rap_godz.rules import NAME, VERSION, Game

DEFAULT_PLAYERS = 4
env, raw_env = entry_points(NAME, Game, Config, Observer, DEFAULT_PLAYERS)

__all__ = ["VERSION", "ACTIONS", "LAYOUT", "Config", "Game", "Observer", "env", "raw_env", "invariants", "DEFAULT_PLAYERS"]
