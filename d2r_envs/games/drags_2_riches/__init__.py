"""Drags 2 Riches (Bored Wreckers Inc.), the namesake deck-builder, for 2 to 5 players."""

from d2r_envs.core.package import GamePackage, entry_points
from d2r_envs.games.drags_2_riches import draw, encode, guide, heuristic, invariants, narrate
from d2r_envs.games.drags_2_riches.actions import ACTIONS
from d2r_envs.games.drags_2_riches.config import Config
from d2r_envs.games.drags_2_riches.encode import LAYOUT
from d2r_envs.games.drags_2_riches.encode_fast import Observer
from d2r_envs.games.drags_2_riches.rules import NAME, VERSION, Game

DEFAULT_PLAYERS = 4
PACKAGE = GamePackage(
    name=NAME, VERSION=VERSION, Game=Game, Config=Config, Observer=Observer, encode=encode, ACTIONS=ACTIONS,
    DEFAULT_PLAYERS=DEFAULT_PLAYERS, invariants=invariants, narrate=narrate, draw=draw, guide=guide, heuristic=heuristic,
    doc=__doc__,
)
env, raw_env = entry_points(PACKAGE)

__all__ = ["PACKAGE", "VERSION", "ACTIONS", "LAYOUT", "Config", "Game", "Observer", "env", "raw_env", "invariants", "DEFAULT_PLAYERS"]
