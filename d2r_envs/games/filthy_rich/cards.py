"""Filthy Rich components as data: businesses (card + sign), luxuries, action and asset cards.

Provenance of each entry (`source`): "rulebook" (shared/rulebooks/filthy_rich.txt), "found" (public
sources, shared/research/facts_filthy_rich_draco.md) or "reconstructed" (designed here: the rulebook
lists no cards), with a note where only part is sourced ("found name", "found (price)", "rulebook
name", "rulebook theme": the rest of that entry is reconstructed). The game README explains every
reconstruction.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

MIN_PLAYERS = 2
MAX_PLAYERS = 5
HAND_SIZE = 5  # FR-SETUP-1, FR-DRAW-1
START_MONEY = 10  # FR-SETUP-2
PAGES = 4  # FR-COMP-2: index 0-3 for pages 1-4, page 4 on top
SLOTS = 9  # a page is 3x3, slots 1-9 row by row (FR-COMP-2)
ACTIONS_PER_TURN = 2  # FR-ACT-1
COVER_FEE = 2  # FR-SIGN-5: per covered visible space of another player's sign
SELL_PER_CARD = 2  # FR-SELL-1: a business sells for $2 per sign card
DISCARD_PAY = 1  # FR-ACT-2


class Hit:
    """What a hit on a business does (its card's text: FR-DICE-3): plain int constants, which the rules
    read at every roll (a plain class's attribute reads several times faster than an IntEnum member in
    Python 3.11)."""

    BANK: Final = 0  # the owner collects `pay` from the bank
    ROLLER: Final = 1  # the player who rolled pays the owner `pay` (the bank pays if the owner rolled)
    TAX_MAN: Final = 2  # as BANK; also collects `zero_pay` from the bank for each 0 rolled


# Sign shapes: cells (row, column) from the top-left card; each fits a 3x3 page (FR-DATA-1, FR-SIGN-2).
SHAPES: dict[str, tuple[tuple[int, int], ...]] = {
    "single": ((0, 0),),
    "vertical 2": ((0, 0), (1, 0)),
    "horizontal 2": ((0, 0), (0, 1)),
    "horizontal 3": ((0, 0), (0, 1), (0, 2)),
    "L 3": ((0, 0), (1, 0), (1, 1)),
    "square 4": ((0, 0), (0, 1), (1, 0), (1, 1)),
}


def placements(shape: str) -> list[int]:
    """Slot bitmask (bit i = slot i+1) of the sign at each anchor 0-8; 0 where it does not fit (FR-SIGN-2)."""
    out = []
    for anchor in range(SLOTS):
        r0, c0 = divmod(anchor, 3)
        cells = [(r0 + r, c0 + c) for r, c in SHAPES[shape]]
        fits = all(r < 3 and c < 3 for r, c in cells)
        out.append(sum(1 << (3 * r + c) for r, c in cells) if fits else 0)
    return out


@dataclass(frozen=True)
class Business:
    name: str
    cost: int  # launch cost
    shape: str
    hit: int  # a Hit
    pay: int
    tax: int  # tax symbols
    zero_pay: int = 0
    copies: int = 1  # business cards in the deck (the sign is one)
    source: str = "reconstructed"

    @property
    def size(self) -> int:
        return len(SHAPES[self.shape])

    @property
    def text(self) -> str:
        hit = {Hit.BANK: f"hit: collect ${self.pay}",
               Hit.ROLLER: f"hit: the roller pays you ${self.pay}",
               Hit.TAX_MAN: f"hit: collect ${self.pay}; each 0 rolled: collect ${self.zero_pay}"}[self.hit]
        return f"launch ${self.cost}, {self.shape} sign, {hit}, tax {self.tax}"


BUSINESSES: tuple[Business, ...] = (  # FR-COMP-1, FR-DATA-1: 22 businesses, 26 cards
    # Single-card signs: cheap, pay most per hit.
    Business("Sven's Swedish Tacos", 5, "single", Hit.BANK, 4, 1, copies=2, source="found name"),
    Business("Chapter 11 Books", 4, "single", Hit.BANK, 3, 0, copies=2, source="found name"),
    Business("Hot Dog Stand", 4, "single", Hit.ROLLER, 3, 1, copies=2),
    Business("Pawn Shop", 6, "single", Hit.TAX_MAN, 3, 1, zero_pay=2, copies=2),
    Business("Lemonade Empire", 3, "single", Hit.BANK, 2, 0),
    Business("Fortune Teller", 5, "single", Hit.ROLLER, 4, 1),
    Business("Shoe Shine Kiosk", 2, "single", Hit.BANK, 2, 1),
    Business("Nail Salon", 7, "single", Hit.BANK, 5, 1),
    # Two cards, one above the other (Tornado Cleaners' shape in the rulebook: FR-SIGN-2).
    Business("Tornado Cleaners", 12, "vertical 2", Hit.BANK, 4, 1, source="rulebook"),
    Business("Murphy's Fish House", 11, "vertical 2", Hit.BANK, 3, 1, source="rulebook name"),
    Business("Discount Tattoos", 10, "vertical 2", Hit.ROLLER, 3, 1),
    Business("Bowling Alley", 12, "vertical 2", Hit.TAX_MAN, 3, 1, zero_pay=2),
    Business("Used Car Lot", 11, "vertical 2", Hit.BANK, 3, 1),
    Business("Riverboat Casino", 14, "vertical 2", Hit.BANK, 5, 2),
    # Two cards side by side.
    Business("Drive-In Theater", 11, "horizontal 2", Hit.BANK, 3, 1),
    Business("Pet Spa", 9, "horizontal 2", Hit.BANK, 2, 0),
    Business("Sushi Bar", 12, "horizontal 2", Hit.ROLLER, 3, 1),
    Business("Law Firm", 14, "horizontal 2", Hit.TAX_MAN, 3, 2, zero_pay=3),
    # Three and four cards.
    Business("Shopping Mall", 13, "horizontal 3", Hit.BANK, 4, 2),
    Business("Theme Park", 12, "L 3", Hit.BANK, 3, 1),
    Business("Grand Hotel", 15, "square 4", Hit.BANK, 3, 2),
    Business("Sports Stadium", 16, "square 4", Hit.ROLLER, 3, 2),
)


@dataclass(frozen=True)
class Luxury:
    name: str
    price: int
    tax: int
    source: str = "reconstructed"


LUXURIES: tuple[Luxury, ...] = (  # FR-COMP-1, FR-DATA-2: 12 luxuries
    Luxury("Personal Trainer", 6, 1, "found (price)"),
    Luxury("Designer Wardrobe", 8, 1),
    Luxury("Sports Car", 10, 1),
    Luxury("Racehorse", 12, 1),
    Luxury("Trophy Spouse", 15, 1, "found name"),
    Luxury("Art Collection", 18, 2),
    Luxury("Title of Nobility", 21, 2, "found name"),
    Luxury("European Castle", 25, 2, "found name (middle of the range)"),
    Luxury("Yacht", 29, 2),
    Luxury("Private Island", 34, 3),
    Luxury("Private Jet", 39, 3),
    Luxury("Space Shuttle", 45, 3, "found (price)"),
)


class Effect:
    """What an action card does, or what an asset card does while on the table (FR-DATA-3): plain int
    constants, as Hit."""

    IRS_AUDIT: Final = 0  # a player you choose pays their taxes once, now
    SCOUT: Final = 1  # take a business card from the discard pile into your hand (none there: draw a card)
    FIRE: Final = 2  # another player's business burns: its card to the discard pile, its sign out of the book
    WINDFALL: Final = 3  # collect `amount` from the bank
    LAWSUIT: Final = 4  # a player you choose pays you `amount`
    ADVERTISING: Final = 5  # roll one more business die this turn
    PAGE_TURNER: Final = 6  # turn the book to the page you choose, now
    NETWORKING: Final = 7  # draw `amount` cards
    LOAN: Final = 8  # asset: collect `amount` from the bank when played
    RACKET: Final = 9  # asset: each 0 rolled, every other player pays you `amount` (at tax time, after the sale)
    CONNECTIONS: Final = 10  # asset: your taxes count `amount` fewer symbols
    OFFSHORE: Final = 11  # asset: each 0 rolled, collect `amount` from the bank
    BILLBOARD: Final = 12  # asset: each hit on one of your businesses pays `amount` more
    INSURANCE: Final = 13  # asset: the next Fire on your business fails and this card is discarded
    PORTFOLIO: Final = 14  # asset: collect `amount` at the start of each of your turns


TARGETS_PLAYER = (Effect.IRS_AUDIT, Effect.LAWSUIT)


@dataclass(frozen=True)
class Card:
    name: str
    asset: bool
    effect: int  # an Effect
    amount: int = 0
    cost: int = 0  # assets: paid to the bank when played
    tax: int = 0  # assets: tax symbols
    copies: int = 1
    source: str = "reconstructed"

    @property
    def text(self) -> str:
        a = self.amount
        words = {
            Effect.IRS_AUDIT: "a player you choose pays their taxes once, now",
            Effect.SCOUT: "take a business card from the discard pile into your hand (none there: draw a card)",
            Effect.FIRE: "burn another player's business: its card is discarded and its sign leaves the book",
            Effect.WINDFALL: f"collect ${a} from the bank",
            Effect.LAWSUIT: f"a player you choose pays you ${a}",
            Effect.ADVERTISING: "roll one extra business die this turn",
            Effect.PAGE_TURNER: "turn the book to any other page now",
            Effect.NETWORKING: f"draw {a} cards",
            Effect.LOAN: f"collect ${a} from the bank",
            Effect.RACKET: f"each 0 rolled: every other player pays you ${a} (at tax time, after selling)",
            Effect.CONNECTIONS: f"your taxes count {a} fewer tax symbols",
            Effect.OFFSHORE: f"each 0 rolled: collect ${a} from the bank",
            Effect.BILLBOARD: f"each hit on one of your businesses pays ${a} more",
            Effect.INSURANCE: "the next Fire on one of your businesses fails; then discard this card",
            Effect.PORTFOLIO: f"collect ${a} at the start of each of your turns",
        }[self.effect]
        if self.asset:
            return f"asset, cost ${self.cost}, tax {self.tax}: {words}"
        return f"action: {words}"


CARDS: tuple[Card, ...] = (  # FR-DATA-1, FR-DATA-3: 25 action and 22 asset cards
    Card("IRS Audit", False, Effect.IRS_AUDIT, copies=3, source="found name"),
    Card("Business Scout", False, Effect.SCOUT, copies=3, source="found name"),
    Card("Mysterious Fire", False, Effect.FIRE, copies=3, source="rulebook theme"),
    Card("Windfall", False, Effect.WINDFALL, 4, copies=4),
    Card("Lawsuit", False, Effect.LAWSUIT, 4, copies=3),
    Card("Advertising Blitz", False, Effect.ADVERTISING, copies=3),
    Card("Page Turner", False, Effect.PAGE_TURNER, copies=3),
    Card("Networking", False, Effect.NETWORKING, 3, copies=3),
    Card("Yakuza Loan", True, Effect.LOAN, 12, cost=0, tax=2, copies=3, source="found name"),
    Card("Protection Racket", True, Effect.RACKET, 1, cost=6, tax=1, copies=3, source="found name"),
    Card("Government Connections", True, Effect.CONNECTIONS, 2, cost=7, tax=0, copies=3, source="rulebook theme"),
    Card("Offshore Account", True, Effect.OFFSHORE, 2, cost=6, tax=0, copies=3),
    Card("Billboard", True, Effect.BILLBOARD, 1, cost=6, tax=0, copies=3),
    Card("Fire Insurance", True, Effect.INSURANCE, cost=3, tax=0, copies=3),
    Card("Stock Portfolio", True, Effect.PORTFOLIO, 2, cost=6, tax=1, copies=4),
)

assert all(a.price < b.price for a, b in zip(LUXURIES, LUXURIES[1:])), "luxuries are listed in price order"  # FR-DATA-2

# Card kinds: businesses first (kind b is business b), then the action and asset cards.
NUM_BUSINESSES = len(BUSINESSES)
NUM_LUXURIES = len(LUXURIES)
NUM_CARDS = len(CARDS)  # action and asset kinds
NUM_KINDS = NUM_BUSINESSES + NUM_CARDS
COPIES = tuple(b.copies for b in BUSINESSES) + tuple(c.copies for c in CARDS)
DECK_SIZE = sum(COPIES)  # FR-COMP-1, FR-DATA-1: 73 cards
SIGN_CARDS = sum(b.size for b in BUSINESSES)
PLACEMENTS = tuple(tuple(placements(b.shape)) for b in BUSINESSES)  # per business, per anchor
# Per business, (anchor, slot mask) for each anchor where its sign fits a page (FR-SIGN-2).
FITS = tuple(tuple((anchor, mask) for anchor, mask in enumerate(p) if mask) for p in PLACEMENTS)
SIZE = tuple(b.size for b in BUSINESSES)
SALE = tuple(SELL_PER_CARD * b.size for b in BUSINESSES)  # FR-SELL-1: what each business sells for
TAX = tuple(b.tax for b in BUSINESSES) + tuple(c.tax for c in CARDS)  # FR-TAX-2: per kind, its card's tax symbols
TAX_MEN = tuple(i for i, b in enumerate(BUSINESSES) if b.hit == Hit.TAX_MAN)  # paid for each 0 rolled
KIND_NAMES = tuple(b.name for b in BUSINESSES) + tuple(c.name for c in CARDS)
ASSET_KINDS = tuple(NUM_BUSINESSES + i for i, c in enumerate(CARDS) if c.asset)
EFFECT_KIND = {c.effect: NUM_BUSINESSES + i for i, c in enumerate(CARDS)}


def card_of(kind: int) -> Card:
    return CARDS[kind - NUM_BUSINESSES]


def counts_to_string(counts) -> str:
    return ", ".join(f"{KIND_NAMES[k]}" + (f" x{c}" if c > 1 else "") for k, c in enumerate(counts) if c) or "-"


SLOTS_OF = tuple(tuple(i for i in range(SLOTS) if m >> i & 1) for m in range(1 << SLOTS))  # slot mask -> slots 0-8


def slots_of(mask: int) -> list[int]:
    """Slot numbers 1-9 in a bitmask."""
    return [i + 1 for i in range(SLOTS) if mask >> i & 1]
