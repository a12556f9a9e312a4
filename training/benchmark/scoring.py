"""Scoring exported models on a suite: `d2r benchmark eval MODEL [MODEL ...] --suite core`.

Each task of the suite is played by the one model that can play it (training/benchmark/entrant.py; a
model plays one game, so several models cover several games), or recorded as not played with the
reason. A played task is two matches on the task's deals (training/benchmark/matches.py): the model in
one seat against the heuristic lineup, which gives the normalised score (training/benchmark/score.py),
and against the random lineup. The result (training/benchmark/results.py) is the same with any number
of workers.
"""

from __future__ import annotations

import datetime as _dt
import os
import platform
import time
from collections.abc import Sequence
from typing import Any

from training.benchmark import ladder
from training.benchmark.entrant import Entrant, load_entrant
from training.benchmark.matches import play_match
from training.benchmark.results import SCHEMA, task_entry
from training.benchmark.tasks import BENCHMARK, VERSION, Task, load


def assign(entrants: Sequence[Entrant], tasks: Sequence[Task]) -> dict[str, tuple[Entrant | None, str | None]]:
    """Each task's model, or None and why none plays it. ValueError when two models could play one task."""
    out: dict[str, tuple[Entrant | None, str | None]] = {}
    for task in tasks:
        able = [e for e in entrants if e.cannot_play(task) is None]
        if len(able) > 1:
            raise ValueError(f"task {task.id}: {' and '.join(e.name for e in able)} can both play it; "
                             "give one model per task")
        if able:
            out[task.id] = (able[0], None)
            continue
        mine = [e for e in entrants if e.game == task.game]
        reason = ("; ".join(f"{e.name}: {e.cannot_play(task)}" for e in mine) if mine
                  else f"no model for {task.game} given")
        out[task.id] = (None, reason)
    return out


def versions() -> dict[str, str]:
    from importlib import metadata

    import d2r_envs

    out = {"python": platform.python_version(), "d2r_envs": d2r_envs.__version__}
    for package in ("numpy", "openskill"):
        try:
            out[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            out[package] = "not installed"
    return out


def score_models(models: Sequence[str], suite: str = "core", deals: int | None = None, workers: int = 1,
                 progress: bool = False, command: str | None = None, against_ladder: bool = False,
                 ray_address: str | None = None) -> dict[str, Any]:
    """The result of scoring `models` (ids or folders) on every task of `suite`. `deals`: only the first
    `deals` of each task's deal list (a quick look, not a benchmark result). `against_ladder`: also
    against the lineup of every other reference of the task's shipped ladder, on the ladder's deals, for
    a rating on the ladder from all of them (ISMCTS lineups are slow). `ray_address`: the deals as Ray
    tasks (same result). ValueError (one line) for a model that cannot be loaded, a task whose game
    changed (StaleTask), a task with no ladder shipped when one is asked for, or bad counts."""
    if deals is not None and deals < 2:
        raise ValueError(f"--deals must be at least 2 (an interval needs two deals), got {deals}")
    if workers < 1:
        raise ValueError(f"--workers must be at least 1, got {workers}")
    if not models:
        raise ValueError("no model given")
    bench = load()
    tasks = bench.suite(suite)
    entrants = [load_entrant(m) for m in models]
    names = [e.name for e in entrants]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"model {twice[0]} given twice")
    playing = assign(entrants, tasks)
    for task in tasks:
        if playing[task.id][0] is not None:
            task.check_installed()  # refuses before anything is played
            if against_ladder and ladder.task_ladder(task.id) is None:
                raise ValueError(f"task {task.id}: {BENCHMARK} v{VERSION} ships no reference ladder for it yet; "
                                 "score without --ladder")
    started = time.perf_counter()
    entries = {}
    cut = False  # a task played on fewer deals than it has
    for task in tasks:
        entrant, reason = playing[task.id]
        if entrant is None:
            entries[task.id] = task_entry(task, None, reason=reason)
            continue
        count = task.deals if deals is None else min(deals, task.deals)
        cut |= count < task.deals
        lineups = {reference: count for reference in ("heuristic", "random")}
        if against_ladder:
            refs = ladder.task_ladder(task.id)["references"]  # type: ignore[index]
            lineups.update({ref: ladder.entrant_deals(ref) for ref in refs if ref not in lineups})
        per_deal = {
            reference: play_match(task.game, task.num_players, task.options, task.seed, n, entrant.agent,
                                  reference, workers, progress, ray_address)
            for reference, n in lineups.items()
        }
        entries[task.id] = task_entry(task, entrant.name, count=count, per_deal=per_deal)
    return {
        "schema": SCHEMA,
        "benchmark": BENCHMARK,
        "version": VERSION,
        "suite": suite,
        "subset": deals if cut else None,
        "entrants": [e.record() for e in entrants],
        "tasks": entries,
        "run": {
            "command": command or f"training.benchmark.scoring.score_models({list(models)!r}, {suite!r}, "
                                  f"deals={deals!r}, workers={workers}, against_ladder={against_ladder})",
            "ray": ray_address,
            "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
            "workers": workers,
            "wall_seconds": time.perf_counter() - started,
            "versions": versions(),
            "machine": f"{platform.machine()}, {platform.system()} {platform.release()}, "
                       f"{os.cpu_count()} CPUs",
        },
    }
