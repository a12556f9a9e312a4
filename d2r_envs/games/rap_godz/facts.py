"""What happens in Rap Godz, as rules.py tells it while a state is narrated.

When a State has a sink (`State.tell`, core.events.sink), rules.py tells it one of these at each point
where something happens; narrate.py turns them into words. A fact is told once what it says has
happened, except `Chose`, told as a decision is taken, before it changes anything. Seats are absolute;
cards are kinds (cards.py, one index space for Album cards, Come Upz, Rapperz and Citiez); resources,
Pick Upz types and Goalz are the indices of cards.py.
"""

from __future__ import annotations

from typing import NamedTuple

# Chance ---------------------------------------------------------------------------------------


class PickupPlaced(NamedTuple):
    """A Pick Upz token of type `kind` was placed on track symbol `space` (resource * 3 + place)."""

    space: int
    kind: int


class Dealt(NamedTuple):
    """A Rapper or a City (`kind`) was dealt to `seat`'s draft offer."""

    seat: int
    kind: int


class ExtraCity(NamedTuple):
    """At 2 players, City `kind` was laid on the board."""

    kind: int


class GoalDrawn(NamedTuple):
    goal: int


class ComeUpzDealt(NamedTuple):
    """Come Upz `kind` was laid face up in `slot`."""

    slot: int
    kind: int


class Drawn(NamedTuple):
    """`seat` drew card `kind` from the current Album's deck."""

    seat: int
    kind: int


class MedallionRolled(NamedTuple):
    """The die among the tied seats chose `seat`."""

    seat: int


class Rolled(NamedTuple):
    """Beef die `die` (0 the starter's, 1 the red, 2 the target's) came up `value` (1-6)."""

    die: int
    value: int


# Decisions ------------------------------------------------------------------------------------


class Chose(NamedTuple):
    """`seat` takes `action`; told before the rules apply it, so the state is the one it was chosen in."""

    seat: int
    action: int


class Kept(NamedTuple):
    """`seat` kept draft card `kind`; the others it was offered (`returned`) went back to their deck."""

    seat: int
    kind: int
    returned: tuple[int, ...]


class Played(NamedTuple):
    """`seat` played card `kind` from the hand or the held Come Upz."""

    seat: int
    kind: int


class PickupUsed(NamedTuple):
    """`seat` used a Pick Upz token of type `kind`."""

    seat: int
    kind: int


# What follows ---------------------------------------------------------------------------------


class Gained(NamedTuple):
    """`seat`'s `resource` went from `old` to `new` (a gain, capped by the track)."""

    seat: int
    resource: int
    old: int
    new: int


class PlaquesGained(NamedTuple):
    """`seat` gained `amount` plaque points (in play or at the end)."""

    seat: int
    amount: int


class PickupCollected(NamedTuple):
    """`seat`'s resource passed a symbol: it took the Pick Upz token of type `kind` lying there."""

    seat: int
    kind: int


class GoalWon(NamedTuple):
    """`seat` collected the in-game Goal `goal`."""

    goal: int
    seat: int


class BeefSettled(NamedTuple):
    """The Beef over `card` between `starter` and `target` ended with values `values` (the starter's,
    the target's): `winner` won; the other took the card into their timeline and paid the stakes (told
    once they are paid, and the winner's Beef cube taken)."""

    starter: int
    target: int
    values: tuple[int, int]
    winner: int
    card: int


class TrackBegan(NamedTuple):
    track: int  # from 0


class AlbumBegan(NamedTuple):
    """A new Album: abilities refreshed, the Come Upz replaced, hands to be drawn up."""

    album: int  # from 0


class MedallionTaken(NamedTuple):
    """`seat` holds the Medallion now; `holder` held it before (-1: nobody)."""

    seat: int
    holder: int


class GameOver(NamedTuple):
    """The end-game plaques are in (State.final) and the winners decided."""
