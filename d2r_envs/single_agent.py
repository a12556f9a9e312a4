"""The learner's view: one seat of a game as a gymnasium env, every other seat played by opponents.

The env advances through opponents' turns and chance until the learner must decide, credits the
learner's own return, and gives the learner's mask as `action_masks()` (sb3-contrib's MaskablePPO),
`info["action_mask"]` at every reset and step (gymnasium's vector envs stack it), and optionally in a
Dict observation. Given several player counts, it draws one per episode (with weights if given) and
plays that episode with that count's game. Registered with gymnasium as `d2r/<game>-v<version>`.
"""

from __future__ import annotations

import operator
import time
from typing import Any, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces
from numpy.random import SeedSequence

from d2r_envs.agents import Agent, make_agent
from d2r_envs.core import raster
from d2r_envs.core.game import CHANCE, TERMINAL, IllegalActionError, margin_return
from d2r_envs import registry
from d2r_envs.registry import package

ILLEGAL_MODES = ("lose", "raise")
REWARDS = ("return", "margin")
ALL_COUNTS = "all"  # num_players: every count the game allows
MAX_DEALS = 100  # deals in a row in which the learner has no decision before reset() gives up
COUNT_STREAM = 0x636F756E74  # the spawn key of the player-count stream within an env's seed sequence
VARIANT_STREAM = 0x76617269  # the spawn key of the variant stream


class PerCount:
    """One opponent for every game of an env (each player count, each variant): the agent built for
    each game, chosen by the engine it is asked to play. An exported model's observer is made for one
    game, so an agent that reads a network (a model, a search or rollouts guided by one) is rebuilt on
    each game's own observer (which encodes that game's count and options)."""

    def __init__(self, agent: Agent, engines: dict[Any, Any]) -> None:
        self.name = getattr(agent, "name", type(agent).__name__)
        self.agents = {key: bind(agent, engine) for key, engine in engines.items()}
        self._by_engine = {id(engine): self.agents[key] for key, engine in engines.items()}

    def act(self, game: Any, state: Any, seat: int, rng: np.random.Generator) -> int:
        return self._by_engine[id(game)].act(game, state, seat, rng)


def bind(agent: Agent, engine: Any) -> Agent:
    """`agent` made to play `engine`'s game: the agent itself, or, for an agent that reads a network
    through one game's observer (a model, a search or rollouts guided by one), its `for_game(engine)`:
    the same agent reading `engine`'s observations (another player count or other options)."""
    if isinstance(agent, PerCount):
        return agent._by_engine[id(engine)]
    if hasattr(agent, "for_game"):
        return agent.for_game(engine)
    return agent


def _counts(game: str, num_players: Any, options: dict[str, Any]) -> list[int | None]:
    if num_players is None or isinstance(num_players, (int, np.integer)) and not isinstance(num_players, bool):
        return [None if num_players is None else int(num_players)]
    if isinstance(num_players, str) and num_players == ALL_COUNTS:
        spec = registry.make_game(game, **options).spec
        return list(range(spec.min_players, spec.max_players + 1))
    if isinstance(num_players, str) or not isinstance(num_players, Sequence) or not num_players:
        raise ValueError(f"num_players {num_players!r} is not allowed; allowed: a player count, a non-empty "
                         f"list of counts, or {ALL_COUNTS!r} (every count the game allows)")
    counts = []
    for n in num_players:
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
            raise ValueError(f"num_players: {n!r} in {list(num_players)!r} is not a whole number")
        counts.append(int(n))
    if len(set(counts)) != len(counts):
        raise ValueError(f"num_players {counts}: list each count once (player_weights sets how often each is drawn)")
    return counts


