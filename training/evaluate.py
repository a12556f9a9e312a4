"""Tournaments between agents, on duplicate deals with seat rotation; `d2r eval` runs this.

    d2r eval draco_and_co --agents draco_and_co/ppo-v1,heuristic --players 4 --games 400

Lineup. The seats are filled from the list of agent specs (see `make_agent`: "random",
"heuristic", "mcts:<n>", a model id or path). A list as long as the seats is the lineup itself,
seat by seat (`--lineup model,random,random,random`). A shorter list puts its first agent in one
seat and cycles the others (the opponents) over the remaining seats: `["model", "random"]` at 4
players is model, random, random, random (the model against three random players);
`["a", "b", "c"]` at 5 players is a, b, c, b, c; `["random"]` fills every seat.

Duplicate deals and rotation. Deal d (d = 0, 1, ...) resolves chance with a numpy Generator
seeded by `np.random.SeedSequence([seed, d])`, through `game.sample_chance`; the deal is played
n times (n = players), once per rotation r of the lineup round the table (seat s holds
`lineup[(s - r) % n]`), and the chance stream restarts from the same seed each time. So every
lineup slot sits in every seat of every deal once, and the luck of the deal cancels. The number of
games asked for is rounded up to whole deals: ceil(games / n) deals x n rotations. Each seat gets
its own agent stream per game, `SeedSequence([seed, d], spawn_key=(r, seat))`, independent of the
chance stream: the same seed gives the same games, with any number of workers.

A game still running after `max_decisions` player decisions (the game's `max_game_length`) is cut
off and counts as a no-winner game: every seat gets the game's `min_return`. A seat wins when its
return is the game's `max_return`.

Statistics, per distinct agent:
- win share = wins / seats played, with a 95% Wilson interval (each seat-game counted as a
  trial); `chance_win_share` = 1/n is what an agent would get if every game had one winner drawn
  at random;
- mean return with a 95% t interval over deals: the agent's returns are averaged within each deal
  (its rotations and seats there share the deal's luck, so they are not independent) and the
  interval is taken over those per-deal means, clipped to the game's return range; with a single
  deal no interval is given;
- seconds per move (wall clock around `act`; the only part of the result that varies between
  runs).

Rating (openskill PlackettLuce, default parameters, one rating per distinct agent, all starting at
mu = 25, sigma = 25/3). Every game, truncated and no-winner ones included, is one ranking of its
seats by return (higher is better, equal returns share a rank). An agent may hold several seats
of one game (the opponents in "model vs 3 random", or both sides of a self-play lineup), so each
seat is rated as its own team, every seat of an agent starting from the agent's current rating;
the agent's rating then moves by the mean of its seats' mu updates and takes the mean of their new
sigmas. A game therefore counts once for each agent however many seats it held; its seats that
beat each other push in opposite directions and cancel, and only how the agent fared against the
other agents remains. The games are rated in order (deal, then rotation), in the main process, so
the ratings are the same with any number of workers. The table gives mu, sigma, mu +/- 2 sigma
and openskill's ordinal mu - 3 sigma.
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import datetime as _dt
import json
import math
import multiprocessing
import os
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import numpy as np

import d2r_envs
from d2r_envs.agents import make_agent
from d2r_envs.core import config as game_config
from d2r_envs.core.game import CHANCE, TERMINAL, IllegalActionError

AgentFactory = Callable[[str, str, Any], Any]  # (spec, game name, engine) -> Agent

Z95 = 1.959963984540054
# Student t 97.5% quantiles for 1..30 degrees of freedom (beyond: z + (z^3 + z) / (4 df)).
_T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
         2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
         2.045, 2.042]

RATING_METHOD = (
    "openskill PlackettLuce (default parameters), one rating per distinct agent; each game is a ranking of "
    "its seats by return (ties share a rank; truncated and no-winner games are all-tied); every seat is its own "
    "team starting from its agent's rating, and an agent moves by the mean of its seats' mu updates and takes "
    "the mean of their new sigmas; games rated in order of deal, then rotation"
)


class Stopped(KeyboardInterrupt):
    """Ctrl-C during a tournament. `result` is the summary of the deals finished before it (None if none
    was), with `result["stopped"]` saying how far it got."""

    def __init__(self, message: str, result: dict[str, Any] | None) -> None:
        super().__init__(message)
        self.result = result


# Lineup ------------------------------------------------------------------------------------------


def make_lineup(agents: Sequence[str], num_players: int) -> list[str]:
    """The agent in each seat at rotation 0 (see the module docstring for the rule)."""
    agents = list(agents)
    if not agents:
        raise ValueError("no agents given")
    if len(agents) > num_players:
        raise ValueError(f"{len(agents)} agents given for {num_players} seats; give at most one per seat")
    if len(agents) == num_players or len(agents) == 1:
        return [agents[i % len(agents)] for i in range(num_players)]
    first, others = agents[0], agents[1:]
    return [first] + [others[i % len(others)] for i in range(num_players - 1)]


def distinct(items: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(items))


def seat_agents(lineup: Sequence[str], rotation: int) -> list[str]:
    """The agent in each seat at this rotation: seat s holds lineup[(s - r) % n]."""
    n = len(lineup)
    return [lineup[(s - rotation) % n] for s in range(n)]


def chance_rng(seed: int, deal: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence([seed, deal]))


def agent_rng(seed: int, deal: int, rotation: int, seat: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence([seed, deal], spawn_key=(rotation, seat)))


# Playing -----------------------------------------------------------------------------------------


def _build_agents(specs: Sequence[str], game_name: str, engine: Any, factory: AgentFactory | None) -> dict[str, Any]:
    build = factory or make_agent
    out: dict[str, Any] = {}
    for spec in specs:
        try:
            out[spec] = build(spec, game_name, engine)
        except Exception as e:  # noqa: BLE001 - any failure to build an agent is a bad spec, one line
            detail = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise ValueError(f"agent {spec!r}: {detail}") from e
    return out


def play_game(
    engine: Any,
    seated: Sequence[Any],
    chance: np.random.Generator,
    rngs: Sequence[np.random.Generator],
    max_decisions: int,
    clock: list[list[float]] | None = None,
    trace: list[int] | None = None,
) -> tuple[list[float], int, bool]:
    """One game: (returns per seat, player decisions, truncated). `clock[seat]` += [moves, seconds];
    `trace` += every action applied, chance outcomes included (a replay's actions)."""
    spec = engine.spec
    state = engine.new_initial_state()
    decisions = 0
    while True:
        player = engine.current_player(state)
        if player == TERMINAL:
            return [float(x) for x in engine.returns(state)], decisions, False
        if player == CHANCE:
            outcome = engine.sample_chance(state, chance)
            if trace is not None:
                trace.append(int(outcome))
            engine.apply_legal(state, outcome)
            continue
        if decisions >= max_decisions:
            return [float(spec.min_return)] * spec.num_players, decisions, True
        agent = seated[player]
        start = time.perf_counter()
        action = agent.act(engine, state, player, rngs[player])
        elapsed = time.perf_counter() - start
        if clock is not None:
            clock[player][0] += 1
            clock[player][1] += elapsed
        try:
            engine.apply_action(state, action)
        except IllegalActionError as e:
            raise IllegalActionError(f"agent {getattr(agent, 'name', agent)!r} in seat {player}: {e}") from e
        if trace is not None:
            trace.append(int(action))
        decisions += 1


@dataclasses.dataclass
class _Setup:
    game: str
    options: dict[str, Any]
    num_players: int
    lineup: list[str]
    seed: int
    max_decisions: int
    factory: AgentFactory | None
    trace: bool = False  # each record holds its game's actions (replays)


_WORKER: dict[str, Any] = {}


def _init_worker(setup: _Setup, engine: Any = None, agents: dict[str, Any] | None = None) -> None:
    engine = engine if engine is not None else d2r_envs.make_game(setup.game, setup.num_players, **setup.options)
    _WORKER["setup"] = setup
    _WORKER["engine"] = engine
    _WORKER["agents"] = agents if agents is not None else _build_agents(
        distinct(setup.lineup), setup.game, engine, setup.factory
    )


def _play_deal(deal: int) -> tuple[list[dict[str, Any]], dict[str, list[float]]]:
    """All rotations of one deal: the game records and {agent: [moves, seconds]}."""
    setup: _Setup = _WORKER["setup"]
    engine, agents = _WORKER["engine"], _WORKER["agents"]
    n = setup.num_players
    records: list[dict[str, Any]] = []
    timing = {a: [0.0, 0.0] for a in distinct(setup.lineup)}
    for rotation in range(n):
        names = seat_agents(setup.lineup, rotation)
        clock = [[0.0, 0.0] for _ in range(n)]
        trace: list[int] | None = [] if setup.trace else None
        returns, decisions, truncated = play_game(
            engine,
            [agents[a] for a in names],
            chance_rng(setup.seed, deal),
            [agent_rng(setup.seed, deal, rotation, s) for s in range(n)],
            setup.max_decisions,
            clock,
            trace,
        )
        for s, a in enumerate(names):
            timing[a][0] += clock[s][0]
            timing[a][1] += clock[s][1]
        records.append(
            {"deal": deal, "rotation": rotation, "seats": names, "returns": returns,
             "decisions": decisions, "truncated": truncated}
        )
        if trace is not None:
            records[-1]["actions"] = trace
    return records, timing


@contextlib.contextmanager
def _workers_ignore_ctrl_c():
    """Ctrl-C held back while worker processes start: they keep it blocked for good (a child inherits the
    signal mask), and the main process gets a Ctrl-C pressed meanwhile once the block ends. So on Ctrl-C
    the main process alone stops, it ends the workers, and no worker prints a traceback."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """End the pool's workers at once, deals in play included, and shut it down."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
    if terminate is not None:
        terminate()
    else:
        for process in list((pool._processes or {}).values()):
            process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)


