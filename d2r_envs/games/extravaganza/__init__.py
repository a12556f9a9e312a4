"""Extravaganza (Diapason Games) for 2 to 4 players: every rule of the basic game and its three modules."""

from d2r_envs.core.package import entry_points
from d2r_envs.games.extravaganza import invariants
from d2r_envs.games.extravaganza.actions import ACTIONS
from d2r_envs.games.extravaganza.config import Config
from d2r_envs.games.extravaganza.encode import LAYOUT
from d2r_envs.games.extravaganza.encode_fast import Observer
from d2r_envs.games.extravaganza.rules import NAME, VERSION, Game

DEFAULT_PLAYERS = 2
env, raw_env = entry_points(NAME, Game, Config, Observer, DEFAULT_PLAYERS)

__all__ = ["VERSION", "ACTIONS", "LAYOUT", "Config", "Game", "Observer", "env", "raw_env", "invariants", "DEFAULT_PLAYERS"]
