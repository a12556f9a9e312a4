"""The learner's view: one seat of a game as a gymnasium env, every other seat played by opponents.

The env advances through opponents' turns and chance until the learner must decide, credits the
learner's own return, and exposes `action_masks()` for sb3-contrib's MaskablePPO.
"""

from __future__ import annotations

import time
from typing import Any, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces

from d2r_envs.agents import Agent, make_agent
from d2r_envs.core.game import CHANCE, TERMINAL, IllegalActionError
from d2r_envs import registry
from d2r_envs.registry import game_package

ILLEGAL_MODES = ("lose", "raise")


class SingleAgentEnv(gymnasium.Env):
    """One seat of `game` against a pool of opponents.

    learner_seat: a seat number, or "random" for a new seat each episode.
    opponents: the pool; each other seat draws one agent from it every episode. Entries are agent
        specs ("random", "heuristic", "mcts:<n>", a model ref) or agent objects.
    illegal_action: "lose" (as PettingZoo's usual handling: the episode ends with the game's minimum
        return; gymnasium's check_env samples unmasked actions) or "raise" (IllegalActionError,
        nothing changes).
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game: str,
        num_players: int | None = None,
        learner_seat: int | str = "random",
        opponents: Sequence[str | Agent] = ("random",),
        illegal_action: str = "lose",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.engine = registry.make_game(game, num_players, **options)
        self.game_name = game
        spec = self.engine.spec
        n = spec.num_players
        if learner_seat != "random" and (isinstance(learner_seat, bool) or learner_seat not in range(n)):
            raise ValueError(f"learner_seat {learner_seat!r} is not allowed; allowed: 'random' or 0..{n - 1}")
        if illegal_action not in ILLEGAL_MODES:
            raise ValueError(f"illegal_action {illegal_action!r} is not allowed; allowed: {', '.join(ILLEGAL_MODES)}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r} is not allowed; allowed: None, 'ansi'")
        if isinstance(opponents, str) or not opponents:
            raise ValueError("opponents must be a non-empty list of agent specs, e.g. ['random', 'heuristic']")
        self.learner_seat = learner_seat
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.observer = self.engine.make_observer()
        self.observation_space = self.observer.layout.box
        self.action_space = spaces.Discrete(spec.num_actions)
        self.pool: list[Agent] = [self._agent(o) for o in opponents]
        self.state = None
        self._mask = None  # the learner's legal-action mask at the current decision
        self.seat = 0
        self.seat_agents: dict[int, Agent] = {}
        self.opponent_seconds = 0.0  # time spent choosing opponents' actions, for the benchmark
        self.env_seconds = 0.0  # time spent in the engine and encoder

    def _agent(self, agent: str | Agent) -> Agent:
        return make_agent(agent, self.engine) if isinstance(agent, str) else agent

    # The opponent pool (called through VecEnv.env_method during self-play) ----------------------

    def add_opponent(self, agent: str | Agent, max_pool: int | None = None, keep: int = 0) -> None:
        """Add an opponent; with max_pool, drop the oldest beyond it, never the first `keep`."""
        self.pool.append(self._agent(agent))
        if max_pool is not None:
            while len(self.pool) > max_pool and len(self.pool) > keep:
                del self.pool[keep]

    def pool_names(self) -> list[str]:
        return [a.name for a in self.pool]

    # gymnasium API ------------------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        rng = self.np_random
        n = self.engine.spec.num_players
        self.state = self.engine.new_initial_state()
        self.seat = int(rng.integers(n)) if self.learner_seat == "random" else int(self.learner_seat)
        self.seat_agents = {q: self.pool[int(rng.integers(len(self.pool)))] for q in range(n) if q != self.seat}
        self.decisions = 0
        self._return = 0.0
        self._mask = None
        self._advance()
        return self._observe(), self._info()

    def step(self, action: Any):
        start = time.perf_counter()
        game, state = self.engine, self.state
        if game.current_player(state) != self.seat:
            raise RuntimeError("step() called after the episode ended; call reset()")
        a = int(action)
        if a != action or not 0 <= a < game.spec.num_actions or not self._legal_mask()[a]:
            if self.illegal_action == "raise":
                raise IllegalActionError(f"learner (seat {self.seat}): " + game.illegal_message(state, a, game.legal_actions(state)))
            self.env_seconds += time.perf_counter() - start
            reward = game.spec.min_return - self._return
            return self._observe(), reward, True, False, self._info(illegal=True)
        game.apply_legal(state, a)
        self._mask = None
        self.decisions += 1
        self.env_seconds += time.perf_counter() - start
        self._advance()
        start = time.perf_counter()
        terminated = game.current_player(state) == TERMINAL
        truncated = not terminated and self.decisions >= game.spec.max_game_length
        now = game.returns(state)[self.seat]
        reward, self._return = now - self._return, now
        obs = self._observe()
        self.env_seconds += time.perf_counter() - start
        return obs, reward, terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now, as a bool mask."""
        return self._legal_mask().copy()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi'")
            return None
        return self.observer.string_from(self.state, self.seat)

    # Helpers ------------------------------------------------------------------------------------

    def _advance(self) -> None:
        """Play chance and opponents until the learner decides or the game ends."""
        game, state, rng, clock = self.engine, self.state, self.np_random, time.perf_counter
        cap = game.spec.max_game_length
        start = clock()
        thinking = 0.0
        while True:
            player = game.current_player(state)
            if player == CHANCE:
                game.resolve_chance(state, rng)
            elif player == TERMINAL or player == self.seat or self.decisions >= cap:
                break
            else:
                t = clock()
                action = self.seat_agents[player].act(game, state, player, rng)
                thinking += clock() - t
                game.apply_action(state, action)
                self.decisions += 1
        self.opponent_seconds += thinking
        self.env_seconds += clock() - start - thinking

    def _legal_mask(self) -> np.ndarray:
        """The learner's mask, computed once per decision (step() checks the action against it)."""
        if self._mask is None:
            mask = np.zeros(self.engine.spec.num_actions, bool)
            if self.state is not None and self.engine.current_player(self.state) == self.seat:
                mask[self.engine.legal_actions(self.state)] = True
            self._mask = mask
        return self._mask

    def _observe(self) -> np.ndarray:
        return self.observer.encode(self.state, self.seat)

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        info: dict[str, Any] = {"seat": self.seat}
        if illegal:
            info["illegal_action"] = True
        if self.engine.is_terminal(self.state):
            info["returns"] = self.engine.returns(self.state)
        return info


def register_all() -> None:
    """Register `d2r/<game>-v<version>` with gymnasium for every game."""
    for name in registry.names():
        env_id = f"d2r/{name}-v{game_package(name).VERSION}"
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point="d2r_envs.single_agent:SingleAgentEnv", kwargs={"game": name})
