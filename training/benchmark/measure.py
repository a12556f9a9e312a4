"""Measuring a benchmark version's anchors and sizing its deal lists.

    python -m training.benchmark.measure --write                  # the shipped anchors and data/v1/README.md
    python -m training.benchmark.measure --suite core --deals 300 # a sizing run, nothing written

For each task, on its deals (or the first --deals of its deal list):
- random, then the heuristic, in one seat against the heuristic lineup: the anchors (wins, seat-games);
- the heuristic against the random lineup, which with the line above times an entrant as fast as the
  heuristic playing both of `d2r benchmark eval`'s matches;
- the game's shipped model, where it can play the task, against the heuristic lineup on at most
  --model-deals deals: an entrant near or above the heuristic that plays differently from it.

The sd of the per-deal normalised score (the per-deal win share over w_heuristic - w_random) of the
heuristic and of the model gives the deals a task needs for a 95% interval of +-0.02 on the score,
(1.96 sd / 0.02)^2 with the larger sd. The heuristic's own sd alone says little: where the heuristic is
deterministic, the heuristic lineup replays one game per deal and its sd is 0. A task ships the deals
it needs, rounded up to a hundred, where an entrant as fast as the heuristic plays them within
BUDGET_SECONDS on one core, else the hundreds that fit; the README gives the interval that leaves.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from d2r_envs.opponents import OpponentError, shipped_model
from training.benchmark.entrant import load_entrant
from training.benchmark.matches import play_match
from training.benchmark.tasks import BENCHMARK, VERSION, Task, load, path
from training.benchmark.track import machine

HALF_WIDTH = 0.02  # the interval asked of a task's score: +-0.02
BUDGET_SECONDS = 180.0  # an entrant as fast as the heuristic, both matches, one core
Z = 1.96


def digits(wins: list[int]) -> str:
    """Per-deal wins as a string of digits (a deal has at most 6 rotations)."""
    return "".join(str(w) for w in wins)


def deals_needed(sd: float) -> int:
    return max(1, math.ceil((Z * sd / HALF_WIDTH) ** 2))


def choose_deals(needed: int, seconds_per_deal: float) -> int:
    """The deals a task ships: what it needs, rounded up to a hundred, or the hundreds that fit the budget."""
    fits = max(100, int(BUDGET_SECONDS / seconds_per_deal) // 100 * 100)
    return min(-(-needed // 100) * 100, fits)


def _sd(values: list[float]) -> float:
    return statistics.stdev(values) if len(values) > 1 else 0.0


def measure_task(task: Task, deals: int, model_deals: int, workers: int) -> dict[str, Any]:
    n = task.num_players

    def match(entrant: str, reference: str, count: int) -> tuple[list[int], float]:
        start = time.perf_counter()
        wins = play_match(task.game, n, task.options, task.seed, count, entrant, reference, workers)
        return wins, time.perf_counter() - start

    random_wins, random_seconds = match("random", "heuristic", deals)
    heuristic_wins, heuristic_seconds = match("heuristic", "heuristic", deals)
    vs_random_wins, vs_random_seconds = match("heuristic", "random", deals)
    w_random, w_heuristic = sum(random_wins) / (deals * n), sum(heuristic_wins) / (deals * n)
    scale = w_heuristic - w_random
    row: dict[str, Any] = {
        "task": task.id,
        "deals": deals,
        "random": {"wins": sum(random_wins), "seat_games": deals * n, "per_deal": digits(random_wins)},
        "heuristic": {"wins": sum(heuristic_wins), "seat_games": deals * n, "per_deal": digits(heuristic_wins)},
        "heuristic_vs_random_lineup": sum(vs_random_wins) / (deals * n),
        "sd_score_heuristic": _sd([w / n / scale for w in heuristic_wins]),
        "seconds_per_deal": (heuristic_seconds + vs_random_seconds) / deals,
        "seconds": random_seconds + heuristic_seconds + vs_random_seconds,
    }
    sds = [row["sd_score_heuristic"]]
    try:
        model = load_entrant(shipped_model(task.game))
    except (OpponentError, ValueError):
        model = None
    if model is not None and model.cannot_play(task) is None:
        count = min(deals, model_deals)
        wins, seconds = match(model.agent, "heuristic", count)
        row["model"] = {"name": model.name, "deals": count, "win_share": sum(wins) / (count * n),
                        "sd_score": _sd([w / n / scale for w in wins])}
        row["seconds"] += seconds
        sds.append(row["model"]["sd_score"])
    row["needed"] = deals_needed(max(sds))
    row["chosen"] = choose_deals(row["needed"], row["seconds_per_deal"])
    row["half_width"] = Z * max(sds) / math.sqrt(task.deals)
    return row


README = """# d2r-bench v{version}: how the anchors and the deal counts were measured

