"""A benchmark result: its schema, its file, its table, and the validator (`d2r benchmark validate FILE`).

A result (schema "d2r-bench-result/1") is a JSON object:
- `schema`, `benchmark`, `version`, `suite`; `subset`: null, or N when only the first N deals of each
  task were played (a quick look, which the validator refuses as a benchmark result);
- `entrants`: each model's record (its id, game, weights' SHA-256, observation options, architecture,
  the player counts and options it was trained for);
- `tasks`: every task of the suite, in its order, by id: the task's game, player count, options and
  pins (game version, layout fingerprints and sizes), then either `status` "not played" with a
  `reason`, or `status` "scored" with the `entrant`, the deal list (`seed`, `deals`,
  `deal_list_sha256`), the `anchors` it was scored with, `score` and `score_ci`, and under `vs` the
  entrant's matches against the `heuristic` and the `random` lineup (and with `--ladder` against every
  other reference of the task's shipped ladder, on the ladder's deals): `win_share`, `win_share_ci` and
  `per_deal_wins` (one digit a deal: the entrant's wins over the deal's rotations); where the benchmark
  ships the task's reference ladder, `ladder`: the entrant's rating on it from those matches
  (training/benchmark/ladder.py: `elo`, `elo_ci`, the references `against`);
- `run`: how it was made (command, date, workers, wall-clock seconds, package versions, machine), the
  only part that differs between two runs of the same command.

The validator checks a result against the shipped benchmark of this version: the version, the suite's
tasks all present and no others, each task's pins, its deal list and anchors as shipped, and every
figure recomputed from the per-deal wins, the anchors and the ladder (an edited score, win share or
rating does not match).
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

from training.benchmark import ladder
from training.benchmark.entrant import cannot_play
from training.benchmark.score import task_score
from training.benchmark.tasks import BENCHMARK, PIN_WORDS, VERSION, Task, deal_list_sha256, load

SCHEMA = "d2r-bench-result/1"
LINEUPS = ("heuristic", "random")  # the lineups an entrant meets; the score is against the first
TOLERANCE = 1e-9


def _digits(wins: list[int]) -> str:
    return "".join(str(w) for w in wins)


def task_entry(task: Task, entrant: str | None, *, reason: str | None = None, count: int | None = None,
               per_deal: dict[str, list[int]] | None = None) -> dict[str, Any]:
    """A task's part of a result: not played (`reason`), or scored by `entrant` on the first `count` deals,
    `per_deal` holding its wins in each deal against each reference lineup."""
    entry: dict[str, Any] = {"game": task.game, "num_players": task.num_players, "options": task.options,
                             **task.pins()}
    if entrant is None:
        return {**entry, "status": "not played", "reason": reason}
    assert count is not None and per_deal is not None
    w_random, w_heuristic = task.score_anchors()
    scored = task_score(per_deal["heuristic"], task.num_players, w_random, w_heuristic)
    vs = {}
    for reference in [*LINEUPS, *sorted(set(per_deal) - set(LINEUPS))]:
        figures = task_score(per_deal[reference], task.num_players, w_random, w_heuristic)
        vs[reference] = {"win_share": figures["win_share"], "win_share_ci": figures["win_share_ci"],
                         "per_deal_wins": _digits(per_deal[reference])}
    shipped = ladder.task_ladder(task.id)
    rating = {"ladder": ladder.rate(task, shipped, per_deal)} if shipped else {}
    return {
        **entry,
        "status": "scored",
        "entrant": entrant,
        "seed": task.seed,
        "deals": count,
        "deal_list_sha256": deal_list_sha256(task.seed, count),
        "anchors": {name: {"wins": a.wins, "seat_games": a.seat_games} for name, a in task.anchors.items()},
        "score": scored["score"],
        "score_ci": scored["score_ci"],
        "vs": vs,
        **rating,
    }


def deterministic_part(result: dict[str, Any]) -> dict[str, Any]:
    """The result without `run`: what the same command gives byte for byte, with any number of workers."""
    return {k: v for k, v in result.items() if k != "run"}


def dumps(result: dict[str, Any]) -> str:
    return json.dumps(result, indent=1, allow_nan=False) + "\n"


def write(result: dict[str, Any], file: str | Path) -> Path:
    """Write the result to `file` (replaced atomically; its folder made)."""
    file = Path(file)
    file.parent.mkdir(parents=True, exist_ok=True)
    tmp = file.with_name(f".{file.name}.tmp")
    tmp.write_text(dumps(result), encoding="utf-8")
    os.replace(tmp, file)
    return file


# Reading and validating ---------------------------------------------------------------------------


class Invalid(ValueError):
    """A result that is not a valid benchmark result; `problems` lists what is wrong, one line each."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def read(file: str | Path) -> dict[str, Any]:
    try:
        data = json.loads(Path(file).read_text(encoding="utf-8"))
    except OSError as e:
        raise ValueError(f"{file}: {e.strerror or e}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"{file}: not a JSON file: {e}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{file}: a JSON {type(data).__name__}, expected an object (a benchmark result)")
    return data


def close(a: Any, b: float) -> bool:
    return isinstance(a, (int, float)) and not isinstance(a, bool) and math.isfinite(a) and abs(a - b) <= TOLERANCE


def close_pair(a: Any, b: list[float]) -> bool:
    return isinstance(a, list) and len(a) == 2 and all(close(x, y) for x, y in zip(a, b))


def per_deal(text: Any, deals: int, n: int, where: str, problems: list[str]) -> list[int] | None:
    if not isinstance(text, str) or len(text) != deals or any(c not in "0123456789" or int(c) > n for c in text):
        problems.append(f"{where}: per_deal_wins must be {deals} digits from 0 to {n} (one a deal)")
        return None
    return [int(c) for c in text]


def check_scored(task: Task, entry: dict[str, Any], problems: list[str], subset: int | None = None) -> None:
    """The problems of a scored task entry, appended to `problems`; `subset`: played on the first deals only."""
    where = f"task {task.id}"
    count = task.deals if subset is None else subset
    seed, deals, digest = entry.get("seed"), entry.get("deals"), entry.get("deal_list_sha256")
    if (seed, deals, digest) != (task.seed, count, deal_list_sha256(task.seed, count)):
        played = (f"{deals} deals from seed {seed}" if isinstance(deals, int) and isinstance(seed, int)
                  else f"deals {deals!r}, seed {seed!r}")
        problems.append(f"{where}: the deal list differs from {BENCHMARK} v{VERSION}'s: played {played} "
                        f"(sha256 {str(digest)[:12]}), the benchmark's is {count} deals from seed {task.seed} "
                        f"(sha256 {deal_list_sha256(task.seed, count)[:12]})")
        return
    anchors = {name: {"wins": a.wins, "seat_games": a.seat_games} for name, a in task.anchors.items()}
    if entry.get("anchors") != anchors:
        problems.append(f"{where}: the anchors {entry.get('anchors')!r} are not the shipped ones {anchors!r}")
        return
    vs = entry.get("vs")
    shipped = ladder.task_ladder(task.id)
    others = sorted(set(vs) - set(LINEUPS)) if isinstance(vs, dict) else []
    if not isinstance(vs, dict) or not set(LINEUPS) <= set(vs):
        problems.append(f"{where}: 'vs' must hold the matches against {' and '.join(LINEUPS)}")
        return
    if others and (shipped is None or not set(others) <= set(shipped["references"])):
        problems.append(f"{where}: 'vs' holds {', '.join(others)}: only the references of the task's shipped ladder "
                        "may join the heuristic and random lineups")
        return
    w_random, w_heuristic = task.score_anchors()
    played: dict[str, list[int]] = {}
    for reference in [*LINEUPS, *others]:
        match = vs[reference]
        if not isinstance(match, dict):
            problems.append(f"{where}: vs.{reference} is not an object")
            continue
        deals = count if reference in LINEUPS else ladder.entrant_deals(reference)
        wins = per_deal(match.get("per_deal_wins"), deals, task.num_players, f"{where}, vs {reference}", problems)
        if wins is None:
            continue
        played[reference] = wins
        figures = task_score(wins, task.num_players, w_random, w_heuristic)
        for key in ("win_share", "win_share_ci"):
            ok = close_pair if key.endswith("_ci") else close
            if not ok(match.get(key), figures[key]):
                problems.append(f"{where}: vs {reference}: {key} {match.get(key)!r} is not what its per-deal wins give "
                                f"({figures[key]!r}): the figure was edited")
        if reference == "heuristic":
            for key in ("score", "score_ci"):
                ok = close_pair if key.endswith("_ci") else close
                if not ok(entry.get(key), figures[key]):
                    problems.append(f"{where}: {key} {entry.get(key)!r} is not what the per-deal wins against the "
                                    f"heuristic lineup and the anchors give ({figures[key]!r}): the score was edited")
    if "ladder" in entry and len(played) == len(LINEUPS) + len(others):
        if shipped is None:
            problems.append(f"{where}: a ladder rating, but {BENCHMARK} v{VERSION} ships no ladder for the task")
        elif entry["ladder"] != ladder.rate(task, shipped, played):
            problems.append(f"{where}: the ladder rating {entry['ladder']!r} is not what the per-deal wins and the "
                            f"shipped ladder give ({ladder.rate(task, shipped, played)!r}): the rating was edited")


def _can_play(record: dict[str, Any], task: Task) -> bool:
    try:
        return cannot_play(record, task) is None
    except (KeyError, TypeError):  # a record without what it takes to tell
        return False


def validate(result: dict[str, Any]) -> list[str]:
    """What is wrong with `result` as a benchmark result of the shipped version ([] when nothing is)."""
    if result.get("schema") != SCHEMA:
        return [f"schema {result.get('schema')!r}: this validator reads {SCHEMA!r}"]
    if result.get("benchmark") != BENCHMARK or result.get("version") != VERSION:
        return [f"a result for {result.get('benchmark')} v{result.get('version')}; this is {BENCHMARK} v{VERSION}: "
                f"it is validated by the version it was made for"]
    bench = load()
    suite = result.get("suite")
    if suite not in bench.suites:
        return [f"suite {suite!r} is not in {BENCHMARK} v{VERSION}; its suites: {', '.join(bench.suites)}"]
    problems = []
    if result.get("subset") is not None:
        problems.append(f"played on the first {result['subset']} deals of each task (--deals): a quick look, "
                        "not a benchmark result")
    tasks = result.get("tasks")
    if not isinstance(tasks, dict):
        return problems + ["'tasks' is not an object of task results by id"]
    entrants = {e.get("model"): e for e in result.get("entrants") or [] if isinstance(e, dict)}
    for task in bench.suite(suite):
        entry = tasks.get(task.id)
        where = f"task {task.id}"
        if entry is None:
            problems.append(f"{where} of suite {suite} is missing")
            continue
        if not isinstance(entry, dict):
            problems.append(f"{where}: not an object")
            continue
        made = {"game": task.game, "num_players": task.num_players, "options": task.options, **task.pins()}
        for key, value in made.items():
            if entry.get(key) != value:
                problems.append(f"{where}: {PIN_WORDS.get(key, key)} {entry.get(key)!r}; "
                                f"{BENCHMARK} v{VERSION} has {value!r}")
        status = entry.get("status")
        if status == "not played":
            if not isinstance(entry.get("reason"), str) or not entry["reason"]:
                problems.append(f"{where}: not played, with no reason given")
            able = [name for name, record in entrants.items() if _can_play(record, task)]
            if able:
                problems.append(f"{where}: not played, but the entrant {able[0]} can play it (as its record says)")
        elif status == "scored":
            if entry.get("entrant") not in entrants:
                problems.append(f"{where}: its entrant {entry.get('entrant')!r} is not among the result's entrants")
            check_scored(task, entry, problems)
        else:
            problems.append(f"{where}: status {status!r}; allowed: scored, not played")
    extra = [t for t in tasks if t not in bench.suites[suite]]
    if extra:
        problems.append(f"task(s) {', '.join(map(str, extra))} not in suite {suite}")
    return problems


# The table ---------------------------------------------------------------------------------------


def _ci(pair: list[float], digits: int) -> str:
    return f"{pair[0]:.{digits}f} to {pair[1]:.{digits}f}"


def to_markdown(result: dict[str, Any]) -> str:
    subset = result.get("subset")
    lines = [f"# {result['benchmark']} v{result['version']}, suite {result['suite']}: "
             f"{', '.join(e['model'] for e in result['entrants'])}", ""]
    if subset is not None:
        lines += [f"**Not a benchmark result: the first {subset} deals of each task only (--deals).** "
                  "The intervals are wide and `d2r benchmark validate` refuses it.", ""]
    rated: list[str] = []
    lines += ["| task | entrant | score (95% CI) | win share vs heuristic lineup (95% CI) "
              "| vs random lineup (95% CI) | deals |",
              "|---|---|---|---|---|---:|"]
    for task_id, e in result["tasks"].items():
        if e["status"] != "scored":
            lines.append(f"| {task_id} | not played: {e['reason']} | | | | |")
            continue
        h, r = e["vs"]["heuristic"], e["vs"]["random"]
        lines.append(f"| {task_id} | {e['entrant']} | {e['score']:.2f} ({_ci(e['score_ci'], 2)}) "
                     f"| {h['win_share']:.3f} ({_ci(h['win_share_ci'], 3)}) "
                     f"| {r['win_share']:.3f} ({_ci(r['win_share_ci'], 3)}) | {e['deals']} |")
        if "ladder" in e:
            others = ", ".join(f"{ref} {m['win_share']:.3f}" for ref, m in e["vs"].items() if ref not in LINEUPS)
            rated.append(f"- {task_id}: {e['ladder']['elo']:.0f} Elo ({_ci(e['ladder']['elo_ci'], 0)}) against "
                         f"{len(e['ladder']['against'])} references (heuristic 1000)" + (f"; win shares {others}" if others else ""))
    lines += ["", "score: 0 = random play, 1 = the heuristic, against the heuristic lineup on the task's shipped deals "
              "(`d2r benchmark list` gives the anchors)."]
    if rated:
        lines += ["", "Ratings on the frozen reference ladder:", *rated]
    return "\n".join(lines)
