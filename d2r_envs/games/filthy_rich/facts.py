"""What happens in Filthy Rich, as rules.py tells it while a state is narrated.

When a State has a sink (`State.tell`, core.events.sink), rules.py tells it one of these at each point
where something happens; narrate.py turns them into words. A fact is told once what it says has
happened, unless its docstring says it is told as it begins. Seats are absolute; businesses,
luxuries and card kinds are the indices of cards.py; pages and slots count from 0.
"""

from __future__ import annotations

from typing import NamedTuple

# Why money moved: the `why` of Gained and Owed --------------------------------------------------


class Sale(NamedTuple):
    b: int  # the business sold


class Portfolio(NamedTuple):
    copies: int  # Stock Portfolio cards on the table


class ByCard(NamedTuple):
    """A card's own effect: Loan, Windfall, Lawsuit."""

    kind: int


class Hit(NamedTuple):
    """Business `b` was hit by die `die` (from 0); `own`: a roller-pays business of the roller's own,
    so the bank pays."""

    b: int
    die: int
    own: bool


class Billboard(NamedTuple):
    """A Billboard pays its owner for the hit on business `b` by die `die`."""

    b: int
    die: int


class ZeroPaid(NamedTuple):
    """A card of `kind` pays at a 0: a tax-man business, or an Offshore Account."""

    kind: int


class Audit(NamedTuple):
    symbols: int  # the target's tax symbols: taxes once


class Dues(NamedTuple):
    """Protection Racket dues."""


class Taxes(NamedTuple):
    symbols: int
    zeros: int


# The deal, draws and the deck -------------------------------------------------------------------


class Began(NamedTuple):
    """`first` goes first; every hand's deal is queued."""

    first: int


class Drawn(NamedTuple):
    seat: int
    kind: int


class Reshuffled(NamedTuple):
    """The deck was empty with draws due: the discard pile is the new deck."""


class DrawsLost(NamedTuple):
    """The deck and the discard pile are empty: the draws still due (`due`, a seat per draw, in order)
    are lost. Told as it begins."""

    due: tuple[int, ...]


class DrawsBackUp(NamedTuple):
    """`seat` ended its turn short of a full hand: `count` draws are queued."""

    seat: int
    count: int  # type: ignore[assignment]  # (the field hides tuple.count, unused here)


# Turns ------------------------------------------------------------------------------------------


class TurnBegan(NamedTuple):
    seat: int


class NoLuxury(NamedTuple):
    seat: int


class Bought(NamedTuple):
    """`seat` bought luxury `x` from the bank for `price`."""

    seat: int
    x: int
    price: int


class Rolls(NamedTuple):
    """`seat` rolls `count` business dice; `forced`: with actions left but no card to play and no
    business to sell. Told as it begins."""

    seat: int
    count: int  # type: ignore[assignment]  # (the field hides tuple.count, unused here)
    forced: bool


class Die(NamedTuple):
    """Business die `nth` (from 1) of `count` shows `value`: it hits business `b` (-1: none); a 0 is
    `taxed` unless taxes were already called this turn."""

    value: int
    nth: int
    count: int  # type: ignore[assignment]  # (the field hides tuple.count, unused here)
    b: int
    taxed: bool


class TaxesDue(NamedTuple):
    """The hits are settled and `zeros` zeros call taxes: the selling round begins."""

    zeros: int


class KeepsBusinesses(NamedTuple):
    """At tax time, `seat` sells no more."""

    seat: int


class PageDie(NamedTuple):
    value: int
    was: int  # the page before
    page: int  # the page now


# Cards and signs --------------------------------------------------------------------------------


class Sold(NamedTuple):
    """`seat` sells business `b`, whose sign is on `page`; `tax_time`: in the selling round before taxes.
    Told as it begins: the sign leaves the book, then the bank pays (Gained)."""

    seat: int
    b: int
    page: int
    tax_time: bool


class Discarded(NamedTuple):
    """`seat` discarded a card of `kind` for `pay` from the bank."""

    seat: int
    kind: int
    pay: int


