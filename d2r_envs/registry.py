"""The single table of games: registry id -> the package that implements it."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any

from d2r_envs.core.package import build_game

if TYPE_CHECKING:
    from d2r_envs.core.actions import ActionSpace
    from d2r_envs.core.game import Game
    from d2r_envs.core.obs import ObsLayout

_GAMES = {
    "draco_and_co": "d2r_envs.games.draco_and_co",
    "extravaganza": "d2r_envs.games.extravaganza",
    "drags_2_riches": "d2r_envs.games.drags_2_riches",
    "filthy_rich": "d2r_envs.games.filthy_rich",
    "rap_godz": "d2r_envs.games.rap_godz",
}


def names() -> list[str]:
    """The registered game ids."""
    return sorted(_GAMES)


def game_package(name: str) -> ModuleType:
    """The package of a game; it exports Config, Game, Observer, DEFAULT_PLAYERS."""
    if name not in _GAMES:
        raise ValueError(f"unknown game {name!r}; available games: {', '.join(names())}")
    return importlib.import_module(_GAMES[name])


def make_game(name: str, num_players: int | None = None, **options: Any) -> "Game":
    """The bare rules engine of a game, with validated options (`d2r_envs.make_game`)."""
    pkg = game_package(name)
    return build_game(name, pkg.Game, pkg.Config, num_players, options)


def action_space(name: str) -> "ActionSpace":
    """The game's fixed action space (`d2r_envs.games.<name>.actions.ACTIONS`)."""
    game_package(name)  # checks the name
    return importlib.import_module(f"{_GAMES[name]}.actions").ACTIONS


def obs_layout(name: str) -> "ObsLayout":
    """The game's default observation layout (`d2r_envs.games.<name>.encode.LAYOUT`; observation
    options may add pieces after it: `Game.make_observer(**options).layout`)."""
    game_package(name)
    return importlib.import_module(f"{_GAMES[name]}.encode").LAYOUT
