"""The training track: `d2r benchmark run ENTRANT ... --suite core --budget short --seeds 3`.

Every cell (entrant, task, seed) is an independent job: train the entrant's config on the task for the
budget of learner decisions, with a checkpoint at each fraction of it; export each checkpoint (numpy,
as every shipped opponent); score each on the first `checkpoint_deals` deals of the task against the
heuristic lineup (the curve) and the last on the whole deal list as `d2r benchmark eval` does (the
final score); write cells/<entrant>/<task>/seed<k>/cell.json (training/benchmark/cells.py). A cell
with its cell.json is done and skipped; a cell stopped while training resumes from its last
checkpoint. Cells run in worker processes, one cell each (a fresh process: Ray and torch start clean),
each on one core; a cell's output goes to its cell.log.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import json
import math
import multiprocessing
import os
import platform
import signal
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

from training import pools
from training.benchmark import cells
from training.benchmark.algorithm import Algorithm, cell_config, load_algorithm
from training.benchmark.matches import play_match
from training.benchmark.results import task_entry
from training.benchmark.tasks import BENCHMARK, VERSION, Task, load
from d2r_envs.opponents import WEIGHTS_FILE

BUDGETS = {"short": 200_000, "standard": 5_000_000}  # learner decisions a cell trains for
REFERENCE = ("drags_2_riches", 4, 20)  # the reference throughput: the heuristic lineup's games on these deals


def reference_throughput() -> float:
    """Games a second of the heuristic in every seat, on the first deals of a fixed game and count (one
    core): measured where a cell runs, so that its seconds compare across machines."""
    game, n, deals = REFERENCE
    began = time.perf_counter()
    play_match(game, n, {}, 0, deals, "heuristic", "heuristic")
    return round(deals * n / (time.perf_counter() - began), 2)


def machine() -> str:
    model = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return f"{model}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}"


def gradient_steps(c: Any, decisions: int, run_dir: Path | None = None) -> int:
    """The minibatch updates the config makes in `decisions` learner decisions (PPO: n_epochs passes
    over each batch of n_envs x n_steps decisions, in minibatches of batch_size; OpenSpiel's agents: the
    updates they made, counted by the run in its summary.json)."""
    if c.backend == "openspiel":
        assert run_dir is not None
        return int(json.loads((run_dir / "summary.json").read_text(encoding="utf-8"))["gradient_steps"])
    runners = max(1, c.rllib.num_env_runners) if c.backend == "rllib" else 1
    batch = c.algo.n_envs * c.algo.n_steps * runners
    return math.ceil(decisions / batch) * c.algo.n_epochs * math.ceil(batch / c.algo.batch_size)


def _checkpoints(c: Any, run_dir: Path) -> list[tuple[int | None, Path]]:
    """(step, path) of every checkpoint, oldest first; the final one's step None (its manifest says)."""
    if c.backend == "rllib":
        found = [p for p in (run_dir / "checkpoints").glob("step_*") if p.is_dir()]
        final = run_dir / "final"
    elif c.backend == "openspiel":
        found = list((run_dir / "checkpoints").glob("step_*.pt"))
        final = run_dir / "final.pt"
    else:
        found = list((run_dir / "checkpoints").glob("step_*.zip"))
        final = run_dir / "final.zip"
    steps = sorted((int(p.name[5:].split(".")[0]), p) for p in found)
    return [*steps, (None, final)]


def _at_fractions(found: list[tuple[int | None, Path]], decisions: int, fractions: list[float]) -> list[tuple[int | None, Path]]:
    """The checkpoint of each fraction: the first one at or past it, the final model for the last."""
    chosen = []
    for fraction in fractions[:-1]:
        at = [(step, path) for step, path in found[:-1] if step is not None and step >= fraction * decisions]
        if not at:
            raise RuntimeError(f"no checkpoint at or past {fraction:g} of the budget in {found[-1][1].parent}")
        chosen.append(at[0])
    return [*chosen, found[-1]]


