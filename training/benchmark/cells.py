"""The training track's raw results: a run folder of cells, each one algorithm trained on one task with
one seed, and the validator that `d2r benchmark report` reads them through.

    OUT/run.json                                  what was asked: suite, tasks, entrants, budget, seeds
    OUT/cells/<entrant>/<task>/seed<k>/cell.json  one cell, written when the cell is done

A cell (schema "d2r-bench-cell/1"):
- `benchmark`, `version`, `entrant`, `task`, `seed`, `budget` ({"name", "decisions"});
- `curve`: one point per checkpoint, at the run's fractions of the budget, each the checkpoint's
  `decisions`, and its match against the heuristic lineup on the first `deals` deals of the task's deal
  list: `per_deal_wins` (one digit a deal), `win_share`, `score` and `score_ci`;
- `final`: the last checkpoint scored as `d2r benchmark eval` scores a model (results.task_entry: both
  lineups, the task's whole deal list): the number the results table reports;
- `compute`: learner `decisions`, `gradient_steps`, `train_seconds` (the warm start included),
  `eval_seconds`, the `machine` and its `reference_throughput` (the heuristic lineup's games a second, measured
  when the cell ran, so that seconds compare across machines); `train_cpu_seconds` and `eval_cpu_seconds`,
  the CPU time spent on each (the core-seconds, which other work on a shared machine does not inflate as it
  does the wall clock): the training's over every session it took, its checkpoints carrying it across a
  resume, with the warm start's; the evaluation's in the cell's process. Optional: `train_cpu_seconds` is
  left out where a training resumed from a checkpoint that does not record it;
- `model`: the final checkpoint's weights' SHA-256; `run`: command, date and versions;
- `subset`: null, or N when the final checkpoint was scored on the first N deals only (`--deals`: a
  quick look, such as a smoke run, that the report labels as not a benchmark result).

Every figure is recomputed from the per-deal wins and the shipped anchors; a cell that disagrees is
refused, as is a run folder missing a cell its run.json asks for.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from training.benchmark import results
from training.benchmark.score import task_score
from training.benchmark.tasks import BENCHMARK, VERSION, Task, load

RUN_SCHEMA = "d2r-bench-run/1"
CELL_SCHEMA = "d2r-bench-cell/1"
FRACTIONS = (0.25, 0.5, 0.75, 1.0)  # the checkpoints of a cell, as fractions of its budget


def cell_path(out: str | Path, entrant: str, task: str, seed: int) -> Path:
    return Path(out) / "cells" / entrant / task / f"seed{seed}" / "cell.json"


def curve_point(task: Task, fraction: float, decisions: int, per_deal_wins: list[int]) -> dict[str, Any]:
    """A checkpoint's point: its match against the heuristic lineup on the first len(per_deal_wins) deals."""
    w_random, w_heuristic = task.score_anchors()
    figures = task_score(per_deal_wins, task.num_players, w_random, w_heuristic)
    return {"fraction": fraction, "decisions": decisions, "deals": len(per_deal_wins),
            "per_deal_wins": "".join(map(str, per_deal_wins)), "win_share": figures["win_share"],
            "score": figures["score"], "score_ci": figures["score_ci"]}


def read_json(file: str | Path) -> dict[str, Any]:
    return results.read(file)


def _check_curve(task: Task, cell: dict[str, Any], fractions: list[float], problems: list[str]) -> None:
    curve = cell.get("curve")
    where = f"cell {cell.get('entrant')}/{task.id}/seed{cell.get('seed')}"
    if not isinstance(curve, list) or [p.get("fraction") if isinstance(p, dict) else None for p in curve] != fractions:
        problems.append(f"{where}: its curve must hold one point at each of the fractions {fractions}")
        return
    w_random, w_heuristic = task.score_anchors()
    for point in curve:
        deals = point.get("deals")
        if not isinstance(deals, int) or not 2 <= deals <= task.deals:
            problems.append(f"{where}: a curve point's deals {deals!r} is not from 2 to {task.deals}")
            continue
        wins = results.per_deal(point.get("per_deal_wins"), deals, task.num_players, where, problems)
        if wins is None:
            continue
        figures = task_score(wins, task.num_players, w_random, w_heuristic)
        for key in ("win_share", "score", "score_ci"):
            ok = results.close_pair if key.endswith("_ci") else results.close
            if not ok(point.get(key), figures[key]):
                problems.append(f"{where}: at fraction {point['fraction']}, {key} {point.get(key)!r} is not what its "
                                f"per-deal wins give ({figures[key]!r}): the figure was edited")


