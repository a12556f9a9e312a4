"""The training track's report: `d2r benchmark report RUN [RUN ...] --out OUT [--reference FILE ...]`.

Reads run folders (training/benchmark/cells.py: every cell a run asked for, each validated; a run with a
problem is refused, every problem named) and, optionally, `d2r benchmark eval` result files as
references (a frozen or shipped model scored once: one run per task). Per entrant, the matrix of final
scores [seeds x tasks] is aggregated with rliable: IQM, mean, median and optimality gap (to 1, the
heuristic), performance profiles, the probability of improvement of every ordered pair of entrants and
the IQM of the curve points' scores at each fraction of the budget, each with a 95% stratified bootstrap
interval (resampling the seeds within each task, percentile intervals, REPS replications).

rliable 1.2.0's bootstraps draw their resamples from numpy's global generator whatever `random_state`
they are given, so the report runs rliable's own bootstrap classes with each one's generator instead:
every estimate gets a fresh `np.random.default_rng([SEED, crc32(its name)])`. The same inputs give
byte-identical files, and an entrant's numbers do not depend on which other entrants are in the report.

Writes OUT/results.md, OUT/results.json (the same numbers, 3 decimals) and the figures OUT/aggregate.svg,
profiles.svg, improvement.svg and curves.svg. rliable, arch and matplotlib come with the `benchmark` extra
and are imported only when a report is built.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import numpy as np

from d2r_envs.core.words import plural
from training.benchmark import cells, results
from training.benchmark.tasks import BENCHMARK, VERSION

SCHEMA = "d2r-bench-report/1"
REPS = 2000  # bootstrap replications of each interval: a report takes seconds
SEED = 20250101  # the bootstraps' seed, with each estimate's name
CONFIDENCE = 0.95
DIGITS = 3
MERGED_KEYS = ("benchmark", "version", "suite", "tasks", "budget", "fractions", "subset")
FILES = ("results.md", "results.json", "aggregate.svg", "profiles.svg", "improvement.svg", "curves.svg")
METRICS = (("iqm", "IQM"), ("mean", "mean"), ("median", "median"), ("optimality_gap", "optimality gap"))
INSTALL = "pip install 'd2r_envs[benchmark]'"


class Refused(ValueError):
    """Inputs the report cannot be made from; `problems` lists them, one line each."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("cannot report: " + "; ".join(problems))
        self.problems = problems


# Reading the inputs ------------------------------------------------------------------------------


def _read_runs(run_dirs: Sequence[Path], problems: list[str]) -> list[tuple[Path, dict[str, Any], dict]]:
    """Each run folder's plan and cells; the runs' problems added to `problems`."""
    runs = []
    twice = sorted({str(f) for f in run_dirs if run_dirs.count(f) > 1})
    if twice:
        problems.append(f"run folder(s) {', '.join(twice)} given twice")
        return runs
    for folder in run_dirs:
        try:
            run, found, wrong = cells.read_run(folder)
        except ValueError as e:
            problems.append(str(e))
            continue
        except (KeyError, TypeError) as e:
            problems.append(f"{Path(folder) / 'run.json'}: not a run plan ({type(e).__name__}: {e})")
            continue
        problems += wrong
        if run.get("benchmark") != BENCHMARK or run.get("version") != VERSION:
            problems.append(f"{folder}: a run of {run.get('benchmark')} v{run.get('version')}; "
                            f"this is {BENCHMARK} v{VERSION}")
        if not run["entrants"] or not run["tasks"] or not run["seeds"]:
            problems.append(f"{folder}: its run.json asks for no cell (entrants, tasks or seeds empty)")
        runs.append((Path(folder), run, found))
    if runs:
        first, plan, _ = runs[0]
        owner: dict[str, Path] = {}
        for folder, run, _ in runs:
            for key in MERGED_KEYS:
                if run.get(key) != plan.get(key):
                    problems.append(f"{folder}: {key} {run.get(key)!r} differs from {first}'s {plan.get(key)!r}: "
                                    "runs are merged only when they share benchmark version, suite, tasks, "
                                    "budget, fractions and subset")
            for name in run["entrants"]:
                if name in owner:
                    problems.append(f"entrant {name} is in both {owner[name]} and {folder}: give each entrant once")
                owner.setdefault(name, folder)
    return runs


