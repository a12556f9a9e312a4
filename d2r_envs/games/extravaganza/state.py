"""Extravaganza state: plain data, changed in place by rules.Game.

What happens next is a queue of pending steps, `todo` (`Step`s of the kinds in `Op`): chance events (a draw
from the bag, a deck flip), decisions (the move, a half of a payment) and automatic steps (scoring,
the end of the turn). The rules pop the front step when it is done and push the steps it causes to
the front, so a turn reads as the queue it was given at its start (EX-TURN-1).

`tell` is no part of the state: the sink the rules tell what happens to (facts.py) while a copy is
narrated, None otherwise; it is not compared, and a clone starts without one (core.events.sink).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

from d2r_envs.core.events import sink
from d2r_envs.core.zones import Deck, Held, Pile, Zones
from d2r_envs.games.extravaganza import cards as C


class Op:
    """The kinds of step, by code (a step's code is one of these ints; `op_name` names it). Plain int
    constants rather than an enum: the rules compare the step at the front with them at every step."""

    # chance
    CATEGORY: Final = 0  # arg: judge
    FLIP: Final = 1  # arg: judge (its deck's next card to the display)
    LYRIC: Final = 2  # arg: song slot
    FILL: Final = 3  # arg: space (a random rhinestone from the bag)
    FIRST: Final = 4
    QUEEN_DEAL: Final = 5  # arg: seat
    GIFT: Final = 6  # arg: seat (a random rhinestone from the bag into the seat's supply)
    REVEAL_DEAL: Final = 7  # arg: seat
    DESIRE_DEAL: Final = 8  # arg: judge
    # decisions
    DRAFT: Final = 10  # arg: seat
    PLACE: Final = 11  # arg: seat
    SETUP_DRAW: Final = 12  # arg: seat
    PIROUETTE: Final = 13
    MOVE: Final = 14
    PAY_QUEEN: Final = 15  # arg: the seat passed
    GREEN_LAND: Final = 16
    BODY_ODDY: Final = 17
    DRAW: Final = 18
    DANCE: Final = 19
    STARS: Final = 20
    HALF: Final = 21
    ELEGANZA: Final = 22
    FLOORWERK: Final = 23
    SHOW_SELF: Final = 24
    SHOW_OTHER: Final = 25  # arg: the nearby seat revealing
    SHADE: Final = 26
    LIP_SYNC: Final = 27
    BLOOD: Final = 28
    END_REVEAL: Final = 29
    # automatic
    SETUP: Final = 40  # after the first player: queens, starting resources, placement
    LIP: Final = 41  # arg: seat (a lip from the supply: the 3rd and 4th players' start)
    START_TURN: Final = 42
    COLLECT: Final = 43  # landing: take the rhinestone and those of its colour passed
    SCORE_DANCE: Final = 44
    SCORE_LYRICS: Final = 45
    END_TURN: Final = 46
    SHOWN_BY_OTHERS: Final = 47  # Handwerk: queue each nearby queen's reveal
    CLEAR_BEDAZZLED: Final = 48


_OP_NAMES = {code: name for name, code in vars(Op).items() if name.isupper()}


def op_name(code: int) -> str:
    """The step kind's name in Op, e.g. "SHOW_OTHER"."""
    return _OP_NAMES[code]


CHANCE_OPS = frozenset(range(0, 10))
DECISION_OPS = frozenset(range(10, 40))


class Step(NamedTuple):
    """A pending step: its kind and what it is about (a seat, a judge, a space, a song slot; 0 if none)."""

    op: int  # an Op
    arg: int = 0


@dataclass(slots=True)
class State:
    num_players: int
    cats: list[int]  # per judge, its category (-1 before drawn) (EX-SETUP-1)
    decks: list[Deck]  # per judge, the face-down deck: counts per card id (EX-SETUP-2)
    display: list[int]  # per judge, the face-up card (-1: none) (EX-SETUP-2)
    box: bytearray  # cards of the categories not in play, counts per card id
    removed: bytearray  # discarded cards (payments, Shade), out of the game, face up (EX-DANCE-3)
    hands: list[bytearray]  # per seat, counts per card id (hidden from the others: EX-DECIDE-HIDDEN)
    stacks: list[list[int]]  # per seat, played cards bottom to top (public) (EX-DANCE-5)
    bag: Deck  # rhinestones in the bag, counts per colour
    stage: list[int]  # per space, the rhinestone's colour there, -1 none
    spent: list[int]  # spent rhinestones set aside, per colour (EX-DANCE-4)
    supply: list[list[int]]  # per seat, rhinestones per colour
    lips: list[int]  # per seat
    song: list[int]  # per slot, the lyric token there (-1: not dealt yet) (EX-SETUP-3)
    lyric_box: Deck  # lyric tokens not dealt
    lyrics: list[list[int]]  # per seat, the lyric tokens claimed, in order
    queen: list[int]  # per seat, the queen played (-1 before chosen)
    pos: list[int]  # per seat, the queen's space (-1 before placed)
    scores: list[list[int]]  # per seat, per judge: the category track (0..40)
    tens: list[list[int]]  # per seat, per judge: 1 if that 10-token is held (EX-TEN-2)
    tens_left: list[int]  # per judge, 10-tokens still beside it (EX-TEN-1)
    reveal_hands: list[bytearray]  # per seat, reveal cards held, counts per id (hidden but to the owner)
    reveal_box: Deck  # reveal cards not dealt
    revealed: list[list[int]]  # per seat, reveal cards played (face up)
    desire_face: list[int]  # per judge, the face-up desire kind (-1: none) (EX-DESIRE-1)
    desire_stack: Deck  # face-down desire tokens, counts per kind
    desires: list[list[int]]  # per seat, per judge: desire tokens claimed (EX-DESIRE-2)
    todo: list[Step] = field(default_factory=list)  # pending steps, the front first
    lip_supply: int = C.NUM_LIPS
    playing: int = -1  # the card being danced (left the hand, not yet on the stack)
    song_next: int = 0  # the next unclaimed slot
    first: int = -1
    turn: int = -1
    turns: list[int] = field(default_factory=list)  # per seat, turns started
    end_triggered: bool = False  # the flag's lyric has been claimed (EX-END-1)
    over: bool = False
    # This turn (reset at its start)
    moved: int = 0  # spaces moved
    passed: int = 0  # queens moved through
    strut: int = 0  # extra movement from a reveal (EX-CAT-RUNWAY)
    path: list[int] = field(default_factory=list)  # spaces moved past, in order
    landed: int = -1  # space landed on
    landed_stone: int = -1  # colour of the rhinestone landed on (-1: none)
    land_colour: int = -1  # the colour collected (Green Screen may name it)
    oddy_done: list[int] = field(default_factory=list)  # seats Body Oddy took from this landing
    danced: int = -1  # the card danced this turn
    dance_area: int = -1  # the area it was danced in
    spent_actual: int = 0  # bitmask of colours of actual rhinestones spent on the dance
    spent_cards: int = 0  # bitmask of colours of discarded cards spent on the dance
    turn_points: list[int] = field(default_factory=list)  # per judge, points scored this turn (before the cap)
    revealed_turn: bool = False  # a reveal card was played this turn (EX-REVEAL-1)
    # The dance being paid and scored
    stars: int = 0
    paid: int = 0  # pairs completed
    half: int = -1  # colour of the open half pair, -1 none
    stage_used: bool = False  # Stage Presence used on this dance
    choice: int = -1  # Eleganza / Floorwerk colour
    shown: list[int] = field(default_factory=list)  # Handwerk: cards revealed (the dancer's first)
    shown_self: int = 0  # how many of them are the dancer's
    shade_picked: list[int] = field(default_factory=list)  # Shade: judges whose display card went
    shade_stars: int = 0
    bedazzled: list[int] = field(default_factory=list)  # spaces filled by the current bedazzle
    claiming: list[int] = field(default_factory=list)  # lyric tokens claimed this lip sync
    blood_from: int = -1  # Blood Sucker: whose held lyrics score (-1: own)
    final: list[int] = field(default_factory=list)  # final scores (Judge Deliberation)
    tell: Callable[[Any], None] | None = sink()  # while narrated: where the rules tell what happens


ZONES = Zones(
    list(C.CARD_NAMES),
    [1] * C.NUM_CARDS,
    Pile("hands", per_seat=True, seen_by="owner"),  # EX-DECIDE-HIDDEN
    Pile("decks", per_seat=True, seen_by="nobody"),  # one per judge (listed like seats)
    Pile("box"),
    Pile("removed"),
    Held("display"),
    Held("stacks", per_seat=True),
    Held("playing"),
)