def _subset(run: dict[str, Any], task: Task) -> int | None:
    """The deals a run's cell of `task` is scored on when fewer than the task's (`--deals`), else None."""
    deals = run.get("subset")
    return deals if isinstance(deals, int) and deals < task.deals else None


def validate_cell(cell: dict[str, Any], run: dict[str, Any] | None = None) -> list[str]:
    """What is wrong with `cell` ([] when nothing is); with `run`, also what differs from the run's plan."""
    if cell.get("schema") != CELL_SCHEMA:
        return [f"schema {cell.get('schema')!r}: this validator reads {CELL_SCHEMA!r}"]
    if cell.get("benchmark") != BENCHMARK or cell.get("version") != VERSION:
        return [f"a cell of {cell.get('benchmark')} v{cell.get('version')}; this is {BENCHMARK} v{VERSION}"]
    bench = load()
    task = bench.tasks.get(cell.get("task"))  # type: ignore[arg-type]
    if task is None:
        return [f"task {cell.get('task')!r} is not in {BENCHMARK} v{VERSION}"]
    problems: list[str] = []
    where = f"cell {cell.get('entrant')}/{task.id}/seed{cell.get('seed')}"
    if run is not None:
        if cell.get("entrant") not in run["entrants"] or cell.get("seed") not in run["seeds"]:
            problems.append(f"{where}: not an entrant and seed the run asked for")
        if cell.get("budget") != run["budget"]:
            problems.append(f"{where}: budget {cell.get('budget')!r}; the run's is {run['budget']!r}")
    final = cell.get("final")
    if not isinstance(final, dict) or final.get("status") != "scored":
        problems.append(f"{where}: no scored final checkpoint")
    else:
        made = {"game": task.game, "num_players": task.num_players, "options": task.options, **task.pins()}
        for key, value in made.items():
            if final.get(key) != value:
                problems.append(f"{where}: {key} {final.get(key)!r}; {BENCHMARK} v{VERSION} has {value!r}")
        subset = cell.get("subset")
        if subset is not None and (not isinstance(subset, int) or not 2 <= subset < task.deals):
            problems.append(f"{where}: subset {subset!r} is not a count of deals from 2 to {task.deals - 1}")
        elif run is not None and subset != _subset(run, task):
            problems.append(f"{where}: subset {subset!r}; the run's is {_subset(run, task)!r}")
        else:
            results.check_scored(task, final, problems, subset)
    _check_curve(task, cell, list(run["fractions"]) if run else list(FRACTIONS), problems)
    compute = cell.get("compute")
    keys = ("decisions", "gradient_steps", "train_seconds", "eval_seconds", "machine", "reference_throughput")
    if not isinstance(compute, dict) or any(k not in compute for k in keys):
        problems.append(f"{where}: compute must record {', '.join(keys)}")
    return problems


def read_run(out: str | Path) -> tuple[dict[str, Any], dict[tuple[str, str, int], dict[str, Any]], list[str]]:
    """(run.json, the cells found by (entrant, task, seed), the problems): a missing or invalid cell, or a
    cell the run did not ask for, is a problem, named."""
    out = Path(out)
    run = read_json(out / "run.json")
    if run.get("schema") != RUN_SCHEMA:
        raise ValueError(f"{out / 'run.json'}: schema {run.get('schema')!r}; this reads {RUN_SCHEMA!r}")
    problems: list[str] = []
    cells = {}
    missing = []
    for entrant in run["entrants"]:
        for task in run["tasks"]:
            for seed in run["seeds"]:
                file = cell_path(out, entrant, task, seed)
                if not file.is_file():
                    missing.append(f"cell {entrant}/{task}/seed{seed} is missing ({file})")
                    continue
                cell = read_json(file)
                found = [f"{file}: {p}" for p in validate_cell(cell, run)]
                if (cell.get("entrant"), cell.get("task"), cell.get("seed")) != (entrant, task, seed):
                    found.append(f"{file}: holds cell {cell.get('entrant')}/{cell.get('task')}/seed{cell.get('seed')}")
                problems += found
                if not found:
                    cells[(entrant, task, seed)] = cell
    if len(missing) == 1:
        problems += missing
    elif missing:
        total = len(run["entrants"]) * len(run["tasks"]) * len(run["seeds"])
        problems.append(f"{missing[0]}, and {len(missing) - 1} more of the run's {total} cells; its command plays "
                        f"them, keeping the cells done: {run.get('command')}")
    return run, cells, problems


def write_json(data: dict[str, Any], file: str | Path) -> Path:
    return results.write(data, file)

