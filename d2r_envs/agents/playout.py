"""The play-out of a search: a game played on from a position to its end."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from d2r_envs.core.game import CHANCE, TERMINAL, Game


def play_out(game: Game, d: Any, rng: np.random.Generator, cap: int,
             pick: Callable[[Any, int, list[int]], int] | None = None) -> None:
    """Play `d` on to the end of the game, or until `cap` decisions were made: chance by its odds, each
    decision by `pick(d, player, legal)`, or by a uniformly random legal move without one."""
    steps = 0
    while steps < cap:
        p = game.current_player(d)
        if p == TERMINAL:
            break
        if p == CHANCE:
            game.apply_legal(d, game.sample_chance(d, rng))
            continue
        legal = game.legal_actions(d)
        game.apply_legal(d, legal[int(rng.random() * len(legal))] if pick is None else pick(d, p, legal))
        steps += 1
