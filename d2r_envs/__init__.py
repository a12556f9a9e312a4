"""d2r_envs: PettingZoo AEC environments for tabletop games."""

from __future__ import annotations

from typing import Any

from d2r_envs.compiled import build, prefer_source

prefer_source()  # D2R_ENVS_PURE=1: the engine from its Python source, compiled or not (d2r_envs/compiled.py)

from d2r_envs import registry  # noqa: E402
from d2r_envs.core.aec import GameEnv, SafeEnv  # noqa: E402
from d2r_envs.core.game import Game  # noqa: E402
from d2r_envs.registry import names, package  # noqa: E402

__version__ = "0.1.0"
__all__ = ["make", "raw_env", "make_game", "names", "load_opponent", "build", "__version__"]


def make_game(name: str, num_players: int | None = None, **options: Any) -> Game:
    """The bare rules engine of a game, with validated options."""
    return registry.make_game(name, num_players, **options)


def raw_env(name: str, num_players: int | None = None, render_mode: str | None = None,
            observation: dict[str, Any] | None = None, **options: Any) -> GameEnv:
    """The bare AEC env: an illegal action raises IllegalActionError and changes nothing (`options` and
    `observation` as for `make`)."""
    return package(name).raw_env(num_players, render_mode=render_mode, observation=observation, **options)


def make(name: str, num_players: int | None = None, render_mode: str | None = None,
         observation: dict[str, Any] | None = None, **options: Any) -> SafeEnv:
    """The AEC env with PettingZoo's usual safety: order checks, bounds, illegal move ends the game.
    `options`: the game's options; `observation`: its observation options (`d2r describe <game>`
    lists both; Extravaganza's `views` adds its views for learning)."""
    return package(name).env(num_players, render_mode=render_mode, observation=observation, **options)


def load_opponent(ref: str, game: str | None = None):
    """An exported policy (a model folder, its manifest, or an id such as "draco_and_co/ppo-v1"),
    checked against the installed game; `act(observation)` runs in numpy alone."""
    from d2r_envs.opponents import load_opponent as _load

    return _load(ref, game=game)


def _register_gymnasium() -> None:
    from d2r_envs.single_agent import register_all

    register_all()


_register_gymnasium()
