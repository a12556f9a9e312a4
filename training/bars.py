"""Check a shipped opponent against the project's bars at every player count, and record what was measured.

    python -m training.bars draco_and_co/ppo-v1 [--players N[,M...]] [--option KEY=VALUE ...] [--games 1000] [--mcts-games 48] [--workers 2] [--ray [ADDRESS]] [--journal DIR] [--record]

Player counts: every count the game allows (its spec's min_players..max_players), so a new game gets
its bars with no code; `--players N` (or a list, `--players 2,4`) checks those counts only. Game options
(`--option level=legendary`, repeatable) set the variant played; a model trained on several variants is
checked in each by one run per variant.

Bars, at each count (seat-rotated games over duplicate deals, `training.tournament`; `bars_for`):
- 2 players: the model beats random in at least 90% of games and the heuristic in at least 55%;
- more players: against random opponents its win share is at least twice random's, and against
  heuristic opponents it is above the heuristic's.
No bar against information-set MCTS at 1,000 simulations yet: the head-to-head is measured with
--mcts-games (the model and MCTS in one game, the other seats random) at each count and recorded.

It prints each count's checks and tournaments, then a table of counts x bars. `--record` writes every
tournament into the model's manifest (evaluation["<n>p:<lineup>"], as `d2r eval --manifest` does) and
each count's verdict under evaluation["bars"]["<n>"], or "<n>[key=value,...]" with options (other
verdicts already there are kept).

`--journal DIR` writes each tournament's finished deals to a file in DIR as they end
(training/journal.py): the same command run again after a stop plays only the missing deals, with the
same results. Worth it for --mcts-games, hours on a small machine.

Exit status: 0 when every bar passes at every count checked, 1 when one fails, 2 when the model or an
argument is refused (a missing or tampered model, a player count the game does not allow) before any
game is played.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as _dt
import json
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from d2r_envs.core import config as game_config
from training import report, tournament
from training.config import allowed_counts
from training.manifest import evaluation_key, evaluation_summary, record_evaluation, resolve_model_dir


@dataclass(frozen=True)
class Bar:
    """One bar: the model against `opponent` in every other seat.

    kind "share": the model's win share at least `level`; "times": at least `level` times the
    opponent's (per seat); "above": above the opponent's."""

    opponent: str
    kind: str
    level: float = 0.0

    @property
    def name(self) -> str:
        return f"vs {self.opponent}"

    def describe(self) -> str:
        if self.kind == "share":
            return f"at least {self.level:.0%} of games won"
        if self.kind == "times":
            return f"at least {'twice' if self.level == 2 else f'{self.level:g} times'} {self._theirs()} win share"
        return f"above {self._theirs()} win share"

    def _theirs(self) -> str:
        return "the heuristic's" if self.opponent == "heuristic" else f"{self.opponent}'s"

    def passes(self, model: float, opponent: float) -> bool:
        if self.kind == "share":
            return model >= self.level
        if self.kind == "times":
            return model >= self.level * opponent
        return model > opponent

    def threshold(self, opponent: float) -> str:
        """The share to reach, as text."""
        if self.kind == "share":
            return f"{self.level:.0%}"
        if self.kind == "times":
            return f"{self.level * opponent:.1%}"
        return f"> {opponent:.1%}"


def bars_for(players: int) -> list[Bar]:
    """The bars at a player count, the same for every game."""
    if players == 2:
        return [Bar("random", "share", 0.90), Bar("heuristic", "share", 0.55)]
    return [Bar("random", "times", 2.0), Bar("heuristic", "above")]


def bar_note(players: int, opponent: str, model: float, theirs: float) -> str:
    """The bar against `opponent` at `players` beside a measured win share (`model`, and `theirs`: the
    opponent's per seat), for a progress line: "bar 55%, met", "bar 20.0%: twice random's 10.0%, not
    met"; "" when the project has no bar against that opponent."""
    bar = next((b for b in bars_for(players) if b.opponent == opponent), None)
    if bar is None:
        return ""
    verdict = "met" if bar.passes(model, theirs) else "not met"
    if bar.kind == "share":
        return f"bar {bar.threshold(theirs)}, {verdict}"
    if bar.kind == "times":
        return f"bar {bar.threshold(theirs)}: {bar.describe().removeprefix('at least ')} {theirs:.1%}, {verdict}"
    return f"bar: {bar.describe()} {theirs:.1%}, {verdict}"


def default_counts(game: str) -> list[int]:
    """The counts checked when none is asked for: every count `game` allows (its spec's range)."""
    return allowed_counts(game)


def _share(result: dict, agent: str) -> float:
    return result["agents"][agent]["win_share"]


def journal_path(folder: str | Path | None, players: int, options: dict[str, Any] | None, opponent: str) -> Path | None:
    """The journal of the tournament against `opponent` at `players`, in `folder` (None without one)."""
    if folder is None:
        return None
    label = game_config.label(options or {})
    name = f"{players}p{label}-{opponent}".replace(":", "-").replace("/", "-").replace(" ", "")
    return Path(folder) / f"{name}.jsonl"


def check(model: str, game: str, players: int, games: int, workers: int, seed: int,
          options: dict[str, Any] | None = None, ray_address: str | None = None,
          journal: str | Path | None = None) -> tuple[bool, dict[str, dict], list[dict]]:
    """The bars at one count: (all passed, {opponent: tournament result}, one verdict per bar). The
    tournament against the k-th bar's opponent is seeded `seed + k`, so 4 players with the default seed
    plays the games this command played before it checked several counts. `journal`: a folder for the
    tournaments' journals (`journal_path`)."""
    results: dict[str, dict] = {}
    verdicts: list[dict] = []
    ok = True
    for k, bar in enumerate(bars_for(players)):
        result = tournament.evaluate(game, [model, bar.opponent], players, games, seed + k, workers=workers,
                                     progress=True, options=options, ray_address=ray_address,
                                     journal=journal_path(journal, players, options, bar.opponent))
        results[bar.opponent] = result
        m, o = _share(result, model), _share(result, bar.opponent)
        passed = bar.passes(m, o)
        ok &= passed
        if bar.kind == "share":
            text = f"{bar.name}: {m:.1%} of games won (bar {bar.level:.0%})"
        else:
            text = f"{bar.name}: win share {m:.1%}, {bar._theirs()} {o:.1%} (bar: {bar.describe()})"
        print(f"- {'PASS' if passed else 'FAIL'}: {text}")
        verdicts.append({"bar": bar.name, "opponent": bar.opponent, "rule": bar.describe(), "passed": passed,
                         "win_share": m, "opponent_win_share": o, "games": result["games"]})
    return ok, results, verdicts


def _cell(bar: Bar, verdict: dict) -> str:
    m, o = verdict["win_share"], verdict["opponent_win_share"]
    theirs = "" if bar.kind == "share" else f", {bar._theirs()} {o:.1%}"
    return f"{'PASS' if verdict['passed'] else 'FAIL'} {m:.1%}{theirs} (bar {bar.threshold(o)})"


def table(rows: dict[int, dict]) -> str:
    """Counts x bars in markdown: {players: {"verdicts": [...], "passed": bool, "mcts": text or None}}."""
    names = list(dict.fromkeys(v["bar"] for row in rows.values() for v in row["verdicts"]))
    mcts = any(row.get("mcts") for row in rows.values())
    head = ["players", *names] + (["vs MCTS (measured)"] if mcts else []) + ["bars"]
    lines = ["| " + " | ".join(head) + " |", "|---:|" + "---|" * (len(head) - 1)]
    for n, row in rows.items():
        bars = {b.name: b for b in bars_for(n)}
        cells = {v["bar"]: _cell(bars[v["bar"]], v) for v in row["verdicts"]}
        line = [str(n), *(cells.get(name, "-") for name in names)]
        line += [row.get("mcts") or "-"] if mcts else []
        line.append("pass" if row["passed"] else "**FAIL**")
        lines.append("| " + " | ".join(line) + " |")
    return "\n".join(lines)


def record_bars(model_dir: Path, verdicts: dict[int, dict[str, Any]], options: dict[str, Any] | None = None) -> Path:
    """Write each count's verdict into the manifest under evaluation["bars"][str(count)] (with options,
    "<count>[key=value,...]"), keeping the verdicts already recorded there and everything else."""
    path = model_dir / "manifest.json" if model_dir.is_dir() else model_dir
    manifest = json.loads(path.read_text())
    bars = (manifest.get("evaluation") or {}).get("bars")
    bars = dict(bars) if isinstance(bars, dict) else {}
    bars.update({f"{n}{game_config.label(options or {})}": v for n, v in verdicts.items()})

    def order(item: tuple[str, Any]) -> tuple[int, str]:
        count, _, rest = item[0].partition("[")
        return (int(count), rest) if count.isdigit() else (10**6, item[0])

    return record_evaluation(model_dir, "bars", dict(sorted(bars.items(), key=order)))


def _counts(text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a player count or a list such as 2,4, got {text!r}") from None
    if not counts:
        raise argparse.ArgumentTypeError(f"expected a player count or a list such as 2,4, got {text!r}")
    return list(dict.fromkeys(counts))


def _ray(address: str | None, workers: int):
    """A Ray instance for the block when --ray is given (training/ray_cluster.py), else nothing."""
    if address is None:
        return contextlib.nullcontext()
    from training.ray_cluster import connected

    return connected(address or None, workers if not address and workers > 1 else None)


def _check_count(args: argparse.Namespace, game: str, n: int, options: dict[str, Any], model_dir: Path | None,
                 command: str, rows: dict[int, dict], verdicts: dict[int, dict]) -> None:
    """The bars (and the measured MCTS games) at `n` players, printed, recorded, and added to rows and verdicts."""
    print(f"## {game}, {n} players{' ' + game_config.label(options) if options else ''}\n")
    ok, results, checks = check(args.model, game, n, args.games, args.workers, args.seed, options, args.ray,
                                args.journal)
    mcts_text = None
    if args.mcts_games:
        mcts = f"mcts:{args.mcts_simulations}"
        lineup = [args.model, mcts] + ["random"] * (n - 2)
        results["mcts"] = tournament.evaluate(game, lineup, n, args.mcts_games, args.seed + 2,
                                              workers=args.workers, progress=True, options=options,
                                              ray_address=args.ray, journal=journal_path(args.journal, n, options, mcts))
        m, t = _share(results["mcts"], args.model), _share(results["mcts"], mcts)
        others = " (other seats random)" if n > 2 else ""
        print(f"- measured: model vs MCTS({args.mcts_simulations}) in the same games{others}: "
              f"win share {m:.1%} vs {t:.1%}")
        mcts_text = f"{m:.1%} vs MCTS({args.mcts_simulations}) {t:.1%} ({results['mcts']['games']} games)"
    for name, result in results.items():
        print(f"\n### {n} players: {name}\n")
        print(report.to_markdown(result))
        if model_dir is not None:
            record_evaluation(model_dir, evaluation_key(result), evaluation_summary(result))
    print()
    rows[n] = {"verdicts": checks, "passed": ok, "mcts": mcts_text}
    verdicts[n] = {"date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"), "command": command,
                   "seed": args.seed, "passed": ok, "bars": checks}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.bars", description=__doc__.split("\n\n")[0])
    parser.add_argument("model", help="an exported model id or folder, e.g. draco_and_co/ppo-v1")
    parser.add_argument("--players", type=_counts, metavar="N[,M...]",
                        help="the player counts to check (default: every count the game allows)")
    parser.add_argument("--option", "-o", action="append", metavar="KEY=VALUE",
                        help="a game option (the variant checked), value read as JSON when it parses; repeatable")
    parser.add_argument("--games", type=int, default=1000, help="games per tournament, at each count (default 1000)")
    parser.add_argument("--mcts-games", type=int, default=0, help="games of the model vs MCTS with random fillers, at each count")
    parser.add_argument("--mcts-simulations", type=int, default=1000, help="MCTS budget per move (default 1000)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--ray", nargs="?", const="", metavar="ADDRESS",
                        help="play the deals as Ray tasks, on a local Ray instance (no ADDRESS) or a cluster (auto, "
                        "HEAD:6379); the same results as without (rllib extra)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--journal", metavar="DIR", help="write each tournament's finished deals to a file in DIR as "
                        "they end; run the same command again to resume a stopped check")
    parser.add_argument("--record", action="store_true", help="write the results into the model's manifest.json")
    args = parser.parse_args(argv)
    import d2r_envs
    from d2r_envs.opponents import OpponentError, load_opponent

    try:
        options = game_config.parse_items(args.option)
        policy = load_opponent(args.model)
        game = policy.game
        counts = args.players or default_counts(game)
        for n in counts:
            d2r_envs.make_game(game, n, **options)  # a bad --players or --option is refused here, before any game
        for key in ("games", "workers"):
            if getattr(args, key) < 1:
                raise ValueError(f"--{key} must be at least 1, got {getattr(args, key)}")
        if args.mcts_games < 0 or args.mcts_simulations < 1:
            raise ValueError("--mcts-games must be at least 0 and --mcts-simulations at least 1")
        model_dir = resolve_model_dir(args.model) if args.record else None
    except (OpponentError, ValueError) as err:
        print(f"python -m training.bars: error: {err}", file=sys.stderr)
        return 2
    command = shlex.join(["python", "-m", "training.bars", *(sys.argv[1:] if argv is None else argv)])
    rows: dict[int, dict] = {}
    verdicts: dict[int, dict] = {}
    with _ray(args.ray, args.workers):  # one Ray instance for every tournament (none without --ray)
        for n in counts:
            _check_count(args, game, n, options, model_dir, command, rows, verdicts)
    print(f"## Bars: {args.model}{' ' + game_config.label(options) if options else ''}, {args.games} games per tournament\n")
    print(table(rows))
    failed = [f"{n} players ({', '.join(v['bar'] for v in row['verdicts'] if not v['passed'])})"
              for n, row in rows.items() if not row["passed"]]
    print(f"\n{'FAIL at ' + '; '.join(failed) if failed else 'every bar passes at every count checked'}")
    if model_dir is not None:
        path = record_bars(model_dir, verdicts, options)
        print(f"recorded every count's tournaments and verdicts in {path}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
