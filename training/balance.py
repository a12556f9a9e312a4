"""Is a game balanced? Self-play games of one agent in every seat, and what won them.

    d2r balance GAME [--players N] [--agent heuristic] [--games 400] [--option KEY=VALUE ...] [--workers 2] [--json PATH]

Every seat is played by the same agent (the heuristic by default), so a seat's result is down to what
it was dealt and chose: its seat, and what the game reports of it at the end (`Game.seat_facts`: a
queen, a Rapper, a City as text; points per category as numbers). The report gives the win share of
each seat, of each value of each text fact (with how often it was seen and its share over chance:
1.00 is fair), and the mean of each number over all seats and over the winners. A tie shares the win
among the tied. Game g is seeded (seed, g), so the same command gives the same report, whatever the
number of workers.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

import d2r_envs
from d2r_envs.agents import make_agent
from d2r_envs.core import config as game_config
from d2r_envs.core.game import CHANCE, TERMINAL
from training import pools
from training import commands


def play_one(game: str, players: int, agent: str, seed: int, g: int, options: dict[str, Any]) -> dict[str, Any]:
    """One self-play game: each seat's win share (ties shared), its facts, and whether it finished."""
    engine = d2r_envs.make_game(game, players, **options)
    actor = make_agent(agent, engine)
    rng = np.random.default_rng([seed, g])
    state = engine.new_initial_state()
    decisions = 0
    while decisions < engine.spec.max_game_length:
        player = engine.current_player(state)
        if player == TERMINAL:
            break
        if player == CHANCE:
            engine.resolve_chance(state, rng)
            continue
        engine.apply_action(state, actor.act(engine, state, player, rng))
        decisions += 1
    finished = engine.is_terminal(state)
    returns = engine.returns(state)
    best = max(returns)
    top = [p for p, r in enumerate(returns) if r == best and r > engine.spec.min_return]  # none: nobody won
    wins = [1 / len(top) if finished and p in top else 0.0 for p in range(players)]
    return {"wins": wins, "facts": engine.seat_facts(state), "finished": finished, "decisions": decisions}


def _chunk(args: tuple) -> list[dict[str, Any]]:
    game, players, agent, seed, start, stop, options = args
    return [play_one(game, players, agent, seed, g, options) for g in range(start, stop)]


def run_games(game: str, players: int, agent: str, games: int, seed: int, options: dict[str, Any],
              workers: int = 1) -> list[dict[str, Any]]:
    """The games 0..games-1, in order, on `workers` processes."""
    if workers <= 1 or games < 2:
        return _chunk((game, players, agent, seed, 0, games, options))
    step = max(1, games // (workers * 4))
    parts = [(game, players, agent, seed, s, min(games, s + step), options) for s in range(0, games, step)]
    pool = ProcessPoolExecutor(workers)
    try:
        with pools.ctrl_c_held_back():  # on Ctrl-C this process alone stops, and ends the workers
            done = pools.in_order(pool, _chunk, parts)
        records = [r for chunk in done for r in chunk]
    except BaseException:
        pools.stop(pool)
        raise
    pool.shutdown()
    return records


def summarise(records: list[dict[str, Any]], players: int) -> dict[str, Any]:
    """Win shares by seat and by each text fact's value; means of each number (all seats, winners)."""
    games = len(records)
    by_seat = [sum(r["wins"][p] for r in records) / games for p in range(players)]
    seen: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    numbers: dict[str, list[float]] = defaultdict(list)
    winners: dict[str, list[float]] = defaultdict(list)
    for r in records:
        for p, facts in enumerate(r["facts"]):
            for key, value in facts.items():
                if isinstance(value, str):
                    seen[key][value].append(r["wins"][p])
                else:
                    numbers[key].append(float(value))
                    if r["wins"][p] > 0:
                        winners[key].append(float(value))
    texts = {
        key: {value: {"seen": len(w), "win_share": sum(w) / len(w), "vs_chance": players * sum(w) / len(w)}
              for value, w in sorted(values.items())}
        for key, values in seen.items()
    }
    means = {key: {"mean": float(np.mean(v)), "winners_mean": float(np.mean(winners[key])) if winners[key] else None}
             for key, v in numbers.items()}
    return {
        "games": games,
        "unfinished": sum(not r["finished"] for r in records),
        "mean_decisions": float(np.mean([r["decisions"] for r in records])),
        "by_seat": by_seat,
        "texts": texts,
        "numbers": means,
    }


def to_markdown(summary: dict[str, Any], title: str) -> str:
    lines = [f"## {title}", "",
             f"{summary['games']} games, {summary['mean_decisions']:.0f} decisions a game on average"
             + (f", {summary['unfinished']} cut at the game's length cap" if summary["unfinished"] else ""), "",
             "| seat | win share | vs chance |", "|---:|---:|---:|"]
    n = len(summary["by_seat"])
    lines += [f"| {p} | {w:.1%} | {n * w:.2f} |" for p, w in enumerate(summary["by_seat"])]
    for key, values in summary["texts"].items():
        lines += ["", f"| {key} | seen | win share | vs chance |", "|---|---:|---:|---:|"]
        lines += [f"| {v} | {x['seen']} | {x['win_share']:.1%} | {x['vs_chance']:.2f} |" for v, x in values.items()]
    if summary["numbers"]:
        lines += ["", "| number | mean | winners' mean |", "|---|---:|---:|"]
        for key, x in sorted(summary["numbers"].items()):
            w = "-" if x["winners_mean"] is None else f"{x['winners_mean']:.2f}"
            lines.append(f"| {key} | {x['mean']:.2f} | {w} |")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    try:
        options = game_config.parse_items(args.option)
        engine = d2r_envs.make_game(args.game, args.players, **options)
        make_agent(args.agent, engine)
        if args.games < 1 or args.workers < 1:
            raise ValueError("--games and --workers must be at least 1")
    except ValueError as err:
        print(f"d2r balance: error: {err}", file=sys.stderr)
        return 2
    players = engine.spec.num_players
    began = time.perf_counter()
    records = run_games(args.game, players, args.agent, args.games, args.seed, options, args.workers)
    summary = summarise(records, players)
    summary.update(game=args.game, players=players, agent=args.agent, options=options, seed=args.seed,
                   seconds=round(time.perf_counter() - began, 1))
    title = f"{args.game}, {players} players{' ' + game_config.label(options) if options else ''}: {args.agent} in every seat"
    print(to_markdown(summary, title))
    print(f"\n({summary['seconds']} s)")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(summary, f, indent=2)
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.balance", description=__doc__.split("\n\n")[0])
    commands.add_balance_arguments(p, d2r_envs.names())
    return run(p.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
