"""The statistics of a tournament's games: intervals, per-agent rates and the openskill rating.

Per distinct agent:
- win share = wins / seats played, with a 95% Wilson interval (each seat-game counted as a
  trial); `chance_win_share` = 1/n is what an agent would get if every game had one winner drawn
  at random;
- mean return with a 95% t interval over deals: the agent's returns are averaged within each deal
  (its rotations and seats there share the deal's luck, so they are not independent) and the
  interval is taken over those per-deal means, clipped to the game's return range; with a single
  deal no interval is given;
- seconds per move (wall clock around `act`; the only part of the result that varies between
  runs).

A seat wins when its return is the game's `max_return`.

Rating (openskill PlackettLuce, default parameters, one rating per distinct agent, all starting at
mu = 25, sigma = 25/3). Every game, truncated and no-winner ones included, is one ranking of its
seats by return (higher is better, equal returns share a rank). An agent may hold several seats
of one game (the opponents in "model vs 3 random", or both sides of a self-play lineup), so each
seat is rated as its own team, every seat of an agent starting from the agent's current rating;
the agent's rating then moves by the mean of its seats' mu updates and takes the mean of their new
sigmas. A game therefore counts once for each agent however many seats it held; its seats that
beat each other push in opposite directions and cancel, and only how the agent fared against the
other agents remains. The games are rated in order (deal, then rotation), in the main process, so
the ratings are the same with any number of workers. The table gives mu, sigma, mu +/- 2 sigma
and openskill's ordinal mu - 3 sigma.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

Z95 = 1.959963984540054
# Student t 97.5% quantiles for 1..30 degrees of freedom (beyond: z + (z^3 + z) / (4 df)).
_T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
         2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
         2.045, 2.042]

RATING_METHOD = (
    "openskill PlackettLuce (default parameters), one rating per distinct agent; each game is a ranking of "
    "its seats by return (ties share a rank; truncated and no-winner games are all-tied); every seat is its own "
    "team starting from its agent's rating, and an agent moves by the mean of its seats' mu updates and takes "
    "the mean of their new sigmas; games rated in order of deal, then rotation"
)


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))  # exact at p = 0 and p = 1


def t975(df: int) -> float:
    if df < 1:
        return math.inf
    if df <= len(_T975):
        return _T975[df - 1]
    return Z95 + (Z95**3 + Z95) / (4 * df)


def mean_interval(values: Sequence[float]) -> tuple[float, float] | None:
    """95% t interval of the mean of independent values; None with fewer than two."""
    if len(values) < 2:
        return None
    arr = np.asarray(values, dtype=float)
    mean = float(arr.mean())
    half = t975(len(arr) - 1) * float(arr.std(ddof=1)) / math.sqrt(len(arr))
    return mean - half, mean + half


def rate(records: Sequence[dict[str, Any]], agents: Sequence[str]) -> dict[str, dict[str, float]]:
    """Each agent's openskill rating after the games of `records`, in order (see the module docstring)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {a: (model.rating().mu, model.rating().sigma) for a in agents}
    for rec in records:
        returns = rec["returns"]
        seats = rec["seats"]
        ranks = [1 + sum(other > r for other in returns) for r in returns]
        teams = [[model.rating(mu=ratings[a][0], sigma=ratings[a][1])] for a in seats]
        new = model.rate(teams, ranks=ranks)
        moves: dict[str, list[tuple[float, float]]] = {}
        for a, team in zip(seats, new):
            moves.setdefault(a, []).append((team[0].mu - ratings[a][0], team[0].sigma))
        for a, ups in moves.items():
            ratings[a] = (ratings[a][0] + sum(d for d, _ in ups) / len(ups), sum(s for _, s in ups) / len(ups))
    return {
        a: {"mu": mu, "sigma": sigma, "low": mu - 2 * sigma, "high": mu + 2 * sigma, "ordinal": mu - 3 * sigma}
        for a, (mu, sigma) in ratings.items()
    }


def summarise(
    records: Sequence[dict[str, Any]],
    lineup: Sequence[str],
    max_return: float,
    timing: dict[str, list[float]] | None = None,
    min_return: float | None = None,
) -> dict[str, Any]:
    """Per-agent statistics, ratings and game-level counts from the game records (a seat wins when
    its return is `max_return`; return intervals are clipped to [min_return, max_return])."""
    n = len(lineup)
    agents = list(dict.fromkeys(lineup))
    games = len(records)
    per: dict[str, dict[str, Any]] = {
        a: {"seats": 0, "wins": 0, "seat_games": [0] * n, "seat_wins": [0] * n, "outcome_wins": 0.0} for a in agents
    }
    by_deal: dict[str, dict[int, list[float]]] = {a: {} for a in agents}
    seat_wins = [0] * n
    no_winner = truncated = 0
    lengths: list[int] = []
    for rec in records:
        winners = [s for s, r in enumerate(rec["returns"]) if r == max_return]
        no_winner += not winners
        truncated += rec["truncated"]
        lengths.append(rec["decisions"])
        for s, (a, r) in enumerate(zip(rec["seats"], rec["returns"])):
            p = per[a]
            won = s in winners
            p["seats"] += 1
            p["wins"] += won
            p["seat_games"][s] += 1
            p["seat_wins"][s] += won
            p["outcome_wins"] += 1 / len(winners) if won else 0.0
            seat_wins[s] += won
            by_deal[a].setdefault(rec["deal"], []).append(r)
    ratings = rate(records, agents)
    out_agents: dict[str, Any] = {}
    for a in agents:
        p = per[a]
        deal_means = [float(np.mean(v)) for _, v in sorted(by_deal[a].items())]
        all_returns = [r for v in by_deal[a].values() for r in v]
        interval = mean_interval(deal_means)
        if interval is not None:
            low = interval[0] if min_return is None else max(min_return, interval[0])
            interval = (low, min(max_return, interval[1]))
        entry = {
            "seats": p["seats"],
            "games": sum(1 for rec in records if a in rec["seats"]),
            "wins": p["wins"],
            "win_share": p["wins"] / p["seats"] if p["seats"] else None,
            "win_share_ci": list(wilson(p["wins"], p["seats"])),
            "chance_win_share": 1 / n,
            "mean_return": float(np.mean(all_returns)) if all_returns else None,
            "mean_return_ci": list(interval) if interval else None,
            "seat_games": p["seat_games"],
            "seat_wins": p["seat_wins"],
            "outcome_share": p["outcome_wins"] / games if games else None,
            "rating": ratings[a],
        }
        if timing is not None:
            moves, seconds = timing.get(a, [0, 0.0])
            entry["timing"] = {
                "moves": int(moves),
                "seconds": seconds,
                "ms_per_move": 1000 * seconds / moves if moves else None,
            }
        out_agents[a] = entry
    return {
        "agents": out_agents,
        "games": games,
        "no_winner_games": no_winner,
        "truncated_games": truncated,
        "outcome_shares": {**{a: out_agents[a]["outcome_share"] for a in agents},
                           "nobody": no_winner / games if games else None},
        "seat_win_share": [w / games if games else None for w in seat_wins],
        "mean_length": float(np.mean(lengths)) if lengths else None,
    }