# Statistics --------------------------------------------------------------------------------------


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))  # exact at p = 0 and p = 1


def t975(df: int) -> float:
    if df < 1:
        return math.inf
    if df <= len(_T975):
        return _T975[df - 1]
    return Z95 + (Z95**3 + Z95) / (4 * df)


def mean_interval(values: Sequence[float]) -> tuple[float, float] | None:
    """95% t interval of the mean of independent values; None with fewer than two."""
    if len(values) < 2:
        return None
    arr = np.asarray(values, dtype=float)
    mean = float(arr.mean())
    half = t975(len(arr) - 1) * float(arr.std(ddof=1)) / math.sqrt(len(arr))
    return mean - half, mean + half


def _rate(records: Sequence[dict[str, Any]], agents: Sequence[str]) -> dict[str, dict[str, float]]:
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {a: (model.rating().mu, model.rating().sigma) for a in agents}
    for rec in records:
        returns = rec["returns"]
        seats = rec["seats"]
        ranks = [1 + sum(other > r for other in returns) for r in returns]
        teams = [[model.rating(mu=ratings[a][0], sigma=ratings[a][1])] for a in seats]
        new = model.rate(teams, ranks=ranks)
        moves: dict[str, list[tuple[float, float]]] = {}
        for a, team in zip(seats, new):
            moves.setdefault(a, []).append((team[0].mu - ratings[a][0], team[0].sigma))
        for a, ups in moves.items():
            ratings[a] = (ratings[a][0] + sum(d for d, _ in ups) / len(ups), sum(s for _, s in ups) / len(ups))
    return {
        a: {"mu": mu, "sigma": sigma, "low": mu - 2 * sigma, "high": mu + 2 * sigma, "ordinal": mu - 3 * sigma}
        for a, (mu, sigma) in ratings.items()
    }


