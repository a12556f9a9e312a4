"""Draco & Co components as data (DRACO-COMP-1): colours, characters and the 74 action cards.

Provenance of each card: "rulebook" (named in our rulebook), "found" (an effect public sources
report, see shared/research/facts_filthy_rich_draco.md) or "reconstructed" (designed here).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

MIN_PLAYERS = 3
MAX_PLAYERS = 6
HAND_SIZE = 5  # DRACO-SETUP-4
START_MONEY = 3  # one gold coin, counted in silver (1 gold = 3 silver) (DRACO-SETUP-5, DRACO-WEALTH-2)
SILVER_COINS = 20  # DRACO-COMP-1
GOLD_COINS = 25
DIE_SIDES = 6
TOAST_GAINS = (4, 3, 2, 1)  # first four places (DRACO-TOAST-2)
TOAST_CHARGES = (2, 1)  # last place, second-to-last place (DRACO-TOAST-3)

# Seat i plays colour COLOURS[i]; the rulebook fixes the colours per player count. (DRACO-SETUP-1)
COLOURS = ("green", "purple", "yellow", "red", "blue", "black")


class Class(enum.IntEnum):
    AMAZON = 0
    GOBLIN = 1
    ROGUE = 2
    DWARF = 3
    AUNT_SARAH = 4
    BROTHER_JOHN = 5
    ZORK = 6


# The two player characters of each colour (found: German Wikipedia, see research notes): DRACO-CARD-CLASSES.
COLOUR_CLASSES = (
    (Class.GOBLIN, Class.DWARF),  # green
    (Class.GOBLIN, Class.ROGUE),  # purple
    (Class.AMAZON, Class.ROGUE),  # yellow
    (Class.AMAZON, Class.DWARF),  # red
    (Class.ROGUE, Class.DWARF),  # blue
    (Class.AMAZON, Class.GOBLIN),  # black
)

# Character ids: 2 * colour + k for player characters, then the three specials.
AUNT_SARAH = 12
BROTHER_JOHN = 13
ZORK = 14
NUM_CHARACTERS = 15  # DRACO-COMP-1: 12 player characters + 3 specials
SPECIALS = (AUNT_SARAH, BROTHER_JOHN, ZORK)
CHARACTER_CLASS = tuple(COLOUR_CLASSES[c // 2][c % 2] for c in range(12)) + (
    Class.AUNT_SARAH,
    Class.BROTHER_JOHN,
    Class.ZORK,
)


def character_name(c: int) -> str:
    if c == AUNT_SARAH:
        return "Aunt Sarah"
    if c == BROTHER_JOHN:
        return "Brother John"
    if c == ZORK:
        return "Zork"
    return f"{COLOURS[c // 2]} {CHARACTER_CLASS[c].name.lower()}"


class Op(enum.Enum):
    """What a card step does; rules.py implements each."""

    MOVE = "move"  # choose a character (who), move it `amount` places (+ forward, - backward)
    MOVE_DIE = "move_die"  # choose a character, roll the die, move it that far (sign of amount)
    MOVE_GROUP = "move_group"  # every character of `group` moves `amount`; the player orders them
    SWAP = "swap"  # choose a character (who) and another (who2); they exchange places
    DRACO_FLIP = "draco_flip"  # Draco passes the cup to his other hand: the order reverses
    DRACO_MOVE = "draco_move"  # Draco moves `amount` places in a direction the player picks
    STEAL = "steal"  # take `amount` silver from a player of your choice (what they can pay)
    GAIN = "gain"  # take `amount` silver from the bank
    PAY = "pay"  # pay `amount` silver to the bank (what you can)
    GAMBLE = "gamble"  # roll the die: 1-3 pay 1 silver to the bank, 4-6 take 2 from it
    DRAW = "draw"  # draw `amount` action cards
    OLD_FRIENDSHIP = "old_friendship"  # Aunt Sarah becomes your player character
    SHUFFLE_ALL = "shuffle_all"  # all characters but Draco are shuffled and laid out again
    MONTE = "monte"  # choose three characters; they are shuffled among their three places
    REARRANGE_SPECIALS = "rearrange_specials"  # place the three specials in their places as you like


class Who(enum.Enum):
    """Which characters a step may choose."""

    OWN = "own"  # a character you control (DRACO-CHAR-2)
    OWN_OTHER = "own_other"  # a character you control, not the one chosen by the previous step
    ANY = "any"  # any character (never Draco) (DRACO-CHAR-1)
    ANY_OTHER = "any_other"  # any character but the one chosen before on this card


class Group(enum.Enum):
    OWN = "own"  # all the characters you control
    TOP4 = "top4"  # the characters in the first four places
    AMAZON = "amazon"
    GOBLIN = "goblin"
    ROGUE = "rogue"
    DWARF = "dwarf"


GROUP_CLASS = {Group.AMAZON: Class.AMAZON, Group.GOBLIN: Class.GOBLIN, Group.ROGUE: Class.ROGUE, Group.DWARF: Class.DWARF}


@dataclass(frozen=True)
class Step:
    op: Op
    amount: int = 0
    who: Who | None = None
    who2: Who | None = None
    group: Group | None = None


@dataclass(frozen=True)
class CardKind:
    name: str
    copies: int
    steps: tuple[Step, ...]
    text: str
    provenance: str  # "rulebook" | "found" | "reconstructed"
    dragon: bool = False  # the dragon symbol: only these cards affect Draco (DRACO-PLAY-2)


def _card(name, copies, text, provenance, *steps, dragon=False) -> CardKind:
    return CardKind(name, copies, tuple(steps), text, provenance, dragon)


M, MD, MG, SW = Op.MOVE, Op.MOVE_DIE, Op.MOVE_GROUP, Op.SWAP

CATALOGUE: tuple[CardKind, ...] = (  # DRACO-CARD-CATALOGUE
    # Single-character movement: the bulk of the deck ("movement dominates").
    _card("Step Forward", 5, "Move one of your characters 1 place forward.", "reconstructed", Step(M, 1, Who.OWN)),
    _card("Elbow Through", 4, "Move one of your characters 2 places forward.", "reconstructed", Step(M, 2, Who.OWN)),
    _card("Push Ahead", 3, "Move one of your characters 3 places forward.", "reconstructed", Step(M, 3, Who.OWN)),
    _card("Sprint", 3, "Choose one of your characters, roll the die and move it that many places forward.",
          "reconstructed", Step(MD, 1, Who.OWN)),
    _card("Backstab", 3, "Move any character 1 place backward.", "reconstructed", Step(M, -1, Who.ANY)),
    _card("Shove", 4, "Move any character 2 places backward.", "reconstructed", Step(M, -2, Who.ANY)),
    _card("Kick Out", 3, "Move any character 3 places backward.", "reconstructed", Step(M, -3, Who.ANY)),
    _card("Tumble", 3, "Choose any character, roll the die and move it that many places backward.",
          "reconstructed", Step(MD, -1, Who.ANY)),
    _card("Good Word", 2, "Move any character 2 places forward.", "reconstructed", Step(M, 2, Who.ANY)),
    # Two characters.
    _card("Ambition", 2, "Move one of your characters 4 places forward and your other character 3 places backward.",
          "found", Step(M, 4, Who.OWN), Step(M, -3, Who.OWN_OTHER)),
    _card("Brawl", 3, "Move one character 2 places forward and another 2 places backward.",
          "reconstructed", Step(M, 2, Who.ANY), Step(M, -2, Who.ANY_OTHER)),
    _card("Double Step", 3, "Move each of your characters 2 places forward, in the order you choose.",
          "reconstructed", Step(MG, 2, group=Group.OWN)),
    _card("Wine Shortage", 2, "Each character in the first four places moves 1 place backward, in the order you choose.",
          "reconstructed", Step(MG, -1, group=Group.TOP4)),
    # Swaps and permutations.
    _card("Change Places", 3, "One of your characters exchanges places with another character.",
          "reconstructed", Step(SW, who=Who.OWN, who2=Who.ANY_OTHER)),
    _card("Switcheroo", 2, "Two characters of your choice exchange places.",
          "reconstructed", Step(SW, who=Who.ANY, who2=Who.ANY_OTHER)),
    _card("Family Reunion", 1, "Rearrange Brother John, Zork and Aunt Sarah among their places as you like.",
          "found", Step(Op.REARRANGE_SPECIALS)),
    _card("Three-Card Monte", 1, "Choose three characters; they are shuffled and laid back in their three places.",
          "found", Step(Op.MONTE)),
    _card("Musical Chairs", 1, "All characters except Draco are shuffled and laid out again after him.",
          "found", Step(Op.SHUFFLE_ALL)),
    # Classes.
    _card("Amazons Advance", 1, "Every amazon moves 1 place forward, in the order you choose.", "reconstructed",
          Step(MG, 1, group=Group.AMAZON)),
    _card("Goblins Advance", 1, "Every goblin moves 1 place forward, in the order you choose.", "reconstructed",
          Step(MG, 1, group=Group.GOBLIN)),
    _card("Rogues Advance", 1, "Every rogue moves 1 place forward, in the order you choose.", "reconstructed",
          Step(MG, 1, group=Group.ROGUE)),
    _card("Dwarves Advance", 1, "Every dwarf moves 1 place forward, in the order you choose.", "reconstructed",
          Step(MG, 1, group=Group.DWARF)),
    _card("Amazons Retreat", 1, "Every amazon moves 1 place backward, in the order you choose.", "reconstructed",
          Step(MG, -1, group=Group.AMAZON)),
    _card("Goblins Retreat", 1, "Every goblin moves 1 place backward, in the order you choose.", "reconstructed",
          Step(MG, -1, group=Group.GOBLIN)),
    _card("Rogues Retreat", 1, "Every rogue moves 1 place backward, in the order you choose.", "reconstructed",
          Step(MG, -1, group=Group.ROGUE)),
    _card("Dwarves Retreat", 1, "Every dwarf moves 1 place backward, in the order you choose.", "reconstructed",
          Step(MG, -1, group=Group.DWARF)),
    # Dragon-symbol cards: the only ones that affect Draco. (DRACO-PLAY-2)
    _card("Draco Changes Hands", 3, "Draco passes the cup to his other hand: the first become the last.",
          "found", Step(Op.DRACO_FLIP), dragon=True),
    _card("Draco Stretches", 2, "Move Draco 1 place in the direction of your choice.",
          "reconstructed", Step(Op.DRACO_MOVE, 1), dragon=True),
    _card("Draco Wanders", 1, "Move Draco 2 places in the direction of your choice.",
          "reconstructed", Step(Op.DRACO_MOVE, 2), dragon=True),
    # Money.
    _card("Pickpocket", 3, "Take 1 silver from the player of your choice.", "found", Step(Op.STEAL, 1)),
    _card("Dice Game", 2, "Roll the die: on 1-3 pay 1 silver to the bank, on 4-6 take 2 silver from the bank.",
          "reconstructed", Step(Op.GAMBLE)),
    _card("Tavern Tip", 1, "Take 1 silver from the bank.", "reconstructed", Step(Op.GAIN, 1)),
    _card("Bribe the Guard", 2, "Pay 1 silver to the bank, then move one of your characters 3 places forward.",
          "reconstructed", Step(Op.PAY, 1), Step(M, 3, Who.OWN)),
    # Hands.
    _card("Gossip", 2, "Draw 2 action cards.", "reconstructed", Step(Op.DRAW, 2)),
    _card("Rumour Mill", 1, "Draw 1 action card, then move any character 1 place backward.",
          "reconstructed", Step(Op.DRAW, 1), Step(M, -1, Who.ANY)),
    _card("Old Friendship", 1, "Aunt Sarah becomes one of your player characters.", "rulebook",
          Step(Op.OLD_FRIENDSHIP)),
)

NUM_KINDS = len(CATALOGUE)
KIND = {c.name: i for i, c in enumerate(CATALOGUE)}  # kind id == index; never re-sort
DECK_SIZE = sum(c.copies for c in CATALOGUE)  # 74 (DRACO-COMP-1)
MAX_STEPS = max(len(c.steps) for c in CATALOGUE)


def hand_to_string(hand: list[int]) -> str:
    """'Shove x2, Gossip' for a hand kept as counts per kind."""
    return ", ".join(CATALOGUE[k].name + (f" x{c}" if c > 1 else "") for k, c in enumerate(hand) if c) or "-"
