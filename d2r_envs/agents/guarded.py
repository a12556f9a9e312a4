"""A network checked by information-set MCTS ("mcts:<simulations>:<G>:<model>"): the model's own move,
unless the search's most visited move beats it by more than G standard errors of their mean returns.

The search is mcts.py's, unchanged: its root holds each move's visits and total return for the searching
seat. The tree keeps no squares of returns, so a move's variance is taken at its largest for its mean
(the Bhatia-Davis bound: a return in [lo, hi] with mean m varies by at most (hi - m)(m - lo)), which makes
the guard err towards the model's move. A network so keeps its own play wherever the search cannot tell
a better move apart, and gives way where the search clearly can.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from d2r_envs.agents.base import one_blas_thread, with_bound
from d2r_envs.core.game import Game


class Guarded:
    """`model`: the agent whose move stands (a PolicyAgent); `search`: an ISMCTS whose root statistics
    may overrule it; `guard`: G, the standard errors by which the search's move must beat the model's."""

    def __init__(self, model: Any, search: Any, guard: float, name: str) -> None:
        if not guard >= 0:
            raise ValueError(f"a guard is a number of standard errors, 0 or more, got {guard}")
        self.model = model
        self.search = search
        self.guard = guard
        self.name = name

    def for_game(self, engine: Any) -> "Guarded":
        """This agent made to play `engine`'s game: itself, or a copy whose model reads that game's
        observations."""
        return with_bound(self, "model", engine)

    def act(self, game: Game, state: Any, seat: int, rng: np.random.Generator) -> int:
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        mine = self.model.act(game, state, seat, rng)
        with one_blas_thread():
            root = self.search.search(game, state, seat, rng)
        children = list(root.children.values())
        best = max(children, key=lambda c: (c.visits, -c.action))
        own = next((c for c in children if c.action == mine), None)
        if own is None or own is best or own.visits == 0:
            return mine
        lo, hi = game.spec.min_return, game.spec.max_return
        mean_best, mean_own = best.total / best.visits, own.total / own.visits
        error = math.sqrt(max((hi - mean_best) * (mean_best - lo), 1e-12) / best.visits
                          + max((hi - mean_own) * (mean_own - lo), 1e-12) / own.visits)
        return best.action if mean_best - mean_own > self.guard * error else mine
