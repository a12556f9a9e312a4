"""Rap Godz components as data. Each entry says where it comes from:

- "rulebook": shared/rulebooks/rap_godz.txt says so;
- "found": public sources (shared/research/facts_d2r_extravaganza_rapgodz.md, section 3a);
- "reconstructed": designed here (the research's section 3c suggestions, tuned by self-play; the game
  README's "Deviations and reconstructions" gives every choice and its numbers).

Card kinds: one kind per distinct card (copies counted), in one index space: the Album cards (decks 1-3),
the Come Upz (decks 1-3), then the 25 Rapperz and the 25 Citiez, so one census covers every card.
"""

from __future__ import annotations

from d2r_envs.core.words import plural

from dataclasses import dataclass
from typing import Final

MIN_PLAYERS, MAX_PLAYERS = 2, 4
COLOURS = ("Gy", "Y", "Gn", "P", "Bl")  # rulebook; read as grey, yellow, green, purple, blue (ours)
COLOUR_NAMES = ("Grey", "Yellow", "Green", "Purple", "Blue")
NUM_COLOURS = 5
RESOURCES = ("Streetz", "Skillz", "Swag")  # rulebook
NUM_RES = 3
NO_COLOUR = -1  # Beef cards

# Plaques (rulebook): denominations and the supply.
PLAQUE_VALUES = (1, 5, 25)  # Bronze, Gold, Platinum; RG-COMP-2
PLAQUE_NAMES = ("Bronze", "Gold", "Platinum")
PLAQUE_SUPPLY = (36, 33, 15)  # RG-COMP-1
BEEF_CUBES = 12  # rulebook
UPGRADE_CUBES = 2  # per player (8 in the box, 4 colours); RG-DECIDE-UPGRADE
TRACK_TOP = 30  # RG-RES-2 (rulebook)
TRACK_MAX = 60  # an Upgrade cube counts on to 60 (reconstructed); RG-DATA-TRACK
PICKUP_SPACES = (5, 12, 20)  # the symbols on each track (reconstructed, a parameter); RG-DATA-TRACK
ALBUMS, TRACKS = 3, 5  # rulebook
HAND_SIZE = 5  # rulebook
COME_COST = 3  # rulebook
COME_COST_DISCOUNTED = 2  # with the once-per-Album discount Rapper ability (RG-RAP-2; reconstructed)
DIE_SIDES = 6
GOAL_PLAQUES = 10  # rulebook (examples) / reconstructed
CITY_PLAQUES = 10  # rulebook example (New Orleans)


@dataclass(frozen=True)
class Card:
    name: str
    deck: int  # 0-2: Album 1-3 (or Come Upz 1-3)
    come: bool  # a Come Upz card
    colour: int  # 0-4, NO_COLOUR for Beef
    copies: int
    plaques: int
    gains: tuple[int, int, int]  # Streetz, Skillz, Swag gained when played
    lock: tuple[int, int] | None  # (resource, at least) or None; RG-PLAY-2
    icons: int  # icons of its colour (Citiez and Goalz count them)
    beef: bool = False
    source: str = "reconstructed"


def _gains(res: int, amount: int) -> tuple[int, int, int]:
    g = [0, 0, 0]
    g[res] = amount
    return (g[0], g[1], g[2])


# The Album decks (RG-DATA-CARDS): per Album, 4 variants per colour as
# (copies, plaques, resource offset from the colour, gain, lock offset or None, lock value); copies sum
# to 10 / 9 / 9 per colour, plus 5 Beef cards, for decks of 55 / 50 / 50 (found: 155 in all; the split
# and values are the research's suggestion, tuned here).
Variant = tuple[int, int, int, int, int | None, int]
ALBUM_VARIANTS: tuple[tuple[Variant, ...], ...] = (
    ((3, 1, 0, 2, None, 0), (3, 2, 1, 1, None, 0), (2, 1, 2, 2, None, 0), (2, 3, 0, 2, 2, 5)),
    ((3, 2, 0, 3, None, 0), (2, 3, 1, 2, None, 0), (2, 4, 2, 3, 0, 10), (2, 5, 0, 2, 1, 10)),
    ((3, 3, 0, 3, None, 0), (2, 5, 1, 4, 2, 18), (2, 6, 2, 3, 0, 18), (2, 8, 0, 4, 1, 18)),
)
BEEF_PER_DECK = 5
# Beef stakes by Album (RG-DATA-BEEF): (plaques, resources in all; the research's 1 / 2 / 3, taken from the
# loser's highest: rules.beef_resources). Version 1 took 1 / 2 / 3 of each resource: README.
BEEF_STAKES = ((2, 1), (4, 2), (6, 3))
# Come Upz (RG-DATA-CARDS): decks of 25 / 20 / 20 (the research's suggestion), about twice an Album card,
# two icons of their colour.
COME_VARIANTS: tuple[tuple[Variant, ...], ...] = (
    ((2, 3, 0, 3, None, 0), (2, 4, 1, 3, None, 0), (1, 5, 2, 4, 1, 8)),
    ((2, 7, 0, 4, None, 0), (2, 8, 1, 5, 2, 12)),
    ((2, 11, 0, 5, None, 0), (2, 13, 1, 6, 2, 22)),
)
# The two real card titles (found: the designer's Medium post) name two Come Upz 2 cards.
REAL_TITLES = {(1, 3, 0): "Protest for Social Justice", (1, 3, 1): "Make a Political Statement"}


