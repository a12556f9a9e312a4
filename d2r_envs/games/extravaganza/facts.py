"""What happens in Extravaganza, as rules.py tells it while a state is narrated.

When a State has a sink (`State.tell`, core.events.sink), rules.py tells it one of these at each point
where something happens; narrate.py turns them into words. A fact is told once what it says has
happened, unless its docstring says it is told as it begins. Seats are absolute; judges count from 0
in judge order; cards, colours and lyric tokens are the ids of cards.py.
"""

from __future__ import annotations

from typing import NamedTuple


class Acted(NamedTuple):
    """The step at the front of the queue (`step`, a state.Step) is answered with
    `action`, a player's decision or a chance outcome. Told as it begins, before it changes anything."""

    step: tuple[int, int]  # a state.Step
    action: int


# Points and tokens ----------------------------------------------------------------------------


class Scored(NamedTuple):
    """`seat`'s track under judge `j` went up `gained` (what the cap at 40 left of the points)."""

    seat: int
    j: int
    gained: int


class DesireClaimed(NamedTuple):
    """`seat` took judge `j`'s face-up desire token."""

    seat: int
    j: int


class TenEarned(NamedTuple):
    """`seat` took a 10-token from beside judge `j`."""

    seat: int
    j: int


# Lips -----------------------------------------------------------------------------------------


class LipsTaken(NamedTuple):
    """`seat` took `k` lips from the supply (all it had left, at most)."""

    seat: int
    k: int


class LyricClaimed(NamedTuple):
    """`seat` claimed lyric token `token`, paying its words in lips."""

    seat: int
    token: int


class FlagRevealed(NamedTuple):
    """The claimed lyric was the checkered flag's slot: the round is played out."""


# Rhinestones ----------------------------------------------------------------------------------


class StoneFromBag(NamedTuple):
    seat: int
    colour: int


class StonePaidToQueen(NamedTuple):
    """`seat` paid a rhinestone of `colour` to `to`, whose queen it passed."""

    seat: int
    to: int
    colour: int


class StoneTaken(NamedTuple):
    """`seat` (Body Oddy) took a rhinestone of `colour` from `victim`."""

    seat: int
    victim: int
    colour: int


class StonePicked(NamedTuple):
    """`seat` took the rhinestone of `colour` from `space` (the queen placed on it, or Pirouette)."""

    seat: int
    space: int
    colour: int


class Collected(NamedTuple):
    """`seat` collected `count` rhinestones as `colour`: the one landed on, those of its colour passed."""

    seat: int
    colour: int
    count: int  # type: ignore[assignment]  # (the field hides tuple.count, unused here)


class StoneSpent(NamedTuple):
    """`seat` paid half a pair with a rhinestone of `colour` from its supply (`green`: a green one paid
    as `colour`, Modern Tart)."""

    seat: int
    colour: int
    green: bool


# Cards ----------------------------------------------------------------------------------------


class Drew(NamedTuple):
    """`seat` took `card` from judge `j`'s display into its hand."""

    seat: int
    j: int
    card: int


class Danced(NamedTuple):
    """`seat` played `card` from its hand to dance it."""

    seat: int
    card: int


class CardSpent(NamedTuple):
    """`seat` discarded `card` to pay half a pair, from its hand or (`from_hand` False) its played stack."""

    seat: int
    card: int
    from_hand: bool


# Turns and the end ------------------------------------------------------------------------------


class TurnBegan(NamedTuple):
    """`seat`'s turn began; `was` is the seat whose turn it was (-1: none yet)."""

    seat: int
    was: int


class GameOver(NamedTuple):
    """Judge Deliberation is done: the final scores are set."""
