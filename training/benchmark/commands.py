"""The `d2r benchmark` subcommands (list, eval, validate, run, report), with their parsed arguments."""

from __future__ import annotations

import datetime as _dt
import shlex
import sys
from pathlib import Path
from typing import Any

from d2r_envs.core import config as game_config
from training.benchmark import ladder, results
from training.benchmark.tasks import BENCHMARK, VERSION, load


def run_list(args: Any) -> int:
    bench = load()
    core = set(bench.suites.get("core", []))
    lines = [f"# {BENCHMARK} v{VERSION}", ""]
    for name, ids in bench.suites.items():
        lines.append(f"- suite {name}: {len(ids)} tasks")
    for task_id, why in bench.excluded.items():
        lines.append(f"- in no suite: {task_id}, as {why}")
    lines += ["", "| task | game | players | options | suites | deals | w random | w heuristic | ladder | pinned to |",
              "|---|---|---:|---|---|---:|---:|---:|---|---|"]
    for task in bench.tasks.values():
        suites = ", ".join(s for s, ids in bench.suites.items() if task.id in ids) or "none"
        w_random, w_heuristic = task.score_anchors()
        changed = task.changes()
        pinned = (f"v{task.game_version}, obs {task.obs_fingerprint}" if not changed
                  else "refused: " + "; ".join(changed))
        shipped = ladder.task_ladder(task.id)
        rungs = f"{len(shipped['references'])} references" if shipped else "-"
        lines.append(f"| {task.id} | {task.game} | {task.num_players} | {game_config.label(task.options) or '-'} "
                     f"| {suites} | {task.deals} | {w_random:.4f} | {w_heuristic:.4f} | {rungs} | {pinned} |")
    lines += ["", "w: the win share against the heuristic lineup (one seat, the heuristic in the others, seats "
              f"rotated) on the task's deals; a task's score maps w random to 0 and w heuristic to 1. "
              f"{len(core)} core tasks. ladder: the task's frozen reference ladder, where one is shipped."]
    for task in bench.tasks.values():
        shipped = ladder.task_ladder(task.id)
        if shipped:
            ratings = ", ".join(f"{ref} {r['elo']:.0f} ({r['elo_ci'][0]:.0f} to {r['elo_ci'][1]:.0f})"
                                for ref, r in sorted(shipped["ratings"].items(), key=lambda kv: -kv[1]["elo"]))
            lines.append(f"- {task.id}: {ratings}")
    print("\n".join(lines))
    return 0


def _command_line(args: Any) -> str:
    words = ["d2r", "benchmark", "eval", *args.models, "--suite", args.suite, "--workers", str(args.workers)]
    if args.deals is not None:
        words += ["--deals", str(args.deals)]
    if args.ladder:
        words += ["--ladder"]
    if args.ray is not None:
        words += ["--ray"] + ([args.ray] if args.ray else [])
    if args.out:
        words += ["--out", str(args.out)]
    return shlex.join(words)


def run_eval(args: Any) -> int:
    from training.benchmark.scoring import score_models

    if args.out:
        out = Path(args.out)
    else:
        first = args.models[0].rstrip("/").replace("\\", "/").split("/")
        stem = "-".join(first[-2:]) if len(first) > 1 else first[0]
        out = Path("runs") / "benchmark" / f"{stem}-{args.suite}-{_dt.datetime.now():%Y%m%d-%H%M%S}.json"
    if out.exists():
        raise ValueError(f"--out {out}: the file exists; give another --out (a result is never overwritten)")
    result = score_models(args.models, args.suite, args.deals, args.workers, progress=True,
                          command=_command_line(args), against_ladder=args.ladder, ray_address=args.ray)
    results.write(result, out)
    print(results.to_markdown(result))
    print(f"\nwrote {out} (d2r benchmark validate {shlex.quote(str(out))})", file=sys.stderr)
    return 0


def run_validate(args: Any) -> int:
    bad = 0
    for file in args.files:
        try:
            problems = results.validate(results.read(file))
        except ValueError as e:  # not readable as a result at all
            problems = [str(e)]
        if problems:
            bad += 1
            print(f"{file}: not a valid {BENCHMARK} v{VERSION} result:")
            for problem in problems:
                print(f"  - {problem}")
        else:
            print(f"{file}: a valid {BENCHMARK} v{VERSION} result")
    return 1 if bad else 0


def _run_command_line(args: Any) -> str:
    words = ["d2r", "benchmark", "run", *args.entrants, "--suite", args.suite, "--budget", str(args.budget),
             "--seeds", str(args.seeds), "--checkpoint-deals", str(args.checkpoint_deals), "--out", str(args.out)]
    if args.tasks:
        words += ["--tasks", args.tasks]
    if args.deals is not None:
        words += ["--deals", str(args.deals)]
    return shlex.join(words)


def run_run(args: Any) -> int:
    from training.benchmark import track

    budget: str | int = int(args.budget) if str(args.budget).isdigit() else args.budget
    tasks = [t for t in args.tasks.split(",") if t] if args.tasks else None
    run, algs, chosen = track.plan(args.entrants, args.suite, tasks, budget, args.seeds, args.checkpoint_deals,
                                   args.deals, _run_command_line(args))
    out = Path(args.out)
    try:
        failed = track.run_suite(run, algs, chosen, out, args.workers, ray_address=args.ray)
    except KeyboardInterrupt:
        print(f"\nstopped: the cells done are kept; the same command resumes ({_run_command_line(args)})",
              file=sys.stderr)
        return 130
    if failed:
        print(f"{len(failed)} cell(s) failed (each one's cell.log has why):", file=sys.stderr)
        for line in failed:
            print(f"  - {line}", file=sys.stderr)
        return 1
    print(f"every cell done in {out}; the tables and figures: d2r benchmark report {shlex.quote(str(out))}")
    return 0


def run_report(args: Any) -> int:
    from training.benchmark import report

    runs = [Path(p) for p in args.runs]
    out = Path(args.out) if args.out else runs[0] / "report"
    written = report.build_report(runs, out, [Path(p) for p in args.reference or []])
    for file in written:
        print(file)
    return 0
