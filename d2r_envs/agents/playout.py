"""The play-out of a search: a game played on from a position to its end."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from d2r_envs.core.game import CHANCE, TERMINAL, Game


def play_out(game: Game, d: Any, rng: np.random.Generator, cap: int,
             pick: Callable[[Any, int, list[int]], int] | None = None) -> None:
    """Play `d` on to the end of the game, or until `cap` decisions were made: chance by its odds, each
    decision by `pick(d, player, legal)`, or by a uniformly random legal move without one."""
    current, legal_actions, apply, sample = game.current_player, game.legal_actions, game.apply_legal, game.sample_chance
    random = rng.random
    steps = 0
    while steps < cap:
        p = current(d)
        if p == TERMINAL:
            break
        if p == CHANCE:
            apply(d, sample(d, rng))
            continue
        legal = legal_actions(d)
        apply(d, legal[int(random() * len(legal))] if pick is None else pick(d, p, legal))
        steps += 1