def _train(c: Any, raw: dict[str, Any], run_dir: Path) -> str | None:
    """Train the cell to its end (resuming from its last checkpoint when one is there); the checkpoint it
    resumed from, or None."""
    from training.train import train

    done = run_dir / {"rllib": "final", "openspiel": "final.pt"}.get(c.backend, "final.zip")
    if done.exists():
        return None
    resume = None
    if c.backend == "openspiel":  # its checkpoints are policies, not buffers: a stopped cell starts again
        train(c, resume=None, raw_config=raw, force=True)
        return None
    if (run_dir / "checkpoints").is_dir():
        earlier = _checkpoints(c, run_dir)[:-1]
        resume = str(earlier[-1][1]) if earlier else None
    train(c, resume=resume, raw_config=raw, force=resume is None)
    return resume


def _export(c: Any, raw: dict[str, Any], checkpoint: Path, out_root: Path, name: str) -> Path:
    from training.export import export, export_checkpoint, export_openspiel

    if c.backend == "openspiel":
        return export_openspiel(checkpoint, c, name, raw, overwrite=True, out_root=out_root)
    if c.backend == "rllib":
        return export_checkpoint(checkpoint, c, name, raw, overwrite=True, out_root=out_root)
    return export(checkpoint, c.game, name, config=raw, seed=c.seed, out_root=out_root, overwrite=True,
                  player_counts=[c.env.num_players])


def run_cell(alg: Algorithm, task: Task, seed: int, budget: dict[str, Any], fractions: list[float],
             checkpoint_deals: int, out: Path, deals: int | None = None, command: str = "") -> dict[str, Any]:
    """Train, export and score one cell; its cell.json is written last, when all of it is done."""
    from training.benchmark.scoring import versions
    from training.session import cpu_seconds  # (the training's modules load torch: only where a cell runs)

    folder = cells.cell_path(out, alg.name, task.id, seed).parent
    run_dir = folder / "train"
    c, raw = cell_config(alg, task, seed, budget["decisions"], fractions, run_dir)
    throughput = reference_throughput()
    began = time.perf_counter()
    resumed = _train(c, raw, run_dir)
    summary = json.loads((run_dir / "summary.json").read_text(encoding="utf-8"))
    imitation = run_dir / "imitation.json"
    warm = (json.loads(imitation.read_text(encoding="utf-8")) if imitation.is_file()
            else {"seconds": 0.0, "cpu_seconds": 0.0})
    imitation_seconds = warm["seconds"]
    train_seconds = summary["seconds"] if summary["seconds"] is not None else time.perf_counter() - began
    # the training's CPU over every session it took (its checkpoints carry it across a resume) and the warm start's
    train_cpu = (None if summary.get("cpu_seconds") is None or warm.get("cpu_seconds") is None
                 else summary["cpu_seconds"] + warm["cpu_seconds"])
    began, cpu = time.perf_counter(), cpu_seconds()
    checkpoints = _at_fractions(_checkpoints(c, run_dir), budget["decisions"], fractions)
    count = task.deals if deals is None else min(deals, task.deals)
    prefix = min(checkpoint_deals, count)
    curve, folders = [], []
    for fraction, (step, path) in zip(fractions, checkpoints):
        model = _export(c, raw, path, folder / "models", f"step-{fraction:g}")
        folders.append(model)
        manifest = json.loads((model / "manifest.json").read_text(encoding="utf-8"))
        at = manifest["training"]["total_timesteps"] if step is None else step
        if step is None:  # the final model: scored on every deal, both lineups; its curve point is the prefix
            per_deal = {ref: play_match(task.game, task.num_players, task.options, task.seed, count, str(model), ref)
                        for ref in ("heuristic", "random")}
            final = task_entry(task, f"{alg.name}/seed{seed}", count=count, per_deal=per_deal)
            wins = per_deal["heuristic"][:prefix]
            decisions = at
            weights = manifest["files"][WEIGHTS_FILE]["sha256"].lower()
        else:
            wins = play_match(task.game, task.num_players, task.options, task.seed, prefix, str(model), "heuristic")
        curve.append(cells.curve_point(task, fraction, at, wins))
    cell = {
        "schema": cells.CELL_SCHEMA,
        "benchmark": BENCHMARK,
        "version": VERSION,
        "entrant": alg.name,
        "task": task.id,
        "seed": seed,
        "budget": budget,
        "subset": deals if count < task.deals else None,
        "curve": curve,
        "final": final,
        "compute": {
            "decisions": decisions,
            "gradient_steps": gradient_steps(c, decisions, run_dir),
            "train_seconds": round(train_seconds + imitation_seconds, 1),
            "imitation_seconds": imitation_seconds,
            "eval_seconds": round(time.perf_counter() - began, 1),
            **({} if train_cpu is None else {"train_cpu_seconds": round(train_cpu, 1)}),
            "eval_cpu_seconds": round(cpu_seconds() - cpu, 1),
            "machine": machine(),
            "reference_throughput": throughput,
            "resumed_from": resumed,
        },
        "model": {"weights_sha256": weights, "folder": str(folders[-1].relative_to(out))},
        "run": {"command": command, "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
                "versions": versions()},
    }
    cells.write_json(cell, cells.cell_path(out, alg.name, task.id, seed))
    return cell