def _read_references(files: Sequence[Path], tasks: list[str], taken: set[str],
                     problems: list[str]) -> list[dict[str, Any]]:
    refs = []
    for file in files:
        file = Path(file)
        try:
            result = results.read(file)
        except ValueError as e:
            problems.append(str(e))
            continue
        wrong = results.validate(result)
        if wrong:
            problems += [f"{file}: {p}" for p in wrong]
            continue
        entries = result["tasks"]
        unplayed = [t for t in tasks if entries.get(t, {}).get("status") != "scored"]
        if unplayed:
            problems.append(f"{file}: task(s) {', '.join(unplayed)} not scored: a reference must score every "
                            "task of the report")
            continue
        label = file.stem
        if label in taken:
            problems.append(f"{file}: its label {label} (the file's name) is taken by another entrant or reference")
            continue
        taken.add(label)
        refs.append({"file": str(file), "label": label,
                     "models": list(dict.fromkeys(entries[t]["entrant"] for t in tasks)),
                     "command": (result.get("run") or {}).get("command"),
                     "scores": [entries[t]["score"] for t in tasks]})
    return refs


# The bootstrap -----------------------------------------------------------------------------------


def _generator(name: str) -> np.random.Generator:
    return np.random.default_rng([SEED, zlib.crc32(name.encode("utf-8"))])


def _bootstraps(rly: Any) -> tuple[type, type]:
    """rliable's stratified bootstraps, their resamples drawn from the bootstrap's own generator."""

    class Stratified(rly.StratifiedBootstrap):
        def update_indices(self) -> tuple[np.ndarray, ...]:  # runs resampled within each task
            return (self.generator.integers(0, self._num_items, self._args_shape), *self._strata_indices)

    class StratifiedIndependent(rly.StratifiedIndependentBootstrap):
        def _get_indices(self, num_runs: int, array_shape: tuple[int, ...],
                         strata_indices: list[np.ndarray]) -> tuple[np.ndarray, ...]:
            return (self.generator.integers(0, num_runs, array_shape), *strata_indices)

    return Stratified, StratifiedIndependent


def _interval(bootstrap: type, name: str, func: Any, *scores: np.ndarray) -> np.ndarray:
    """The 95% percentile interval [2 x ...] of func(*scores) by `bootstrap`, seeded by `name`."""
    return bootstrap(*scores, seed=_generator(name)).conf_int(func, reps=REPS, size=CONFIDENCE, method="percentile")


def iqm(scores: np.ndarray, axis: int | None = None) -> np.ndarray:
    """metrics.aggregate_iqm, scipy.stats.trim_mean(scores, 0.25): the same steps and so the same number,
    without scipy's argument handling, which a bootstrap would pay for thousands of times. `axis` 0: the
    IQM of each column (the same up to the order of summation)."""
    if axis is None:
        scores = scores.ravel()
    n = scores.shape[0]
    low, high = int(0.25 * n), n - int(0.25 * n)
    return np.mean(np.partition(scores, (low, high - 1), 0)[low:high], axis=0)


def improvement(x: np.ndarray, y: np.ndarray) -> float:
    """rliable's probability of improvement, P(X > Y) + P(X = Y)/2 per task averaged over tasks, counted
    directly instead of by scipy's Mann-Whitney test (the same number, fast enough to bootstrap)."""
    pairs = x[:, None, :] - y[None, :, :]
    return float(np.mean(np.mean(pairs > 0, axis=(0, 1)) + 0.5 * np.mean(pairs == 0, axis=(0, 1))))


def _taus(scores: list[np.ndarray]) -> np.ndarray:
    """101 thresholds from min(0, the lowest score) to max(1.2, the highest + 0.1), ends on tenths."""
    every = np.concatenate([s.ravel() for s in scores])
    low = min(0.0, np.floor(every.min() * 10) / 10)
    high = max(1.2, np.ceil(every.max() * 10) / 10 + 0.1)
    return np.round(np.linspace(low, high, 101), 6)


