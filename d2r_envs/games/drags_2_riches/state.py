"""Drags 2 Riches state: plain data, changed in place by rules.Game.

Card piles are counts per card kind (cards.KINDS), each a bytearray (a count never passes 255, and
a bytearray copies into the observation in one step). A Wardrobe or the draw pile is shuffled, so
only its contents matter and every draw is an explicit chance event: each is a core `Deck`, which
keeps its size (`n`) and its cards in kind order in step with its counts.

`tell` is no part of the state: the sink the rules tell what happens to (facts.py) while a copy is
narrated, None otherwise; it is not compared, and a clone starts without one (core.events.sink).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from d2r_envs.core.events import sink
from d2r_envs.core.zones import Deck, Held, Pile, Zones
from d2r_envs.games.drags_2_riches import cards as C


class Phase:
    """The phases of play (State.phase holds one): plain int constants rather than an IntEnum, as the
    rules compare them at every step."""

    FIRST_PLAYER: Final = 0  # chance: who holds the First Player token; D2R-SETUP-5
    CHARACTERS: Final = 1  # decision: choose a Character (optional rule); D2R-OPT-CHAR
    REVEAL: Final = 2  # chance: the round's Event card; D2R-ROUND-1
    DEAL: Final = 3  # chance: the first hands; D2R-ROUND-2
    PLAY: Final = 4  # decision: Playing Phase (in the Sell-Out Tour also buying); D2R-DECIDE-SELLOUT
    WERK: Final = 5  # decision: buy Market cards; D2R-WERK-5
    CARD: Final = 6  # decision inside a card or Character action (see Ask)
    REACT: Final = 7  # decision: the target of a Shade may block or reverse it; D2R-SHADE-2 D2R-SHADE-5
    UNTUCK: Final = 8  # chance: draws back to 5, then reversed Shade waiting for this hand; D2R-UNTUCK-2 D2R-SHADE-6
    LAST_MINUTE: Final = 9  # decision: Last Minute Additions (optional rule); D2R-OPT-LMA
    THUMBS: Final = 10  # decision: thumbs up or down, hidden until everyone has chosen; D2R-EVENT-2
    JUDGE: Final = 11  # decision: Category Is, the first player picks among tied Looks; D2R-OPT-CATEGORY
    OVER: Final = 12


NUM_PHASES = Phase.OVER + 1


class Ask:
    """What a card or Character action waits for (Phase.CARD): plain int constants, as Phase."""

    NONE: Final = 0
    SHADE_TARGET: Final = 1  # the player a Shade card targets
    BORROW: Final = 2  # a card of the peeked hand to borrow
    RETURN: Final = 3  # a Floordrobe card to return to the hand
    LEND_CARD: Final = 4  # a hand card to lend
    LEND_TARGET: Final = 5  # the player who receives it
    TRASH: Final = 6  # a Floordrobe card to trash (Bi Felicia)
    TAKE: Final = 7  # the highest value Market card to take (Catastrophoebe, when kinds tie)
    KENYA_TYPE: Final = 8  # the Look type worth 0 to the others (Kenya Feelit)
    SHESSICA_TYPE: Final = 9  # the Look type to double (Shessica)
    SHESSICA_TARGET: Final = 10  # the other player whose type doubles too


NUM_ASKS = Ask.SHESSICA_TARGET + 1
ASK_WORDS = {value: name.lower().replace("_", " ") for name, value in vars(Ask).items() if name.isupper()}


class Task:
    """Chance events waiting in `State.chance` (the seat is the second item): plain int constants, as Phase."""

    DRAW: Final = 0  # the seat draws from their Wardrobe (Dry Cleaning first if it is empty); D2R-GLOSS-DRAW
    MARKET: Final = 1  # refill one Market space from the draw pile; D2R-WERK-3
    DISCARD: Final = 2  # the seat discards a card from the hand at random; D2R-GLOSS-DISCARD


@dataclass(slots=True)
class State:
    num_players: int
    hands: list[bytearray]  # per seat, counts per kind (hidden from others); D2R-HIDDEN-1
    wardrobes: list[Deck]  # per seat, face-down deck (hidden, order random); D2R-HIDDEN-1
    floors: list[bytearray]  # per seat, the Floordrobe, face up; D2R-GLOSS-FLOOR
    active: list[bytearray]  # per seat, cards activated this turn, face up
    looks: list[list[int]]  # per seat, kind worn in each Look slot, -1 empty (face down); D2R-PLAY-3
    market: bytearray  # counts per kind, face up
    pile: Deck  # the Market draw pile, face down
    trash: bytearray  # trashed cards, out of the game; D2R-GLOSS-TRASH
    box: bytearray  # starting cards not used with fewer than 5 players; D2R-SETUP-1
    decks: list[list[int]]  # regular events left in decks I, II, III
    stages: list[int]  # the decks in play, top first (the intro game uses I and II); D2R-SETUP-4
    stage: int = 0  # index into stages of the deck the next event comes from
    phase: int = Phase.FIRST_PLAYER
    ask: int = Ask.NONE
    chance: list[tuple[int, int]] = field(default_factory=list)  # (Task, seat), first due first
    first: int = -1  # holder of the First Player token
    turn: int = -1  # whose turn it is
    actor: int = -1  # who decides now
    round: int = 0
    event: int = -1  # the current Event card
    won: list[list[int]] = field(default_factory=list)  # events each seat won (face down, seen won)
    gone: list[int] = field(default_factory=list)  # events trashed (nobody competed) or discarded (sprees)
    coins: int = 0  # coins left to spend this turn
    bought: bool = False  # a card was bought (or thrifted) this turn
    thrifted: bool = False
    card: int = -1  # the kind being resolved, -1 for a Character action
    target: int = -1  # the target of the Shade / the Lend
    victim: int = -1  # whose hand a Borrow takes from
    picked: int = -1  # the card chosen to lend
    left: int = 0  # choices still to make (Bi Felicia's trash)
    chosen_type: int = -1  # Shessica's type
    home: int = Phase.PLAY  # where a card's resolution returns to
    pending: list[list[tuple[int, int]]] = field(default_factory=list)  # per seat: reversed Shade (op, beneficiary) waiting for a new hand
    peek: list[int] = field(default_factory=list)  # per seat: the seat whose hand it saw, while that hand is unchanged
    peek_hand: list[bytearray] = field(default_factory=list)  # per seat: what the Peek showed (kept in step)
    characters: list[int] = field(default_factory=list)  # per seat, -1 none
    used: list[bool] = field(default_factory=list)  # per seat: the Character action was used
    bonus: list[int] = field(default_factory=list)  # this round: flat Look bonus (Deathdrop Diva)
    ho: list[bool] = field(default_factory=list)  # this round: +1 per Look card (Glamazon)
    zeroed: list[int] = field(default_factory=list)  # this round: bitmask of types worth 0 (Sickening)
    doubled: list[int] = field(default_factory=list)  # this round: bitmask of types doubled (Drag Mother)
    thumbs: list[int] = field(default_factory=list)  # this Event Phase: -1 undeclared, else the thumbs choice
    last_values: list[int] = field(default_factory=list)  # Look values revealed at the last Event Phase, -1 not revealed
    winners: list[int] = field(default_factory=list)
    # Kept in step with the events won and the Looks (rules.recount rebuilds them after editing by hand).
    prestige: list[int] = field(default_factory=list)  # per seat, from the events won
    worn: list[int] = field(default_factory=list)  # per seat, bitmask of the filled Look slots
    tell: Callable[[Any], None] | None = sink()  # while narrated: where the rules tell what happens


# Where the cards are (core/zones.py): the census comes from this. Each seat's hand, Wardrobe and Look
# are known to the others together, not one by one, so rules.Game.redeterminise is this game's own.
ZONES = Zones(
    [kind.name for kind in C.KINDS],
    [kind.copies for kind in C.KINDS],
    Pile("hands", per_seat=True, seen_by="owner"),  # D2R-HIDDEN-1
    Pile("wardrobes", per_seat=True, seen_by="owner"),
    Held("looks", per_seat=True, seen_by="owner"),
    Pile("floors", per_seat=True),
    Pile("active", per_seat=True),
    Pile("market"),
    Pile("pile", seen_by="nobody"),
    Pile("trash"),
    Pile("box", seen_by="nobody"),
)
