"""The single table of games: registry id -> the package that implements it."""

from __future__ import annotations

import importlib
from types import ModuleType

_GAMES = {
    "draco_and_co": "d2r_envs.games.draco_and_co",
}


def names() -> list[str]:
    """The registered game ids."""
    return sorted(_GAMES)


def game_package(name: str) -> ModuleType:
    """The package of a game; it exports Config, Game, Observer, DEFAULT_PLAYERS."""
    if name not in _GAMES:
        raise ValueError(f"unknown game {name!r}; available games: {', '.join(names())}")
    return importlib.import_module(_GAMES[name])
