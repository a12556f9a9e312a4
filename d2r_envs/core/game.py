"""The engine protocol every game implements: plain Python, no PettingZoo, no global RNG.

The engine is the transition system alone: a game's words, pictures and heuristic are no part of it, and
are reached through the game's package record (core/package.py) by whoever shows them."""

from __future__ import annotations

import abc
import operator
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from mypy_extensions import mypyc_attr

from d2r_envs.core.clone import clone as _clone
from d2r_envs.core.zones import Zones

CHANCE = -1  # OpenSpiel's kChancePlayerId; compare with the name, never the number
TERMINAL = -4  # OpenSpiel's kTerminalPlayerId

StateT = TypeVar("StateT")


class IllegalActionError(ValueError):
    """apply_action() got an action that is not legal at this node; the state is unchanged."""


@dataclass(frozen=True)
class GameSpec:
    """Constants a trained model or a test depends on."""

    name: str  # registry id, e.g. "draco_and_co"
    version: int  # bump on any change to rules, action space or observation layout
    num_players: int
    min_players: int
    max_players: int
    num_actions: int  # every agent's Discrete(num_actions), the same for all player counts
    max_chance_outcomes: int  # chance outcomes are ids in range(max_chance_outcomes), as in OpenSpiel
    max_game_length: int  # cap on player decisions; the adapter truncates beyond it
    min_return: float
    max_return: float


