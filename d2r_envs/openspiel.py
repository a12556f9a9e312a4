"""Every game as an OpenSpiel game (the `openspiel` extra): importing this module registers each game with
pyspiel as `d2r_<game>`, so that OpenSpiel's algorithms, bots and tests play it.

    import pyspiel
    import d2r_envs.openspiel  # registers d2r_draco_and_co, d2r_drags_2_riches, ...

    game = pyspiel.load_game("d2r_rap_godz(players=3)")
    game = pyspiel.load_game("d2r_extravaganza", {"players": 2, "level": "legendary"})

One adapter serves every game, with no game logic of its own: a state holds the engine's state and answers
from the engine (current player, legal actions, chance outcomes, apply, returns, clone), observations come
from the game's observer (what the seat may see, the bytes of the AEC env's observation), and
`resample_from_infostate` is the engine's `redeterminise`. The parameters are `players` and the game's
options (`d2r describe GAME`), each with the game's default. As in the AEC env, a game that reaches
`max_game_length` player decisions ends there, with the returns so far.
"""

from __future__ import annotations

import functools
from collections import Counter
from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as e:  # the environments never need it; only this adapter does
    raise ImportError(f"d2r_envs.openspiel needs OpenSpiel ({e}); install the openspiel extra: "
                      "pip install -e '.[openspiel]'") from None

from d2r_envs import registry
from d2r_envs.core import config
from d2r_envs.core.game import CHANCE, TERMINAL

PREFIX = "d2r_"
PLAYERS = "players"  # OpenSpiel's name for the player count


def short_name(game: str) -> str:
    """The game's name in pyspiel: `d2r_<game>`."""
    return PREFIX + game


def parameters(game: str) -> dict[str, Any]:
    """The game's parameters with their defaults: `players`, then its options."""
    package = registry.package(game)
    options = {name: default for name, default, _, _ in config.describe(package.Config)
               if name != config.PLAYER_COUNT}
    return {PLAYERS: package.DEFAULT_PLAYERS, **options}


@functools.lru_cache(maxsize=None)
def game_type(game: str) -> pyspiel.GameType:
    """The game's `GameType`: sequential, explicit chance, imperfect information, general sum (a shared win
    counts for every winner), rewards at the end only; observations, no information states."""
    package = registry.package(game)
    spec = package.make_game().spec
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=(package.doc.strip().splitlines() or [game])[0].rstrip("."),
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters(game),
    )


