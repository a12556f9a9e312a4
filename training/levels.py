"""`python -m training.levels GAME`: the tournaments that order a game's difficulty levels.

For each level and the one below it (models/levels.json, weakest first; d2r_envs/difficulty.py): a
tournament at the game's fewest players, the upper level in one seat and the lower in the others, seats
rotated over duplicate deals (training.tournament.evaluate). The pair is ordered when the upper level's
95% win-share interval lies wholly above the lower level's win share per seat. `--record` writes each
result, with the time a move each level took, into the levels file, and the game README's levels table
(between its two `levels` marks) from it; the command exits 1 when a pair is not ordered.

    python -m training.levels rap_godz --games 1000 --workers 2 --journal runs/levels --record
"""

from __future__ import annotations

import argparse
import datetime as _dt
import hashlib
import json
import shlex
import sys
from pathlib import Path
from typing import Any

from d2r_envs import difficulty, registry
from d2r_envs.registry import make_game
from training import tournament

# The game README's levels table lies between these marks (difficulty.table writes it).
MARKS = ("<!-- levels: written by python -m training.levels GAME --record, from models/levels.json -->",
         "<!-- end of levels -->")


def players_for(game: str) -> int:
    """The count the levels are ordered at: the game's fewest players."""
    return make_game(game).spec.min_players


def ordered(entry: dict[str, Any]) -> bool:
    """Whether a recorded pair holds: the upper level's interval above the lower level's share."""
    return entry["upper_ci"][0] > entry["lower_share"]


def journal_name(game: str, upper: difficulty.Level, lower: difficulty.Level) -> str:
    """The pair's journal file: named by its levels and its agents, so that a level given another agent
    starts a journal of its own rather than meeting the old one's."""
    agents = hashlib.sha256(f"{upper.agent}\n{lower.agent}".encode()).hexdigest()[:8]
    return f"{game}-{upper.name}-{lower.name}-{agents}.jsonl"


def pair_result(game: str, upper: difficulty.Level, lower: difficulty.Level, games: int, seed: int, workers: int,
                journal: Path | None, command: str) -> dict[str, Any]:
    """One tournament between adjacent levels, as the levels file records it."""
    n = players_for(game)
    result = tournament.evaluate(game, [upper.agent, lower.agent], n, games, seed, workers=workers, progress=True,
                                 journal=None if journal is None else journal / journal_name(game, upper, lower))
    up, low = result["agents"][upper.agent], result["agents"][lower.agent]
    return {
        "upper": upper.name, "lower": lower.name, "upper_agent": upper.agent, "lower_agent": lower.agent,
        "players": n, "games": result["games"], "seed": seed,
        "upper_share": up["win_share"], "upper_ci": up["win_share_ci"], "lower_share": low["win_share"],
        "ms_per_move": {upper.name: up["timing"]["ms_per_move"], lower.name: low["timing"]["ms_per_move"]},
        "command": command,
        "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
    }


def record(game: str, entries: list[dict[str, Any]], path: Path | None = None) -> None:
    """Write `entries` into the levels file (default difficulty.LEVELS_FILE), replacing the recorded
    results of the same pairs."""
    path = difficulty.LEVELS_FILE if path is None else path
    data = difficulty.read(path)
    kept = [e for e in data["games"][game].get("results", [])
            if (e["upper"], e["lower"]) not in {(x["upper"], x["lower"]) for x in entries}]
    names = [x["name"] for x in data["games"][game]["levels"]]
    data["games"][game]["results"] = sorted(kept + entries, key=lambda e: names.index(e["upper"]))
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    difficulty.reload()


def readme_path(game: str) -> Path:
    """The game's README (d2r_envs/games/<game>/README.md)."""
    package = registry.package(game).Game.__module__.rpartition(".")[0]  # its __init__.py is never compiled
    return Path(str(sys.modules[package].__file__)).parent / "README.md"


def readme_table(text: str, game: str) -> str:
    """What lies between the README's two marks; ValueError where they are missing."""
    start, end = text.find(MARKS[0]), text.find(MARKS[1])
    if start < 0 or end < start:
        raise ValueError(f"{game}'s README lacks the levels marks {MARKS[0]!r} ... {MARKS[1]!r}")
    return text[start + len(MARKS[0]):end].strip("\n")


def write_readme(game: str, path: Path | None = None) -> None:
    """Write `game`'s levels table (difficulty.table) between its README's marks."""
    path = readme_path(game) if path is None else path
    text = path.read_text(encoding="utf-8")
    readme_table(text, game)  # the marks are there
    start, end = text.find(MARKS[0]) + len(MARKS[0]), text.find(MARKS[1])
    path.write_text(text[:start] + "\n" + difficulty.table(game) + "\n" + text[end:], encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.levels", description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--upper", action="append", metavar="LEVEL",
                        help="only the pair of this level and the one below it; repeatable (default: every pair)")
    parser.add_argument("--games", type=int, default=1000, help="games per pair (default 1000)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026, help="the k-th pair from the bottom plays seed + k")
    parser.add_argument("--journal", metavar="DIR", help="keep each tournament's finished deals in DIR; the same "
                        "command run again resumes")
    parser.add_argument("--record", action="store_true", help="write the results into models/levels.json")
    args = parser.parse_args(argv)
    try:
        levels = difficulty.levels(args.game)
        names = [x.name for x in levels]
        for name in args.upper or []:
            if name not in names[1:]:
                raise ValueError(f"--upper {name!r}: not a level above another; {args.game}'s levels are {', '.join(names)}")
        if args.games < 1 or args.workers < 1:
            raise ValueError("--games and --workers must be at least 1")
    except ValueError as err:
        print(f"python -m training.levels: error: {err}", file=sys.stderr)
        return 2
    command = shlex.join(["python", "-m", "training.levels", *(sys.argv[1:] if argv is None else argv)])
    journal = Path(args.journal) if args.journal else None
    if journal is not None:
        journal.mkdir(parents=True, exist_ok=True)
    entries, failed = [], []
    for k in range(1, len(levels)):
        upper, lower = levels[k], levels[k - 1]
        if args.upper and upper.name not in args.upper:
            continue
        entry = pair_result(args.game, upper, lower, args.games, args.seed + k, args.workers, journal, command)
        entries.append(entry)
        verdict = "ordered" if ordered(entry) else "NOT ordered"
        print(f"{upper.name} ({upper.agent}) vs {lower.name} ({lower.agent}), {entry['players']} players, "
              f"{entry['games']} games: {entry['upper_share']:.1%} ({entry['upper_ci'][0]:.1%} to "
              f"{entry['upper_ci'][1]:.1%}) against {entry['lower_share']:.1%}: {verdict}")
        if not ordered(entry):
            failed.append(upper.name)
        if args.record:
            record(args.game, [entry])
            write_readme(args.game)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