def summarise(
    records: Sequence[dict[str, Any]],
    lineup: Sequence[str],
    max_return: float,
    timing: dict[str, list[float]] | None = None,
    min_return: float | None = None,
) -> dict[str, Any]:
    """Per-agent statistics, ratings and game-level counts from the game records (a seat wins when
    its return is `max_return`; return intervals are clipped to [min_return, max_return])."""
    n = len(lineup)
    agents = distinct(lineup)
    games = len(records)
    per: dict[str, dict[str, Any]] = {
        a: {"seats": 0, "wins": 0, "seat_games": [0] * n, "seat_wins": [0] * n, "outcome_wins": 0.0} for a in agents
    }
    by_deal: dict[str, dict[int, list[float]]] = {a: {} for a in agents}
    seat_wins = [0] * n
    no_winner = truncated = 0
    lengths: list[int] = []
    for rec in records:
        winners = [s for s, r in enumerate(rec["returns"]) if r == max_return]
        no_winner += not winners
        truncated += rec["truncated"]
        lengths.append(rec["decisions"])
        for s, (a, r) in enumerate(zip(rec["seats"], rec["returns"])):
            p = per[a]
            won = s in winners
            p["seats"] += 1
            p["wins"] += won
            p["seat_games"][s] += 1
            p["seat_wins"][s] += won
            p["outcome_wins"] += 1 / len(winners) if won else 0.0
            seat_wins[s] += won
            by_deal[a].setdefault(rec["deal"], []).append(r)
    ratings = _rate(records, agents)
    out_agents: dict[str, Any] = {}
    for a in agents:
        p = per[a]
        deal_means = [float(np.mean(v)) for _, v in sorted(by_deal[a].items())]
        all_returns = [r for v in by_deal[a].values() for r in v]
        interval = mean_interval(deal_means)
        if interval is not None:
            low = interval[0] if min_return is None else max(min_return, interval[0])
            interval = (low, min(max_return, interval[1]))
        entry = {
            "seats": p["seats"],
            "games": sum(1 for rec in records if a in rec["seats"]),
            "wins": p["wins"],
            "win_share": p["wins"] / p["seats"] if p["seats"] else None,
            "win_share_ci": list(wilson(p["wins"], p["seats"])),
            "chance_win_share": 1 / n,
            "mean_return": float(np.mean(all_returns)) if all_returns else None,
            "mean_return_ci": list(interval) if interval else None,
            "seat_games": p["seat_games"],
            "seat_wins": p["seat_wins"],
            "outcome_share": p["outcome_wins"] / games if games else None,
            "rating": ratings[a],
        }
        if timing is not None:
            moves, seconds = timing.get(a, [0, 0.0])
            entry["timing"] = {
                "moves": int(moves),
                "seconds": seconds,
                "ms_per_move": 1000 * seconds / moves if moves else None,
            }
        out_agents[a] = entry
    return {
        "agents": out_agents,
        "games": games,
        "no_winner_games": no_winner,
        "truncated_games": truncated,
        "outcome_shares": {**{a: out_agents[a]["outcome_share"] for a in agents},
                           "nobody": no_winner / games if games else None},
        "seat_win_share": [w / games if games else None for w in seat_wins],
        "mean_length": float(np.mean(lengths)) if lengths else None,
    }


