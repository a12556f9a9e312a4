"""A readable log of a game as it is played: what was rolled, drawn, paid, moved and won.

A game narrates each transition after the fact, from the state before it, the action (a player's
move or a chance outcome) and the state after (`Game.events`), so the rules code and the fast
paths never pay for it. Each `Event` says what every seat sees and, where a seat sees more (its
own drawn card) or less (another's hidden card), what that seat sees instead; `Log` records the
events of a game and hands each seat only its own view.

A game whose rules say what happens as it happens gives its State a `sink()` field: the rules tell
their facts (a move, a payment, a draw) to it when one is set, and do nothing more when it is None.
The field is no part of the game state: it is not compared or shown, and a clone starts without one
(core/clone.py), so a sink reaches only the state it was set on; the game's narration sets one on a
copy of the state before and applies the action to that copy again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping

if TYPE_CHECKING:
    from d2r_envs.core.game import Game


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened. `public` is what every seat sees ("" for nothing); `private` maps a
    seat to what it sees instead ("" to see nothing)."""

    public: str
    private: Mapping[int, str] = field(default_factory=dict)

    def seen_by(self, seat: int) -> str:
        """The text `seat` sees ("" when it sees nothing of this event)."""
        return self.private.get(seat, self.public)


SINK = "d2r_envs.events.sink"  # the metadata key that marks a State's sink field


def sink() -> Any:
    """A State field for an optional sink of the rules' facts (a callable, or None): not compared, not
    shown, and left None by a clone."""
    return field(default=None, compare=False, repr=False, metadata={SINK: True})


def public(text: str) -> Event:
    return Event(text)


def secret(seat: int, text: str, others: str = "") -> Event:
    """`seat` sees `text`; every other seat sees `others` (often "player_N draws a card", or nothing)."""
    return Event(others, {seat: text})


class Log:
    """Plays actions into a state and keeps the events, for every seat to read its own view.

    `apply(state, action)` validates like `Game.apply_action` (an illegal action raises and changes
    nothing, the log included), then narrates the transition.
    """

    def __init__(self, game: "Game") -> None:
        self.game = game
        self.events: list[Event] = []

    def apply(self, state: Any, action: Any) -> list[Event]:
        game = self.game
        before = game.clone(state)
        game.apply_action(state, action)
        new = list(game.events(before, action, state))
        self.events.extend(new)
        return new

    def seen_by(self, seat: int, start: int = 0) -> list[str]:
        """The texts `seat` sees, from event number `start` on."""
        out = []
        for event in self.events[start:]:
            text = event.seen_by(seat)
            if text:
                out.append(text)
        return out

    def __len__(self) -> int:
        return len(self.events)
