"""Tournaments between agents, on duplicate deals with seat rotation (training/deals.py), summarised
with intervals and ratings (training/stats.py).

    evaluate("draco_and_co", ["draco_and_co/ppo-v1", "heuristic"], 4, 400, seed=0, workers=2)

The number of games asked for is rounded up to whole deals: ceil(games / n) deals x n rotations of
the lineup. A game still running after `max_decisions` player decisions (default: the game's
`max_game_length`) is cut off and counts as a no-winner game. The deals are played in this process,
on `workers` processes, or as Ray tasks (training/ray_eval.py); a journal (training/journal.py) keeps
the finished ones, so a stopped tournament resumes. Whichever way, the same seed gives the same result.
"""

from __future__ import annotations

import datetime as _dt
import multiprocessing
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import d2r_envs
from d2r_envs import replay
from training import pools
from training.deals import WORKER, AgentFactory, Setup, build_agents, distinct, init_worker, make_lineup, play_deal
from training.journal import Journal
from training.stats import RATING_METHOD, summarise


class Stopped(KeyboardInterrupt):
    """Ctrl-C during a tournament. `result` is the summary of the deals finished before it (None if none
    was), with `result["stopped"]` saying how far it got."""

    def __init__(self, message: str, result: dict[str, Any] | None) -> None:
        super().__init__(message)
        self.result = result

    def __reduce__(self) -> tuple[Any, ...]:  # whole across processes (a pool's worker to its parent)
        return Stopped, (str(self), self.result)


