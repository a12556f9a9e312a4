"""Drags 2 Riches components as data: card kinds, events and characters.

Provenance of each entry: "rulebook" (stated in shared/rulebooks/drags2riches.txt), "found" (public
sources, shared/research/facts_d2r_extravaganza_rapgodz.md) or "reconstructed" (designed here; the
rulebook gives no card list). The game README explains every reconstruction.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import compress

MIN_PLAYERS = 2
MAX_PLAYERS = 5
HAND_SIZE = 5  # D2R-ROUND-2 D2R-UNTUCK-2
MARKET_SIZE = 8  # D2R-SETUP-2
SPREE_EXTRA = 2  # Shopping Spree: cards drawn at the start of each turn; D2R-SPREE-1

TYPES = ("Outfit", "Hair", "Heels", "Makeup", "Accessories")  # D2R-PLAY-3
NUM_TYPES = len(TYPES)
NO_TYPE = -1  # coin cards


class Op(enum.IntEnum):
    """What an activated card does besides its coin symbols (glossary verbs)."""

    NONE = 0
    DRAW = 1  # draw `amount` cards from your Wardrobe; D2R-GLOSS-DRAW
    PEEK_BORROW = 2  # Shade: peek at a player's hand, then borrow 1 of those cards; D2R-GLOSS-PEEK D2R-GLOSS-BORROW
    DISCARD = 3  # Shade: the target discards 1 card at random; D2R-GLOSS-DISCARD
    RETURN = 4  # return 1 card of value <= amount from your Floordrobe to your hand; D2R-GLOSS-RETURN
    LEND = 5  # lend 1 card from your hand to another player's Floordrobe; D2R-GLOSS-LEND


SHADE_OPS = (Op.PEEK_BORROW, Op.DISCARD)  # D2R-SHADE-1


@dataclass(frozen=True)
class Kind:
    name: str
    group: str  # "coin", "starter" or "wardrobe"
    type: int  # index into TYPES, NO_TYPE for coins
    value: int  # cost = Look value (coins: their coin value, used only by Return); D2R-WERK-2
    coins: int  # coin symbols when activated; D2R-WERK-1
    op: Op = Op.NONE
    amount: int = 0
    block: bool = False  # Block Shade: shown from the hand, blocks a Shade, stays in hand; D2R-SHADE-2 D2R-DECIDE-REACT
    reverse: bool = False  # Reverse Shade: shown from the hand, blocks and reverses a Shade; D2R-SHADE-5
    copies: int = 1
    source: str = "reconstructed"

    @property
    def shade(self) -> bool:
        return self.op in SHADE_OPS

    @property
    def text(self) -> str:
        parts = []
        if self.coins:
            parts.append(f"+{self.coins} coin")
        if self.op == Op.DRAW:
            parts.append(f"Draw {self.amount}")
        elif self.op == Op.PEEK_BORROW:
            parts.append("SHADE: Peek at a player's hand, then Borrow 1 of those cards")
        elif self.op == Op.DISCARD:
            parts.append("SHADE: target player Discards 1 card at random")
        elif self.op == Op.RETURN:
            parts.append(f"Return 1 card of value {self.amount} or less from your Floordrobe to your hand")
        elif self.op == Op.LEND:
            parts.append("Lend 1 card from your hand to another player")
        if self.block:
            parts.append("BLOCK SHADE")
        if self.reverse:
            parts.append("REVERSE SHADE")
        return "; ".join(parts) or "(no action)"


# The template every Wardrobe type follows (reconstructed from the research suggestion; 15 cards
# per type, Look values 2x5, 3x4, 4x3, 5x2, 6x1). (suffix, value, coins, op, amount, block, reverse, copies)
_TEMPLATE = (  # D2R-DATA-WARDROBE
    ("Basic", 2, 1, Op.NONE, 0, False, False, 4),
    ("Quick Change", 2, 0, Op.DRAW, 1, False, False, 1),
    ("Tuck", 3, 1, Op.DRAW, 1, False, False, 2),
    ("Read", 3, 0, Op.PEEK_BORROW, 0, False, False, 1),
    ("Clapback", 3, 0, Op.DRAW, 1, True, False, 1),
    ("Luxe", 4, 2, Op.NONE, 0, False, False, 1),
    ("Vintage", 4, 0, Op.RETURN, 2, False, False, 1),
    ("Spill the Tea", 4, 1, Op.DISCARD, 0, False, False, 1),
    ("Hand-me-down", 5, 1, Op.LEND, 1, False, False, 1),
    ("Mirror", 5, 0, Op.NONE, 0, False, True, 1),
    ("Couture", 6, 0, Op.NONE, 0, False, False, 1),
)

KINDS: list[Kind] = [  # D2R-COMP-1
    Kind("Silver", "coin", NO_TYPE, 1, 1, copies=10, source="rulebook"),  # D2R-COMP-2
    Kind("Gold", "coin", NO_TYPE, 2, 2, copies=5, source="rulebook"),  # D2R-COMP-2
]  # the Starters below: value 1, 5 copies each; D2R-COMP-1 D2R-COMP-2
KINDS += [Kind(f"Starter {t}", "starter", i, 1, 0, copies=MAX_PLAYERS, source="rulebook") for i, t in enumerate(TYPES)]
for _i, _t in enumerate(TYPES):  # D2R-DATA-WARDROBE
    for _suffix, _value, _coins, _op, _amount, _block, _reverse, _copies in _TEMPLATE:
        KINDS.append(Kind(f"{_suffix} {_t}", "wardrobe", _i, _value, _coins, _op, _amount, _block, _reverse, _copies))

NUM_KINDS = len(KINDS)
KIND_IDS = range(NUM_KINDS)
SILVER, GOLD = 0, 1
STARTERS = tuple(range(2, 2 + NUM_TYPES))  # starter kind of each type
WARDROBE = tuple(range(2 + NUM_TYPES, NUM_KINDS))
KIND = {k.name: i for i, k in enumerate(KINDS)}
VALUE = tuple(k.value for k in KINDS)
TYPE_OF = tuple(k.type for k in KINDS)
COINS = tuple(k.coins for k in KINDS)
BLOCKERS = tuple(i for i, k in enumerate(KINDS) if k.block)  # D2R-SHADE-2
REVERSERS = tuple(i for i, k in enumerate(KINDS) if k.reverse)  # D2R-SHADE-5
# Kinds that can fill the Look slot of each type (starter first).
SLOT_KINDS = tuple(tuple(i for i, k in enumerate(KINDS) if k.type == t) for t in range(NUM_TYPES))
SLOT_WIDTH = len(SLOT_KINDS[0])
SLOT_INDEX = tuple(SLOT_KINDS[k.type].index(i) if k.type >= 0 else -1 for i, k in enumerate(KINDS))

STARTING_DECK = (SILVER, SILVER, GOLD) + STARTERS  # rulebook: one starter per type, 1 Gold, 2 Silver; D2R-SETUP-1


class EventKind(enum.IntEnum):
    CONTEST = 0
    SPREE = 1  # Shopping Spree: everyone draws 2 more, no Event Phase; D2R-SPREE-1
    SELL_OUT = 2  # Sell-Out Tour: purchases playable this round; the game ends when it is resolved; D2R-SELLOUT-1


@dataclass(frozen=True)
class Event:
    name: str
    deck: int  # 0, 1, 2 for decks I, II, III
    prestige: int
    kind: EventKind = EventKind.CONTEST
    source: str = "reconstructed"


EVENTS: tuple[Event, ...] = (  # D2R-COMP-1 D2R-DATA-EVENTS
    Event("Drag Ball", 0, 3, source="rulebook"),
    Event("Drag Ball", 0, 4, source="rulebook"),
    Event("Pageant", 0, 4, source="rulebook"),
    Event("Event I-d", 0, 3),
    Event("Event II-a", 1, 5),
    Event("Event II-b", 1, 6),
    Event("Event II-c", 1, 6),
    Event("Event II-d", 1, 7),
    Event("Extravaganza", 2, 10, source="rulebook"),
    Event("Event III-b", 2, 8),
    Event("Event III-c", 2, 9),
    Event("Event III-d", 2, 11),
    Event("Shopping Spree", 0, 0, EventKind.SPREE, "rulebook"),
    Event("Shopping Spree", 1, 0, EventKind.SPREE, "rulebook"),
    Event("Sell-Out Tour", 2, 12, EventKind.SELL_OUT, "rulebook"),
)
NUM_EVENTS = len(EVENTS)
SPREE_I, SPREE_II, SELL_OUT = 12, 13, 14
DECK_REGULARS = tuple(tuple(e for e in range(12) if EVENTS[e].deck == d) for d in range(3))  # D2R-SETUP-3
DECK_SPECIAL = (SPREE_I, SPREE_II, SELL_OUT)  # D2R-SETUP-3: the bottom card of each deck


class Character(enum.IntEnum):  # D2R-OPT-CHAR
    KELISHA_KEYS = 0  # D2R-CHAR-KELISHA
    HO_COUTURE = 1  # D2R-CHAR-HO
    GLAM_STOKER = 2  # D2R-CHAR-GLAM
    KENYA_FEELIT = 3  # D2R-CHAR-KENYA
    BI_FELICIA = 4  # D2R-CHAR-FELICIA
    CATASTROPHOEBE = 5  # D2R-CHAR-CATASTROPHOEBE
    SHESSICA = 6  # D2R-CHAR-SHESSICA
    CHEEKS_ILLUSTRA = 7  # D2R-CHAR-CHEEKS


NUM_CHARACTERS = len(Character)
# (name, ability name, text, source)
CHARACTERS = (  # D2R-COMP-1
    ("Kelisha Keys", "All Tea No Shade", "When receiving Shade, block it and reverse the effect back on to the shady player.", "rulebook + found"),
    ("Ho Couture", "Glamazon", "+1 to each card in your Look this round.", "reconstructed"),
    ("Glam Stoker", "Deathdrop Diva", "Play at any time before Looks are revealed: +2 to your Look this round.", "rulebook"),
    ("Kenya Feelit", "Sickening", "Choose a Look card type: it is worth 0 for every other player this round.", "rulebook + reconstructed"),
    ("Bi Felicia", "Boujee", "Trash 3 cards from your Floordrobe.", "rulebook"),
    ("Catastrophoebe", "Executive Realness", "Take the highest value card from the Market into your Floordrobe.", "rulebook + reconstructed"),
    ("Shessica", "Drag Mother", "Double the value of one Look card type for you and one other player of your choice this round.", "found"),
    ("Cheeks Illustra", "(name unknown)", "Draw 3 cards.", "reconstructed"),
)
CHEEKS_DRAW = 3  # D2R-CHAR-CHEEKS
FELICIA_TRASH = 3  # D2R-CHAR-FELICIA
GLAM_BONUS = 2  # D2R-CHAR-GLAM
HO_BONUS = 1  # D2R-CHAR-HO


def counts_to_string(counts: Sequence[int]) -> str:
    parts = [f"{c}x {KINDS[k].name}" if c > 1 else KINDS[k].name for k, c in enumerate(counts) if c]
    return ", ".join(parts) or "-"


def kinds_in(counts: Sequence[int]) -> list[int]:
    """The kinds `counts` holds at least one card of, ascending."""
    return list(compress(KIND_IDS, counts))
