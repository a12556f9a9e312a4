"""Flat Monte Carlo over the game's heuristic ("rollouts:N"), or over an exported model
("rollouts:N:G:<model>"): each legal move is tried in N games played out by the heuristic (the model)
in every seat, each from a fresh redeterminisation for the acting seat, so it uses only what that seat
may see; the move with the best mean value is played.

The value of a played-out game is the seat's return plus its margin over the best other seat's points,
relative to the leader's (`core.game.margin_return`): a win by much beats a win by little, and a close loss beats
a rout, which tells moves apart far more often than the win alone (with the return alone where a game
keeps no points). The N samples are the same for every move (common random numbers: sample i of each
move starts from the same seed), so moves are compared in the same N worlds.

Much slower than the heuristic it plays out (a decision costs about N x (legal moves) games' worth of
the rest of the game), and in Rap Godz and Extravaganza much stronger (configs/README.md has the
measurements): a strong reference opponent, and a teacher (`imitate.teacher: rollouts:N`), though a few
hundred of its games were too few for a network to copy it (the two games' READMEs).

With a `guard` ("rollouts:N:G"), it plays the heuristic's own move unless another move's mean value
beats it by more than G standard errors of the paired differences over the N worlds: the search's
choice only where it is sure, the heuristic's elsewhere. A teacher whose labels differ from the
heuristic's only where the play-outs say so clearly, rather than on every small difference of averages.
Over a model, the same: a trained network's own move, corrected where its play-outs show a clearly
better one (a rollout policy improvement, as in Tesauro and Galperin, 1996).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from d2r_envs.agents.base import one_blas_thread, with_bound
from d2r_envs.core.game import TERMINAL, Game, margin_return


class Rollouts:
    """`heuristic`: the agent that plays the play-outs and whose move a guard keeps (the game's heuristic,
    or a model's PolicyAgent, named by `over`)."""

    def __init__(self, heuristic: Any, samples: int = 32, guard: float | None = None, over: str = "") -> None:
        if samples < 1:
            raise ValueError(f"rollouts: samples must be at least 1, got {samples}")
        if guard is not None and not (guard >= 0 and samples >= 2):
            raise ValueError(f"rollouts: a guard needs at least 2 samples and a guard of 0 or more, got {samples}, {guard}")
        self.heuristic = heuristic
        self.samples = samples
        self.guard = guard
        self.name = f"rollouts:{samples}" + (f":{guard:g}" if guard is not None else "") + (f":{over}" if over else "")

    def for_game(self, engine: Any) -> "Rollouts":
        """These rollouts made to play `engine`'s game: itself, or, over a model, a copy whose model reads
        that game's observations."""
        return with_bound(self, "heuristic", engine)

    def act(self, game: Game, state: Any, seat: int, rng: np.random.Generator) -> int:
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        with one_blas_thread():
            return self._choose(game, state, seat, legal, rng)

    def _choose(self, game: Game, state: Any, seat: int, legal: list[int], rng: np.random.Generator) -> int:
        if self.guard is not None:
            return self._guarded(game, state, seat, legal, rng)
        values = self._values(game, state, seat, legal, rng)
        best, best_value = legal[0], -np.inf
        for a in legal:
            value = sum(values[a])
            if value > best_value:
                best, best_value = a, value
        return best

    def _values(self, game: Game, state: Any, seat: int, legal: list[int], rng: np.random.Generator) -> dict:
        """Per legal move, its value in each of the same `samples` worlds (common random numbers)."""
        seeds = rng.integers(0, 2**63 - 1, size=self.samples)
        return {a: [self._play_out(game, state, seat, a, np.random.default_rng(int(seed))) for seed in seeds]
                for a in legal}

    def _guarded(self, game: Game, state: Any, seat: int, legal: list[int], rng: np.random.Generator) -> int:
        """The heuristic's move, unless another beats it by more than `guard` standard errors."""
        mine = self.heuristic.act(game, state, seat, np.random.default_rng(int(rng.integers(0, 2**63 - 1))))
        values = {a: np.array(v) for a, v in self._values(game, state, seat, legal, rng).items()}
        best, best_gain = mine, 0.0
        for a in legal:
            diff = values[a] - values[mine]
            gain = float(diff.mean())
            if a != mine and gain > best_gain and gain > self.guard * float(diff.std(ddof=1)) / np.sqrt(self.samples):
                best, best_gain = a, gain
        return best

    def _play_out(self, game: Game, state: Any, seat: int, action: int, rng: np.random.Generator) -> float:
        """The value to `seat` of one game played out by the heuristic after `action`."""
        s = game.redeterminise(state, seat, rng)
        game.apply_legal(s, action)
        game.resolve_chance(s, rng)
        act, cap = self.heuristic.act, game.spec.max_game_length
        for _ in range(cap):
            p = game.current_player(s)
            if p == TERMINAL:
                return margin_return(game, s, seat)
            game.apply_legal(s, act(game, s, p, rng))
            game.resolve_chance(s, rng)
        # cut off where the env truncates: no result, unless the last move ended it
        return margin_return(game, s, seat) if game.current_player(s) == TERMINAL else 0.0
