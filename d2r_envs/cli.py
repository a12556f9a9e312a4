"""The `d2r` command: list, describe, simulate and benchmark the registered games.

Everything here is generic over `d2r_envs.names()`: a new game joins with no change to this file.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

import d2r_envs
from d2r_envs import describe, registry, replay
from d2r_envs.core import config as _config
from training import commands  # argument definitions only: no torch


class _OptionError(ValueError):
    """A malformed --option."""


def _parse_options(items: list[str] | None) -> dict[str, Any]:
    """['short_game=10', 'long_game=true'] -> {'short_game': 10, 'long_game': True}."""
    try:
        return _config.parse_items(items)
    except ValueError as err:
        raise _OptionError(str(err)) from None


def _error(message: str) -> int:
    print(f"d2r: error: {message}", file=sys.stderr)
    return 2


INSTALL = {
    "train": "pip install torch==2.13.0 && pip install -e '.[train]'",
    "rllib": "pip install torch==2.13.0 && pip install -e '.[rllib]'",
    "benchmark": "pip install torch==2.13.0 && pip install -e '.[benchmark]'",
}


def _missing_extra(command: str, extra: str, modules: tuple[str, ...]) -> str | None:
    """None if every module can be imported, else the one-line error naming the first missing one and the
    extra that brings it. Looked up, not imported: a check before any work that costs nothing."""
    for module in modules:
        if importlib.util.find_spec(module) is None:
            return f"{command} needs the {extra} extra ({module} is missing); install with: {INSTALL[extra]}"
    return None


# Subcommands ------------------------------------------------------------------------------------


def cmd_list(args: argparse.Namespace) -> int:
    rows = [
        "| game | players | default | actions | observation | env |",
        "|---|---|---:|---:|---:|---|",
    ]
    for name in d2r_envs.names():
        pkg = registry.package(name)
        env = d2r_envs.raw_env(name, pkg.DEFAULT_PLAYERS)
        spec = env.game.spec
        rows.append(
            f"| {name} | {spec.min_players}-{spec.max_players} | {pkg.DEFAULT_PLAYERS} | {spec.num_actions} | "
            f"{registry.obs_layout(name).size} | {env.metadata['name']} |"
        )
    print("\n".join(rows))
    return 0


def cmd_describe(args: argparse.Namespace) -> int:
    try:
        print(describe.markdown(args.game, args.players))
    except ValueError as e:
        return _error(str(e))
    return 0


def cmd_levels(args: argparse.Namespace) -> int:
    from d2r_envs import difficulty

    print(f"{args.game}'s difficulty levels, weakest first (d2r play {args.game} --level LEVEL):\n")
    print(difficulty.table(args.game))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    def show(game, state, player, action):
        who = "chance" if player < 0 else f"player_{player}"
        print(f"  {who}: {game.action_to_string(state, int(action))}")

    failed: list[str] = []
    for path in args.files:  # each file reported, ok or what is wrong; a bad one does not stop the others
        try:
            data = replay.load(path)
        except replay.ReplayError as e:
            failed.append(path)
            _error(str(e))
            continue
        except OSError as e:  # no such file, a folder, unreadable
            failed.append(path)
            _error(f"{path}: {e.strerror or e}")
            continue
        if args.show:
            print(f"{path}: {data['game']} v{data['version']}, {data['num_players']} players, seed {data['seed']}")
        try:
            returns = replay.play_back(data, on_step=show if args.show else None)
        except replay.ReplayError as e:
            failed.append(path)
            _error(f"{path}: {e}")
            continue
        print(f"{path}: {len(data['actions'])} actions replayed, returns {returns} as recorded")
    total = len(args.files)
    if failed:
        if total > 1:
            named = ", ".join(failed[:10]) + (", ..." if len(failed) > 10 else "")
            _error(f"{len(failed)} of {total} replays failed: {named}")
        return 2
    if total > 1:
        print(f"all {total} replays ok")
    return 0


def _random_game(env, agents: list[str], rng: np.random.Generator, seed: int) -> tuple[dict[str, float], list, bool, int]:
    """One game of random legal moves through the AEC env: (returns by agent, the actions, truncated, env steps)."""
    env.reset(seed=seed)
    returns = dict.fromkeys(agents, 0.0)
    actions = []
    truncated = False
    steps = 0
    for agent in env.agent_iter():
        obs, rew, term, trunc, info = env.last()
        returns[agent] += rew  # the rewards an agent sees at its turns sum to its return
        if term or trunc:
            truncated |= bool(trunc)
            action = None
        else:
            action = rng.choice(np.flatnonzero(obs["action_mask"]))
            actions.append(action)
        env.step(action)
        steps += 1
    return returns, actions, truncated, steps


def cmd_simulate(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    try:
        options = _parse_options(args.option)
        env = d2r_envs.make(args.game, args.players, **options)
    except ValueError as e:
        return _error(str(e))
    if args.games < 1:
        return _error(f"--games must be at least 1, got {args.games}")
    spec = env.unwrapped.game.spec
    agents = list(env.possible_agents)
    rng = np.random.default_rng(args.seed)
    lengths: list[int] = []
    wins = dict.fromkeys(agents, 0)
    no_winner = truncated = steps = 0
    start = end = time.perf_counter()
    stopped = False
    bar = tqdm(total=args.games, desc=f"{args.game} x{len(agents)}", unit="game", file=sys.stderr)
    try:
        for g in range(args.games):
            returns, actions, was_truncated, game_steps = _random_game(env, agents, rng, args.seed + g)
            if args.record:
                record = replay.make(args.game, len(agents), options, args.seed + g, ["random"] * len(agents),
                                     actions, [returns[a] for a in agents], was_truncated)
                replay.save(record, Path(args.record) / f"{args.game}_{args.seed + g:06d}.json")
            steps += game_steps
            lengths.append(len(actions))
            truncated += was_truncated
            winners = [a for a in agents if returns[a] == spec.max_return]
            for a in winners:
                wins[a] += 1
            no_winner += not winners
            end = time.perf_counter()
            bar.update()
    except KeyboardInterrupt:  # Ctrl-C: the summary of the games finished so far
        stopped = True
    finally:
        bar.close()
    elapsed = end - start
    n = len(lengths)
    if n == 0:
        print(f"d2r simulate: stopped before the first of {args.games} games finished", file=sys.stderr)
        return 130
    played = f"{n} games" if not stopped else f"stopped after {n} of {args.games} games (a partial summary)"
    out = [
        f"# simulate {env.metadata['name']}: {played}, {len(agents)} players, random legal agents, seed {args.seed}",
        "",
    ]
    if options:
        out += ["options: " + ", ".join(f"{k}={json.dumps(v)}" for k, v in sorted(options.items())), ""]
    out += [
        "| game length | mean | min | max |",
        "|---|---:|---:|---:|",
        f"| decisions | {np.mean(lengths):.1f} | {min(lengths)} | {max(lengths)} |",
        "",
        f"| seat | wins (return = {spec.max_return:g}) | share |",
        "|---|---:|---:|",
    ]
    for a in agents:
        out.append(f"| {a} | {wins[a]} | {wins[a] / n:.1%} |")
    out += [
        f"| nobody | {no_winner} | {no_winner / n:.1%} |",
        "",
        f"- truncated: {truncated} of {n} (after {spec.max_game_length} decisions; a truncated game has no winner)",
        f"- speed: {steps / elapsed:,.0f} env steps/s ({steps:,} steps in {elapsed:.2f} s, including reset)",
    ]
    print("\n".join(out))
    if stopped:
        print(f"d2r simulate: stopped after {n} of {args.games} games", file=sys.stderr)
        return 130
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from d2r_envs import bench

    if args.rllib is not None and not args.training:
        return _error("--rllib times training: give it with --training")
    if args.training:
        missing = _missing_extra("bench --training", "train", ("torch", "stable_baselines3", "sb3_contrib", "yaml"))
        if missing is None and args.rllib is not None:
            missing = _missing_extra("bench --rllib", "rllib", ("ray",))
        if missing:
            return _error(missing)

    try:
        code = bench.run(
            games=args.games,
            seconds=args.seconds,
            players=args.players,
            rounds=args.rounds,
            seed=args.seed,
            check=not args.no_check,
            options=_parse_options(args.option),
            openspiel=args.openspiel,
            search=args.search,
        )
    except ValueError as e:
        return _error(str(e))
    except ImportError as e:  # d2r_envs.openspiel's, naming the extra
        return _error(f"bench --openspiel: {e}")
    if not args.training:
        return code
    try:
        from training import speed
    except ImportError as e:
        return _error(f"bench --training needs the training extra ({e}); install with: {INSTALL['train']}")
    print()
    code = max(code, speed.run(args.games or d2r_envs.names(), check=not args.no_check))
    if args.rllib is None:
        return code
    try:
        runners = [int(r) for r in args.rllib_runners.split(",") if r.strip()]
    except ValueError:
        return _error(f"--rllib-runners: expected counts such as 1,2, got {args.rllib_runners!r}")
    if not runners or min(runners) < 1 or args.rllib_steps < 1:
        return _error("--rllib-runners needs counts of at least 1, and --rllib-steps at least 1")
    print()
    try:
        return max(code, speed.run_rllib(args.rllib, runners, args.rllib_steps, args.ray or ""))
    except ImportError as e:
        return _error(f"bench --rllib needs the rllib extra ({e}); install with: {INSTALL['rllib']}")


def cmd_train(args: argparse.Namespace) -> int:
    try:
        from training import train
    except ImportError as e:
        return _error(f"d2r train needs the training extra ({e}); install with: {INSTALL['train']}")
    return train.run(args)


def cmd_play(args: argparse.Namespace) -> int:
    from d2r_envs import play
    from d2r_envs.opponents import OpponentError, shipped_model

    opponents = args.opponents
    if args.level is not None:
        from d2r_envs import difficulty

        try:
            opponents = difficulty.agent_for(args.game, args.level)
        except ValueError as e:
            return _error(str(e))
    if opponents is None:  # the shipped model, or the heuristic for a game whose model is still training
        try:
            shipped_model(args.game)
            opponents = "shipped"
        except OpponentError:
            print(f"{args.game} has no shipped opponent yet: you play against its heuristic", file=sys.stderr)
            opponents = "heuristic"
    try:
        play.play(args.game, opponents.split(","), args.players, seat=args.seat, seed=args.seed,
                  **_parse_options(args.option))
    except ValueError as e:
        return _error(str(e))
    except KeyboardInterrupt:
        print("\ngame abandoned")
        return 130
    except EOFError:  # the input ended (Ctrl-D, or a file of moves) before the game did
        print("\nno more input: game abandoned")
        return 1
    return 0  # played to the end, or quit


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        from d2r_envs.web import app
    except ImportError as err:
        missing = (err.name or "a module").split(".")[0]
        return _error(f"d2r serve needs the web extra ({missing} is missing): pip install 'd2r_envs[web]'")
    if not 1 <= args.port <= 65535:
        return _error(f"--port {args.port} is not allowed; allowed: 1..65535")
    if args.max_tables < 1 or args.idle_minutes <= 0 or args.per_browser < 1:
        return _error("--max-tables and --per-browser must be at least 1, and --idle-minutes above 0")
    for folder in args.models or []:
        if not Path(folder).is_dir():
            return _error(f"--models {folder}: not a folder (a model folder, or one laid out like models/: GAME/NAME/manifest.json)")
    try:
        Path(args.replays).mkdir(parents=True, exist_ok=True)
    except OSError as err:
        return _error(f"--replays {args.replays}: cannot make the folder: {err.strerror or err}")
    print(f"d2r serve: the browser table at http://{args.host}:{args.port}/ (replays in {Path(args.replays).resolve()}); "
          "Ctrl-C stops it", file=sys.stderr)
    app.serve(args.host, args.port, args.replays, args.models or [], args.max_tables, args.idle_minutes,
              args.per_browser)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    try:
        from training import export  # torch and SB3 are imported inside, only when needed
    except ImportError as e:
        return _error(f"d2r export needs the training package ({e}); install with: {INSTALL['train']}")
    return export.run(args)


def cmd_eval(args: argparse.Namespace) -> int:
    missing = _missing_extra("d2r eval", "train", ("openskill", "matplotlib"))  # the ratings, the plots
    if missing is None and args.ray is not None:
        missing = _missing_extra("d2r eval --ray", "rllib", ("ray",))
    if missing:
        return _error(missing)
    from training import evaluate
    from training.ray_cluster import Unreachable

    try:
        return evaluate.run(args, _parse_options(args.option))
    except (ValueError, ImportError, RuntimeError, Unreachable) as e:  # RuntimeError: deals Ray lost (named)
        return _error(str(e))


BENCHMARK_NEEDS = {  # what each `d2r benchmark` action needs beyond the package
    "eval": ("train", ("openskill",)),
    "run": ("train", ("torch", "stable_baselines3", "sb3_contrib", "yaml", "openskill")),
    "report": ("benchmark", ("rliable", "matplotlib")),
}


def cmd_benchmark(args: argparse.Namespace) -> int:
    if args.action in BENCHMARK_NEEDS:
        extra, modules = BENCHMARK_NEEDS[args.action]
        missing = _missing_extra(f"d2r benchmark {args.action}", extra, modules)
        if missing is None and getattr(args, "ray", None) is not None:
            missing = _missing_extra(f"d2r benchmark {args.action} --ray", "rllib", ("ray",))
        if missing:
            return _error(missing)
    from training.benchmark import commands as bench
    from training.ray_cluster import Unreachable

    run = {"list": bench.run_list, "eval": bench.run_eval, "validate": bench.run_validate, "run": bench.run_run,
           "report": bench.run_report}[args.action]
    try:
        return run(args)
    except (ValueError, ImportError, Unreachable) as e:  # refused before anything is played; a library that
        return _error(str(e))  # fails to import; a Ray cluster not there


def cmd_balance(args: argparse.Namespace) -> int:
    from training import balance  # numpy only; it lives beside the evaluation tools

    return balance.run(args)


# Parser -----------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    games = d2r_envs.names()
    parser = argparse.ArgumentParser(prog="d2r", description="PettingZoo AEC environments for tabletop games.")
    parser.add_argument("--version", action="version", version=f"d2r_envs {d2r_envs.__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("list", help="the games, their player counts, action and observation sizes")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("describe", help="a game's options, action table and observation table (Markdown)")
    p.add_argument("game", choices=games)
    p.add_argument("--players", type=int, help="number of players (default: the game's default)")
    p.set_defaults(func=cmd_describe)

    p = sub.add_parser("levels", help="a game's difficulty levels: the opponent each names and how they were ordered")
    p.add_argument("game", choices=games)
    p.set_defaults(func=cmd_levels)

    p = sub.add_parser("simulate", help="play random legal games through the AEC env and summarise them")
    p.add_argument("game", choices=games)
    p.add_argument("--players", type=int, help="number of players (default: the game's default)")
    p.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    p.add_argument("--seed", type=int, default=0, help="seed of the agents' RNG; game i resets with seed+i")
    p.add_argument(
        "--option", "-o", action="append", metavar="KEY=VALUE",
        help="a game option, value read as JSON when it parses (short_game=10, long_game=true); repeatable",
    )
    p.add_argument("--record", metavar="DIR", help="write each game as a replay, DIR/<game>_<seed>.json (d2r replay)")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("replay", help="play recorded games back through the engine and check they match")
    p.add_argument("files", nargs="+", metavar="FILE", help="replay files (d2r simulate --record)")
    p.add_argument("--show", action="store_true", help="print each action as the game describes it")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser(
        "bench", help="steps/s of random play, ours beside connect_four_v3 and leduc_holdem_v4, and the bare engine"
    )
    p.add_argument("--games", nargs="+", choices=games, metavar="GAME", help=f"our games to run (default all: {', '.join(games)})")
    p.add_argument("--seconds", type=float, default=3.0, help="wall time per env (default 3)")
    p.add_argument("--rounds", type=int, default=3, help="rounds the time is cut into, envs interleaved (default 3)")
    p.add_argument("--players", type=int, help="players for our games (default: each game's default)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--no-check", action="store_true", help="report the bars but exit 0 even if one fails")
    p.add_argument("--option", "-o", action="append", metavar="KEY=VALUE",
                   help="a game option for every game run (--games extravaganza -o level=legendary); repeatable")
    p.add_argument("--openspiel", action="store_true",
                   help="also our games through pyspiel (d2r_envs.openspiel) beside OpenSpiel's C++ connect_four (openspiel extra)")
    p.add_argument("--search", type=int, default=0, metavar="SIMULATIONS",
                   help="also time information-set MCTS at this many simulations a move, playing every seat "
                        "(on the compiled build beside its pure-Python build)")
    p.add_argument("--training", action="store_true",
                   help="also time training: configs/GAME/ppo.yaml beside MaskablePPO on connect_four_v3 (training extra)")
    p.add_argument("--rllib", metavar="GAME", choices=games,
                   help="with --training: also RLlib's PPO on GAME's ppo.yaml with each --rllib-runners count of env "
                   "runners, beside SB3 on the same config (rllib extra)")
    p.add_argument("--rllib-runners", default="1,2", metavar="N[,M...]", help="env runner counts for --rllib (default 1,2)")
    p.add_argument("--rllib-steps", type=int, default=16384, help="env steps each --rllib set-up is timed for (default 16384)")
    p.add_argument("--ray", metavar="ADDRESS", help="--rllib on this Ray cluster (auto, HEAD:6379) instead of a local instance")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("train", help="train a MaskablePPO policy from a YAML config (training extra)")
    commands.add_train_arguments(p)
    p.set_defaults(func=cmd_train)

    p = sub.add_parser("play", help="play a game at the terminal against chosen opponents")
    p.add_argument("game", choices=games)
    who = p.add_mutually_exclusive_group()
    who.add_argument("--level", help="the opponents' difficulty level, e.g. easy or medium (`d2r levels GAME` lists a game's levels)")
    who.add_argument("--opponents",
                     help="comma-separated agents for the other seats, cycled: random, heuristic, mcts:N, search:M:N, "
                     "shipped (the game's newest shipped model, the default; the heuristic for a game with none yet), "
                     "a model id or path")
    p.add_argument("--players", type=int, help="number of players (default: the game's default)")
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p.add_argument("--seed", type=int, help="seed for chance and the opponents (default: random)")
    p.add_argument("--option", "-o", action="append", metavar="KEY=VALUE", help="a game option; repeatable")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("serve", help="the browser table: play against opponents and step through replays (web extra)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to bind (default 127.0.0.1: this machine only; 0.0.0.0 opens it to the network)")
    p.add_argument("--replays", default="replays", metavar="DIR",
                   help="the replay folder: games played here are saved to it, the viewer opens any replay in it (default ./replays)")
    p.add_argument("--models", action="append", metavar="DIR",
                   help="a model folder (manifest.json and policy.safetensors), or a folder laid out like models/ "
                   "(GAME/NAME/manifest.json), whose models a seat may take besides ./models and the shipped ones; repeatable")
    p.add_argument("--max-tables", type=int, default=64, help="games kept in play at once (default 64)")
    p.add_argument("--idle-minutes", type=float, default=30.0, help="a game is forgotten after this long without a request (default 30)")
    p.add_argument("--per-browser", type=int, default=4, help="unfinished games one browser keeps; one more forgets the one "
                   "it used longest ago (default 4)")
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("export", help="write a trained MaskablePPO checkpoint to models/GAME/NAME/ (safetensors + manifest)")
    commands.add_export_arguments(p, games)
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("eval", help="a tournament between agents on duplicate deals with seat rotation, rated (training extra)")
    p.add_argument("game", choices=games)
    who = p.add_mutually_exclusive_group(required=True)
    who.add_argument("--agents", help="comma-separated agents: the first takes one seat, the others are cycled over the "
                     "rest (model,random = the model against random players); random, heuristic, mcts:N, rollouts:N, a model id or path")
    who.add_argument("--lineup", help="comma-separated agent per seat, e.g. model,random,random,random")
    p.add_argument("--players", type=int, help="number of players (default: the lineup's length, else the game's default)")
    p.add_argument("--games", type=int, default=100, help="games to play, rounded up to whole deals x rotations (default 100)")
    p.add_argument("--seed", type=int, default=0, help="deal d uses the chance seed (seed, d) (default 0)")
    p.add_argument("--workers", type=int, default=1, help="processes over deals; the results do not depend on it (default 1)")
    p.add_argument("--ray", nargs="?", const="", metavar="ADDRESS",
                   help="play the deals as Ray tasks: on a local Ray instance (no ADDRESS; --workers CPUs when above 1, "
                   "else every core) or on a cluster (auto, or HEAD:6379); same results as without (rllib extra)")
    p.add_argument("--out", help="output folder (default runs/eval/GAME-TIMESTAMP)")
    p.add_argument("--training-log", metavar="DIR", help="a training run folder with SB3's progress.csv: adds learning_curve.png")
    p.add_argument("--manifest", metavar="MODEL_REF", help="write the summary into this model's manifest.json under evaluation")
    p.add_argument("--record", metavar="DIR", help="write each game as a replay into DIR (d2r replay FILE)")
    p.add_argument("--journal", metavar="FILE", help="write each finished deal to FILE as it ends; the same command "
                   "run again resumes a stopped tournament, playing only the missing deals (same results)")
    p.add_argument("--option", "-o", action="append", metavar="KEY=VALUE", help="a game option; repeatable")
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("benchmark", help="d2r-bench: score an exported model on fixed tasks and deals, against fixed anchors")
    actions = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    q = actions.add_parser("list", help="the benchmark's suites and tasks, with each task's deals and anchors")
    q.set_defaults(func=cmd_benchmark)
    q = actions.add_parser("eval", help="score exported models on every task of a suite and write a result file "
                           "(training extra)")
    q.add_argument("models", nargs="+", metavar="MODEL",
                   help="an exported model: an id such as draco_and_co/ppo-v2 or a folder; several for several games")
    q.add_argument("--suite", default="core", help="core or full (default core)")
    q.add_argument("--deals", type=int, metavar="N",
                   help="only the first N deals of each task: a quick look, not a benchmark result")
    q.add_argument("--workers", type=int, default=1, help="processes over deals; the result does not depend on it (default 1)")
    q.add_argument("--ladder", action="store_true",
                   help="also against every other reference of each task's frozen ladder (ISMCTS lineups: slow), "
                   "for win shares against each and a rating from all of them")
    q.add_argument("--ray", nargs="?", const="", metavar="ADDRESS",
                   help="play the deals as Ray tasks, locally (no ADDRESS) or on a cluster; the same result (rllib extra)")
    q.add_argument("--out", metavar="FILE", help="the result file (default runs/benchmark/GAME-NAME-SUITE-TIMESTAMP.json)")
    q.set_defaults(func=cmd_benchmark)
    q = actions.add_parser("validate", help="check result files against the shipped benchmark")
    q.add_argument("files", nargs="+", metavar="FILE", help="result files (d2r benchmark eval)")
    q.set_defaults(func=cmd_benchmark)
    q = actions.add_parser("run", help="the training track: train entrants on every task of a suite for a budget, "
                           "several seeds, and score their checkpoints (training extra; rllib for RLlib entrants)")
    q.add_argument("entrants", nargs="+", metavar="ENTRANT",
                   help="an algorithm and its config: a shipped entrant (configs/benchmark/: sb3-ppo, "
                   "sb3-ppo-imitation, rllib-ppo, rllib-ppo-imitation, openspiel-nfsp, openspiel-dqn) or an "
                   "entrant's YAML file")
    q.add_argument("--suite", default="core", help="core or full (default core)")
    q.add_argument("--tasks", metavar="ID,ID", help="only these tasks of the suite")
    q.add_argument("--budget", default="short", help="learner decisions a cell trains for: short (200,000), "
                   "standard (5,000,000) or a number (default short)")
    q.add_argument("--seeds", type=int, default=3, help="seeds per entrant and task: 0..N-1 (default 3)")
    q.add_argument("--checkpoint-deals", type=int, default=200, metavar="N",
                   help="deals each checkpoint of the curve is scored on (default 200)")
    q.add_argument("--deals", type=int, metavar="N",
                   help="score the final checkpoints on the first N deals only: a quick look, not a benchmark result")
    q.add_argument("--workers", type=int, default=1, help="cells at a time, one process and one core each (default 1)")
    q.add_argument("--ray", nargs="?", const="", metavar="ADDRESS",
                   help="the cells as Ray tasks, one CPU each: on a local instance (no ADDRESS; --workers CPUs) or a "
                   "cluster (auto, HEAD:6379), every cell.json written here (rllib extra)")
    q.add_argument("--out", required=True, metavar="DIR",
                   help="the run folder; the same command resumes it, running only the cells not done")
    q.set_defaults(func=cmd_benchmark)
    q = actions.add_parser("report", help="tables and figures (rliable: IQM, performance profiles, probability of "
                           "improvement, curves) from run folders alone (benchmark extra)")
    q.add_argument("runs", nargs="+", metavar="RUN", help="run folders of d2r benchmark run")
    q.add_argument("--reference", action="append", metavar="FILE",
                   help="a d2r benchmark eval result to show beside the entrants (a frozen reference); repeatable")
    q.add_argument("--out", metavar="DIR", help="where the report goes (default RUN/report)")
    q.set_defaults(func=cmd_benchmark)

    p = sub.add_parser("balance", help="self-play of one agent in every seat: win shares by seat and by what each seat had")
    commands.add_balance_arguments(p, games)
    p.set_defaults(func=cmd_balance)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; its exit code. Ctrl-C anywhere is one line and 130; output cut short by its reader
    (`d2r ... | head`) ends quietly with 141, as for a command killed by SIGPIPE."""
    try:
        args = build_parser().parse_args(argv)
        code = args.func(args)
        sys.stdout.flush()  # a closed pipe shows here, not at exit
        return code
    except KeyboardInterrupt:
        print("\nd2r: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        try:  # the rest of the output, and Python's flush at exit, go nowhere
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):  # a stdout with no file descriptor
            pass
        return 141


if __name__ == "__main__":
    sys.exit(main())