`benchmark.json` holds the tasks, the suites and each task's anchors; `anchors.json` the anchors'
per-deal wins (one digit a deal: the reference's wins over the deal's rotations). Both were written by

    python -m training.benchmark.measure --write

which plays, on each task's shipped deals, random and the heuristic in one seat against the heuristic
lineup (the anchors), the heuristic against the random lineup, and the game's shipped model against the
heuristic lineup on at most {model_deals} deals. The games come out the same on any machine; the
seconds do not. It took {hours:.1f} hours of one core ({machine}).

How many deals. A task's score should carry a 95% interval of about +-{half:.2f}; with sd the standard
deviation of the per-deal score, that takes (1.96 sd / {half:.2f})^2 deals. sd is measured for the heuristic
(sd h) and for the shipped model (sd m), an entrant that plays differently from the heuristic; where the
heuristic is deterministic its sd is 0 (the heuristic lineup replays the same game in every rotation) and
only the model's says what an entrant faces. `needed` uses the larger. That many deals is more than this
machine plays in the minutes `d2r benchmark eval` may take per task for most tasks, so a task ships what
it needs (rounded up to a hundred) where an entrant as fast as the heuristic plays both matches within
{budget:.0f} s on one core (`s/deal` measured here), else the hundreds that fit; `+-` is the half-width
of the score's interval that the shipped deals give an entrant with sd m (or sd h).

| task | deals | w random | w heuristic | heuristic vs random lineup | sd h | sd m | model score | needed | +- | s/deal |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
{rows}

Tasks measured but in no suite:{excluded}