# The numbers -------------------------------------------------------------------------------------


def _r(x: Any) -> Any:
    """Rounded to DIGITS (arrays as lists), -0.0 as 0.0: float noise across machines does not show."""
    if isinstance(x, np.ndarray) or isinstance(x, (list, tuple)):
        return [_r(v) for v in x]
    return round(float(x), DIGITS) + 0.0


def _with_ci(value: Any, ci: Any) -> dict[str, Any]:
    return {"value": _r(value), "ci": [_r(ci[0]), _r(ci[1])]}


def _compute(entrant_cells: list[dict[str, Any]]) -> dict[str, Any]:
    computes = [c["compute"] for c in entrant_cells]
    throughput = [float(c["reference_throughput"]) for c in computes]
    return {
        "cells": len(computes),
        "decisions": int(sum(c["decisions"] for c in computes)),
        "gradient_steps": int(sum(c["gradient_steps"] for c in computes)),
        "train_hours": _r(sum(c["train_seconds"] for c in computes) / 3600),
        "eval_hours": _r(sum(c["eval_seconds"] for c in computes) / 3600),
        # CPU time, where every cell recorded it (None otherwise: a sum over some cells would mislead)
        "cpu_hours": (_r(sum(c["train_cpu_seconds"] + c["eval_cpu_seconds"] for c in computes) / 3600)
                      if all("train_cpu_seconds" in c and "eval_cpu_seconds" in c for c in computes) else None),
        "machines": sorted({str(c["machine"]) for c in computes}),
        "reference_throughput": [round(min(throughput), 1), round(max(throughput), 1)],
    }


def _numbers(runs: list, refs: list[dict[str, Any]], rly: Any, metrics: Any) -> dict[str, Any]:
    """Everything the report shows, rounded: results.json less how it was made."""
    plan = runs[0][1]
    tasks, fractions, budget = list(plan["tasks"]), list(plan["fractions"]), plan["budget"]
    entrants: dict[str, dict[str, Any]] = {}
    finals: dict[str, np.ndarray] = {}  # entrant -> [runs x tasks]
    curves: dict[str, np.ndarray] = {}  # entrant -> [runs x tasks x fractions]
    compute = {}
    curve_deals: set[int] = set()
    subsets: set[int] = set()  # the first deals the final checkpoints were scored on, when not all of them
    for folder, run, found in runs:
        for name, description in run["entrants"].items():
            seeds = list(run["seeds"])
            mine = [[found[(name, t, s)] for t in tasks] for s in seeds]
            finals[name] = np.array([[c["final"]["score"] for c in row] for row in mine], dtype=float)
            curves[name] = np.array([[[p["score"] for p in c["curve"]] for c in row] for row in mine], dtype=float)
            curve_deals |= {p["deals"] for row in mine for c in row for p in c["curve"]}
            subsets |= {c["subset"] for row in mine for c in row if c.get("subset") is not None}
            compute[name] = _compute([c for row in mine for c in row])
            entrants[name] = {"kind": "trained", "description": description, "run": str(folder), "seeds": seeds}
    for ref in refs:
        finals[ref["label"]] = np.array([ref["scores"]], dtype=float)
        entrants[ref["label"]] = {"kind": "reference", "file": ref["file"], "models": ref["models"],
                                  "command": ref["command"]}
    stratified, independent = _bootstraps(rly)
    taus = _taus(list(finals.values()))

    # Each estimate: rliable's metric on the data, its interval from the bootstrap of the same metric.
    def aggregates(scores: np.ndarray) -> np.ndarray:
        return np.array([iqm(scores), metrics.aggregate_mean(scores), metrics.aggregate_median(scores),
                         metrics.aggregate_optimality_gap(scores, 1)])

    def profile(scores: np.ndarray) -> np.ndarray:  # rliable's score distribution: runs with score > tau
        return np.mean(scores.reshape(-1, 1) > taus, axis=0)

    def curve(scores: np.ndarray) -> np.ndarray:
        return iqm(scores.reshape(-1, scores.shape[-1]), axis=0)

    per_task, aggregate, profiles, sample = {}, {}, {}, {}
    for name, scores in finals.items():
        per_task[name] = {t: {"mean": _r(scores[:, j].mean()), "min": _r(scores[:, j].min()),
                              "max": _r(scores[:, j].max()), "runs": int(scores.shape[0])}
                          for j, t in enumerate(tasks)}
        point = [metrics.aggregate_iqm(scores), metrics.aggregate_mean(scores), metrics.aggregate_median(scores),
                 metrics.aggregate_optimality_gap(scores, 1)]
        ci = _interval(stratified, f"aggregate:{name}", aggregates, scores)
        aggregate[name] = {key: _with_ci(point[k], ci[:, k]) for k, (key, _) in enumerate(METRICS)}
        point = rly.score_distributions(scores, taus)
        ci = _interval(stratified, f"profile:{name}", profile, scores)
        profiles[name] = {"fraction": _r(point), "ci": [_r(ci[0]), _r(ci[1])]}
    for name, scores in curves.items():
        point = [metrics.aggregate_iqm(scores[..., j]) for j in range(len(fractions))]
        ci = _interval(stratified, f"curve:{name}", curve, scores)
        sample[name] = {"iqm": _r(point), "ci": [_r(ci[0]), _r(ci[1])]}
    ladders = _ladder_ratings(runs, tasks)
    pairs = []
    for x in finals:
        for y in finals:
            if x != y:
                point = metrics.probability_of_improvement(finals[x], finals[y])
                ci = _interval(independent, f"improvement:{x}:{y}", lambda a, b: np.array([improvement(a, b)]),
                               finals[x], finals[y])
                pairs.append({"x": x, "y": y, **_with_ci(point, ci[:, 0])})
    return {
        "schema": SCHEMA, "benchmark": BENCHMARK, "version": VERSION, "suite": plan["suite"], "budget": budget,
        "tasks": tasks, "fractions": fractions, "subset": sorted(subsets) or None,
        "entrants": entrants,
        "per_task": per_task,
        "aggregate": aggregate,
        "improvement": pairs,
        "profiles": {"tau": [float(t) for t in taus], "entrants": profiles},
        "curves": {"decisions": [int(round(f * budget["decisions"])) for f in fractions],
                   "deals": sorted(curve_deals), "entrants": sample},
        "compute": compute,
        "ladder": ladders,
        "references": _references(tasks),
    }


