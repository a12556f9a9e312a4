"""SafeEnv (what make() returns) behaves as PettingZoo's own wrapper stack over the raw env:
OrderEnforcingWrapper(AssertOutOfBoundsWrapper(TerminateIllegalWrapper(raw_env))).

Both are driven with the same actions, legal, illegal, out of bounds, of the wrong type, None for
a live agent and not None for a dead one; every last(), reward dict and exception must agree.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.utils.wrappers import AssertOutOfBoundsWrapper, OrderEnforcingWrapper, TerminateIllegalWrapper

import d2r_envs

NAMES = d2r_envs.names()


def _pettingzoo_stack(name: str, n: int):
    raw = d2r_envs.raw_env(name, n)
    return OrderEnforcingWrapper(
        AssertOutOfBoundsWrapper(TerminateIllegalWrapper(raw, illegal_reward=raw.game.spec.min_return))
    )


def _outcome(f):
    try:
        f()
        return "ok"
    except Exception as e:  # noqa: BLE001 - the kind of failure is what is compared
        return type(e).__name__


def _same(a, b) -> bool:
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b)
    return a == b


@pytest.mark.parametrize("name", NAMES)
def test_safe_env_matches_the_pettingzoo_wrappers(name: str) -> None:
    spec = d2r_envs.make_game(name).spec
    rng = np.random.default_rng(1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for episode in range(24):
            n = spec.min_players + episode % (spec.max_players - spec.min_players + 1)
            ours, theirs = d2r_envs.make(name, n), _pettingzoo_stack(name, n)
            for env in (ours, theirs):
                env.reset(seed=episode)
            p_bad = (0.0, 0.01, 0.05)[episode % 3]
            while ours.agents:
                assert theirs.agents == ours.agents and theirs.agent_selection == ours.agent_selection
                last = ours.last()
                assert _same(last, theirs.last())
                assert _same(ours.rewards, theirs.rewards)
                assert _same(ours._cumulative_rewards, theirs._cumulative_rewards)
                obs, _, term, trunc, _ = last
                bad = rng.random() < p_bad
                if term or trunc:
                    action = int(rng.choice([3, spec.num_actions, -1])) if bad else None
                elif bad:
                    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
                    action = [illegal, spec.num_actions, -1, None, 2.0][int(rng.integers(5))]
                else:
                    action = rng.choice(np.flatnonzero(obs["action_mask"]))  # a numpy int64
                assert _outcome(lambda: ours.step(action)) == _outcome(lambda: theirs.step(action)), action
            assert not theirs.agents
            assert _outcome(lambda: ours.step(None)) == _outcome(lambda: theirs.step(None))  # after the end


@pytest.mark.parametrize("name", NAMES)
def test_safe_env_refuses_what_order_enforcing_refuses(name: str) -> None:
    ours, theirs = d2r_envs.make(name), _pettingzoo_stack(name, d2r_envs.make_game(name).spec.num_players)

    def attempts(env):
        return [
            lambda: env.agents,
            lambda: env.num_agents,
            lambda: env.agent_selection,
            lambda: env.rewards,
            lambda: env.terminations,
            lambda: env.infos,
            lambda: env.last(),
            lambda: env.observe("player_0"),
            lambda: env.step(0),
            lambda: env.agent_iter(),
            lambda: env.render(),
        ]

    for f, g in zip(attempts(ours), attempts(theirs)):
        assert _outcome(f) == _outcome(g) != "ok"
    for env in (ours, theirs):
        env.reset(seed=0)

    def loop_without_step(env):
        for _ in env.agent_iter():
            env.last()

    assert _outcome(lambda: loop_without_step(ours)) == _outcome(lambda: loop_without_step(theirs)) == "AssertionError"
