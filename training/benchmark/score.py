"""The normalised score of a task: the entrant's win share against the heuristic lineup, on a scale where
random play is 0 and the heuristic is 1 (above 1 beats it).

    score = (w - w_random) / (w_heuristic - w_random)

w is the entrant's wins over its seat-games (one per rotation of each deal); w_random and w_heuristic
are the task's shipped anchors, fixed constants of the benchmark version (not re-estimated). The 95%
interval of w is the t interval over the deals of the per-deal win share (a deal's rotations share its
luck, so the deal is the unit), never narrower than the Wilson interval of the seat-games (deals that
all came out alike still leave that uncertainty); the score's interval is w's mapped the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

from training.benchmark.matches import mean_interval, wilson


def win_share(per_deal_wins: Sequence[int], num_players: int) -> float:
    return sum(per_deal_wins) / (len(per_deal_wins) * num_players)


def win_share_interval(per_deal_wins: Sequence[int], num_players: int) -> tuple[float, float]:
    low, high = wilson(sum(per_deal_wins), len(per_deal_wins) * num_players)
    t = mean_interval([w / num_players for w in per_deal_wins])
    if t is not None:
        low, high = min(low, max(0.0, t[0])), max(high, min(1.0, t[1]))
    return low, high


def normalise(w: float, w_random: float, w_heuristic: float) -> float:
    if w_heuristic <= w_random:
        raise ValueError(f"the heuristic's anchor {w_heuristic} is not above random's {w_random}: no scale")
    return (w - w_random) / (w_heuristic - w_random)


def task_score(per_deal_wins: Sequence[int], num_players: int, w_random: float,
               w_heuristic: float) -> dict[str, object]:
    """The entrant's win share against the heuristic lineup and its normalised score, each with its 95%
    interval."""
    w = win_share(per_deal_wins, num_players)
    low, high = win_share_interval(per_deal_wins, num_players)
    return {
        "score": normalise(w, w_random, w_heuristic),
        "score_ci": [normalise(low, w_random, w_heuristic), normalise(high, w_random, w_heuristic)],
        "win_share": w,
        "win_share_ci": [low, high],
    }
