"""What happens in Drags 2 Riches, as rules.py tells it while a state is narrated.

When a State has a sink (`State.tell`, core.events.sink), rules.py tells it one of these at each point
where something happens, once the state shows it (a run of draws is told once it is queued, before any
Dry Clean it needs; a Look revealed, before it is discarded); narrate.py turns them into words. Seats are
absolute, cards are kind ids, Events and Characters are ids (cards.py), Look types index cards.TYPES.
"""

from __future__ import annotations

from typing import NamedTuple


# Set-up and rounds ----------------------------------------------------------------------------


class FirstPlayer(NamedTuple):
    """`seat` takes the First Player token."""

    seat: int


class CharacterChosen(NamedTuple):
    seat: int
    character: int


class MarketFilled(NamedTuple):
    """A card of `kind` left the Market draw pile for an empty Market space."""

    kind: int


class RoundBegan(NamedTuple):
    """The `round`-th Event card, `event`, is revealed (in the first round, with the first hands queued)."""

    round: int
    event: int


class FirstPassed(NamedTuple):
    """The First Player token passes to `seat` at the end of a round."""

    seat: int


class GameOver(NamedTuple):
    """The Sell-Out Tour is resolved; the winners are decided."""


# Draws ----------------------------------------------------------------------------------------


class Drew(NamedTuple):
    """`seat` drew a card of `kind` from their Wardrobe."""

    seat: int
    kind: int


class DryCleaned(NamedTuple):
    """`seat`'s Wardrobe was empty when a draw was due: their Floordrobe became their Wardrobe."""

    seat: int


class DrawDropped(NamedTuple):
    """A draw due to `seat` is dropped: their Wardrobe and Floordrobe are both empty."""

    seat: int


# Turns ----------------------------------------------------------------------------------------


class TurnBegan(NamedTuple):
    """`seat`'s turn begins (a Shopping Spree's draws queued)."""

    seat: int


class Untucked(NamedTuple):
    """`seat` ended their turn with `coins` unspent: their `hand` and `active` cards (counts per kind) went
    to their Floordrobe, and a new hand is queued."""

    seat: int
    coins: int
    hand: bytearray
    active: bytearray


class Activated(NamedTuple):
    """`seat` activated a card of `kind` (its draws queued, or what it asks for asked)."""

    seat: int
    kind: int


class Worn(NamedTuple):
    """`seat` wore a card of `kind` face down, replacing `replaced` (-1: the slot was empty)."""

    seat: int
    kind: int
    replaced: int


class Bought(NamedTuple):
    """`seat` took a Market card of `kind`, `free` by Thrifting or paid for; `werk`: the purchase ended
    the Playing Phase."""

    seat: int
    kind: int
    free: bool
    werk: bool


class AbilityUsed(NamedTuple):
    """`seat` used their Character's once-per-game action; `took`: the Market card Executive Realness
    took at once (-1: none)."""

    seat: int
    character: int
    took: int


# Answers within a card or Character action ----------------------------------------------------


class Targeted(NamedTuple):
    """`seat` aimed the Shade of the card being resolved at `target`."""

    seat: int
    target: int


class Borrowed(NamedTuple):
    seat: int
    victim: int
    kind: int


class Returned(NamedTuple):
    """`seat` returned a card of `kind` from their Floordrobe to their hand."""

    seat: int
    kind: int


class PickedToLend(NamedTuple):
    seat: int
    kind: int


class Lent(NamedTuple):
    """`seat` lent a card of `kind` into `other`'s Floordrobe."""

    seat: int
    other: int
    kind: int


class Trashed(NamedTuple):
    """`seat` trashed a card of `kind` from their Floordrobe (Boujee)."""

    seat: int
    kind: int


class TookFromMarket(NamedTuple):
    """`seat` took a card of `kind`, one of the tied highest, from the Market (Executive Realness)."""

    seat: int
    kind: int


class Zeroed(NamedTuple):
    """`seat` made Look `type` worth 0 for every other player this round (Sickening)."""

    seat: int
    type: int


class TypeChosen(NamedTuple):
    """`seat` chose Look `type` for Drag Mother; the other player comes next."""

    seat: int
    type: int


class Doubled(NamedTuple):
    """Look `type` counts double for `seat` and `other` this round (Drag Mother)."""

    seat: int
    other: int
    type: int


# Shades ---------------------------------------------------------------------------------------


class ShadeTaken(NamedTuple):
    """`seat`, targeted, takes the Shade."""

    seat: int


class ShadeBlocked(NamedTuple):
    seat: int


class ShadeReversed(NamedTuple):
    """`seat` reversed the Shade, with Kelisha Keys' ability (`by_character`) or a Reverse Shade card."""

    seat: int
    by_character: bool


class ShadeWaits(NamedTuple):
    """The reversed Shade found `victim`'s hand empty: it waits for their next hand."""

    victim: int


class WaitingShadeResolves(NamedTuple):
    """A reversed Shade (`op`, for `beneficiary`) that waited for `victim`'s new hand resolves."""

    victim: int
    op: int
    beneficiary: int


class WaitingShadesDropped(NamedTuple):
    """`victim`'s new hand is empty: the `shades` reversed Shades still waiting for it are dropped."""

    victim: int
    shades: int


class Peeked(NamedTuple):
    """`seat` sees `victim`'s hand and will Borrow one of its cards."""

    seat: int
    victim: int


class DiscardedAtRandom(NamedTuple):
    """`seat` discarded a card of `kind` at random from their hand into their Floordrobe."""

    seat: int
    kind: int


# The Event Phase ------------------------------------------------------------------------------


class LastMinuteBegan(NamedTuple):
    """Last Minute Additions begin, from the first player."""


class LastMinuteOver(NamedTuple):
    """Every player has added to their Look, or had nothing to add."""


class DoneAdding(NamedTuple):
    seat: int


class ThumbsBegan(NamedTuple):
    """The Event Phase begins: the players in `able` (who have a Look, in seat order from the first
    player) declare."""

    able: tuple[int, ...]


class Declared(NamedTuple):
    """`seat` declared `thumbs` face down (0 down, 1 up, 2 up with Deathdrop Diva)."""

    seat: int
    thumbs: int


class ThumbsShown(NamedTuple):
    """Everyone has declared: the thumbs are shown."""


class LooksRevealed(NamedTuple):
    """The Looks of the players with thumbs up are revealed and valued; `tied` have the best value, and
    `winner` wins it (-1: the first player judges the tie, Category Is)."""

    tied: tuple[int, ...]
    winner: int


class Judged(NamedTuple):
    """`seat`, the first player, awarded the Event to `winner` (Category Is)."""

    seat: int
    winner: int


class Won(NamedTuple):
    """`seat` won `event` and its prestige; the revealed Looks go to their Floordrobes next."""

    seat: int
    event: int


class EventTrashed(NamedTuple):
    """Nobody competed for `event`: nobody declared thumbs up (`declared`), or nobody had a Look."""

    event: int
    declared: bool


class SpreeOver(NamedTuple):
    """The Shopping Spree ends with no Event Phase."""
