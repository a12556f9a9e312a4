"""`d2r eval`: a tournament between agents (training/tournament.py), its report (training/report.py),
and its summary recorded in a model's manifest (training/manifest.py).

    d2r eval draco_and_co --agents draco_and_co/ppo-v1,heuristic --players 4 --games 400

The agents fill the seats as `training.deals.make_lineup` says; `--lineup` names every seat.
"""

from __future__ import annotations

import datetime as _dt
import shlex
import sys
from pathlib import Path
from typing import Any

from d2r_envs import replay
from d2r_envs.registry import package
from training.manifest import evaluation_key, evaluation_summary, record_evaluation, resolve_model_dir
from training.report import find_progress_csv, to_markdown, write_outputs
from training.tournament import Stopped, evaluate, replays


def _split(text: str | None) -> list[str]:
    return [part.strip() for part in (text or "").split(",") if part.strip()]


def _command_line(args: Any) -> str:
    words = ["d2r", "eval", args.game]
    words += ["--lineup", args.lineup] if args.lineup else ["--agents", args.agents]
    if args.players is not None:
        words += ["--players", str(args.players)]
    words += ["--games", str(args.games), "--seed", str(args.seed), "--workers", str(args.workers)]
    if getattr(args, "ray", None) is not None:
        words += ["--ray"] + ([args.ray] if args.ray else [])
    for item in args.option or []:
        words += ["--option", item]
    for flag, value in (("--out", args.out), ("--training-log", args.training_log), ("--manifest", args.manifest),
                        ("--record", args.record), ("--journal", getattr(args, "journal", None))):
        if value:
            words += [flag, str(value)]
    return shlex.join(words)


def run(args: Any, options: dict[str, Any] | None = None) -> int:
    """`d2r eval` with its parsed arguments; raises ValueError (one line) for bad input."""
    if args.lineup:
        agents = _split(args.lineup)
        players = len(agents) if args.players is None else args.players
        if len(agents) != players:
            raise ValueError(f"--lineup names {len(agents)} seats but --players is {players}; give one agent per seat")
    else:
        agents = _split(args.agents)
        players = package(args.game).DEFAULT_PLAYERS if args.players is None else args.players
        if len(agents) > players:
            raise ValueError(
                f"--agents names {len(agents)} agents for {players} seats; raise --players or use fewer agents"
            )
    if not agents:
        raise ValueError("no agents: give --agents a,b or --lineup a,b,c,d")
    if args.training_log:
        find_progress_csv(args.training_log)  # refuse a missing log before playing
    record_dir = None
    if args.manifest:
        if args.manifest not in agents:
            raise ValueError(f"--manifest {args.manifest!r}: that model is not among the agents ({', '.join(agents)})")
        record_dir = resolve_model_dir(args.manifest)
    if args.record and Path(args.record).exists() and not Path(args.record).is_dir():
        raise ValueError(f"--record {args.record!r}: not a folder (replays go into a folder, one file a game)")
    out_dir = Path(args.out or Path("runs") / "eval" / f"{args.game}-{_dt.datetime.now():%Y%m%d-%H%M%S}")

    journal = getattr(args, "journal", None)
    try:
        result = evaluate(
            args.game, agents, players, args.games, args.seed, workers=args.workers, options=options,
            progress=True, command=_command_line(args), ray_address=getattr(args, "ray", None),
            trace=bool(args.record), journal=journal,
        )
    except Stopped as stop:  # Ctrl-C: what was played so far, on the screen only
        if stop.result is not None:
            print(to_markdown(stop.result))
        kept = (f"the finished deals are in {journal}: the same command resumes" if journal else
                "--journal FILE keeps finished deals for the same command to resume")
        print(f"\nd2r eval: {stop}; nothing written to {out_dir} ({kept})", file=sys.stderr)
        return 130
    if args.record:
        files = [replay.save(data, Path(args.record) / name) for name, data in replays(result)]
        print(f"wrote {len(files)} replays to {args.record} (d2r replay FILE)", file=sys.stderr)
    paths = write_outputs(result, out_dir, args.training_log)
    print(to_markdown(result))
    print(f"\nwrote {', '.join(str(p) for p in paths.values())}", file=sys.stderr)
    if record_dir is not None:
        key = evaluation_key(result)
        manifest = record_evaluation(record_dir, key, evaluation_summary(result))
        print(f"recorded under evaluation[{key!r}] in {manifest}", file=sys.stderr)
    return 0