class SpielGame(pyspiel.Game):
    """A game of ours as a pyspiel game; `engine` is its rules engine at the parameters' count and options."""

    NAME = ""  # the registry id, set on each game's subclass

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        players = given.pop(PLAYERS, None)
        kind = game_type(self.NAME)
        if players is not None and (isinstance(players, bool) or not isinstance(players, int)
                                    or not kind.min_num_players <= players <= kind.max_num_players):
            raise ValueError(f"{short_name(self.NAME)}: players = {players!r} is not allowed; allowed: "
                             f"{kind.min_num_players}..{kind.max_num_players}")
        self.engine = registry.make_game(self.NAME, players, **given)  # a ValueError names a bad option
        spec = self.engine.spec
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.num_actions,
            max_chance_outcomes=spec.max_chance_outcomes,
            num_players=spec.num_players,
            min_utility=spec.min_return,
            max_utility=spec.max_return,
            utility_sum=None,
            max_game_length=spec.max_game_length,
        )
        super().__init__(kind, info, {**parameters(self.NAME), **(params or {})})
        self.initial = self.engine.new_initial_state()  # every game starts from a copy of it

    def new_initial_state(self) -> SpielState:
        return SpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> SpielObserver:
        """The game's observer (its observation options as `params`): what one seat sees, not its history."""
        if iig_obs_type is not None and (iig_obs_type.perfect_recall or not iig_obs_type.public_info
                                         or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise ValueError(f"{short_name(self.NAME)} provides one seat's observation only (no information "
                             "state, no public-only view); ask for pyspiel.IIGObservationType(perfect_recall="
                             "False), e.g. rl_environment's ObservationType.OBSERVATION")
        return SpielObserver(self.engine, params or {})


class _Held:
    """The engine's state and the player decisions made so far; a deep copy (OpenSpiel's clone of a Python
    state) is the engine's clone, sharing the engine. `initial`: no action applied yet. What this node was
    asked, kept until its action: `legal` (its legal actions), `outcomes` (its chance outcomes), `names`
    (its actions' names)."""

    __slots__ = ("engine", "state", "decisions", "initial", "legal", "outcomes", "names")

    def __init__(self, engine: Any, state: Any, decisions: int = 0, initial: bool = False) -> None:
        self.engine, self.state, self.decisions, self.initial = engine, state, decisions, initial
        self.legal: list[int] | None = None
        self.outcomes: list[tuple[int, float]] | None = None
        self.names: dict[int, str] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        state = self.state if self.initial else self.engine.clone(self.state)
        return _Held(self.engine, state, self.decisions, self.initial)


class SpielState(pyspiel.State):
    """A pyspiel state that answers from the engine's state it holds."""

    def __init__(self, game: SpielGame, held: _Held | None = None) -> None:
        super().__init__(game)
        # A new game shares the game's initial state until its first action (pyspiel makes one to size every
        # observation).
        self.held = held if held is not None else _Held(game.engine, game.initial, initial=True)

    def _player(self) -> int:
        """The engine's player to act, TERMINAL also once `max_game_length` decisions were made (truncated)."""
        held = self.held
        player = held.engine.current_player(held.state)
        if player != CHANCE and held.decisions >= held.engine.spec.max_game_length:
            return TERMINAL
        return player

    def current_player(self) -> int:
        player = self._player()
        if player == TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        return pyspiel.PlayerId.CHANCE if player == CHANCE else player

    def _legal_actions(self, player: int) -> list[int]:
        held = self.held
        held.legal = held.engine.legal_actions(held.state)
        return held.legal

    def chance_outcomes(self) -> list[tuple[int, float]]:
        held = self.held
        held.outcomes = held.engine.chance_outcomes(held.state)
        return held.outcomes

    def _apply_action(self, action: int) -> None:
        """The engine's apply_action, which refuses an illegal action and changes nothing; where this node's
        legal actions or outcomes were asked already, checked against them instead of worked out again."""
        held = self.held
        engine = held.engine
        if held.initial:
            held.state, held.initial = engine.clone(held.state), False
        decision = engine.current_player(held.state) != CHANCE
        if decision:
            known = held.legal is not None and action in held.legal
        else:
            known = held.outcomes is not None and any(o == action for o, _ in held.outcomes)
        if known:
            engine.apply_legal(held.state, action)
        else:
            engine.apply_action(held.state, action)
        held.decisions += decision
        held.legal = held.outcomes = held.names = None

    def _action_to_string(self, player: int, action: int) -> str:
        """The game's name of the action; where it names two of this node's actions alike (Extravaganza's
        two 3-word lyric tokens of a colour), the id follows, as OpenSpiel wants them told apart."""
        held = self.held
        if held.names is None:
            if self.is_terminal():
                actions: list[int] = []
            elif self.is_chance_node():
                actions = [o for o, _ in held.engine.chance_outcomes(held.state)]
            else:
                actions = held.engine.legal_actions(held.state)
            names = {a: held.engine.action_to_string(held.state, a) for a in actions}
            seen = Counter(names.values())
            held.names = {a: name if seen[name] == 1 else f"{name} ({a})" for a, name in names.items()}
        return held.names.get(action) or held.engine.action_to_string(held.state, action)

    def is_terminal(self) -> bool:
        return self._player() == TERMINAL

    def returns(self) -> list[float]:
        return [float(r) for r in self.held.engine.returns(self.held.state)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SpielState:
        """A state `player_id` cannot tell from this one: the engine's `redeterminise`, its generator
        seeded from the sampler (a callable giving a float in [0, 1))."""
        held = self.held
        rng = np.random.default_rng(int(probability_sampler() * 2**53))
        state = held.engine.redeterminise(held.state, player_id, rng)
        return SpielState(self.get_game(), _Held(held.engine, state, held.decisions))

    def __str__(self) -> str:
        return self.held.engine.state_to_string(self.held.state)


class SpielObserver:
    """OpenSpiel's Python observer protocol over the game's observer: `tensor` (float32), `dict` (the whole
    tensor as its one piece, "observation": pyspiel copies each piece apart at every observation; the
    layout's named views are `layout.views(tensor)`), `set_from` and `string_from`."""

    def __init__(self, engine: Any, options: dict[str, Any]) -> None:
        self.observer = engine.make_observer(**options)
        self.layout = self.observer.layout
        self.tensor = np.zeros(self.layout.size, np.float32)
        self.dict = {"observation": self.tensor}
        self.first: np.ndarray | None = None  # seat 0's view of the initial state

    def set_from(self, state: SpielState, player: int) -> None:
        held = state.held
        if held.initial and player == 0:  # pyspiel sizes every observation by seat 0's view of a new game
            if self.first is None:
                self.first = self.observer.encode(held.state, 0)
            self.tensor[:] = self.first
        else:
            self.tensor[:] = self.observer.encode(held.state, player)

    def string_from(self, state: SpielState, player: int) -> str:
        return self.observer.string_from(state.held.state, player)


def resolve_chance(state: Any, rng: np.random.Generator) -> None:
    """Apply chance outcomes to a pyspiel state (of any game) until a player's turn or the end, each drawn
    from `state.chance_outcomes()` by one `rng.random()`."""
    while state.is_chance_node():
        u, acc = rng.random(), 0.0
        for outcome, p in state.chance_outcomes():
            acc += p
            if u < acc:
                break
        state.apply_action(outcome)


def register() -> list[str]:
    """Register every game with pyspiel (once; importing this module does it); the short names."""
    registered = set(pyspiel.registered_names())
    for game in registry.names():
        if short_name(game) not in registered:
            cls = type(f"Spiel_{game}", (SpielGame,), {"NAME": game, "__doc__": f"{game} as a pyspiel game."})
            pyspiel.register_game(game_type(game), cls)
    return [short_name(g) for g in registry.names()]


register()