def _ladder_ratings(runs: list, tasks: list[str]) -> dict[str, dict[str, Any]]:
    """Each trained entrant's rating on each task's frozen reference ladder, where the benchmark ships one:
    worked out from its final checkpoints' per-deal wins against the reference lineups (mean, lowest
    and highest over seeds)."""
    from training.benchmark import ladder
    from training.benchmark.tasks import load

    bench = load()
    shipped = {t: ladder.task_ladder(t) for t in tasks}
    out: dict[str, dict[str, Any]] = {}
    for _, run, found in runs:
        for name in run["entrants"]:
            for t in tasks:
                if shipped[t] is None:
                    continue
                elos = [ladder.elo(bench.tasks[t], shipped[t], {ref: m["per_deal_wins"] for ref, m in
                                                                 found[(name, t, s)]["final"]["vs"].items()})
                        for s in run["seeds"]]
                out.setdefault(name, {})[t] = {"mean": round(float(np.mean(elos)), 1), "min": round(min(elos), 1),
                                               "max": round(max(elos), 1)}
    return out


def _references(tasks: list[str]) -> dict[str, dict[str, Any]]:
    """Each task's frozen references as its shipped ladder rates them, with the score against the heuristic
    lineup of each one that met it there (on the ladder's first deals of the task; random play is 0 and
    the heuristic 1 by the score's definition)."""
    from training.benchmark import ladder
    from training.benchmark.score import task_score
    from training.benchmark.tasks import load

    bench = load()
    out: dict[str, dict[str, Any]] = {}
    for t in tasks:
        shipped = ladder.task_ladder(t)
        if shipped is None:
            continue
        task = bench.tasks[t]
        w_random, w_heuristic = task.score_anchors()
        against = {m["focal"]: [int(c) for c in m["per_deal_wins"]] for m in shipped["matches"]
                   if m["lineup"] == "heuristic"}
        rows: dict[str, Any] = {}
        for ref in shipped["references"]:
            rating = shipped["ratings"][ref]
            row: dict[str, Any] = {"elo": rating["elo"], "elo_ci": rating["elo_ci"]}
            if ref in against:
                figures = task_score(against[ref], task.num_players, w_random, w_heuristic)
                row |= {"score": _r(figures["score"]), "score_ci": _r(figures["score_ci"]), "deals": len(against[ref])}
            rows[ref] = row
        out[t] = rows
    return out