Columns: w = wins / seat-games against the heuristic lineup (a shared win counts for each winner, a
no-winner game for nobody, so w heuristic is not exactly 1/n); model score = the shipped model's
normalised score on its deals.
"""


def _table_row(row: dict[str, Any], task: Task, excluded: bool) -> str:
    w_r = row["random"]["wins"] / row["random"]["seat_games"]
    w_h = row["heuristic"]["wins"] / row["heuristic"]["seat_games"]
    model = row.get("model")
    sd_m = f"{model['sd_score']:.2f}" if model else "n/a"
    score = f"{(model['win_share'] - w_r) / (w_h - w_r):.2f} ({model['name']})" if model else "n/a"
    name = f"{task.id} (in no suite)" if excluded else task.id
    return (f"| {name} | {task.deals} | {w_r:.4f} | {w_h:.4f} | {row['heuristic_vs_random_lineup']:.3f} "
            f"| {row['sd_score_heuristic']:.2f} | {sd_m} | {score} | {row['needed']} | {row['half_width']:.3f} "
            f"| {row['seconds_per_deal']:.3f} |")


def write(rows: list[dict[str, Any]], model_deals: int) -> None:
    """The anchors into benchmark.json and anchors.json, the table into README.md (beside them)."""
    bench = load()
    measured = [row["task"] for row in rows]
    if sorted(measured) != sorted(bench.tasks):
        missing = sorted(set(bench.tasks) - set(measured)) or sorted({t for t in measured if measured.count(t) > 1})
        raise ValueError(f"the measurements do not hold every task once ({', '.join(missing)}): nothing written")
    rows = sorted(rows, key=lambda row: list(bench.tasks).index(row["task"]))
    file = path(VERSION)
    data = json.loads(file.read_text(encoding="utf-8"))
    per_deal = {}
    for row in rows:
        task = bench.tasks[row["task"]]
        if row["deals"] != task.deals:
            raise ValueError(f"{task.id}: measured on {row['deals']} deals, the task has {task.deals}: not written")
        data["tasks"][task.id]["anchors"] = {
            name: {"wins": row[name]["wins"], "seat_games": row[name]["seat_games"]} for name in ("random", "heuristic")
        }
        per_deal[task.id] = {name: row[name]["per_deal"] for name in ("random", "heuristic")}
    file.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    (file.parent / "anchors.json").write_text(json.dumps(per_deal, indent=1) + "\n", encoding="utf-8")
    table = "\n".join(_table_row(row, bench.tasks[row["task"]], row["task"] in bench.excluded) for row in rows)
    excluded = "".join(f"\n- {task_id}: {why}." for task_id, why in bench.excluded.items())
    hours = sum(row["seconds"] for row in rows) / 3600
    (file.parent / "README.md").write_text(README.format(
        version=VERSION, model_deals=model_deals, half=HALF_WIDTH, budget=BUDGET_SECONDS, rows=table, hours=hours,
        excluded=excluded or " none.", machine=machine()), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.benchmark.measure", description=__doc__.splitlines()[0])
    p.add_argument("--suite", default="full", help="the suite whose tasks are measured (default full)")
    p.add_argument("--tasks", help="comma-separated task ids instead of a whole suite")
    p.add_argument("--deals", type=int, help="the first DEALS of each task's deal list (default: all of them)")
    p.add_argument("--model-deals", type=int, default=300, help="deals the shipped model plays (default 300)")
    p.add_argument("--workers", type=int, default=1, help="processes over deals (default 1)")
    p.add_argument("--log", help="append each task's measurement to this JSON-lines file as it ends")
    p.add_argument("--write", action="store_true", help="write the anchors and data/v1/README.md")
    p.add_argument("--from-log", metavar="FILE", help="with --write: the measurements of an earlier --log, replayed "
                   "from the file instead of played again")
    args = p.parse_args(argv)
    bench = load()
    if args.write and (args.deals is not None or args.tasks or args.suite != "full"):
        p.error("--write measures every task on its shipped deals: give neither --deals, --tasks nor --suite")
    if args.tasks:
        unknown = [t for t in args.tasks.split(",") if t not in bench.tasks]
        if unknown:
            p.error(f"no task {unknown[0]}; the tasks: {', '.join(bench.tasks)}")
        tasks = [bench.tasks[t] for t in args.tasks.split(",")]
    else:  # --write: the tasks no suite holds too, so their numbers say why
        tasks = list(bench.tasks.values()) if args.write else bench.suite(args.suite)
    if args.from_log:
        if not args.write:
            p.error("--from-log goes with --write")
        rows = [json.loads(line) for line in Path(args.from_log).read_text(encoding="utf-8").splitlines() if line]
        write(rows, args.model_deals)
        return 0
    rows = []
    for task in tasks:
        row = measure_task(task, args.deals or task.deals, args.model_deals, args.workers)
        rows.append(row)
        print(json.dumps({k: v for k, v in row.items() if k not in ("random", "heuristic")}), flush=True)
        if args.log:
            with open(args.log, "a", encoding="utf-8") as f:
                f.write(json.dumps(row) + "\n")
    if args.write:
        write(rows, args.model_deals)
        print(f"wrote the anchors of {BENCHMARK} v{VERSION} and its README into {path(VERSION).parent}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