class Opened(NamedTuple):
    """`seat` opened business `b` with its sign on `page`, in the slots of `mask`, paying the bank `cost`;
    `fees`: per slot where it covers another's sign, (slot, the owner paid, the business covered, fee)."""

    seat: int
    b: int
    page: int
    mask: int
    cost: int
    fees: tuple[tuple[int, int, int, int], ...]


class AssetPlayed(NamedTuple):
    """`seat` played an asset of `kind` onto its table, paying the bank `cost`."""

    seat: int
    kind: int
    cost: int


class Played(NamedTuple):
    """`seat` played an action card of `kind`; what it does follows."""

    seat: int
    kind: int


class Networking(NamedTuple):
    """`seat` played Networking (`kind`): `count` draws are queued."""

    seat: int
    kind: int
    count: int  # type: ignore[assignment]  # (the field hides tuple.count, unused here)


class ExtraDie(NamedTuple):
    """`seat` will roll `count` business dice this turn."""

    seat: int
    count: int  # type: ignore[assignment]  # (the field hides tuple.count, unused here)


class NothingToScout(NamedTuple):
    """No business card lies in the discard pile: `seat` draws a card instead (queued)."""

    seat: int


class Aimed(NamedTuple):
    """`seat` aimed the card of `kind` (IRS Audit, Lawsuit) at `target`; the payment follows."""

    seat: int
    kind: int
    target: int


class Fire(NamedTuple):
    """`seat` set a Mysterious Fire at business `b`, run by `owner` with its sign on `page`; `insured`:
    the owner's Fire Insurance stopped it. Told as it begins."""

    seat: int
    b: int
    owner: int
    page: int
    insured: bool


class Scouted(NamedTuple):
    """`seat` took business card `b` from the discard pile."""

    seat: int
    b: int


class PageTurned(NamedTuple):
    seat: int
    page: int


# Money ------------------------------------------------------------------------------------------


class Gained(NamedTuple):
    """`seat` collected `amount` from the bank."""

    seat: int
    amount: int
    why: tuple | None


class Owed(NamedTuple):
    """A forced payment: `seat` owed `amount` to `to` (-1: the bank) and paid `paid`, all it had where
    that is less (then it is knocked out, which follows). A seat already out, or an amount of 0, pays
    nothing."""

    seat: int
    amount: int
    paid: int
    to: int
    why: tuple | None


# Knock-outs, auctions and the end ---------------------------------------------------------------


class KnockedOut(NamedTuple):
    """`seat` is out: its `hand` and `assets` (counts per kind) go to the discard pile, and the signs of
    the businesses it ran (`closed`: (business, page) each) leave the book. Told as it begins."""

    seat: int
    hand: bytes
    assets: bytes
    closed: tuple[tuple[int, int], ...]


class LuxuriesLeave(NamedTuple):
    """Nobody is left to bid: the luxuries `xs` of `seat`, who is out, leave the game."""

    seat: int
    xs: tuple[int, ...]


class ToAuction(NamedTuple):
    """The luxuries `xs` of `seat`, who is out, will be auctioned, in this order."""

    seat: int
    xs: tuple[int, ...]


class AuctionOpens(NamedTuple):
    """`seller`'s luxury `x` is auctioned; `bidder` bids first."""

    x: int
    seller: int
    bidder: int


class Bid(NamedTuple):
    seat: int
    x: int
    amount: int


class PassedOn(NamedTuple):
    seat: int
    x: int


class CannotBid(NamedTuple):
    """`seat` cannot pay the lowest bid, `lowest`, and passes."""

    seat: int
    lowest: int


class AuctionWon(NamedTuple):
    """`seat` won the auction of luxury `x` and paid the bank `price`."""

    seat: int
    x: int
    price: int


class Unsold(NamedTuple):
    """Nobody bid for luxury `x`: it leaves the game."""

    x: int


class Won(NamedTuple):
    """`seat` won: with luxury `x` its third (-1: as the last player in). The game is over."""

    seat: int
    x: int