# results.md --------------------------------------------------------------------------------------


def _f(x: float) -> str:
    return f"{x:.{DIGITS}f}"


def _ci(v: dict[str, Any]) -> str:
    return f"{_f(v['value'])} ({_f(v['ci'][0])} to {_f(v['ci'][1])})"


def _label(name: str, data: dict[str, Any]) -> str:
    return f"{name} (reference)" if data["entrants"][name]["kind"] == "reference" else name


def _describe(description: Any) -> str:
    """run.json's word on an entrant: its record (algorithm, config, ...) or a line."""
    if not isinstance(description, dict):
        return str(description)
    parts = []
    for key, value in description.items():
        if value in (None, "", [], {}):
            continue
        shown = json.dumps(value) if isinstance(value, (dict, list)) else value
        parts.append(str(value) if key == "algorithm" else f"{key} `{shown}`")
    return "; ".join(parts)


def to_markdown(data: dict[str, Any]) -> str:
    names = list(data["entrants"])
    budget = data["budget"]
    made = data["made"]
    lines = [f"# {data['benchmark']} v{data['version']}, suite {data['suite']}, budget {budget['name']} "
             f"({budget['decisions']:,} learner decisions): {', '.join(_label(n, data) for n in names)}", ""]
    if data["subset"]:
        lines += [f"**Not a benchmark result: the final checkpoints were scored on the first "
                  f"{' or '.join(map(str, data['subset']))} deals of a task only (--deals), a quick look.**", ""]
    lines += ["A score of 1 is the heuristic, 0 is random play (the win share against the heuristic lineup on the "
             "task's shipped deals, mapped by the task's anchors).", "", "## Entrants", ""]
    for name, e in data["entrants"].items():
        if e["kind"] == "trained":
            lines.append(f"- {name}: {_describe(e['description'])} ({plural(len(e['seeds']), 'seed')}, run `{e['run']}`)")
        else:
            lines.append(f"- {name} (reference): {', '.join(e['models'])}, scored once by `d2r benchmark eval` "
                         f"({e['file']})")
    lines += ["", "## Final score per task", "",
              "Mean over seeds (lowest to highest); a reference's one score.", "",
              "| task | " + " | ".join(_label(n, data) for n in names) + " |",
              "|---|" + "---:|" * len(names)]
    for task in data["tasks"]:
        row = []
        for name in names:
            v = data["per_task"][name][task]
            row.append(_f(v["mean"]) if v["runs"] == 1 else f"{_f(v['mean'])} ({_f(v['min'])} to {_f(v['max'])})")
        lines.append(f"| {task} | " + " | ".join(row) + " |")
    lines += ["", f"## Aggregate score ({made['confidence']:.0%} stratified bootstrap intervals)", "",
              "| entrant | runs | " + " | ".join(label for _, label in METRICS) + " |",
              "|---|---:|" + "---:|" * len(METRICS)]
    for name in names:
        runs = sum(v["runs"] for v in data["per_task"][name].values())
        lines.append(f"| {_label(name, data)} | {runs} | "
                     + " | ".join(_ci(data["aggregate"][name][key]) for key, _ in METRICS) + " |")
    lines += ["", "IQM: the mean of the middle half of all runs' scores (runs x tasks); optimality gap: how far the "
              "scores fall short of 1 (the heuristic) on average, scores above 1 counted as 1 (lower is better).", "",
              "![aggregate scores](aggregate.svg)", "", "## Performance profiles", "",
              "The fraction of runs (seeds x tasks) with a final score above each threshold, with bootstrap bands.", "",
              "![performance profiles](profiles.svg)", "", "## Probability of improvement", ""]
    if data["improvement"]:
        lines += ["P(X > Y): the probability that a run of X on a task scores above a run of Y on it (ties count "
                  "half), averaged over the tasks.", "", "| X | Y | P(X > Y) |", "|---|---|---:|"]
        lines += [f"| {_label(p['x'], data)} | {_label(p['y'], data)} | {_ci(p)} |" for p in data["improvement"]]
        lines += ["", "![probability of improvement](improvement.svg)"]
    else:
        lines.append("One entrant: nothing to compare.")
    curves = data["curves"]
    deals = ", ".join(map(str, curves["deals"]))
    lines += ["", "## Sample efficiency", "",
              f"IQM of the checkpoints' scores at each fraction of the budget; a checkpoint is scored on the first "
              f"{deals} deals of the task's deal list, so its score is noisier than the final one.", "",
              "| entrant | " + " | ".join(f"{f:.0%} ({d:,})" for f, d in zip(data["fractions"], curves["decisions"]))
              + " |", "|---|" + "---:|" * len(data["fractions"])]
    for name, c in curves["entrants"].items():
        lines.append(f"| {name} | " + " | ".join(_ci({"value": v, "ci": [lo, hi]})
                                                  for v, lo, hi in zip(c["iqm"], *c["ci"])) + " |")
    lines += ["", "![sample efficiency](curves.svg)"]
    if data["ladder"]:
        rated = [n for n in names if n in data["ladder"]]
        lines += ["", "## Ratings on the frozen reference ladder", "",
                  "Elo on each task's ladder (the heuristic pinned at 1000), from the final checkpoints' games against "
                  "the reference lineups, with the references held where the benchmark froze them: mean over seeds "
                  "(lowest to highest).", "",
                  "| task | " + " | ".join(rated) + " |", "|---|" + "---:|" * len(rated)]
        for task in data["tasks"]:
            row = [data["ladder"][n].get(task) for n in rated]
            if any(c is not None for c in row):
                lines.append(f"| {task} | " + " | ".join(
                    "" if c is None else f"{c['mean']:.0f} ({c['min']:.0f} to {c['max']:.0f})" for c in row) + " |")
    if data["references"]:
        lines += ["", "## The frozen references", "",
                  "Each task's references as its shipped ladder rates them (Elo, the heuristic pinned at 1000, with its "
                  "95% interval), and the score against the heuristic lineup of each one that met it on the ladder's "
                  "first deals of the task (random play is 0 and the heuristic 1 by definition).", "",
                  "| task | reference | Elo | score against the heuristic lineup | deals |", "|---|---|---:|---:|---:|"]
        for task, rows in data["references"].items():
            for ref, r in rows.items():
                elo = f"{r['elo']:.0f} ({r['elo_ci'][0]:.0f} to {r['elo_ci'][1]:.0f})"
                score = _ci({"value": r["score"], "ci": r["score_ci"]}) if "score" in r else ""
                lines.append(f"| {task} | {ref} | {elo} | {score} | {r.get('deals', '')} |")
    lines += ["", "## Compute", "",
              "Summed over the entrant's cells: train and eval hours of wall clock, CPU hours the cells' processes "
              "spent (training and evaluation together: the core-hours, which other work on a shared machine does "
              "not inflate as it does the wall clock; blank where a cell did not record it); reference throughput: "
              "games a second of the heuristic in every seat (Drags 2 Riches, 4 players, one core), measured on the "
              "machine when each cell ran (lowest to highest), to compare the hours across machines.", "",
              "| entrant | cells | learner decisions | gradient steps | train hours | eval hours | CPU hours | machines "
              "| reference throughput |", "|---|---:|---:|---:|---:|---:|---:|---|---:|"]
    for name, c in data["compute"].items():
        low, high = c["reference_throughput"]
        throughput = f"{low:,.0f}" if low == high else f"{low:,.0f} to {high:,.0f}"
        lines.append(f"| {name} | {c['cells']} | {c['decisions']:,} | {c['gradient_steps']:,} | "
                     f"{_f(c['train_hours'])} | {_f(c['eval_hours'])} | "
                     f"{'' if c.get('cpu_hours') is None else _f(c['cpu_hours'])} | {'; '.join(c['machines'])} "
                     f"| {throughput} |")
    lines += ["", "## How this report was made", "", f"    {made['command']}", ""]
    for run in made["runs"]:
        lines.append(f"- run {run['folder']}: `{run['command']}`")
    for name, e in data["entrants"].items():
        if e["kind"] == "reference":
            lines.append(f"- reference {e['file']}: `{e['command']}`")
    lines += [f"- rliable {made['rliable']}: stratified bootstrap over the seeds within each task, percentile "
              f"intervals, {made['reps']} replications, each estimate's generator seeded from {made['seed']} and "
              "the estimate's name.",
              f"- matplotlib {made['matplotlib']} drew the figures (the `benchmark` extra pins it, so that they "
              "come out the same byte for byte).",
              "- Every cell the runs asked for is here and was validated (its figures recomputed from its per-deal "
              "wins and the shipped anchors): the report refuses an incomplete run."]
    return "\n".join(lines) + "\n"


