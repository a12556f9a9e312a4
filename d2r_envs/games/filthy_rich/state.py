"""Filthy Rich state: plain data, changed in place by rules.Game.

Card piles are counts per card kind (cards.KIND_NAMES): the deck is shuffled, so only its contents
matter and every draw is an explicit chance event (a core `Deck`, which keeps its size and its cards
in kind order in step with its counts, so the chance node, a sampled draw and resolve_chance's draw
in place are one arithmetic). The book is four pages of nine slots, each holding the business whose
sign card is there (-1: an empty pocket). Tax symbols, who holds what per seat and the book's one-hot
cells are worked out from these fields by whoever needs them (the rules' tax table, the observer,
which compares the fields with copies it keeps). `tell` is no part of the state: the sink the rules
tell what happens to while a copy is narrated, None otherwise; it is not compared, and a clone
starts without one (core.events.sink).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from d2r_envs.core.events import sink
from d2r_envs.core.zones import Deck, Pile, Zones, card_count
from d2r_envs.games.filthy_rich import cards as C


class Phase:
    """The phases of play, plain int constants (State.phase holds one): the rules read them at every step,
    and a plain class's attribute reads several times faster than an IntEnum member in Python 3.11."""

    FIRST_PLAYER: Final = 0  # chance: who goes first
    LUXURY: Final = 1  # FR-TURN-2 starts here; decision: buy a luxury (optional; selling allowed)
    ACTIONS: Final = 2  # decision: the two actions, selling, then roll
    TARGET: Final = 3  # decision: the choice a played card asks for (see Ask)
    DICE: Final = 4  # chance: one business die per node
    TAX_SELL: Final = 5  # decision: a 0 was rolled; each player in turn may sell businesses
    PAGE_DIE: Final = 6  # chance: the page die
    AUCTION: Final = 7  # decision: bid on a knocked-out player's luxury, or pass
    DEAL: Final = 8  # the opening hands are being dealt (chance draws)
    DRAW: Final = 9  # the end-of-turn draws (chance draws)
    OVER: Final = 10


NUM_PHASES = Phase.OVER + 1


class Ask:
    """What the card being played asks its player to choose (State.ask holds one): plain int constants,
    as Phase."""

    NONE: Final = 0
    PLAYER: Final = 1  # IRS Audit, Lawsuit: the player it targets
    BUSINESS: Final = 2  # Mysterious Fire: the business it burns
    SCOUT: Final = 3  # Business Scout: the business card taken from the discard pile
    PAGE: Final = 4  # Page Turner: the page to turn to


ASK_NAMES = ("none", "player", "business", "scout", "page")  # by Ask


NO_OWNER = -1  # luxury: still for sale
REMOVED = -2  # luxury: unsold at auction, out of the game
ON_AUCTION = -3  # luxury: being auctioned


@dataclass(slots=True)
class State:
    num_players: int
    hands: list[bytearray]  # per seat, counts per kind (hidden from others)
    assets: list[bytearray]  # per seat, asset cards on the table, counts per kind
    deck: Deck  # face-down draw pile: counts per kind (deck.counts), deck.n, deck.cards in kind order
    discard: bytearray  # face-up discard pile, counts per kind
    money: list[int]
    alive: list[bool]
    owner: list[int]  # per business: the seat that runs it, -1 closed
    book: list[list[int]]  # FR-COMP-2: book[page][slot] -> business whose sign card is there, -1 empty
    lux_owner: list[int]  # per luxury: a seat, NO_OWNER, REMOVED or ON_AUCTION
    phase: int = Phase.FIRST_PLAYER
    ask: int = Ask.NONE
    page: int = 0  # 0-3 for pages 1-4; FR-SETUP-3: play begins on page 1
    first: int = -1
    turn: int = -1  # whose turn it is
    actor: int = -1  # who decides now
    actions_left: int = 0
    card: int = -1  # the kind being resolved (Phase.TARGET)
    extra_dice: int = 0  # Advertising Blitz this turn
    dice: list[int] = field(default_factory=list)  # business dice rolled this turn
    sellers: list[int] = field(default_factory=list)  # tax time: who still chooses whether to sell
    draws: list[int] = field(default_factory=list)  # seats still to draw a card, first due first
    resume: int = Phase.ACTIONS  # where play returns after the auctions
    lots: list[tuple[int, int]] = field(default_factory=list)  # (luxury, knocked-out seat) waiting to be auctioned
    lot: int = -1  # the luxury being auctioned
    seller: int = -1  # whose luxury it was
    high: int = -1  # the high bid, -1 none yet
    high_bidder: int = -1
    passes: int = 0  # passes since the last bid
    winner: int = -1
    # Money in and out of the bank (players' money = start + from_bank - to_bank: player-to-player
    # payments are conserved).
    from_bank: int = 0
    to_bank: int = 0
    tell: Callable[[Any], None] | None = sink()  # while narrated: where the rules tell what happens (facts.py)

    # Worked out from the piles and the book when asked, never stored:
    @property
    def hand_n(self) -> list[int]:
        """Cards in each hand."""
        return list(map(card_count, self.hands))

    @property
    def sign_page(self) -> list[int]:
        """Per business: the page its sign is on (-1: not in the book)."""
        return sign_places(self.book)[0]

    @property
    def sign_mask(self) -> list[int]:
        """Per business: the slots of its sign (bit i = slot i+1; 0: not in the book)."""
        return sign_places(self.book)[1]


def sign_places(book: list[list[int]]) -> tuple[list[int], list[int]]:
    """Per business, the page its sign is on (-1: none) and its slots (bit i = slot i+1)."""
    pages, masks = [-1] * C.NUM_BUSINESSES, [0] * C.NUM_BUSINESSES
    for pg, page in enumerate(book):
        for slot, b in enumerate(page):
            if b >= 0:
                pages[b] = pg
                masks[b] |= 1 << slot
    return pages, masks


def _opened(s: State) -> list[int]:
    """The business cards lying face up in front of their owners, as counts per kind."""
    return [1 if k < C.NUM_BUSINESSES and s.owner[k] >= 0 else 0 for k in range(C.NUM_KINDS)]


# Where the Filthy Rich cards are (core/zones.py): the census and redeterminise come from this.
ZONES = Zones(
    C.KIND_NAMES,
    C.COPIES,
    Pile("hands", per_seat=True, seen_by="owner"),  # each hand seen by its owner only
    Pile("deck", seen_by="nobody"),
    Pile("assets", per_seat=True),
    Pile("discard"),
    extra=_opened,
)
