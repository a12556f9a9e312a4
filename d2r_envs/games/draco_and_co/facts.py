"""What happens in Draco & Co, as rules.py tells it while a state is narrated.

When a State has a sink (`State.tell`, core.events.sink), rules.py tells it one of these at each point
where something happens, once the state shows it (a toast's proposal and its shares, place by place,
are told before any payment); narrate.py turns them into words. Seats are absolute, characters are ids
(cards.py), places count from 0 (first place, next to Draco).
"""

from __future__ import annotations

from typing import NamedTuple


# Set-up -------------------------------------------------------------------------------------


class Began(NamedTuple):
    """`first` plays first; `cup`, the last player, takes the cup."""

    first: int
    cup: int


class LaidOut(NamedTuple):
    """Chance has filled the last empty place: the circle at set-up, or after a card's shuffle."""


class Drawn(NamedTuple):
    """A card of `kind` left the draw pile for `seat` (-1: set aside face down, the short game)."""

    seat: int
    kind: int


class PileRanOut(NamedTuple):
    """The last card was drawn, for the `exhausted`-th time; the discards are now the draw pile."""

    exhausted: int


class PileRefilled(NamedTuple):
    """The draw pile was found empty when a card was due: the discards became the draw pile."""


class NoCardToDraw(NamedTuple):
    """`seat` (-1: a card to set aside) was due a card, and both piles are empty."""

    seat: int


# Turns and the cup ----------------------------------------------------------------------------


class TurnBegan(NamedTuple):
    seat: int
    turn: int  # counted from 1


class NothingToPlay(NamedTuple):
    seat: int


class CupReturned(NamedTuple):
    """`seat` put the cup back in the centre: the set-up cup at the end of its first turn, or the cup
    of its own toast after playing."""

    seat: int
    setup: bool


class CupHeld(NamedTuple):
    """`holder` has the cup, so `seat` proposes no toast this turn."""

    seat: int
    holder: int


class Declined(NamedTuple):
    """`seat` proposed no toast."""

    seat: int


# Cards ----------------------------------------------------------------------------------------


class Played(NamedTuple):
    seat: int
    kind: int


class Moved(NamedTuple):
    """Character `c` was to move `k` places forward (k < 0: backward) and went from place `start` to
    `end` (the same place where Draco stopped it); chosen by `by`, -1 where the card chose it."""

    c: int
    k: int
    start: int
    end: int
    by: int


class OnlyOne(NamedTuple):
    """`c` is the only character the card's die move can take."""

    c: int


class ChosenToMove(NamedTuple):
    """`seat` chose `c`, in `place`, to move as far as the die says (`forward` or backward)."""

    seat: int
    c: int
    place: int
    forward: bool


class ChosenToSwap(NamedTuple):
    seat: int
    c: int
    place: int


class Swapped(NamedTuple):
    """`seat` swapped `first`, in place `i`, and `second`, in place `j`."""

    seat: int
    first: int
    second: int
    i: int
    j: int


class ChosenToShuffle(NamedTuple):
    """`seat` chose `c`, in `place`, the `nth` (from 1) of three to shuffle."""

    seat: int
    c: int
    place: int
    nth: int


class Arranged(NamedTuple):
    """`c` went to `place`, put there by `seat` (-1: the last special, into the last place left)."""

    seat: int
    c: int
    place: int


class Reversed(NamedTuple):
    """Draco changed hands: the circle's order reversed."""


class DracoMoved(NamedTuple):
    """`seat` moved Draco `k` places; `passed` went from the first places to the last (`to_last`) or
    from the last to the first."""

    seat: int
    k: int
    passed: tuple[int, ...]
    to_last: bool


class Rolled(NamedTuple):
    seat: int
    value: int


class SarahClaimed(NamedTuple):
    seat: int


# Money ----------------------------------------------------------------------------------------


class Gained(NamedTuple):
    """`seat` took `amount` from the bank."""

    seat: int
    amount: int


class Paid(NamedTuple):
    """`seat` owed the bank `owed` and paid `paid` (what they had, at most)."""

    seat: int
    owed: int
    paid: int


class Stole(NamedTuple):
    """`seat` took `taken` from `victim` (what the victim had, at most)."""

    seat: int
    victim: int
    taken: int


# Toasts ---------------------------------------------------------------------------------------


class Toasted(NamedTuple):
    seat: int
    final: bool  # the draw pile has run out often enough: this toast ends the game


class Share(NamedTuple):
    """One of the first places: `at`, the character in `place`, earns `amount` for `c` (itself, or the
    next character where it is Brother John), which goes to `seat` (-1: nobody)."""

    place: int
    at: int
    c: int
    amount: int
    seat: int


class Charge(NamedTuple):
    """One of the last places: `at`, the character in `place`, costs `amount`, paid for `c` (itself, or
    the character before Brother John) by `seat` (-1: nobody)."""

    place: int
    at: int
    c: int
    amount: int
    seat: int


class Settled(NamedTuple):
    """`seat`'s net share of a toast was `owed` (< 0: a debt) and its fortune changed by `change`."""

    seat: int
    owed: int
    change: int


class CupTaken(NamedTuple):
    seat: int


class BesideSarah(NamedTuple):
    """Character `c` sits next to Aunt Sarah, so `seat`, its controller, draws a card."""

    c: int
    seat: int


class GameOver(NamedTuple):
    """The final toast is over; the winners are decided."""
