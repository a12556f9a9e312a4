"""Extravaganza components as data, each entry marked with its provenance.

"rulebook": ../shared/rulebooks/extravaganza.txt; "found": public sources
(../shared/research/facts_d2r_extravaganza_rapgodz.md section 2); "reconstructed": designed here where
the rulebook and the sources give nothing (the game README, "Deviations and reconstructions", says why).
Nothing here imports the rules.
"""

from __future__ import annotations

import re

from d2r_envs.core.words import indefinite

MIN_PLAYERS = 2
MAX_PLAYERS = 4

# Colours (EX-DATA-COLOURS: inferred from the rulebook's examples; the order is ours).
COLOURS = ("purple", "orange", "blue", "green", "yellow")
COLOUR_LETTERS = "POBGY"
NUM_COLOURS = 5
GREEN = 3  # Green Screen Queen's colour (EX-QUEEN-GREEN)
STONES_PER_COLOUR = 10  # 50 rhinestones (EX-COMP-1, rulebook); 10 a colour (EX-DATA-COLOURS)
NUM_STONES = NUM_COLOURS * STONES_PER_COLOUR
NUM_LIPS = 40  # EX-COMP-1 (rulebook)
NUM_TENS = 20  # EX-COMP-1 (rulebook); n per judge are used (EX-TEN-1)
NUM_QUEENS = 8

# Categories (EX-COMP-1, rulebook: ten categories of 15 cards, 3 moves x 5 colours).
CATEGORIES = ("Booty", "Runway", "Eleganza", "Floorwerk", "Handwerk", "Lyricism", "Shawam", "Shade", "Tuck", "Twirls")
NUM_CATEGORIES = 10
BOOTY, RUNWAY, ELEGANZA, FLOORWERK, HANDWERK, LYRICISM, SHAWAM, SHADE, TUCK, TWIRLS = range(10)
MOVES_PER_CATEGORY = 3
NUM_CARDS = NUM_CATEGORIES * MOVES_PER_CATEGORY * NUM_COLOURS  # 150
CARDS_PER_CATEGORY = MOVES_PER_CATEGORY * NUM_COLOURS  # 15
MAX_STARS = 3
CATEGORY_CAP = 40  # EX-DANCE-6 (rulebook)

# Move names (EX-DATA-CARDS): Booty's three and Runway's "Sissy that Walk" are the rulebook's; the
# rest are placeholders, not invented titles.
_MOVE_NAMES = {
    (BOOTY, 0): ("Dump It", "rulebook"),
    (BOOTY, 1): ("Twerk", "rulebook"),
    (BOOTY, 2): ("Eternity Jiggle", "rulebook"),
    (RUNWAY, 1): ("Sissy that Walk", "rulebook name; its slot (move II) reconstructed"),
}


def card_id(category: int, move: int, colour: int) -> int:
    return (category * MOVES_PER_CATEGORY + move) * NUM_COLOURS + colour


def card_category(k: int) -> int:
    return k // CARDS_PER_CATEGORY


