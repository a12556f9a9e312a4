"""The frozen reference ladder: each task's references rated once per benchmark version, and an entrant
rated against them without moving them.

    python -m training.benchmark.ladder --suite core --journal ladder.jsonl           # play (resumable)
    python -m training.benchmark.ladder --suite core --journal ladder.jsonl --write   # fit, write ladder.json

A task's references (`candidates`, frozen by its shipped ladder: `references`): random, the heuristic and
the game's variants of it, the shipped models trained for the task's count and options, and
information-set MCTS at 100 simulations a move.
Every pair meets once (`pairs`), the costlier one (later in that order) in one seat against the other in
every other seat, on the task's first deals, each deal once per rotation (matches.py); except that
ISMCTS, whose games take minutes (it rolls out to the end of the game at every simulation), meets only
random play and the heuristic (the two lineups every entrant meets), on fewer deals. ISMCTS at 1,000
simulations is not a reference: its games cost ten times as much, and at 100 it already loses to the
heuristic in most tasks.

The model, fitted by maximum likelihood over all the task's games at once (a batch fit, not updates in
order): a game is won by the one seat whose return is the game's maximum (a shared win counts for every
winner, as in the score); with strengths theta, the focal agent wins against n-1 copies of another
with probability sigmoid(theta_focal - theta_other - ln(n-1)), the chance that it takes the first place
of a Plackett-Luce ranking among those n. Each pair also gets one prior game, half won by each side, so
that a reference that never wins keeps a finite rating. Ratings are on the Elo scale (400 log10 of the
strength) with the heuristic pinned at 1000; their 95% intervals come from a bootstrap over each
match's deals, seeded by the task. An entrant is rated the same way from its
matches against references, with every reference's rating held where the ladder froze it.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from training.benchmark.tasks import Task, load, path

PIN, PIN_ELO = "heuristic", 1000.0
ELO = 400.0 / math.log(10.0)  # Elo points per unit of theta
PRIOR_GAMES = 1.0
BOOTSTRAP = 200
MCTS = ("mcts:100",)


def references(task: Task) -> list[str]:
    """The task's references: those its shipped ladder froze, so that a model shipped later leaves the
    ladder's ratings as they were; for a task with no ladder yet, `candidates`."""
    frozen = task_ladder(task.id)
    return list(frozen["references"]) if frozen is not None else candidates(task)


def candidates(task: Task) -> list[str]:
    """The references a new ladder of the task would take, cheapest first: random, the heuristics, the
    shipped models that can play the task, ISMCTS at 100 simulations."""
    from d2r_envs import opponents, registry
    from training.benchmark.entrant import load_entrant

    variants = registry.package(task.game).variants
    root = Path(opponents.__file__).resolve().parent.parent / "models" / task.game  # the shipped ones only
    shipped = sorted(f"{task.game}/{p.parent.name}" for p in root.glob(f"*/{opponents.MANIFEST_FILE}"))
    models = [m for m in shipped if load_entrant(str(root / m.split("/")[1])).cannot_play(task) is None]
    return ["random", "heuristic", *(f"heuristic:{v}" for v in variants), *models, *MCTS]


def pairs(refs: Sequence[str]) -> list[tuple[str, str]]:
    """(focal, lineup) for every pair that meets, the later (costlier) reference in the one seat: every
    pair of references, but ISMCTS only against random play and the heuristic."""
    meets = [(refs[j], refs[i]) for j in range(len(refs)) for i in range(j)]
    return [(f, l) for f, l in meets if f not in MCTS or l in ("random", "heuristic")]


# The fit ------------------------------------------------------------------------------------------


def _counts(matches: Sequence[Mapping[str, Any]], deals: np.ndarray | None) -> list[tuple[str, str, float, float]]:
    """(focal, lineup, focal's wins, its games) per match, over `deals` (indices, repeats allowed; None: all)."""
    out = []
    for m in matches:
        wins = np.frombuffer(m["per_deal_wins"].encode("ascii"), dtype=np.uint8) - ord("0")
        if deals is not None:
            wins = wins[deals]
        out.append((m["focal"], m["lineup"], float(wins.sum()), float(len(wins) * m["num_players"])))
    return out