def _cell_job(args: tuple) -> tuple[str, str, int, dict[str, Any] | str]:
    """A worker's cell, its output into cell.log: (entrant, task, seed, the cell or the error's line)."""
    alg_ref, task_id, seed, budget, fractions, checkpoint_deals, out, deals, command = args
    # Ctrl-C is the main process's to handle: a worker's SIGINT is blocked only in the threads that inherit
    # the mask, and Ray starts threads that take it, so the worker ignores it outright
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    alg, task = load_algorithm(alg_ref), load().tasks[task_id]
    folder = cells.cell_path(out, alg.name, task_id, seed).parent
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "cell.log", "a", encoding="utf-8") as log:
        os.dup2(log.fileno(), 1)
        os.dup2(log.fileno(), 2)
        try:
            return alg.name, task_id, seed, run_cell(alg, task, seed, budget, fractions, checkpoint_deals, Path(out),
                                                     deals, command)
        except Exception as e:  # reported by the main process; the log holds the traceback
            import traceback

            traceback.print_exc()
            sys.stderr.flush()
            return alg.name, task_id, seed, f"{type(e).__name__}: {e}"


def plan(entrants: list[str], suite: str, tasks: list[str] | None, budget: str | int, seeds: int,
         checkpoint_deals: int, deals: int | None, command: str) -> tuple[dict[str, Any], list[Algorithm], list[Task]]:
    """run.json for this run and its entrants and tasks; ValueError for anything refused."""
    bench = load()
    if isinstance(budget, str) and budget not in BUDGETS:
        raise ValueError(f"--budget {budget!r}: short ({BUDGETS['short']:,}), standard ({BUDGETS['standard']:,}) "
                         "or a number of learner decisions")
    decisions = BUDGETS[budget] if isinstance(budget, str) else int(budget)
    if decisions < 4:
        raise ValueError(f"--budget must be at least 4 learner decisions, got {decisions}")
    if seeds < 1:
        raise ValueError(f"--seeds must be at least 1, got {seeds}")
    if checkpoint_deals < 2:
        raise ValueError(f"--checkpoint-deals must be at least 2 (an interval needs two deals), got {checkpoint_deals}")
    if deals is not None and deals < 2:
        raise ValueError(f"--deals must be at least 2, got {deals}")
    chosen = bench.suite(suite)
    if tasks:
        unknown = [t for t in tasks if t not in bench.suites[suite]]
        if unknown:
            raise ValueError(f"task {unknown[0]} is not in suite {suite}; its tasks: {', '.join(bench.suites[suite])}")
        chosen = [t for t in chosen if t.id in tasks]
    algs = [load_algorithm(e) for e in entrants]
    names = [a.name for a in algs]
    if len(set(names)) < len(names):
        raise ValueError(f"entrant {next(n for n in names if names.count(n) > 1)} given twice")
    for task in chosen:
        task.check_installed()
    for alg in algs:  # every config builds before anything runs
        for task in chosen:
            cell_config(alg, task, 0, decisions, list(cells.FRACTIONS), Path("runs") / "check")
    run = {
        "schema": cells.RUN_SCHEMA,
        "benchmark": BENCHMARK,
        "version": VERSION,
        "suite": suite,
        "tasks": [t.id for t in chosen],
        "entrants": {a.name: a.record() for a in algs},
        "budget": {"name": budget if isinstance(budget, str) else "custom", "decisions": decisions},
        "seeds": list(range(seeds)),
        "fractions": list(cells.FRACTIONS),
        "checkpoint_deals": checkpoint_deals,
        "subset": deals,
        "command": command,
    }
    return run, algs, chosen