# The figures -------------------------------------------------------------------------------------


def _figures(data: dict[str, Any], out: Path, plt: Any, plot_utils: Any, palette: list) -> list[Path]:
    names = list(data["entrants"])
    colors = dict(zip(names, palette))
    labels = {n: _label(n, data) for n in names}
    written = []

    def save(fig: Any, name: str) -> None:
        file = out / name
        fig.savefig(file, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": None})
        plt.close(fig)
        written.append(file)

    points = {labels[n]: np.array([data["aggregate"][n][k]["value"] for k, _ in METRICS]) for n in names}
    cis = {labels[n]: np.array([data["aggregate"][n][k]["ci"] for k, _ in METRICS]).T for n in names}
    fig, _ = plot_utils.plot_interval_estimates(
        points, cis, metric_names=[label for _, label in METRICS], algorithms=[labels[n] for n in names],
        colors={labels[n]: colors[n] for n in names}, row_height=0.6, xlabel="score (0 = random, 1 = heuristic)",
        xlabel_y_coordinate=-0.3 if len(names) < 4 else -0.1)
    save(fig, "aggregate.svg")

    fig, ax = plt.subplots(figsize=(7, 4.5))
    profiles = data["profiles"]
    plot_utils.plot_performance_profiles(
        {labels[n]: np.array(profiles["entrants"][n]["fraction"]) for n in names}, np.array(profiles["tau"]),
        performance_profile_cis={labels[n]: np.array(profiles["entrants"][n]["ci"]) for n in names},
        colors={labels[n]: colors[n] for n in names}, ax=ax, xlabel="score τ (0 = random, 1 = heuristic)",
        ylabel="fraction of runs with score > τ", legend=True, legendsize="medium")
    save(fig, "profiles.svg")

    fig, ax = plt.subplots(figsize=(5, 0.5 + 0.45 * max(1, len(data["improvement"]))))
    if data["improvement"]:
        sep = "\t"
        plot_utils.plot_probability_of_improvement(
            {f"{labels[p['x']]}{sep}{labels[p['y']]}": p["value"] for p in data["improvement"]},
            {f"{labels[p['x']]}{sep}{labels[p['y']]}": np.array(p["ci"]) for p in data["improvement"]},
            pair_separator=sep, ax=ax, colors=[colors[p["x"]] for p in data["improvement"]], xticks=[0, 0.25, 0.5,
                                                                                                    0.75, 1.0])
    else:
        ax.text(0.5, 0.5, "one entrant: nothing to compare", ha="center", va="center")
        ax.set_axis_off()
    save(fig, "improvement.svg")

    fig, ax = plt.subplots(figsize=(7, 4.5))
    curves = data["curves"]
    trained = list(curves["entrants"])
    plot_utils.plot_sample_efficiency_curve(
        np.array(curves["decisions"]), {n: np.array(curves["entrants"][n]["iqm"]) for n in trained},
        {n: np.array(curves["entrants"][n]["ci"]) for n in trained}, algorithms=trained,
        colors={n: colors[n] for n in trained}, ax=ax, xlabel="learner decisions",
        ylabel="IQM of the checkpoints' scores", labelsize="large", ticklabelsize="medium", legend=True,
        legendsize="medium")
    ax.xaxis.set_major_formatter(plt.FuncFormatter(lambda x, _: f"{x:,.0f}"))
    save(fig, "curves.svg")
    return written


# Building the report -----------------------------------------------------------------------------


def _libraries() -> tuple[Any, ...]:
    try:
        import matplotlib
        from importlib import metadata

        from rliable import library as rly, metrics, plot_utils
    except Exception as e:  # missing, or failing to import (arch under pandas 3)
        cause = " ".join(f"{type(e).__name__}: {e}".split())
        raise ImportError(f"d2r benchmark report needs the benchmark extra ({cause}); install with: "
                          f"{INSTALL}") from None
    return matplotlib, rly, metrics, plot_utils, {"rliable": metadata.version("rliable"), "matplotlib": matplotlib.__version__}


def command_line(run_dirs: Sequence[Path], out: Path, references: Sequence[Path] = ()) -> str:
    words = ["d2r", "benchmark", "report", *map(str, run_dirs), "--out", str(out)]
    for file in references:
        words += ["--reference", str(file)]
    return shlex.join(words)


def build_report(run_dirs: Sequence[Path], out: Path, references: Sequence[Path] = ()) -> list[Path]:
    """Write the report of the runs in `run_dirs` (and the reference result files) to the folder `out`;
    the files written. Refused (Refused, a ValueError naming every problem; nothing written) when a run is
    incomplete or invalid, runs cannot be merged, or a reference is not a valid result scoring every task.
    ImportError (one line) without the benchmark extra."""
    matplotlib, rly, metrics, plot_utils, versions = _libraries()
    run_dirs, references, out = [Path(p) for p in run_dirs], [Path(p) for p in references], Path(out)
    problems: list[str] = []
    if not run_dirs:
        problems.append("no run folder given")
    runs = _read_runs(run_dirs, problems)
    if problems:
        raise Refused(problems)
    taken = {name for _, run, _ in runs for name in run["entrants"]}
    refs = _read_references(references, list(runs[0][1]["tasks"]), taken, problems)
    if problems:
        raise Refused(problems)

    data = _numbers(runs, refs, rly, metrics)
    data["made"] = {"command": command_line(run_dirs, out, references),
                    "runs": [{"folder": str(folder), "command": run.get("command")} for folder, run, _ in runs],
                    **versions, "reps": REPS, "seed": SEED, "confidence": CONFIDENCE}
    out.mkdir(parents=True, exist_ok=True)
    written = [out / "results.md", out / "results.json"]
    written[0].write_text(to_markdown(data), encoding="utf-8")
    written[1].write_text(json.dumps(data, indent=1, allow_nan=False) + "\n", encoding="utf-8")

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import seaborn as sns

    rc = {"svg.hashsalt": "d2r-bench", "svg.fonttype": "none", "font.family": "DejaVu Sans"}
    with plt.rc_context(rc):
        palette = sns.color_palette("colorblind", n_colors=len(data["entrants"]))
        written += _figures(data, out, plt, plot_utils, palette)
    return written


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        sys.exit(2)


def main(argv: list[str] | None = None) -> int:
    p = _Parser(prog="python -m training.benchmark.report", description=__doc__.splitlines()[0])
    p.add_argument("runs", nargs="+", metavar="RUN", help="a run folder of `d2r benchmark run` (run.json, cells/)")
    p.add_argument("--out", required=True, help="the folder the report is written to")
    p.add_argument("--reference", action="append", default=[], metavar="FILE",
                   help="a `d2r benchmark eval` result file, shown as a reference (may be given more than once)")
    args = p.parse_args(argv)
    try:
        written = build_report([Path(r) for r in args.runs], Path(args.out), [Path(f) for f in args.reference])
    except (ValueError, ImportError) as e:
        print(f"error: {' '.join(str(e).split())}", file=sys.stderr)
        return 2
    print("\n".join(str(f) for f in written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
