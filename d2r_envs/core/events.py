"""A readable log of a game as it is played: what was rolled, drawn, paid, moved and won.

A game narrates each transition after the fact, from the state before it, the action (a player's
move or a chance outcome) and the state after (its package's `narrate.events(game, before, action,
after)`), so the rules code and the fast paths never pay for it. Each `Event` says what every seat
sees and, where a seat sees more (its own drawn card) or less (another's hidden card), what that
seat sees instead; `Log` records the events of a game, narrated by the narration it is given (the
game's record gives its own: `GamePackage.log`, core/package.py), and hands each seat only its own
view. The engine knows none of this: a game without a narration gets `plain_events`, and every
narration may end with `result_events`.

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


def result_headline(game: "Game", state: Any) -> str:
    """"game over: player_1 wins" (or "... and ... win", "nobody wins": the seats with the best
    return above the minimum) at a terminal node; "" elsewhere."""
    if not game.is_terminal(state):
        return ""
    returns = game.returns(state)
    best = max(returns)
    winners = [f"player_{p}" for p, r in enumerate(returns) if r == best and r > game.spec.min_return]
    return "game over: " + (" and ".join(winners) + (" wins" if len(winners) == 1 else " win") if winners else "nobody wins")


def result_events(game: "Game", state: Any) -> list[Event]:
    """At a terminal node, who won and every seat's return; otherwise nothing."""
    if not game.is_terminal(state):
        return []
    returns = game.returns(state)
    head = result_headline(game, state)
    return [Event(head + " (returns " + ", ".join(f"player_{p} {r:g}" for p, r in enumerate(returns)) + ")")]


def plain_events(game: "Game", before: Any, action: int, after: Any) -> list[Event]:
    """The narration of a game without its own: a player's move is named for everyone, chance goes
    unsaid, and the result is announced at the end."""
    out = []
    player = game.current_player(before)
    if player >= 0:
        out.append(Event(f"player_{player}: {game.action_to_string(before, action)}"))
    return out + result_events(game, after)


class Log:
    """Plays actions into a state and keeps the events, for every seat to read its own view.

    `narration` is the game's narrate module (anything with `events(game, before, action, after)`), or
    None for `plain_events`; it is passed in because the core finds no game's modules (`GamePackage.log`
    passes the game's own). `apply(state, action)` validates like `Game.apply_action` (an illegal action
    raises and changes nothing, the log included), then narrates the transition.
    """

    def __init__(self, game: "Game", narration: Any) -> None:
        self.game = game
        self.narration = narration
        self.events: list[Event] = []

    def apply(self, state: Any, action: Any) -> list[Event]:
        game = self.game
        before = game.clone(state)
        game.apply_action(state, action)
        tell = plain_events if self.narration is None else self.narration.events
        new = list(tell(game, before, action, state))
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