def run_suite(run: dict[str, Any], algs: list[Algorithm], tasks: list[Task], out: Path, workers: int,
              progress: Any = print, ray_address: str | None = None) -> list[str]:
    """Run every cell of `run` that has no cell.json yet, `workers` at a time (or as Ray tasks, one CPU
    each, with `ray_address`: "" a local instance of `workers` CPUs, else that cluster's address); the
    failed cells' lines."""
    if workers < 1:
        raise ValueError(f"--workers must be at least 1, got {workers}")
    file = out / "run.json"
    if file.is_file():
        before = cells.read_json(file)
        differs = [k for k in run if k != "command" and before.get(k) != run[k]]
        if differs:
            raise ValueError(f"{out} holds another run (its run.json differs in {', '.join(differs)}); "
                             "give another --out, or the same arguments to resume it")
    else:
        cells.write_json(run, file)
    # seed by seed, so that a run stopped early holds whole seeds of every entrant and task
    todo = [(a, t, s) for s in run["seeds"] for t in tasks for a in algs
            if not cells.cell_path(out, a.name, t.id, s).is_file()]
    total = len(algs) * len(tasks) * len(run["seeds"])
    progress(f"{total - len(todo)} of {total} cells done; {len(todo)} to run, {min(workers, len(todo) or 1)} at a time "
             f"(each cell's output in its cell.log)")
    failed: list[str] = []
    if not todo:
        return failed
    jobs = [(a.source, t.id, s, run["budget"], run["fractions"], run["checkpoint_deals"], str(out), run["subset"],
             run["command"]) for a, t, s in todo]
    done = total - len(todo)

    def report(outcome: tuple[str, str, int, dict[str, Any] | str]) -> None:
        nonlocal done
        entrant, task_id, seed, cell = outcome
        done += 1
        where = f"[{done}/{total}] {entrant} {task_id} seed{seed}"
        if isinstance(cell, str):
            failed.append(f"{entrant}/{task_id}/seed{seed}: {cell}")
            progress(f"{where}: failed: {cell}")
            return
        cells.write_json(cell, cells.cell_path(out, entrant, task_id, seed))  # here too: a Ray node's disk may not be ours
        f, k = cell["final"], cell["compute"]
        progress(f"{where}: score {f['score']:.2f} ({f['score_ci'][0]:.2f} to {f['score_ci'][1]:.2f}), "
                 f"{k['decisions']:,} decisions, train {k['train_seconds']:.0f} s, eval {k['eval_seconds']:.0f} s")

    if ray_address is not None:
        _on_ray(jobs, ray_address, workers, report)
        return failed
    context = multiprocessing.get_context("spawn")
    with pools.ctrl_c_held_back():  # workers start on submit, and keep Ctrl-C blocked: only this process stops
        pool = ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=context, max_tasks_per_child=1)
        pending = {pool.submit(_cell_job, job) for job in jobs}
    try:
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                report(future.result())
    except BaseException:
        pools.stop(pool)
        raise
    pool.shutdown()
    return failed


def _on_ray(jobs: list[tuple], address: str, workers: int, report: Any) -> None:
    """The cells as Ray tasks of one CPU, each in a worker process of its own (max_calls=1); Ctrl-C
    cancels the ones in flight."""
    from training.ray_cluster import connected

    with connected(address or None, workers if not address and workers > 1 else None) as ray:
        remote = ray.remote(num_cpus=1, max_calls=1, max_retries=0)(_cell_job)
        pending = [remote.remote(job) for job in jobs]
        try:
            while pending:
                finished, pending = ray.wait(pending, num_returns=1)
                report(ray.get(finished[0]))
        except BaseException:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise
