"""Opponents that play a seat through the engine: the interface and the simplest ones.

An agent gets the true state for speed, but must act only on what `seat` may see. The tests
check it: an agent's action does not change when the state is redeterminised for its seat.
"""

from __future__ import annotations

import contextlib
import copy
from typing import Any, Protocol

import numpy as np

from d2r_envs.core.game import Game

try:
    from threadpoolctl import threadpool_limits
except ImportError:  # the environments alone: BLAS keeps its threads
    threadpool_limits = None


def one_blas_thread() -> Any:
    """A context in which BLAS runs on one thread, where threadpoolctl is installed (the train and web
    extras): a search reads a network one observation at a time, which one thread does fastest."""
    return threadpool_limits(limits=1, user_api="blas") if threadpool_limits else contextlib.nullcontext()


class Agent(Protocol):
    name: str

    def act(self, game: Game, state: Any, seat: int, rng: np.random.Generator) -> int:
        """A legal action for `seat`, which is to act in `state`."""


class RandomAgent:
    """Uniformly random legal actions."""

    name = "random"

    def act(self, game: Game, state: Any, seat: int, rng: np.random.Generator) -> int:
        legal = game.legal_actions(state)
        return legal[int(rng.random() * len(legal))]


class PolicyAgent:
    """Plays a policy that reads AEC observations ({"observation", "action_mask"}), such as an
    exported opponent from d2r_envs.load_opponent."""

    def __init__(self, policy: Any, observer: Any, name: str = "policy") -> None:
        self.policy = policy
        self.observer = observer
        self.name = name
        self._mask = np.zeros(observer.game.spec.num_actions, np.int8)

    def for_game(self, engine: Any) -> "PolicyAgent":
        """This agent made to play `engine`'s game (another player count, other options): itself, or the
        same policy on that game's observer."""
        if self.observer.game is engine:
            return self
        return PolicyAgent(self.policy, engine.make_observer(**self.observer.options), name=self.name)

    def act(self, game: Game, state: Any, seat: int, rng: np.random.Generator) -> int:
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        obs = self.observer.encode(state, seat)
        if hasattr(self.policy, "logits"):  # the best legal logit, as policy.act does, without the dict
            return legal[int(np.argmax(self.policy.logits(obs)[legal]))]
        mask = self._mask.copy()
        mask[legal] = 1
        return int(self.policy.act({"observation": obs, "action_mask": mask}))


def with_bound(agent: Any, inner: str, engine: Any) -> Any:
    """`agent` made to play `engine`'s game through its attribute `inner`, an agent it consults: itself when
    that agent plays `engine` as it is (`for_game`), else a copy holding the bound one."""
    held = getattr(agent, inner)
    bound = held.for_game(engine) if hasattr(held, "for_game") else held
    if bound is held:
        return agent
    other = copy.copy(agent)
    setattr(other, inner, bound)
    return other
