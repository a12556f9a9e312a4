"""The benchmark's matches: one entrant in one seat against a lineup of one reference, on a task's deals.

Every use of the tournament code (training/tournament.py, training/stats.py) by the benchmark is here. A
match is `training.tournament.evaluate` with the agents [entrant, reference]: the entrant takes one seat and the
reference every other, each deal is played once per rotation of the seats, and deal d's chance comes
from SeedSequence([task seed, d]). The entrant is the lineup's first slot, which sits in seat r at
rotation r, so its results are read by seat even when it is the same agent as the reference (the
heuristic against the heuristic lineup).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from training.stats import mean_interval, wilson
from training.tournament import evaluate

__all__ = ["play_match", "entrant_wins", "mean_interval", "wilson"]


def play_match(game: str, num_players: int, options: dict[str, Any], seed: int, deals: int, entrant: str,
               reference: str, workers: int = 1, progress: bool = False, ray_address: str | None = None) -> list[int]:
    """The entrant's wins in each of deals 0..deals-1 (0..num_players: one game per rotation, a game won
    when the entrant's return is the game's maximum, a shared win counting as a win). `ray_address`:
    the deals as Ray tasks (training/ray_eval.py), with the same results."""
    result = evaluate(game, [entrant, reference], num_players, deals * num_players, seed, workers=workers,
                      options=options, progress=progress, ray_address=ray_address)
    return entrant_wins(result["records"], deals, num_players, _max_return(game, num_players, options))


def entrant_wins(records: Sequence[dict[str, Any]], deals: int, num_players: int, max_return: float) -> list[int]:
    wins = [0] * deals
    for rec in records:
        seat = rec["rotation"]  # the lineup's first slot sits in seat r at rotation r
        if rec["returns"][seat] == max_return:
            wins[rec["deal"]] += 1
    return wins


def _max_return(game: str, num_players: int, options: dict[str, Any]) -> float:
    import d2r_envs

    return float(d2r_envs.make_game(game, num_players, **options).spec.max_return)
