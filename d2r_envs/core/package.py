"""What every game package exports, built once: PettingZoo's classic `env()` / `raw_env()` pair.

A game's `__init__.py` declares its pieces (Config, Game, Observer, DEFAULT_PLAYERS) and gets its two
entry points from `entry_points`, so no game copies an env module; `d2r_envs.make` and `raw_env` go
through the same two functions.
"""

from __future__ import annotations

import dataclasses
import sys
from typing import Any, Callable

from d2r_envs.core import config as _config
from d2r_envs.core.aec import GameEnv, SafeEnv
from d2r_envs.core.obs import build_observer
from d2r_envs.core.words import quote


def build_game(name: str, game_class: type, config_class: type, num_players: int | None, options: dict[str, Any]) -> Any:
    """The game's engine with its options checked (a ValueError names a bad key or value first)."""
    if num_players is not None:
        options = {**options, "num_players": num_players}
    try:
        config = _config.build(config_class, name, options)
    except ValueError as err:  # an observation option given as a game option: say where it goes
        package = sys.modules.get(game_class.__module__.rpartition(".")[0])
        kinds = getattr(getattr(package, "Observer", None), "Options", None)
        misplaced = sorted(set(options) & {f.name for f in dataclasses.fields(kinds)}) if kinds else []
        if misplaced:
            raise ValueError(f"{err}; {', '.join(map(repr, misplaced))} is an observation option: pass "
                             "observation={...} (a training config: env.observation)") from None
        raise
    return game_class(config)


def _observation(name: str, observation: Any) -> dict[str, Any]:
    if observation is None:
        return {}
    if not isinstance(observation, dict):
        raise ValueError(f"{name}: observation must be a dict of observation options, got {quote(observation)}")
    return observation


def entry_points(
    name: str, game_class: type, config_class: type, observer_class: type, default_players: int
) -> tuple[Callable[..., SafeEnv], Callable[..., GameEnv]]:
    """(env, raw_env) for one game. `raw_env(num_players, render_mode, **options)` is the bare AEC env,
    on which an illegal action raises and changes nothing; `env(...)` adds PettingZoo's usual safety
    (reset first, actions in bounds, an illegal action ends the game with the mover's minimum return).
    Options are checked before anything is built; `num_players=None` means the game's default.
    `observation`: the observation options of the game's Observer (core/obs.py), checked the same way."""

    def raw_env(num_players: int | None = default_players, render_mode: str | None = None,
                observation: dict[str, Any] | None = None, **options: Any) -> GameEnv:
        game = build_game(name, game_class, config_class, default_players if num_players is None else num_players, options)
        return GameEnv(game, build_observer(observer_class, game, _observation(name, observation)), render_mode=render_mode)

    def env(num_players: int | None = default_players, render_mode: str | None = None,
            observation: dict[str, Any] | None = None, **options: Any) -> SafeEnv:
        raw = raw_env(num_players, render_mode=render_mode, observation=observation, **options)
        return SafeEnv(raw, illegal_reward=raw.game.spec.min_return)

    raw_env.__doc__ = f"The bare AEC env of {name}: an illegal action raises IllegalActionError and changes nothing."
    env.__doc__ = f"The AEC env of {name} with PettingZoo's usual safety: order checks, bounds, illegal move ends the game."
    return env, raw_env