def _build_cards() -> list[Card]:
    cards: list[Card] = []
    for d, variants in enumerate(ALBUM_VARIANTS):
        for c in range(NUM_COLOURS):
            for v, (copies, pl, roff, amt, loff, lval) in enumerate(variants):
                lock = None if loff is None else ((c + loff) % NUM_RES, lval)
                cards.append(Card(f"A{d + 1} {COLOURS[c]} {v + 1}", d, False, c, copies, pl,
                                  _gains((c + roff) % NUM_RES, amt), lock, 1))
        pl = BEEF_STAKES[d][0]
        cards.append(Card(f"A{d + 1} Beef!", d, False, NO_COLOUR, BEEF_PER_DECK, pl, (0, 0, 0), None, 0, beef=True))
    for d, variants in enumerate(COME_VARIANTS):
        for c in range(NUM_COLOURS):
            for v, (copies, pl, roff, amt, loff, lval) in enumerate(variants):
                lock = None if loff is None else ((c + loff) % NUM_RES, lval)
                name = REAL_TITLES.get((d, c, v), f"C{d + 1} {COLOURS[c]} {v + 1}")
                source = "found (title); reconstructed (values)" if (d, c, v) in REAL_TITLES else "reconstructed"
                cards.append(Card(name, d, True, c, copies, pl, _gains((c + roff) % NUM_RES, amt), lock, 2, source=source))
    return cards


CARDS: tuple[Card, ...] = tuple(_build_cards())
NUM_PLAY = len(CARDS)  # album and Come Upz kinds
ALBUM_KINDS = [[k for k, c in enumerate(CARDS) if not c.come and c.deck == d] for d in range(ALBUMS)]
COME_KINDS = [[k for k, c in enumerate(CARDS) if c.come and c.deck == d] for d in range(ALBUMS)]
COME_FIRST = min(COME_KINDS[0])  # Come Upz kinds are COME_FIRST .. NUM_PLAY-1
NUM_COME = NUM_PLAY - COME_FIRST
BEEF_KINDS = [k for k, c in enumerate(CARDS) if c.beef]


class Ability:
    """Rapper ability kinds (RG-DATA-RAPPERZ)."""

    HAND6: Final = 0  # hand size 6: dealt 6, draws up to 6 at each Album
    EXTRA_DRAW: Final = 1  # once per Album: draw a card (on your turn)
    BOOST: Final = 2  # +1 of a resource whenever you play a card of your bonus colour
    REROLL: Final = 3  # once per Album: reroll your own Beef dice after a roll
    DISCOUNT: Final = 4  # once per Album, a Come Upz costs 2 cards, not 3 (tuned: always was too strong)


ABILITY_TEXT = (
    "Hand size 6: dealt 6 Album 1 cards, draws up to 6 at each new Album",
    "Once per Album: draw a card from the current Album deck on your turn",
    "+1 {res} whenever you play a {colour} card",
    "Once per Album: reroll your own dice in a Beef after a roll",
    "Once per Album: a Come Upz costs you 2 cards, not 3",
)
ABILITY_NAMES = ("hand size 6", "extra draw", "resource boost", "Beef reroll", "Come Upz discount")
DIFFICULTY = ("Easy", "Medium", "Hard")  # rulebook (diamond, spade, club); RG-RAP-3


@dataclass(frozen=True)
class Rapper:
    name: str
    colour: int  # Card Category Bonus; RG-RAP-4
    ability: int
    difficulty: int
    goal_cards: int  # Rapper Goal: at least this many bonus-colour cards in the timeline; RG-RAP-5
    goal_plaques: int
    boost_res: int  # the resource Ability.BOOST adds
    source: str = "reconstructed"

    @property
    def text(self) -> str:
        return ABILITY_TEXT[self.ability].format(res=RESOURCES[self.boost_res], colour=COLOUR_NAMES[self.colour])


def _build_rapperz() -> list[Rapper]:
    # Difficulty by ability (Easy 9 / Medium 9 / Hard 7, the research's split): hand size 6 and four
    # extra-draw Rapperz Easy; one extra draw, the boosts and three discounts Medium; two discounts and
    # the Beef rerolls Hard. A harder Rapper has a harder, richer goal.
    goal = {0: (4, 5), 1: (5, 8), 2: (6, 10)}
    out = []
    for c in range(NUM_COLOURS):
        for a in range(5):
            if a == Ability.HAND6:
                diff = 0
            elif a == Ability.EXTRA_DRAW:
                diff = 0 if c < 4 else 1
            elif a == Ability.BOOST:
                diff = 1
            elif a == Ability.DISCOUNT:
                diff = 1 if c < 3 else 2
            else:
                diff = 2
            n, pl = goal[diff]
            out.append(Rapper(f"MC {COLOURS[c]}-{a + 1}", c, a, diff, n, pl, c % NUM_RES))
    return out