@mypyc_attr(allow_interpreted_subclasses=True)  # (a game setup.py does not compile subclasses it)
class Game(abc.ABC, Generic[StateT]):
    """A transition system over a mutable State. Chance nodes are explicit.

    Subclasses implement the abstract methods; `apply_action` validates and then calls
    `apply_legal`, so an illegal action never touches the state.
    """

    spec: GameSpec
    config: Any  # the game's options (its Config dataclass), which the engine is made from

    def __reduce__(self) -> tuple[Any, ...]:
        """A game pickles as its class and its options, which make it (a compiled engine keeps its
        attributes where pickle's default would not find them)."""
        return (type(self), (self.config,))

    @abc.abstractmethod
    def new_initial_state(self) -> StateT: ...

    @abc.abstractmethod
    def current_player(self, state: StateT) -> int:
        """A seat, CHANCE or TERMINAL."""

    @abc.abstractmethod
    def legal_actions(self, state: StateT) -> list[int]:
        """Sorted legal actions at a player node (never empty there)."""

    def legal_flags(self, state: StateT) -> bytearray:
        """The legal actions at a player node as one byte per action (1: legal), a fresh bytearray of
        spec.num_actions bytes: what the env's action mask is made of. This default sets them from
        legal_actions; a game may write them faster, the same bytes (tests/test_api.py checks it at every
        decision of random play)."""
        flags = bytearray(self.spec.num_actions)
        for a in self.legal_actions(state):
            flags[a] = 1
        return flags

    @abc.abstractmethod
    def chance_outcomes(self, state: StateT) -> list[tuple[int, float]]:
        """(outcome, probability) pairs sorted by outcome, at a chance node."""

    @abc.abstractmethod
    def apply_legal(self, state: StateT, action: int) -> None:
        """Apply an action already known to be legal (or a chance outcome)."""

    @abc.abstractmethod
    def returns(self, state: StateT) -> list[float]:
        """Per-seat returns so far (the game's utility at a terminal node)."""

    def scores(self, state: StateT) -> list[float] | None:
        """Per-seat points at a terminal node, for a game whose winner has the most points (its returns
        come from them); None where it keeps none. Agents that value a margin read it (agents/rollouts.py)."""
        return None

    @abc.abstractmethod
    def action_to_string(self, state: StateT, action: int) -> str: ...

    @abc.abstractmethod
    def state_to_string(self, state: StateT) -> str: ...

    @abc.abstractmethod
    def decision_name(self, state: StateT) -> str:
        """Short words for the decision at this node, for error messages."""

    zones: Zones | None = None  # the State's card containers (core/zones.py), where a game declares them

    def redeterminise(self, state: StateT, player: int, rng: Any) -> StateT:
        """A copy in which all `player` cannot see is resampled consistently with what they saw.

        The default deals the cards of every container `player` cannot see anew among them, each
        keeping its size (`zones.deal_hidden`), then calls `after_deal`; a game whose hidden
        information is more than that overrides it."""
        if self.zones is None:
            raise NotImplementedError(f"{type(self).__name__} declares no zones: override redeterminise")
        t = self.clone(state)
        self.zones.deal_hidden(t, player, rng)
        self.after_deal(t)
        return t

    def after_deal(self, state: StateT) -> None:
        """Bring the State's kept copies (counts, card lists) back in step after its piles were dealt anew."""

    # Shared behaviour ---------------------------------------------------------------------

    # The game's fast Observer (core/obs.py): given to the engine class by the game's package record when
    # the package is declared (core/package.py), so the engine never looks for its package.
    observer_class: ClassVar[type | None] = None

    def make_observer(self, **options: Any) -> Any:
        """The game's Observer for this engine (its player count and options), with the observation
        `options` its Observer allows (core/obs.py; a ValueError names a bad key or value first)."""
        from d2r_envs.core.obs import build_observer  # the engine itself needs no numpy

        if self.observer_class is None:
            raise NotImplementedError(f"{type(self).__name__} has no Observer: its package declares none")
        return build_observer(self.observer_class, self, options)

    def is_terminal(self, state: StateT) -> bool:
        return self.current_player(state) == TERMINAL

    def clone(self, state: StateT) -> StateT:
        """A copy sharing no mutable object with `state`, written from the State's field types
        (core/clone.py): no game lists its fields."""
        return _clone(state)

    def sample_chance(self, state: StateT, rng: Any) -> int:
        """One chance outcome drawn from `rng` (a numpy Generator).

        Games override this with a fast path equal in distribution to chance_outcomes().
        """
        outcomes = self.chance_outcomes(state)
        u = rng.random()
        acc = 0.0
        for outcome, p in outcomes:
            acc += p
            if u < acc:
                return outcome
        return outcomes[-1][0]

    def resolve_chance(self, state: StateT, rng: Any) -> None:
        """Apply chance outcomes drawn by sample_chance from `rng` until a player node or the end.

        Games may override this with a faster loop that draws exactly the same outcomes
        (tests/test_api.py checks that it leaves the same state).
        """
        while self.current_player(state) == CHANCE:
            self.apply_legal(state, self.sample_chance(state, rng))

    def apply_action(self, state: StateT, action: Any) -> None:
        """Apply a player action or a chance outcome; raise IllegalActionError if not legal (`action` may be
        anything a caller passes: what is not an integer is refused here too)."""
        player = self.current_player(state)
        if player == TERMINAL:
            raise IllegalActionError(f"action {action!r}: the game is over, no action is legal")
        try:  # the env's rule (core/aec.py): an int, a numpy integer or a 0-d integer array; no bool, no float
            as_int = None if isinstance(action, bool) else operator.index(action)
        except TypeError:
            as_int = None
        if as_int is None:
            raise IllegalActionError(f"action {action!r} ({type(action).__name__}) is not an integer action id; "
                                     "pass an int (or a numpy integer)")
        action = as_int
        if player == CHANCE:
            allowed = [o for o, _ in self.chance_outcomes(state)]
            if action not in allowed:
                raise IllegalActionError(
                    f"chance outcome {action} is not possible at {self.decision_name(state)}; "
                    f"possible outcomes: {allowed}"
                )
        else:
            allowed = self.legal_actions(state)
            if action not in allowed:
                raise IllegalActionError(self.illegal_message(state, action, allowed))
        self.apply_legal(state, action)

    def seat_facts(self, state: StateT) -> list[dict[str, Any]]:
        """What each seat had and made, at the end of a game, for balance reports (`d2r balance`): text
        values are categories whose win shares are compared (a character, a starting card), numbers are
        averaged (points by source). The default says nothing. It stays on the engine, unlike the words
        and pictures (the game's narrate.py and draw.py, through its package record): it reports what the
        rules kept, as `scores` does."""
        return [{} for _ in range(self.spec.num_players)]

    def illegal_message(self, state: StateT, action: int, allowed: list[int]) -> str:
        names = ", ".join(f"{a} {self.action_to_string(state, a)}" for a in allowed)
        what = (
            self.action_to_string(state, action)
            if 0 <= action < self.spec.num_actions
            else f"out of range 0..{self.spec.num_actions - 1}"
        )
        return (
            f"illegal action {action} ({what}) for player_{self.current_player(state)} "
            f"at decision '{self.decision_name(state)}'; legal: {names}"
        )


def margin_return(game: Any, state: Any, seat: int) -> float:  # (`game`: a Game, or what has its returns and scores)
    """`seat`'s return at a terminal state plus its margin over the best other seat's points, relative
    to the leader's points (in -1..1), where the game keeps points (`Game.scores`): a win by much is
    worth more than a win by little, a close loss less bad than a rout. The return alone elsewhere."""
    result = game.returns(state)[seat]
    scores = game.scores(state)
    if scores is None or len(scores) < 2:
        return result
    best_other = max(x for q, x in enumerate(scores) if q != seat)
    lead = max(1.0, max(abs(x) for x in scores))
    return result + (scores[seat] - best_other) / lead