def evaluate(
    game: str,
    agents: Sequence[str],
    num_players: int,
    games: int,
    seed: int,
    workers: int = 1,
    options: dict[str, Any] | None = None,
    *,
    factory: AgentFactory | None = None,
    max_decisions: int | None = None,
    progress: bool = False,
    command: str | None = None,
    ray_address: str | None = None,
    ray_retries: int | None = None,
    trace: bool = False,
    journal: str | Path | None = None,
) -> dict[str, Any]:
    """Play the tournament and return the full result (JSON-ready; see the module docstring).

    `ray_address`: None plays on this process and `workers` processes; otherwise the deals are Ray
    tasks (training/ray_eval.py): "" on a local Ray instance (`workers` CPUs when above 1, else every
    core; an instance this process already runs is used as it is), "auto" or HOST:PORT on that cluster.
    The same seed gives the same result either way; a deal Ray lost (`ray_retries`, default 3, spent)
    raises `training.ray_eval.LostDeals` naming the deals. `trace`: each record also holds its game's
    actions, chance outcomes included (`replays` turns them into replay files' contents). `journal`: a
    file each finished deal is written to as it ends; a tournament stopped part-way and run again with the
    same settings and journal plays only the deals missing there, with the same result (training/journal.py).
    Ctrl-C stops the tournament and its worker processes or Ray tasks and raises `Stopped`, which holds the
    summary of the deals finished before it.

    `agents`: specs for `make_agent`, or for `factory(spec, game, engine)` when given (a picklable
    module-level function, to use with workers > 1). `games` is rounded up to whole deals of
    `num_players` rotations. `max_decisions` caps each game (default: the game's max_game_length).
    Raises ValueError, one line, for a bad game, option, player count, agent spec or count.
    """
    options = dict(options or {})
    if isinstance(agents, str):
        agents = [a for a in agents.split(",") if a]
    agents = [str(a).strip() for a in agents]
    if any(not a for a in agents):
        raise ValueError("an empty agent spec in the list")
    if isinstance(num_players, bool) or not isinstance(num_players, int):
        raise ValueError(f"the number of players must be a whole number, got {num_players!r}")
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"the seed must be a whole number >= 0, got {seed!r}")
    if ray_address:  # a cluster that cannot be reached is named before anything runs
        from training.ray_cluster import check_reachable

        check_reachable(ray_address)
    engine = d2r_envs.make_game(game, num_players, **options)  # ValueError for a bad game / count / option
    spec = engine.spec
    lineup = make_lineup(agents, num_players)
    names = distinct(lineup)
    built = build_agents(names, game, engine, factory)  # refuses a bad spec before anything runs
    cap = spec.max_game_length if max_decisions is None else int(max_decisions)
    if cap < 1:
        raise ValueError(f"max_decisions must be at least 1, got {max_decisions}")
    n = num_players
    deals = -(-games // n)
    setup = Setup(game, options, n, lineup, seed, cap, factory, trace)

    started = time.perf_counter()
    records: list[dict[str, Any]] = []
    timing = {a: [0.0, 0.0] for a in names}
    book = None
    if journal is not None:
        book = Journal(journal, {"game": game, "game_version": spec.version, "options": options, "num_players": n,
                                 "lineup": lineup, "seed": seed, "max_decisions": cap, "trace": trace})
        stray = sorted(d for d in book.done if d >= deals)
        if stray:
            book.close()
            raise ValueError(f"journal {str(journal)!r} holds deal {stray[0]}, past this tournament's {deals} deals; "
                             "ask for at least as many games as it was started with, or use another file")
    todo = [d for d in range(deals) if book is None or d not in book.done]
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=deals * n, initial=(deals - len(todo)) * n, desc=f"eval {game} x{n}", unit="game",
                   file=sys.stderr)

    def collect(chunk: tuple[list[dict[str, Any]], dict[str, list[float]]]) -> None:
        recs, t = chunk
        records.extend(recs)
        for a, (moves, seconds) in t.items():
            timing[a][0] += moves
            timing[a][1] += seconds

    def finished(deal: int, chunk: tuple[list[dict[str, Any]], dict[str, list[float]]]) -> None:
        collect(chunk)
        if book is not None:
            book.add(deal, *chunk)
        if bar is not None:
            bar.update(len(chunk[0]))

    if book is not None:
        for d in sorted(book.done):
            collect(book.done[d])
    stopped = False
    try:
        if not todo:
            pass
        elif ray_address is not None:
            from training import ray_eval
            from training.ray_cluster import connected

            with connected(ray_address or None, workers if not ray_address and workers > 1 else None):
                retries = ray_eval.DEFAULT_RETRIES if ray_retries is None else ray_retries
                ray_eval.play_deals(setup, engine, built, todo, retries=retries, on_deal=finished)
        elif workers == 1 or len(todo) == 1:
            init_worker(setup, engine, built)
            try:
                for d in todo:
                    finished(d, play_deal(d))
            finally:
                WORKER.clear()
        else:
            # spawn: safe with torch (model agents) in the parent; a worker that cannot start
            # raises BrokenProcessPool instead of hanging the way multiprocessing.Pool does.
            ctx = multiprocessing.get_context("spawn")
            pool = ProcessPoolExecutor(min(workers, len(todo)), mp_context=ctx, initializer=init_worker,
                                       initargs=(setup,))
            try:
                with pools.ctrl_c_held_back():  # the workers start as the deals are handed out
                    if book is None:  # results in order of deals
                        chunk = pools.chunk_size(len(todo), workers)
                        results = zip(todo, pools.in_order(pool, play_deal, todo, chunk))
                    else:  # one deal a task, journaled as it ends, whatever the order
                        futures = {pool.submit(play_deal, d): d for d in todo}
                        results = ((futures[f], f.result()) for f in as_completed(futures))
                for d, result in results:
                    finished(d, result)
            except BaseException:  # an error or Ctrl-C: the workers stop at once; what ended is kept
                pools.stop(pool)
                raise
            pool.shutdown()
    except KeyboardInterrupt:
        stopped = True
    finally:
        if bar is not None:
            bar.close()
        if book is not None:
            book.close()
    records.sort(key=lambda r: (r["deal"], r["rotation"]))  # deal order, however they were played
    wall = time.perf_counter() - started
    played = len({r["deal"] for r in records})  # whole deals: a deal stopped part-way is not kept

    summary = summarise(records, lineup, spec.max_return, timing, spec.min_return)
    if command is None:
        command = (
            f"training.tournament.evaluate({game!r}, {list(agents)!r}, {num_players}, {games}, {seed}, "
            f"workers={workers}, options={options!r})"
        )
    result = {
        "command": command,
        "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "d2r_envs_version": d2r_envs.__version__,
        "game": game,
        "game_version": spec.version,
        "options": options,
        "num_players": n,
        "agent_list": list(agents),
        "lineup": lineup,
        "seed": seed,
        "chance_seeds": f"SeedSequence([{seed}, d]) for deal d in 0..{deals - 1}",
        "agent_seeds": f"SeedSequence([{seed}, d], spawn_key=(rotation, seat))",
        "games_requested": games,
        "deals": played,
        "rotations": n,
        "max_decisions": cap,
        "workers": workers,
        "ray": None if ray_address is None else (ray_address or "local"),
        "wall_seconds": wall,
        "rating_method": RATING_METHOD,
        **summary,
        "records": records,
    }
    if stopped:
        result["stopped"] = f"stopped after {len(records)} of {deals * n} games ({played} of {deals} deals)"
        raise Stopped(result["stopped"], result if records else None)
    return result


def replays(result: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(file name, replay) for each game of a result played with `trace`, its chance outcomes among
    its actions (d2r_envs/replay.py, chance "recorded"); the records then no longer hold the actions."""
    out = []
    for rec in result["records"]:
        actions = rec.pop("actions")
        data = replay.make(result["game"], result["num_players"], result["options"], result["seed"], rec["seats"],
                           actions, rec["returns"], rec["truncated"], chance="recorded")
        out.append((f"{result['game']}_{result['seed']}_deal{rec['deal']:05d}_rot{rec['rotation']}.json", data))
    return out


def deterministic_part(result: dict[str, Any]) -> dict[str, Any]:
    """The result without what varies between runs of the same seed (date, timings, workers, Ray)."""
    out = {k: v for k, v in result.items() if k not in ("date", "wall_seconds", "workers", "ray", "command")}
    out["agents"] = {a: {k: v for k, v in e.items() if k != "timing"} for a, e in result["agents"].items()}
    return out
