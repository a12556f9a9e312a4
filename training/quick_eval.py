"""The quick evaluations during training: the learner's current policy against train.eval_opponent
in every other seat, at each player count (and variant) of the config, and the line each prints."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from training import config as cfg
from training.bars import bar_note
from training.export import tensors_from_sb3
from training.learner_env import make_env, pool_agent


def quick_eval(model: Any, c: cfg.Config, games: int, seed: int, num_players: int | None = None,
               variant: int = 0, should_stop: Callable[[], bool] | None = None) -> dict | None:
    """The learner's current policy (deterministic) against train.eval_opponent in every other seat,
    at `num_players` (default: the config's first count) in the variant numbered `variant`: its win
    share and mean return, and the opponents' win share per seat. `model`: a MaskablePPO, or the
    actor's tensors in the exported layout (another backend's learner). None when `should_stop()`
    turns true before the last game."""
    env = make_env(c, [c.train.eval_opponent], num_players=num_players or c.player_counts()[0], variant=variant)
    tensors = model if isinstance(model, dict) else tensors_from_sb3(model.policy)
    agent = pool_agent(tensors, c, "learner", env.engine)
    rng = np.random.default_rng(seed)
    wins = 0
    theirs = 0.0
    total = 0.0
    for g in range(games):
        if should_stop is not None and should_stop():
            return None
        obs, info = env.reset(seed=seed + g)
        done = False
        while not done:
            action = agent.act(env.engine, env.state, env.seat, rng)
            obs, reward, terminated, truncated, info = env.step(action)
            total += reward
            done = terminated or truncated
        returns, best = env.engine.returns(env.state), env.engine.spec.max_return
        wins += returns[env.seat] == best
        theirs += sum(r == best for q, r in enumerate(returns) if q != env.seat) / (len(returns) - 1)
    return {"win_share": wins / games, "mean_return": total / games, "opponent_win_share": theirs / games}


def quick_evals(model: Any, c: cfg.Config, games: int, seed: int,
                should_stop: Callable[[], bool] | None = None) -> dict[Any, dict] | None:
    """`quick_eval` at each player count of the config, `games` games each: {count: result}; with
    several variants, at each count in each variant: {(count, variant): result}. None when
    `should_stop()` turns true first."""
    keys = ([(n, v) for v in range(len(c.env.variants)) for n in c.player_counts()] if len(c.env.variants) > 1
            else c.player_counts())
    results = {}
    for key in keys:
        n, v = key if isinstance(key, tuple) else (key, 0)
        results[key] = quick_eval(model, c, games, seed, num_players=n, variant=v, should_stop=should_stop)
        if results[key] is None:
            return None
    return results


def eval_line(c: cfg.Config, step: int, key: Any, result: dict, several: bool) -> str:
    """A quick evaluation's line: the games, the learner's win share beside the bar it aims at
    (training/bars.py) where the project has one against train.eval_opponent, the mean return."""
    n, v = key if isinstance(key, tuple) else (key, None)
    at = f" at {n} players" + ("" if v is None else f", variant {v} {c.env.variants[v]}") if several else ""
    note = bar_note(n, c.train.eval_opponent, result["win_share"], result["opponent_win_share"])
    return (f"step {step:,}: {c.train.eval_games} games against {c.train.eval_opponent}{at}: "
            f"win share {result['win_share']:.1%}{f' ({note})' if note else ''}, "
            f"mean return {result['mean_return']:+.3f}")