def fit(matches: Sequence[Mapping[str, Any]], num_players: int, frozen: Mapping[str, float] | None = None,
        deals: np.ndarray | None = None) -> dict[str, float]:
    """Elo ratings of every agent in `matches` (each: focal, lineup, per_deal_wins, num_players). Agents
    in `frozen` keep their ratings and the others are fitted; without it the heuristic is pinned at 1000."""
    frozen = dict(frozen) if frozen else {PIN: PIN_ELO}
    counts = _counts(matches, deals)
    names = sorted({a for c in counts for a in c[:2]})
    free = [a for a in names if a not in frozen]
    if not free:
        return {a: frozen[a] for a in names}
    index = {a: i for i, a in enumerate(free)}
    offset = math.log(num_players - 1) if num_players > 2 else 0.0
    fixed = {a: (elo - PIN_ELO) / ELO for a, elo in frozen.items()}
    rows = []  # (focal's index or -1, lineup's index or -1, constant part of the logit, wins, games)
    for focal, lineup, wins, games in counts:
        const = -offset + (fixed.get(focal, 0.0) if focal not in index else 0.0) - (
            fixed.get(lineup, 0.0) if lineup not in index else 0.0)
        rows.append((index.get(focal, -1), index.get(lineup, -1), const, wins, games))
        rows.append((index.get(focal, -1), index.get(lineup, -1), const, PRIOR_GAMES / 2, PRIOR_GAMES))
    theta = np.zeros(len(free))
    for _ in range(100):  # Newton's method on a concave log-likelihood
        grad, hess = np.zeros(len(free)), np.zeros((len(free), len(free)))
        for f, l, const, wins, games in rows:
            x = const + (theta[f] if f >= 0 else 0.0) - (theta[l] if l >= 0 else 0.0)
            p = 1.0 / (1.0 + math.exp(-x))
            g, h = wins - games * p, games * p * (1 - p)
            for i, sign in ((f, 1.0), (l, -1.0)):
                if i >= 0:
                    grad[i] += sign * g
                    for j, sign2 in ((f, 1.0), (l, -1.0)):
                        if j >= 0:
                            hess[i, j] -= sign * sign2 * h
        step = np.linalg.solve(hess - 1e-9 * np.eye(len(free)), grad)
        theta -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    out = {a: frozen[a] for a in names if a in frozen}
    out.update({a: PIN_ELO + ELO * float(theta[index[a]]) for a in free})
    return out


def intervals(matches: Sequence[Mapping[str, Any]], num_players: int, seed: int,
              frozen: Mapping[str, float] | None = None) -> dict[str, list[float]]:
    """Each fitted rating's 95% interval: a bootstrap (BOOTSTRAP resamples, seeded by `seed`) that redraws
    each match's deals, with replacement, from that match's own deals."""
    rng = np.random.default_rng(seed)
    samples: dict[str, list[float]] = {}
    for _ in range(BOOTSTRAP):
        drawn = []
        for m in matches:
            wins = m["per_deal_wins"]
            drawn.append({**m, "per_deal_wins": "".join(wins[i] for i in rng.integers(0, len(wins), len(wins)))})
        for name, elo in fit(drawn, num_players, frozen).items():
            samples.setdefault(name, []).append(elo)
    return {name: [float(np.percentile(v, 2.5)), float(np.percentile(v, 97.5))] for name, v in samples.items()}


def _entrant(task: Task, ladder: Mapping[str, Any],
             matches: Mapping[str, Sequence[int] | str]) -> tuple[list[dict[str, Any]], dict[str, float]]:
    """The entrant's matches as ladder rows, in one order always, and the frozen ratings."""
    frozen = {name: r["elo"] for name, r in ladder["ratings"].items()}
    unknown = [ref for ref in matches if ref not in frozen]
    if unknown:
        raise ValueError(f"{unknown[0]} is not a reference of task {task.id}'s ladder; its references: "
                         f"{', '.join(frozen)}")
    rows = [{"focal": "entrant", "lineup": ref, "num_players": task.num_players,
             "per_deal_wins": "".join(map(str, matches[ref]))} for ref in sorted(matches)]
    return rows, frozen


def elo(task: Task, ladder: Mapping[str, Any], matches: Mapping[str, Sequence[int] | str]) -> float:
    """The entrant's rating alone (no interval): `rate`'s `elo` before rounding."""
    rows, frozen = _entrant(task, ladder, matches)
    return fit(rows, task.num_players, frozen)["entrant"]


def rate(task: Task, ladder: Mapping[str, Any], matches: Mapping[str, Sequence[int] | str]) -> dict[str, Any]:
    """An entrant's rating on the task's frozen ladder, from its per-deal wins against reference lineups
    (`matches`: reference -> wins per deal, the deals of each from the start of the task's list)."""
    rows, frozen = _entrant(task, ladder, matches)
    point = fit(rows, task.num_players, frozen)["entrant"]
    low, high = intervals(rows, task.num_players, task.seed, frozen)["entrant"]
    return {"elo": round(point, 1), "elo_ci": [round(low, 1), round(high, 1)], "against": sorted(matches)}


# The measurement ----------------------------------------------------------------------------------


def ladder_path() -> Path:
    return path().parent / "ladder.json"


def load_ladder() -> dict[str, Any]:
    """The shipped ladder of this benchmark version: {"deals": [without ISMCTS, with ISMCTS],
    "tasks": {task id: its references, ratings and matches}} (no tasks where none is shipped yet)."""
    file = ladder_path()
    return json.loads(file.read_text(encoding="utf-8")) if file.is_file() else {"deals": None, "tasks": {}}