def _variants(options: dict[str, Any], variants: Sequence[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """Each variant's options: the variant laid over `options` (one variant, `options`, when None)."""
    if variants is None:
        return [dict(options)]
    if isinstance(variants, (str, dict)) or not isinstance(variants, Sequence) or not variants:
        raise ValueError(f"variants {variants!r} is not allowed; allowed: a non-empty list of option dicts")
    for i, v in enumerate(variants):
        if not isinstance(v, dict):
            raise ValueError(f"variants[{i}]: {v!r} is not a dict of game options")
    return [{**options, **v} for v in variants]


def _probabilities(weights: Sequence[float] | None, counts: list, what: str = "count") -> np.ndarray:
    key, among = ("player_weights", "num_players") if what == "count" else ("variant_weights", "variants")
    if weights is None or len(weights) == 0:
        return np.full(len(counts), 1 / len(counts))
    if len(counts) < 2:
        raise ValueError(f"{key} needs several {what}s in {among}")
    if len(weights) != len(counts):
        listed = f" {counts}" if what == "count" else ""
        raise ValueError(f"{key}: {len(weights)} weight(s) for {len(counts)} {what}s{listed}; give one per {what}")
    w = np.asarray(weights, dtype=float)
    if not np.all(np.isfinite(w)) or not np.all(w > 0):
        raise ValueError(f"{key} {list(weights)!r}: each weight must be a positive number")
    return w / w.sum()


class SingleAgentEnv(gymnasium.Env):
    """One seat of `game` against a pool of opponents.

    num_players: a player count (None: the game's default), a list of counts, or "all" (every count
        the game allows): with several, each episode draws one, from a stream of its own seeded with
        the env (`reset(seed=...)`), so the draws depend on the seed alone, not on how the games went
        (the same "all" as a training config's `env.num_players`). Every count has its own game object
        (`engines`); `engine` is the current episode's (the first count's before the first reset).
        Observation and action spaces are the same at every count (layouts are padded to the
        maximum), and the env checks it.
    player_weights: with a list of counts, how often each is drawn (one positive number per count;
        None: equally often).
    variants: game options laid over `options`, one dict per variant (a level, a module set); each
        episode draws one, from a stream of its own, as it draws a count. With several variants
        `engines` is keyed by (count, variant index) and every game's layout must be the same.
    variant_weights: how often each variant is drawn (None: equally often).
    learner_seat: a seat number (it must exist at every count), or "random" for a new seat each episode.
    opponents: the pool; each other seat draws one agent from it every episode. Entries are agent
        specs ("random", "heuristic", "mcts:<n>", a model ref) or agent objects; with several counts
        each is wrapped so that it plays every count's game (`PerCount`).
    illegal_action: "lose" (as PettingZoo's usual handling: the episode ends with the game's minimum
        return; gymnasium's check_env samples unmasked actions) or "raise" (IllegalActionError,
        nothing changes).
    render_mode: "ansi" (the learner's view as text) or "rgb_array" (the picture from above, a
        spectator's video frame; it needs `pip install 'd2r_envs[render]'`).
    reward: "return" (the learner's return, the game's utility) or "margin" (at the end, the return
        plus the margin in points over the best other seat relative to the leader's,
        `core.game.margin_return`, for a game that keeps points; the return alone for one that
        does not).
    observation: the learner's observation options (the game Observer's, core/obs.py: Extravaganza's
        `views`); opponents that read observations keep their own.
    mask_in_observation: False (the observation is the float32 vector) or True (a Dict,
        {"observation": the vector, "action_mask": int8 mask}, the AEC env's own observation).

    The mask. `action_masks()`, `info["action_mask"]` (every reset and step) and, with
    `mask_in_observation`, the observation's "action_mask" all give the learner's legal actions while
    it has a decision; once the episode has ended (terminated or truncated) no action will be played,
    and all three mark every action, so a masked softmax over the final observation stays finite (a
    vector env's autoreset ignores the action it is given for that env). A deal in which the game ends
    (or is cut at its length cap) before the learner's first decision is set aside and dealt again,
    with the same count, variant, seat and opponents, so every episode has a learner's decision;
    `info["redealt"]` counts the deals set aside, when there were any.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}

    def __init__(
        self,
        game: str,
        num_players: int | Sequence[int] | None = None,
        learner_seat: int | str = "random",
        opponents: Sequence[str | Agent] = ("random",),
        illegal_action: str = "lose",
        render_mode: str | None = None,
        player_weights: Sequence[float] | None = None,
        variants: Sequence[dict[str, Any]] | None = None,
        variant_weights: Sequence[float] | None = None,
        reward: str = "return",
        observation: dict[str, Any] | None = None,
        mask_in_observation: bool = False,
        **options: Any,
    ) -> None:
        counts = _counts(game, num_players, options)
        if observation is not None and not isinstance(observation, dict):
            raise ValueError(f"observation must be a dict of observation options, got {observation!r}")
        self.variants = _variants(options, variants)
        several = len(self.variants) > 1
        self.engines: dict[Any, Any] = {}
        for i, opts in enumerate(self.variants):
            for count in counts:
                try:
                    engine = registry.make_game(game, count, **opts)
                except ValueError as err:
                    raise ValueError(f"variants[{i}] {variants[i]!r}: {err}") if several else err from None
                self.engines[(engine.spec.num_players, i) if several else engine.spec.num_players] = engine
        self.engine = next(iter(self.engines.values()))
        self.counts = list(dict.fromkeys(k[0] if several else k for k in self.engines))
        self.count_probabilities = _probabilities(player_weights, self.counts)
        self.variant_probabilities = _probabilities(variant_weights, self.variants, "variant")
        self.variant = 0
        self.game_name = game
        spec = self.engine.spec
        n = min(self.counts)
        if learner_seat != "random" and (isinstance(learner_seat, bool) or learner_seat not in range(n)):
            at = " (a seat at every count)" if len(self.counts) > 1 else ""
            raise ValueError(f"learner_seat {learner_seat!r} is not allowed; allowed: 'random' or 0..{n - 1}{at}")
        if illegal_action not in ILLEGAL_MODES:
            raise ValueError(f"illegal_action {illegal_action!r} is not allowed; allowed: {', '.join(ILLEGAL_MODES)}")
        if reward not in REWARDS:
            raise ValueError(f"reward {reward!r} is not allowed; allowed: {', '.join(REWARDS)}")
        self.reward = reward
        if render_mode not in (None, "ansi", "rgb_array"):
            raise ValueError(f"render_mode {render_mode!r} is not allowed; allowed: None, 'ansi', 'rgb_array'")
        if render_mode == "rgb_array":
            raster.require()
        if isinstance(opponents, str) or not opponents:
            raise ValueError("opponents must be a non-empty list of agent specs, e.g. ['random', 'heuristic']")
        self.learner_seat = learner_seat
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        if not isinstance(mask_in_observation, bool):
            raise ValueError(f"mask_in_observation {mask_in_observation!r} is not allowed; allowed: True, False")
        self.mask_in_observation = mask_in_observation
        self.observers = {key: engine.make_observer(**(observation or {})) for key, engine in self.engines.items()}
        self.observer = next(iter(self.observers.values()))
        self.observation_space = self.observer.layout.box
        self.action_space = spaces.Discrete(spec.num_actions)
        for key, observer in self.observers.items():  # one network for every count and variant
            box, actions = observer.layout.box, self.engines[key].spec.num_actions
            same = box.shape == self.observation_space.shape and np.array_equal(box.low, self.observation_space.low) \
                and np.array_equal(box.high, self.observation_space.high)
            if not same or actions != spec.num_actions:
                what = f"{key[0]} players, variant {key[1]}" if several else f"{key} players"
                raise ValueError(
                    f"{game}: {what} has observation {box.shape} and {actions} actions, "
                    f"{spec.num_players} players {self.observation_space.shape} and {spec.num_actions}: "
                    "a game's layouts must be padded to its maximum player count and be the same for every option"
                )
        if mask_in_observation:  # checked above on the vector; the learner's observation adds the mask
            self.observation_space = spaces.Dict({
                "observation": self.observation_space,
                "action_mask": spaces.Box(0, 1, (spec.num_actions,), np.int8),
            })
        self._count_rng: np.random.Generator | None = None
        self._variant_rng: np.random.Generator | None = None
        self.pool: list[Agent] = [self._agent(o) for o in opponents]
        self.state = None
        self._mask = None  # the learner's legal-action mask at the current decision
        self._ended = True  # no decision pending: before the first reset, and once an episode has ended
        self.seat = 0
        self.seat_agents: dict[int, Agent] = {}
        self.opponent_seconds = 0.0  # time spent choosing opponents' actions, for the benchmark
        self.env_seconds = 0.0  # time spent in the engine and encoder

    def _agent(self, agent: str | Agent) -> Agent:
        agent = make_agent(agent, self.engine) if isinstance(agent, str) else agent
        return PerCount(agent, self.engines) if len(self.engines) > 1 and not isinstance(agent, PerCount) else agent

    def make_agent(self, agent: str | Agent) -> Agent:
        """An agent spec or object made to play every player count of this env (as its pool's are)."""
        return self._agent(agent)

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
        seq = rng.bit_generator.seed_seq
        count = self.counts[0]
        if len(self.counts) > 1:
            if seed is not None or self._count_rng is None:
                self._count_rng = np.random.default_rng(
                    SeedSequence(seq.entropy, spawn_key=(*seq.spawn_key, COUNT_STREAM)))
            count = self.counts[int(self._count_rng.choice(len(self.counts), p=self.count_probabilities))]
        if len(self.variants) > 1:
            if seed is not None or self._variant_rng is None:
                self._variant_rng = np.random.default_rng(
                    SeedSequence(seq.entropy, spawn_key=(*seq.spawn_key, VARIANT_STREAM)))
            self.variant = int(self._variant_rng.choice(len(self.variants), p=self.variant_probabilities))
            key: Any = (count, self.variant)
        else:
            key = count
        self.engine, self.observer = self.engines[key], self.observers[key]
        n = self.engine.spec.num_players
        self.seat = int(rng.integers(n)) if self.learner_seat == "random" else int(self.learner_seat)
        self.seat_agents = {q: self.pool[int(rng.integers(len(self.pool)))] for q in range(n) if q != self.seat}
        self._return = 0.0
        self._mask = None
        for redealt in range(MAX_DEALS):
            self.state = self.engine.new_initial_state()
            self.decisions = 0
            self._advance()
            if self.engine.current_player(self.state) == self.seat:
                break
        else:
            raise RuntimeError(
                f"{self.game_name}: the learner (seat {self.seat} of {n}) had no decision in {MAX_DEALS} deals in "
                "a row (each game ended before its first turn); the opponents or options leave it no game to play")
        self._ended = False
        info = self._info()
        if redealt:
            info["redealt"] = redealt
        return self._observe(), info

    def step(self, action: Any):
        start = time.perf_counter()
        game, state = self.engine, self.state
        if self._ended:
            raise RuntimeError("step() called before reset(); call reset() first" if state is None else
                               "step() called after the episode ended (a step returned terminated or "
                               "truncated); call reset()")
        try:  # the AEC env's rule: an int, a numpy integer or a 0-d integer array; no bool, no float
            a = None if isinstance(action, (bool, np.bool_)) else operator.index(action)
        except TypeError:
            a = None
        if a is None:
            kind = type(action).__name__
            raise IllegalActionError(f"learner (seat {self.seat}): action {action!r} ({kind}) is not an integer "
                                     f"action; pass an int (or a numpy integer) in 0..{self.action_space.n - 1}")
        if not 0 <= a < game.spec.num_actions or not self._legal_mask()[a]:
            if self.illegal_action == "raise":
                legal = game.legal_actions(state)
                raise IllegalActionError(f"learner (seat {self.seat}): " + game.illegal_message(state, a, legal))
            self.env_seconds += time.perf_counter() - start
            reward = game.spec.min_return - self._return
            self._ended = True
            return self._observe(), reward, True, False, self._info(illegal=True)
        game.apply_legal(state, a)
        self._mask = None
        self.decisions += 1
        self.env_seconds += time.perf_counter() - start
        self._advance()
        start = time.perf_counter()
        terminated = game.current_player(state) == TERMINAL
        truncated = not terminated and self.decisions >= game.spec.max_game_length
        now = margin_return(game, state, self.seat) if terminated and self.reward == "margin" else game.returns(state)[self.seat]
        reward, self._return = now - self._return, now
        self._ended = terminated or truncated
        obs = self._observe()
        info = self._info()
        self.env_seconds += time.perf_counter() - start
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now, as a bool mask; every action once no decision is pending
        (before the first reset, after the episode ended), so that a masked softmax stays finite."""
        if self._ended:
            return np.ones(self.action_space.n, bool)
        return self._legal_mask().copy()

    def render(self) -> str | np.ndarray | None:
        """"ansi": the learner's view as text; "rgb_array": the game's picture from above as an (H, W, 3)
        uint8 array (the render extra; its size is fixed by the game and the episode's player count)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'rgb_array'")
            return None
        if self.render_mode == "rgb_array":
            return raster.rgb(registry.of(self.engine).svg(self.engine, self.state))
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
        """The learner's mask at its current decision, computed once (step() checks the action against it)."""
        if self._mask is None:
            mask = np.zeros(self.engine.spec.num_actions, bool)
            mask[self.engine.legal_actions(self.state)] = True
            self._mask = mask
        return self._mask

    def _observe(self) -> np.ndarray | dict[str, np.ndarray]:
        obs = self.observer.encode(self.state, self.seat)
        if self.mask_in_observation:
            return {"observation": obs, "action_mask": self.action_masks().view(np.int8)}
        return obs

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        info: dict[str, Any] = {"seat": self.seat, "num_players": self.engine.spec.num_players,
                                "action_mask": self.action_masks()}
        if len(self.variants) > 1:
            info["variant"] = self.variant
        if illegal:
            info["illegal_action"] = True
        if self.engine.is_terminal(self.state):
            info["returns"] = self.engine.returns(self.state)
        return info


def gym_id(name: str) -> str:
    """The gymnasium id of a game's learner env: `d2r/<game>-v<the game's VERSION>`."""
    return f"d2r/{name}-v{package(name).VERSION}"


def register_all() -> None:
    """Register `d2r/<game>-v<version>` with gymnasium for every game (`import d2r_envs` does it;
    `gymnasium.make("d2r_envs:d2r/<game>-v<version>")` imports d2r_envs first)."""
    for name in registry.names():
        env_id = gym_id(name)
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point="d2r_envs.single_agent:SingleAgentEnv", kwargs={"game": name})