def card_move(k: int) -> int:
    return (k // NUM_COLOURS) % MOVES_PER_CATEGORY


def card_colour(k: int) -> int:
    return k % NUM_COLOURS


def card_max_stars(k: int) -> int:
    """Move I: 1 star, II: up to 2, III: up to 3 (EX-DATA-CARDS: Booty's pattern, rulebook Example D)."""
    return card_move(k) + 1


def move_name(category: int, move: int) -> str:
    named = _MOVE_NAMES.get((category, move))
    return named[0] if named else f"{CATEGORIES[category]} {'I' * (move + 1) if move < 3 else move}"


def card_name(k: int) -> str:
    return f"{move_name(card_category(k), card_move(k))} ({COLOURS[card_colour(k)]})"


def card_source(k: int) -> str:
    named = _MOVE_NAMES.get((card_category(k), card_move(k)))
    return named[1] if named else "reconstructed"


CARD_CATEGORY = tuple(card_category(k) for k in range(NUM_CARDS))
CARD_COLOUR = tuple(card_colour(k) for k in range(NUM_CARDS))
CARD_STARS = tuple(card_max_stars(k) for k in range(NUM_CARDS))  # printed stars = max stars (EX-DATA-CARDS)
CARD_NAMES = tuple(card_name(k) for k in range(NUM_CARDS))


def category_cards(category: int) -> range:
    start = category * CARDS_PER_CATEGORY
    return range(start, start + CARDS_PER_CATEGORY)


# Judges (EX-FINAL-5, rulebook): left to right, points per desire token; names by listing order (EX-DATA-JUDGES).
NUM_JUDGES = 5
JUDGES = ("Sultan Pepper", "Alice Jolie", "Francis Labelle", "Madame Mystique", "Wilmina Grace")
JUDGE_ROLES = ("guest", "recurring", "head", "recurring", "guest")
JUDGE_POINTS = (3, 4, 5, 4, 3)

# Lyric tokens (EX-DATA-LYRICS, reconstructed): 5 colours x words {1,2,3,3,4,5}; cost = stars = words.
LYRIC_WORDS = (1, 2, 3, 3, 4, 5)
NUM_LYRICS = NUM_COLOURS * len(LYRIC_WORDS)  # 30 (EX-COMP-1)
LYRIC_COLOUR = tuple(t // len(LYRIC_WORDS) for t in range(NUM_LYRICS))
LYRIC_STARS = tuple(LYRIC_WORDS[t % len(LYRIC_WORDS)] for t in range(NUM_LYRICS))
SONG_LENGTH = {2: 12, 3: 18, 4: 24}  # EX-SETUP-3 (rulebook)
MAX_SONG = 24
EARLY_FLAG = {2: 10, 3: 15, 4: 20}  # EX-DATA-FLAGS: the "early" flag option (reconstructed)
LYRIC_DIVERSITY = (0, 1, 3, 6, 10, 15)  # EX-FINAL-2 (rulebook)


def lyric_name(t: int) -> str:
    return f"{COLOURS[LYRIC_COLOUR[t]]} {LYRIC_STARS[t]}-word lyric"


# Stage layouts (EX-DATA-STAGE, reconstructed): rows of area letters; every area 5 spaces.
STAGES = {
    "pinwheel": ("PPPOO", "PPBOO", "YBBBO", "YYBGG", "YYGGG"),
    "bands": ("PPPPP", "OOOOO", "BBBBB", "GGGGG", "YYYYY"),
}
SIDE = 5
NUM_SPACES = SIDE * SIDE


def stage_areas(name: str) -> tuple[int, ...]:
    """The area colour of each space (reading order), after checking the layout."""
    rows = STAGES[name]
    if len(rows) != SIDE or any(len(r) != SIDE for r in rows):
        raise ValueError(f"stage {name!r} is not {SIDE}x{SIDE}")
    areas = tuple(COLOUR_LETTERS.index(ch) for r in rows for ch in r)
    if any(areas.count(c) != NUM_COLOURS for c in range(NUM_COLOURS)):
        raise ValueError(f"stage {name!r}: every colour area must have 5 spaces")
    return areas


def space_name(sp: int) -> str:
    return f"{'abcde'[sp % SIDE]}{sp // SIDE + 1}"


def nearby(sp: int) -> tuple[int, ...]:
    """The up to 8 spaces around `sp` (EX-NEARBY-1)."""
    r, c = divmod(sp, SIDE)
    return tuple(
        (r + dr) * SIDE + c + dc
        for dr in (-1, 0, 1) for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < SIDE and 0 <= c + dc < SIDE
    )


NEARBY = tuple(nearby(sp) for sp in range(NUM_SPACES))
DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def rays(sp: int) -> tuple[tuple[int, ...], ...]:
    """The spaces in each of 8 straight lines from `sp`, nearest first (EX-MOVE-1)."""
    r, c = divmod(sp, SIDE)
    out = []
    for dr, dc in DIRECTIONS:
        line = []
        rr, cc = r + dr, c + dc
        while 0 <= rr < SIDE and 0 <= cc < SIDE:
            line.append(rr * SIDE + cc)
            rr, cc = rr + dr, cc + dc
        out.append(tuple(line))
    return tuple(out)


RAYS = tuple(rays(sp) for sp in range(NUM_SPACES))


def _beyond(start: int, x: int) -> frozenset[int]:
    """The destinations from `start` whose line passes over space `x` (a queen there is passed)."""
    for ray in RAYS[start]:
        if x in ray:
            return frozenset(ray[ray.index(x) + 1:])
    return frozenset()


# Per start space: every space a queen's move may end on, ascending (EX-MOVE-1); per space on the
# way, the destinations whose line passes over it (EX-MOVE-2); per destination, the spaces passed.
MOVE_DESTS = tuple(tuple(sorted(sp for ray in RAYS[s] for sp in ray)) for s in range(NUM_SPACES))
MOVE_BEYOND = tuple(tuple(_beyond(s, x) for x in range(NUM_SPACES)) for s in range(NUM_SPACES))
MOVE_PATH = tuple({sp: ray[:i] for ray in RAYS[s] for i, sp in enumerate(ray)} for s in range(NUM_SPACES))

# Queens (rulebook: names and powers; EX-QUEEN-*).
QUEENS = ("Jen Ga", "Savannah Wonders", "Lana Candy", "Ella Grande", "Modern Tart", "Victoria Pointe",
          "Kiki Flowers", "Anne Demic")
POWERS = ("Tuckingham Palace", "Cunning Linguist", "Cherry on Top", "Body Oddy", "Green Screen Queen",
          "Pirouette", "Stage Presence", "Blood Sucker")
JEN, SAVANNAH, LANA, ELLA, TART, VICTORIA, KIKI, ANNE = range(8)

# Desire tokens (EX-DATA-DESIRES, reconstructed): 6 rulebook types x 5 colours x 2 copies = 60.
DESIRE_TYPES = (
    "spend an actual {c} rhinestone on a dance move",
    "play a {c} dance move card",
    "dance in the {c} stage area",
    "spend a discarded {c} card",
    "spend an actual {c} rhinestone AND dance in the {c} area",
    "spend a discarded {c} card AND play a {c} dance move",
)
NUM_DESIRE_KINDS = len(DESIRE_TYPES) * NUM_COLOURS  # kind = type * 5 + colour
DESIRE_COPIES = 2
NUM_DESIRES = NUM_DESIRE_KINDS * DESIRE_COPIES  # 60 (EX-COMP-1)


def _coloured(template: str, c: int) -> str:
    """A card's text template with its colour in place ("a {c}" reads "an orange" where it must)."""
    return re.sub(r"\ban? \{c\}", indefinite(COLOURS[c]), template).format(c=COLOURS[c])


def desire_text(d: int) -> str:
    """What a judge's desire card asks for."""
    return _coloured(DESIRE_TYPES[d // NUM_COLOURS], d % NUM_COLOURS)


# Reveal cards (EX-DATA-REVEALS, reconstructed): 6 rulebook condition types x 4 reward kinds = 24,
# id = condition * 4 + reward, colour round robin (id % 5: 5/5/5/5/4).
REVEAL_CONDITIONS = (
    "play a {c} dance move within the {c} stage area",
    "spend a discarded {c} card AND dance in the {c} area",
    "move 3+ spaces and land on a {c} stage space",
    "spend an actual {c} rhinestone AND play a {c} dance move",
    "spend an actual {c} rhinestone AND a discarded {c} card",
    "move 3+ spaces and land on a {c} rhinestone",
)
REWARDS = ("Beat Your Face", "Rhinestone Rain", "Strut", "Sparkle")
REWARD_TEXT = (
    "take N lips",  # "Beat Your Face": the rulebook's Example H (found name)
    "draw N random rhinestones from the bag",
    "N extra spaces moved this turn (they count for Runway)",
    "bedazzle up to N empty nearby spaces",
)
LIPS_REWARD, STONES_REWARD, STRUT_REWARD, SPARKLE_REWARD = range(4)
NUM_REVEALS = len(REVEAL_CONDITIONS) * len(REWARDS)  # 24 (EX-COMP-1)
REVEALS_EACH = 3  # EX-TEN-1 (rulebook)
REVEAL_CONDITION = tuple(r // len(REWARDS) for r in range(NUM_REVEALS))
REVEAL_REWARD = tuple(r % len(REWARDS) for r in range(NUM_REVEALS))
REVEAL_COLOUR = tuple(r % NUM_COLOURS for r in range(NUM_REVEALS))


def reveal_name(r: int) -> str:
    return f"{REWARDS[REVEAL_REWARD[r]]} ({COLOURS[REVEAL_COLOUR[r]]}, #{r})"


def reveal_text(r: int) -> str:
    """What a reveal card asks for and gives."""
    cond = _coloured(REVEAL_CONDITIONS[REVEAL_CONDITION[r]], REVEAL_COLOUR[r])
    return f"if you {cond} this turn: {REWARD_TEXT[REVEAL_REWARD[r]]} (N = categories you have 10'd)"


# Levels (EX-LEVEL-1, our decision: the rulebook names the levels, not their modules).
LEVELS = {
    "basic": (False, False, False),
    "fierce": (True, False, False),
    "sickening": (True, True, False),
    "legendary": (True, True, True),
}  # (queen_powers, judge_desires, tens_and_reveals)

# The category rules as printed (rulebook), for texts.
CARDS_RULE = (
    "Booty: per rhinestone in your supply, plus nearby queens' if they have fewer",
    "Runway: per space moved this turn, each queen moved through counting 2 more",
    "Eleganza: per spent rhinestone of one colour, then they go back in the bag",
    "Floorwerk: bedazzle nearby, then per stage rhinestone of one colour",
    "Handwerk: reveal up to 3 cards, nearby queens 1 each; per star on them",
    "Lyricism: per word of the current lyric and per colour among your lyrics",
    "Shawam: per empty stage space, then bedazzle the whole stage",
    "Shade: discard 3 display cards; per star on them",
    "Tuck: per played card (this one too), plus nearby queens' if they have fewer",
    "Twirls: per rhinestone colour nearby and per colour in your supply",
)