# The tournament ----------------------------------------------------------------------------------


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
    built = _build_agents(names, game, engine, factory)  # refuses a bad spec before anything runs
    cap = spec.max_game_length if max_decisions is None else int(max_decisions)
    if cap < 1:
        raise ValueError(f"max_decisions must be at least 1, got {max_decisions}")
    n = num_players
    deals = -(-games // n)
    setup = _Setup(game, options, n, lineup, seed, cap, factory, trace)

    started = time.perf_counter()
    records: list[dict[str, Any]] = []
    timing = {a: [0.0, 0.0] for a in names}
    book = None
    if journal is not None:
        from training.journal import Journal

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
            _init_worker(setup, engine, built)
            try:
                for d in todo:
                    finished(d, _play_deal(d))
            finally:
                _WORKER.clear()
        else:
            # spawn: safe with torch (model agents) in the parent; a worker that cannot start
            # raises BrokenProcessPool instead of hanging the way multiprocessing.Pool does.
            ctx = multiprocessing.get_context("spawn")
            pool = ProcessPoolExecutor(min(workers, len(todo)), mp_context=ctx, initializer=_init_worker,
                                       initargs=(setup,))
            try:
                with _workers_ignore_ctrl_c():  # the workers start as the deals are handed out
                    if book is None:  # results in order of deals
                        chunk = max(1, len(todo) // (4 * workers))
                        results = zip(todo, pool.map(_play_deal, todo, chunksize=chunk))
                    else:  # one deal a task, journaled as it ends, whatever the order
                        futures = {pool.submit(_play_deal, d): d for d in todo}
                        results = ((futures[f], f.result()) for f in as_completed(futures))
                for d, result in results:
                    finished(d, result)
            except BaseException:  # an error or Ctrl-C: the workers stop at once; what ended is kept
                _stop_pool(pool)
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
            f"training.evaluate.evaluate({game!r}, {list(agents)!r}, {num_players}, {games}, {seed}, "
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
    from d2r_envs import replay

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


# Reports -----------------------------------------------------------------------------------------


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def _num(x: float | None, digits: int = 3) -> str:
    return "n/a" if x is None else f"{x:.{digits}f}"


def to_markdown(result: dict[str, Any]) -> str:
    n = result["num_players"]
    games = result["games"]
    lines = [
        f"# Evaluation: {result['game']} (version {result['game_version']}), {n} players",
        "",
    ]
    if result.get("stopped"):
        lines += [f"**Partial: {result['stopped']}.** The figures below are for those games only.", ""]
    lines += [
        f"Lineup at rotation 0, seat by seat: {', '.join(result['lineup'])}. "
        f"{result['deals']} deals x {result['rotations']} rotations = {games} games, seed {result['seed']}.",
        "",
        "| agent | seats | wins | win share (95% CI) | by chance | mean return (95% CI) "
        "| rating mu ± 2 sigma | ordinal | ms/move |",
        "|---|---:|---:|---|---:|---|---|---:|---:|",
    ]
    for a, e in result["agents"].items():
        lo, hi = e["win_share_ci"]
        ret_ci = e["mean_return_ci"]
        ret = _num(e["mean_return"]) + (f" ({ret_ci[0]:.3f} to {ret_ci[1]:.3f})" if ret_ci else "")
        r = e["rating"]
        ms = (e.get("timing") or {}).get("ms_per_move")
        lines.append(
            f"| {a.replace('|', '/')} | {e['seats']} | {e['wins']} | {_pct(e['win_share'])} "
            f"({_pct(lo)} to {_pct(hi)}) | {_pct(e['chance_win_share'])} | {ret} "
            f"| {r['mu']:.2f} ± {2 * r['sigma']:.2f} | {r['ordinal']:.2f} | {'n/a' if ms is None else f'{ms:.3g}'} |"
        )
    shares = ", ".join(f"{k} {_pct(v)}" for k, v in result["outcome_shares"].items())
    lines += [
        "",
        f"- games won (a shared win split): {shares}",
        f"- no-winner games: {result['no_winner_games']} of {games}, of which cut off at "
        f"{result['max_decisions']} decisions: {result['truncated_games']}",
        "- win share by seat (any agent): "
        + ", ".join(f"{s} {_pct(w)}" for s, w in enumerate(result["seat_win_share"])),
        f"- mean game length: {_num(result['mean_length'], 1)} decisions",
        f"- rating: {result['rating_method']}",
    ]
    return "\n".join(lines)


def _short(name: str, width: int = 22) -> str:
    """A tick label: a model path shortened to its last two parts, then to `width` characters."""
    parts = Path(name).parts
    if len(parts) > 2:
        name = "/".join(parts[-2:])
    return name if len(name) <= width else "…" + name[-(width - 1):]


def plot_ratings(result: dict[str, Any], path: str | Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    entries = list(result["agents"].values())
    names = [_short(a) for a in result["agents"]]
    x = np.arange(len(names))
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(max(7.0, 2.2 * len(names) + 3), 4.2))
    mus = [e["rating"]["mu"] for e in entries]
    ax1.bar(x, mus, yerr=[2 * e["rating"]["sigma"] for e in entries], capsize=6, color="tab:blue")
    ax1.set_xticks(x, names, rotation=20, ha="right")
    ax1.set_ylabel("openskill mu ± 2 sigma")
    ax1.set_title("Rating (PlackettLuce)")
    shares = [e["win_share"] or 0.0 for e in entries]
    err = [[max(0.0, s - e["win_share_ci"][0]) for s, e in zip(shares, entries)],
           [max(0.0, e["win_share_ci"][1] - s) for s, e in zip(shares, entries)]]
    ax2.bar(x, shares, yerr=err, capsize=6, color="tab:green")
    ax2.axhline(1 / result["num_players"], color="grey", linestyle="--", label="1/n (chance)")
    ax2.set_xticks(x, names, rotation=20, ha="right")
    ax2.set_ylabel("win share per seat (95% Wilson)")
    ax2.set_title("Win share")
    ax2.legend()
    fig.suptitle(f"{result['game']}, {result['num_players']} players, {result['games']} games")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


LEARNING_COLUMNS = ["rollout/ep_rew_mean", "eval/win_share", "eval/mean_return", "eval/mean_reward", "rollout/ep_len_mean"]
TIMESTEPS = "time/total_timesteps"


def find_progress_csv(log: str | Path) -> Path:
    """SB3's progress.csv in a training log directory (or the file itself)."""
    log = Path(log)
    if log.is_file():
        return log
    if not log.is_dir():
        raise ValueError(f"training log {str(log)!r}: no such directory")
    if (log / "progress.csv").is_file():
        return log / "progress.csv"
    found = sorted(log.rglob("progress.csv"), key=lambda p: p.stat().st_mtime)
    if not found:
        raise ValueError(f"training log {str(log)!r}: no progress.csv in it (SB3's CSV logger writes one)")
    return found[-1]  # the newest run


def read_progress(path: str | Path) -> dict[str, list[tuple[float, float]]]:
    """{column: [(timesteps, value), ...]} for the plotted columns present, empty cells skipped."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows or TIMESTEPS not in rows[0]:
        raise ValueError(f"{path}: no {TIMESTEPS!r} column")
    columns = [c for c in LEARNING_COLUMNS if c in rows[0]]
    columns += sorted(c for c in rows[0] if c.startswith("eval/") and c not in columns)
    series: dict[str, list[tuple[float, float]]] = {}
    for c in columns:
        points = []
        for row in rows:
            try:
                x, y = float(row[TIMESTEPS]), float(row[c])
            except (TypeError, ValueError):
                continue
            if math.isfinite(x) and math.isfinite(y):
                points.append((x, y))
        if points:
            series[c] = points
    return series


def plot_learning_curve(log: str | Path, path: str | Path) -> list[str]:
    """Plot the training metrics against timesteps; returns the columns plotted."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    csv_path = find_progress_csv(log)
    series = read_progress(csv_path)
    if not series:
        raise ValueError(f"{csv_path}: none of {', '.join(LEARNING_COLUMNS)} has a value")
    fig, axes = plt.subplots(len(series), 1, figsize=(7, 2.6 * len(series) + 0.6), sharex=True, squeeze=False)
    for ax, (column, points) in zip(axes[:, 0], series.items()):
        xs, ys = zip(*points)
        ax.plot(xs, ys, marker="." if len(xs) < 50 else None)
        ax.set_ylabel(column)
        ax.grid(alpha=0.3)
    axes[-1, 0].set_xlabel("timesteps")
    fig.suptitle(f"Learning curve: {csv_path}", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return list(series)


def write_outputs(result: dict[str, Any], out_dir: str | Path, training_log: str | Path | None = None) -> dict[str, Path]:
    """result.json, result.md, ratings.png (and learning_curve.png) in out_dir; returns their paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {"json": out / "result.json", "md": out / "result.md", "ratings": out / "ratings.png"}
    if training_log is not None:
        paths["learning_curve"] = out / "learning_curve.png"
        result["training_log"] = str(find_progress_csv(training_log))
        result["learning_curve_columns"] = plot_learning_curve(training_log, paths["learning_curve"])
    paths["json"].write_text(json.dumps(result, indent=2, allow_nan=False) + "\n")
    paths["md"].write_text(to_markdown(result) + "\n")
    plot_ratings(result, paths["ratings"])
    return paths


# Recording into a model's manifest ---------------------------------------------------------------


def evaluation_key(result: dict[str, Any]) -> str:
    """The manifest key for this lineup, player count and options, e.g.
    '4p:draco_and_co/ppo-v1,random,random,random' or '2p[level=legendary]:extravaganza/ppo-v1,random'."""
    return f"{result['num_players']}p{game_config.label(result.get('options') or {})}:{','.join(result['lineup'])}"


def evaluation_summary(result: dict[str, Any]) -> dict[str, Any]:
    """What `d2r eval --manifest` writes: the per-agent figures, without the game records."""
    return {
        "date": result["date"],
        "command": result["command"],
        "game": result["game"],
        "game_version": result["game_version"],
        "options": result["options"],
        "num_players": result["num_players"],
        "lineup": result["lineup"],
        "seed": result["seed"],
        "games": result["games"],
        "deals": result["deals"],
        "no_winner_games": result["no_winner_games"],
        "agents": {
            a: {k: e[k] for k in ("seats", "wins", "win_share", "win_share_ci", "chance_win_share",
                                  "mean_return", "mean_return_ci", "rating")}
            for a, e in result["agents"].items()
        },
    }


def resolve_model_dir(ref: str) -> Path:
    """The folder of an exported model: a folder, its manifest.json, or an id such as
    'draco_and_co/ppo-v1' under ./models or the repository's models/ (d2r_envs.opponents.resolve_model)."""
    from d2r_envs.opponents import resolve_model

    return resolve_model(ref)


def record_evaluation(model_dir: str | Path, key: str, summary: dict[str, Any]) -> Path:
    """Write `summary` into the model's manifest.json under evaluation[key]; returns the manifest path.

    The manifest's `files` hashes cover the weight files only, never the manifest, so this leaves
    the integrity check intact; it refuses a manifest that lists itself among the hashed files.
    Other keys and their order are kept; the file is replaced atomically.
    """
    path = Path(model_dir)
    if path.is_dir():
        path = path / "manifest.json"
    if not path.is_file():
        raise ValueError(f"{path}: no such manifest")
    manifest = json.loads(path.read_text())
    if not isinstance(manifest, dict):
        raise ValueError(f"{path}: the manifest is not a JSON object")
    files = manifest.get("files") or {}
    listed = files.keys() if isinstance(files, dict) else [f.get("path", f.get("name")) if isinstance(f, dict) else f
                                                           for f in files]
    if any(str(name).endswith("manifest.json") for name in listed):
        raise ValueError(f"{path}: its 'files' hashes cover the manifest itself; editing it would break them")
    evaluation = manifest.get("evaluation")
    if not isinstance(evaluation, dict):
        evaluation = manifest["evaluation"] = {}
    evaluation[key] = summary
    fd, tmp = tempfile.mkstemp(prefix=".manifest.", suffix=".json", dir=path.parent)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(json.dumps(manifest, indent=2, allow_nan=False) + "\n")
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


# `d2r eval` --------------------------------------------------------------------------------------


def _split(text: str | None) -> list[str]:
    return [part.strip() for part in (text or "").split(",") if part.strip()]


def _command_line(args: Any) -> str:
    import shlex

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
    from d2r_envs.registry import game_package

    if args.lineup:
        agents = _split(args.lineup)
        players = len(agents) if args.players is None else args.players
        if len(agents) != players:
            raise ValueError(f"--lineup names {len(agents)} seats but --players is {players}; give one agent per seat")
    else:
        agents = _split(args.agents)
        players = game_package(args.game).DEFAULT_PLAYERS if args.players is None else args.players
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
        from d2r_envs import replay

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