def task_ladder(task_id: str) -> dict[str, Any] | None:
    """A task's shipped ladder, or None."""
    return load_ladder()["tasks"].get(task_id)


def entrant_deals(reference: str) -> int:
    """The deals an entrant plays against a reference's lineup to be rated: the ladder's for that kind."""
    return int(load_ladder()["deals"][_cost(reference)])


def _played(journal: Path) -> dict[tuple[str, str, str, int], dict[str, Any]]:
    if not journal.is_file():
        return {}
    rows = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines() if line.strip()]
    return {(r["task"], r["focal"], r["lineup"], len(r["per_deal_wins"])): r for r in rows}


def _cost(focal: str) -> int:
    """0 for a match of cheap references, 1 with ISMCTS in the seat."""
    return 1 if focal in MCTS else 0


def measure(tasks: Sequence[Task], deals: Sequence[int], journal: Path, workers: int = 1) -> None:
    """Play every pair of every task's references, each match appended to `journal` as it ends; matches
    already there are not played again. `deals`: the deals of a match without ISMCTS and with ISMCTS in
    the seat (the first deals of the task's list); the cheap matches of every task are played first."""
    from training.benchmark.matches import play_match

    todo = sorted(((_cost(f), i, task, f, l) for i, task in enumerate(tasks) for f, l in pairs(references(task))),
                  key=lambda t: t[:2])
    for cost, _, task, focal, lineup in todo:
        count = deals[cost]
        if (task.id, focal, lineup, count) in _played(journal):
            continue
        wins = play_match(task.game, task.num_players, task.options, task.seed, count, focal, lineup, workers)
        row = {"task": task.id, "focal": focal, "lineup": lineup, "num_players": task.num_players,
               "per_deal_wins": "".join(map(str, wins))}
        with open(journal, "a", encoding="utf-8") as f:
            f.write(json.dumps(row) + "\n")
        print(f"{task.id}: {focal} against {lineup}: {sum(wins)} wins of {count * task.num_players}", flush=True)


def ladder_of(task: Task, matches: list[dict[str, Any]]) -> dict[str, Any]:
    """A task's ladder entry: its references, matches, ratings and their intervals."""
    refs = references(task)
    ratings = fit(matches, task.num_players)
    spans = intervals(matches, task.num_players, task.seed)
    return {
        "references": refs,
        "ratings": {name: {"elo": round(ratings[name], 1),
                           "elo_ci": [round(x, 1) for x in spans.get(name, [PIN_ELO, PIN_ELO])]} for name in refs},
        "matches": [{"focal": m["focal"], "lineup": m["lineup"], "deals": len(m["per_deal_wins"]),
                     "per_deal_wins": m["per_deal_wins"]} for m in matches],
    }


def write(tasks: Sequence[Task], deals: Sequence[int], journal: Path) -> Path:
    """Fit the ladder of every task in `tasks` from `journal` into data/v<N>/ladder.json (the other tasks'
    entries are kept); ValueError naming a match not played yet."""
    played = _played(journal)
    ladder = load_ladder()
    if ladder["deals"] not in (None, list(deals)):
        raise ValueError(f"the shipped ladder was played on {ladder['deals']} deals, not {list(deals)}")
    ladder["deals"] = list(deals)
    for task in tasks:
        wanted = [(f, l, deals[_cost(f)]) for f, l in pairs(references(task))]
        missing = [w for w in wanted if (task.id, *w) not in played]
        if missing:
            raise ValueError(f"task {task.id}: {len(missing)} of its {len(wanted)} matches are not in {journal} "
                             f"(first: {missing[0][0]} against {missing[0][1]}); play them first")
        ladder["tasks"][task.id] = ladder_of(task, [played[(task.id, *w)] for w in wanted])
    file = ladder_path()
    file.write_text(json.dumps(ladder, indent=1) + "\n", encoding="utf-8")
    return file


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.benchmark.ladder", description=__doc__.splitlines()[0])
    p.add_argument("--suite", default="core")
    p.add_argument("--tasks", help="comma-separated task ids instead of the whole suite")
    p.add_argument("--deals", default="50,20", metavar="A,B",
                   help="deals of a match without ISMCTS and with ISMCTS (default 50,20)")
    p.add_argument("--journal", required=True, help="JSON lines: every match played, appended as it ends")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--write", action="store_true", help="fit the ratings from the journal into data/v<N>/ladder.json")
    args = p.parse_args(argv)
    bench = load()
    tasks = [bench.tasks[t] for t in args.tasks.split(",")] if args.tasks else bench.suite(args.suite)
    try:
        deals = [int(x) for x in args.deals.split(",")]
    except ValueError:
        deals = []
    if len(deals) != 2 or min(deals) < 2:
        p.error(f"--deals {args.deals}: two counts of at least 2, such as 50,20")
    if args.write:
        print(f"wrote {write(tasks, deals, Path(args.journal))}")
    else:
        measure(tasks, deals, Path(args.journal), args.workers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
