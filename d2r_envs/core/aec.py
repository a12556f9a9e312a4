"""The one adapter from any engine (core.game.Game) to a PettingZoo AEC env, and its safety layer."""

from __future__ import annotations

from typing import Any, Callable

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers.base import BaseWrapper

from d2r_envs.core import raster
from d2r_envs.core.game import TERMINAL, Game, IllegalActionError
from d2r_envs.core.obs import Observer

_INT64, _INT8, _frombuffer = np.int64, np.int8, np.frombuffer
RENDER_MODES = (None, "ansi", "human", "rgb_array")


class GameEnv(AECEnv):
    """Turns-based AEC env over an engine. Chance is resolved with the env's own seeded RNG.

    render_mode: "ansi" (render() returns the acting seat's view as text; the whole state once the
    game is over), "human" (prints it after every step) or "rgb_array" (render() returns the game's
    picture from above, every hand shown, as an (H, W, 3) uint8 array of a size fixed by the game and
    its player count: a spectator's video frame. It needs the render extra, `pip install
    'd2r_envs[render]'`, and the env refuses to be made without it). In a notebook the env shows the
    same picture from above as SVG (`_repr_svg_`).

    `picture(game, state, seat)` draws those pictures (a game's record passes its draw,
    `GamePackage.svg` in core/package.py: the core finds no game's modules); without one there is no
    "rgb_array" mode and no notebook picture.
    """

    def __init__(self, game: Game, observer: Observer, render_mode: str | None = None,
                 picture: Callable[[Game, Any, int | None], str] | None = None) -> None:
        super().__init__()
        spec = game.spec
        if render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode {render_mode!r} is not allowed; allowed: None, "
                             + ", ".join(repr(m) for m in RENDER_MODES[1:]))
        if render_mode == "rgb_array":
            if picture is None:
                raise ValueError(f"{spec.name} draws no pictures: render_mode 'rgb_array' is not available")
            raster.require()
        self.game = game
        self.picture = picture
        self.observer = observer
        self.render_mode = render_mode
        self.metadata = {
            "name": f"{spec.name}_v{spec.version}",
            "render_modes": list(RENDER_MODES[1:]),
            "render_fps": 2,
            "is_parallelizable": False,
        }
        self.possible_agents = [f"player_{i}" for i in range(spec.num_players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self._num_actions = spec.num_actions
        obs_space = spaces.Dict(
            {
                "observation": observer.layout.box,
                "action_mask": spaces.Box(0, 1, (spec.num_actions,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(spec.num_actions) for a in self.possible_agents}
        self.state: Any = None  # the game's state (None before reset()); shadows AECEnv.state()
        self._flags: bytearray | None = None  # the current decision's legal actions, a byte each (None: not yet)
        self._max_moves = spec.max_game_length
        self._rewarded = False  # whether a reward in self.rewards may be non-zero

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # Lifecycle -----------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.np_random, self.np_random_seed = seeding.np_random(seed)
        self.state = self.game.new_initial_state()
        self.game.resolve_chance(self.state, self.np_random)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.num_moves = 0
        self._returns = self.game.returns(self.state)
        self._flags = None
        self._rewarded = False
        self.agent_selection = self.possible_agents[self.game.current_player(self.state)]

    def step(self, action: Any) -> None:
        if self.state is None:
            raise RuntimeError(f"{self.metadata['name']}: call reset() before step()")
        agent = self.agent_selection
        try:
            if self.terminations[agent] or self.truncations[agent]:
                return self._was_dead_step(action)
        except KeyError:
            self._raise_if_over("step")
            raise
        self._apply(agent, self._check_legal(action))

    def _raise_if_over(self, what: str) -> None:
        """After the last dead step every agent is gone: say so (instead of a KeyError of the last agent)."""
        if not self.agents:
            raise RuntimeError(
                f"{self.metadata['name']}: {what}() after the game is over: every agent has taken its last "
                "step and been removed (env.agents is empty); call reset() to play again"
            ) from None

    def _apply(self, agent: str, a: int) -> None:
        """The body of step() for a live agent and an int action already known to be legal."""
        game, state = self.game, self.state
        game.apply_legal(state, a)
        game.resolve_chance(state, self.np_random)
        player = game.current_player(state)
        self._flags = None
        self.num_moves += 1
        self._cumulative_rewards[agent] = 0.0
        returns = game.returns(state)
        if returns != self._returns:
            before = self._returns
            rewards = self.rewards
            self.rewards = rewards = {
                ag: returns[i] - before[i] for i, ag in enumerate(self.possible_agents) if ag in rewards
            }
            self._returns = returns
            self._rewarded = True
            cumulative = self._cumulative_rewards
            for ag, r in rewards.items():  # AECEnv._accumulate_rewards
                cumulative[ag] += r
        elif self._rewarded:  # no reward this step: zero last step's (nothing to accumulate)
            rewards = self.rewards
            for ag in rewards:
                rewards[ag] = 0.0
            self._rewarded = False
        if player == TERMINAL:
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.num_moves >= self._max_moves:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[player]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self.state
        if state is None:
            raise RuntimeError(f"{self.metadata['name']}: call reset() before observe()")
        obs = self.observer.encode(state, self._seat[agent])
        if agent == self.agent_selection and not (self.terminations.get(agent) or self.truncations.get(agent)):
            mask = _frombuffer(bytearray(self._flags or self._legal_flags()), _INT8)  # the caller's own copy
        else:
            mask = np.zeros(self._num_actions, np.int8)
        return {"observation": obs, "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict]:
        """AECEnv.last, with a clear error before reset() (written out, observe() too: it runs every step)."""
        state = self.state
        if state is None:
            raise RuntimeError(f"{self.metadata['name']}: call reset() before last()")
        agent = self.agent_selection
        try:
            terminated, truncated = self.terminations[agent], self.truncations[agent]
        except KeyError:
            self._raise_if_over("last")
            raise
        if not observe:
            obs = None
        elif terminated or truncated:
            obs = self.observe(agent)
        else:  # observe(agent) for the agent to act
            obs = {
                "observation": self.observer.encode(state, self._seat[agent]),
                "action_mask": _frombuffer(bytearray(self._flags or self._legal_flags()), _INT8),
            }
        return obs, self._cumulative_rewards[agent], terminated, truncated, self.infos[agent]

    def render(self) -> str | np.ndarray | None:
        if self.state is None:
            raise RuntimeError(f"{self.metadata['name']}: call reset() before render()")
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi', 'human' or 'rgb_array'")
            return None
        if self.render_mode == "rgb_array":
            picture = self.picture
            assert picture is not None  # (checked when the env was made)
            return raster.rgb(picture(self.game, self.state, None))
        seat = self._seat[self.agent_selection]
        text = self.observer.string_from(self.state, seat)
        if self.game.is_terminal(self.state):
            text = self.game.state_to_string(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    def _repr_svg_(self) -> str | None:
        """The current state's picture from above, for a notebook (nothing before reset())."""
        return None if self.state is None or self.picture is None else self.picture(self.game, self.state, None)

    # Helpers ---------------------------------------------------------------------------------

    def legal_mask(self) -> np.ndarray:
        """The int8 mask of the current decision: a view of the env's own flags (read it, do not write it)."""
        return _frombuffer(self._flags or self._legal_flags(), _INT8)

    def _legal_flags(self) -> bytearray:
        """The current decision's legal actions, a byte each (kept until the state changes)."""
        flags = self._flags = self.game.legal_flags(self.state)
        return flags

    def _check_legal(self, action: Any) -> int:
        if isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)):
            a = int(action)
        elif isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
            a = int(action)
        else:
            raise IllegalActionError(
                f"{self.agent_selection}: action {action!r} ({type(action).__name__}) is not an integer action; "
                f"pass an int (or a numpy integer) in 0..{self._num_actions - 1}"
            )
        if not 0 <= a < self._num_actions or not (self._flags or self._legal_flags())[a]:
            raise IllegalActionError(
                f"{self.agent_selection}: "
                + self.game.illegal_message(self.state, a, self.game.legal_actions(self.state))
            )
        return a


# What OrderEnforcingWrapper refuses to read before reset().
_NEED_RESET = frozenset({"rewards", "terminations", "truncations", "infos", "agent_selection", "num_agents", "agents"})


class SafeEnv(BaseWrapper):
    """PettingZoo's classic wrapper stack in one layer, with the same behaviour and less cost
    (tests/core/test_safe_env_matches_pettingzoo.py drives both side by side).

    - order enforcement: reset() first (AssertionError, AttributeError as OrderEnforcingWrapper),
      and a loop over agent_iter() must step (AssertionError as AECOrderEnforcingIterator);
    - bounds: an action outside the action space is an AssertionError (AssertOutOfBoundsWrapper);
    - an illegal action ends the game, the mover gets `illegal_reward` (TerminateIllegalWrapper).
    """

    def __init__(self, env: GameEnv, illegal_reward: float) -> None:
        super().__init__(env)
        self._raw = env
        self._illegal_reward = float(illegal_reward)
        self._has_reset = False
        self._has_updated = False
        self.possible_agents = env.possible_agents
        self.metadata = env.metadata
        self.render_mode = env.render_mode
        self.observation_spaces = env.observation_spaces
        self.action_spaces = env.action_spaces

    def __getattr__(self, name: str) -> Any:
        # Also reached when a property below raises AttributeError: keep OrderEnforcingWrapper's message.
        if name in ("env", "_raw"):
            raise AttributeError(name)
        if name in _NEED_RESET and not self.__dict__.get("_has_reset", False):
            raise AttributeError(f"{name} cannot be accessed before reset")
        return super().__getattr__(name)

    def _live(self, name: str) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._raw, name)

    agents = property(lambda self: self._live("agents"))
    agent_selection = property(lambda self: self._live("agent_selection"))
    rewards = property(lambda self: self._live("rewards"))
    terminations = property(lambda self: self._live("terminations"))
    truncations = property(lambda self: self._live("truncations"))
    infos = property(lambda self: self._live("infos"))
    _cumulative_rewards = property(lambda self: self._live("_cumulative_rewards"))

    def observation_space(self, agent: str) -> spaces.Space:
        return self._raw.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._raw.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._has_reset = True
        self._has_updated = True
        self._raw.reset(seed=seed, options=options)
        # from now on the checks below always pass: the env's own last(), one call less
        self.last = self._raw.last  # type: ignore[method-assign]

    def observe(self, agent: str) -> Any:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self._raw.observe(agent)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict]:
        if not self._has_reset:  # AECEnv.last reads agent_selection first
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self._raw.last(observe)

    def agent_iter(self, max_iter: int = 2**63) -> "_SafeIterable":
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _SafeIterable(self, max_iter)

    def render(self) -> Any:
        if not self._has_reset:
            EnvLogger.error_render_before_reset()
        return self._raw.render()

    def state(self) -> np.ndarray:
        if not self._has_reset:
            EnvLogger.error_state_before_reset()
        return self._raw.state()

    def step(self, action: Any) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        self._has_updated = True
        raw = self._raw
        if not raw.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = raw.agent_selection
        if raw.terminations[agent] or raw.truncations[agent]:
            if action is not None:  # AssertOutOfBoundsWrapper lets only None through for the dead
                assert raw.action_spaces[agent].contains(action), "action is not in action space"
            raw._was_dead_step(action)
            return
        kind = type(action)
        if kind is int or kind is _INT64:  # Discrete.contains for these two types, and the mask, read directly
            a = int(action)
            legal = 0 <= a < raw._num_actions and (raw._flags or raw._legal_flags())[a]
            assert legal or 0 <= a < raw._num_actions, "action is not in action space"
        else:  # the rest goes the long way
            assert raw.action_spaces[agent].contains(action), "action is not in action space"
            legal = raw.legal_mask()[action]
        if not legal:
            EnvLogger.warn_on_illegal_move()
            raw._cumulative_rewards[agent] = 0
            raw.terminations = dict.fromkeys(raw.agents, True)
            raw.truncations = dict.fromkeys(raw.agents, True)
            raw.rewards = dict.fromkeys(raw.agents, 0)
            raw.rewards[agent] = self._illegal_reward
            raw._accumulate_rewards()
            raw._deads_step_first()
            return
        raw._apply(agent, int(action))  # bounds and legality are checked: skip GameEnv's own checks

    def __str__(self) -> str:
        return str(self._raw)

    def _repr_svg_(self) -> str | None:
        return self._raw._repr_svg_()


class _SafeIterable:
    """agent_iter() of SafeEnv: PettingZoo's AECOrderEnforcingIterable, reading the raw env directly."""

    __slots__ = ("_env", "_max_iter")

    def __init__(self, env: SafeEnv, max_iter: int) -> None:
        self._env, self._max_iter = env, max_iter

    def __iter__(self) -> "_SafeIterator":
        return _SafeIterator(self._env, self._max_iter)


class _SafeIterator:
    __slots__ = ("_env", "_raw", "_left")

    def __init__(self, env: SafeEnv, max_iter: int) -> None:
        self._env, self._raw, self._left = env, env._raw, max_iter

    def __iter__(self) -> "_SafeIterator":
        return self

    def __next__(self) -> str:
        raw = self._raw
        if not raw.agents or self._left <= 0:
            raise StopIteration
        self._left -= 1
        env = self._env
        assert env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        env._has_updated = False
        return raw.agent_selection
