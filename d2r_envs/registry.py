"""The single table of games: registry id -> the package record that declares it (core/package.py).

A game's package is imported when it is first asked for; what the rest of the project needs of a game
(its engine, envs, narration, pictures, heuristic) it reads from the record, `package(name)`, or from an
engine's own, `of(game)`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from d2r_envs.core.actions import ActionSpace
    from d2r_envs.core.game import Game
    from d2r_envs.core.obs import ObsLayout
    from d2r_envs.core.package import GamePackage

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


def package(name: str) -> "GamePackage":
    """The record of a game (its `__init__.py`'s `PACKAGE`): Config, Game, Observer, DEFAULT_PLAYERS,
    VERSION, ACTIONS, LAYOUT, its narration, drawing, heuristic and invariants, and env()/raw_env()."""
    return _record(name)


def of(game: "Game") -> "GamePackage":
    """The record of the game an engine plays (by its `spec.name`)."""
    return _record(game.spec.name)


def _record(name: str) -> "GamePackage":
    if name not in _GAMES:
        raise ValueError(f"unknown game {name!r}; available games: {', '.join(names())}")
    return importlib.import_module(_GAMES[name]).PACKAGE


def make_game(name: str, num_players: int | None = None, **options: Any) -> "Game":
    """The bare rules engine of a game, with validated options (`d2r_envs.make_game`)."""
    return package(name).make_game(num_players, **options)


def action_space(name: str) -> "ActionSpace":
    """The game's fixed action space (`d2r_envs.games.<name>.actions.ACTIONS`)."""
    return package(name).ACTIONS


def obs_layout(name: str) -> "ObsLayout":
    """The game's default observation layout (`d2r_envs.games.<name>.encode.LAYOUT`; observation
    options may add pieces after it: `Game.make_observer(**options).layout`)."""
    return package(name).LAYOUT
