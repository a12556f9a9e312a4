"""Draco & Co (Schacht & Faidutti, 2001) for 3 to 6 players."""

from d2r_envs.core.package import GamePackage, entry_points
from d2r_envs.games.draco_and_co import draw, encode, guide, heuristic, invariants, narrate
from d2r_envs.games.draco_and_co.actions import ACTIONS
from d2r_envs.games.draco_and_co.config import Config
from d2r_envs.games.draco_and_co.encode import LAYOUT
from d2r_envs.games.draco_and_co.encode_fast import Observer
from d2r_envs.games.draco_and_co.rules import NAME, VERSION, Game

DEFAULT_PLAYERS = 4
PACKAGE = GamePackage(
    name=NAME, VERSION=VERSION, Game=Game, Config=Config, Observer=Observer, encode=encode, ACTIONS=ACTIONS,
    DEFAULT_PLAYERS=DEFAULT_PLAYERS, invariants=invariants, narrate=narrate, draw=draw, guide=guide, heuristic=heuristic,
    doc=__doc__,
)
env, raw_env = entry_points(PACKAGE)

__all__ = ["PACKAGE", "VERSION", "ACTIONS", "LAYOUT", "Config", "Game", "Observer", "env", "raw_env", "invariants", "DEFAULT_PLAYERS"]
