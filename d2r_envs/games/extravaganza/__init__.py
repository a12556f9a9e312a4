"""Extravaganza (Diapason Games) for 2 to 4 players: every rule of the basic game and its three modules."""

from d2r_envs.core.package import GamePackage, entry_points
from d2r_envs.games.extravaganza import draw, encode, guide, heuristic, invariants, narrate
from d2r_envs.games.extravaganza.actions import ACTIONS
from d2r_envs.games.extravaganza.config import Config
from d2r_envs.games.extravaganza.encode import LAYOUT
from d2r_envs.games.extravaganza.encode_fast import Observer
from d2r_envs.games.extravaganza.rules import NAME, VERSION, Game

DEFAULT_PLAYERS = 2
PACKAGE = GamePackage(
    name=NAME, VERSION=VERSION, Game=Game, Config=Config, Observer=Observer, encode=encode, ACTIONS=ACTIONS,
    DEFAULT_PLAYERS=DEFAULT_PLAYERS, invariants=invariants, narrate=narrate, draw=draw, guide=guide, heuristic=heuristic,
    doc=__doc__,
)
env, raw_env = entry_points(PACKAGE)

__all__ = ["PACKAGE", "VERSION", "ACTIONS", "LAYOUT", "Config", "Game", "Observer", "env", "raw_env", "invariants", "DEFAULT_PLAYERS"]