RAPPERZ: tuple[Rapper, ...] = tuple(_build_rapperz())
NUM_RAPPERZ = len(RAPPERZ)


@dataclass(frozen=True)
class City:
    name: str
    colour: int  # "most <colour> icons"; RG-CITY-1
    start: tuple[int, int, int]  # starting Streetz, Skillz, Swag; RG-SETUP-3
    plaques: int = CITY_PLAQUES
    source: str = "reconstructed"


_PERMS = ((3, 2, 1), (3, 1, 2), (2, 3, 1), (2, 1, 3), (1, 3, 2), (1, 2, 3))


def _build_citiez() -> list[City]:  # RG-DATA-CITIEZ
    out = []
    for c in range(NUM_COLOURS):
        for i in range(5):
            start = _PERMS[(i + c) % 6]
            if (c, i) == (1, 0):
                out.append(City("New Orleans", c, start, source="rulebook (name, Yellow, 10 plaques); reconstructed (resources)"))
            else:
                out.append(City(f"{COLOUR_NAMES[c]} City {i + 1}", c, start))
    return out


CITIEZ: tuple[City, ...] = tuple(_build_citiez())
NUM_CITIEZ = len(CITIEZ)

RAPPER_FIRST = NUM_PLAY
CITY_FIRST = NUM_PLAY + NUM_RAPPERZ
NUM_KINDS = CITY_FIRST + NUM_CITIEZ


class Goal:
    CHAMP: Final = 0  # most Beef cubes (rulebook)
    PLATINUM: Final = 1  # first to 25 plaque points, in-game (rulebook)
    HOMESLICE: Final = 2  # win or tie your Hometown (rulebook)
    TIMELINE: Final = 3  # most cards in the timeline (reconstructed)
    MOGUL: Final = 4  # first to 30 in any resource, in-game (reconstructed)
    COME_UP: Final = 5  # most Come Upz in the timeline (reconstructed)
    PEACE: Final = 6  # fewest Beef cards in the timeline (reconstructed)
    MONO: Final = 7  # most cards of any one colour (reconstructed)


GOALZ = (  # (name, text, in-game, source); every Goal is worth GOAL_PLAQUES; RG-DATA-GOALZ
    ("The Champ", "most Beef cubes at the end", False, "rulebook"),
    ("Platinum!", "first to reach 25 plaques", True, "rulebook"),
    ("Homeslice", "win (or tie) your Hometown", False, "rulebook"),
    ("Timeline", "most cards in your career timeline", False, "reconstructed"),
    ("Mogul", "first to reach 30 in any rap resource", True, "reconstructed"),
    ("Come Up", "most Come Upz in your timeline", False, "reconstructed"),
    ("Peacemaker", "fewest Beef cards in your timeline", False, "reconstructed"),
    ("Monochrome", "most cards of one colour in your timeline", False, "reconstructed"),
)
NUM_GOALZ = len(GOALZ)
PLATINUM_AT = 25  # rulebook
MOGUL_AT = 30

PICKUP_TYPES = ("+1 Card", "+3 Resources", "+2 on Beef")  # rulebook; RG-PICK-2 RG-PICK-3
CARD_PICK, RES_PICK, BEEF_PICK = 0, 1, 2
PICKUP_COPIES = 3  # 9 tokens, 3 of each type (reconstructed)
NUM_PICKUP_SPACES = NUM_RES * len(PICKUP_SPACES)
MAX_SLOTS = MAX_PLAYERS + 1  # face-up Come Upz (found: players + 1)

KIND_NAMES = [c.name for c in CARDS] + [r.name for r in RAPPERZ] + [c.name for c in CITIEZ]
KIND_COPIES = [c.copies for c in CARDS] + [1] * (NUM_RAPPERZ + NUM_CITIEZ)


def deck_size(d: int, come: bool = False) -> int:
    kinds = COME_KINDS[d] if come else ALBUM_KINDS[d]
    return sum(CARDS[k].copies for k in kinds)


def card_text(k: int) -> str:
    """What an Album or Come Upz card does: its colour, plaques, gains and lock, or its Beef stakes."""
    c = CARDS[k]
    if c.beef:
        pl, each = BEEF_STAKES[c.deck]
        return f"Beef! the loser pays {plural(pl, 'plaque')} and {plural(each, 'resource')} (from their highest)"
    gain = ", ".join(f"+{v} {RESOURCES[r]}" for r, v in enumerate(c.gains) if v)
    lock = f", needs {RESOURCES[c.lock[0]]} {c.lock[1]}" if c.lock else ""
    return f"{COLOUR_NAMES[c.colour]}: {plural(c.plaques, 'plaque')}, {gain}{lock}"


def counts_to_string(counts) -> str:
    parts = [f"{KIND_NAMES[k]}" + (f" x{n}" if n > 1 else "") for k, n in enumerate(counts) if n]
    return ", ".join(parts) if parts else "-"
