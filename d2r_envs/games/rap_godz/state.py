"""Rap Godz state: plain data, changed in place by rules.Game.

Card piles are counts per card kind (cards.NUM_KINDS, one index space for Album cards, Come Upz, Rapperz
and Citiez), each a bytearray; a pile chance draws from is a core `Deck`. Single cards lying in one
place (a kept Rapper, a face-up Come Upz slot) are kinds, -1 for none.

`tell` is no part of the state: the sink the rules tell what happens to (facts.py) while a copy is
narrated, None otherwise; it is not compared, and a clone starts without one (core.events.sink).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from d2r_envs.core.events import sink
from d2r_envs.core.zones import Deck, Held, Pile, Zones
from d2r_envs.games.rap_godz import cards as C


class Phase:
    """The phases of play, plain int constants (State.phase holds one): the rules read them at every step,
    and a plain class's attribute reads several times faster than an IntEnum member in Python 3.11."""

    SETUP: Final = 0  # chance: Pick Upz, the draft's Rapperz and Citiez; RG-SETUP-1 RG-SETUP-2
    RAPPER: Final = 1  # decision: keep one of two Rapperz; RG-SETUP-2
    CITY: Final = 2  # decision: keep one of two Citiez; RG-SETUP-2
    DEAL: Final = 3  # chance: extra City, Goalz, Come Upz, hands; RG-SETUP-4..7
    START: Final = 4  # chance: the Medallion's tie roll; RG-SETUP-9 RG-ALBUM-4
    GET: Final = 5  # decision: draw, or buy a Come Upz; RG-TURN-2
    SPEND: Final = 6  # decision: the cards paid for the Come Upz, one at a time
    PLAY: Final = 7  # decision: play a card (or start Beef); RG-PLAY-1
    TARGET: Final = 8  # decision: the Beef target; RG-BEEF-1
    ROLL: Final = 9  # chance: Beef dice; RG-BEEF-2
    BEEF: Final = 10  # decision: +2 on Beef, a reroll or pass; RG-PICK-3 RG-DECIDE-BOOST
    ALBUM: Final = 11  # chance: Come Upz replaced and hands drawn up at a new Album; RG-ALBUM-2 RG-ALBUM-3
    OVER: Final = 12


NUM_PHASES = Phase.OVER + 1


class Task:
    """Chance events waiting in `State.chance` as (task, argument), first due first: plain int constants, as
    Phase."""

    PICKUP: Final = 0  # a Pick Upz token for space `arg`; RG-SETUP-1
    RAPPER: Final = 1  # a Rapper dealt to seat `arg`'s draft
    CITY: Final = 2  # a City dealt to seat `arg`'s draft
    EXTRA_CITY: Final = 3  # at 2 players, one more City on the board; RG-SETUP-4
    GOAL: Final = 4  # a random Goal; RG-SETUP-5
    COME: Final = 5  # a Come Upz for slot `arg`; RG-SETUP-6 RG-TURN-4 RG-ALBUM-2
    DRAW: Final = 6  # seat `arg` draws from the current Album deck; RG-TURN-5
    MEDALLION: Final = 7  # a die roll among the tied seats (bitmask `arg`); RG-SETUP-9
    DIE: Final = 8  # Beef die `arg` (0 the starter's, 1 the red, 2 the target's); RG-BEEF-2


@dataclass(slots=True)
class State:
    num_players: int
    decks: list[Deck]  # the Album decks 1-3, face down
    come_decks: list[Deck]  # the Come Upz decks 1-3, face down
    rapper_deck: Deck  # face down (returned draft cards go back here); RG-SETUP-2
    city_deck: Deck
    hands: list[bytearray]  # per seat, hidden from the others (counts by Album are public)
    offers: list[bytearray]  # per seat, the draft's Rapperz and Citiez, hidden from the others
    held: list[bytearray]  # per seat, Come Upz taken, face up until played; RG-DECIDE-COMEUPZ
    timelines: list[bytearray]  # per seat, the career timeline, face up; RG-PLAY-1
    discard: bytearray  # spent cards, face up; RG-DECIDE-SPEND
    gone: bytearray  # Come Upz replaced at a new Album, face up
    rappers: list[int]  # per seat, the kept Rapper's kind, -1 before the draft
    cities: list[int]  # per seat, the kept City's kind (the Hometown)
    extra_city: int  # the 2-player extra City's kind, -1 none
    slots: list[int]  # the face-up Come Upz (players + 1), kinds, -1 empty
    beef_card: int  # the Beef card being fought over, -1 none
    pickup_deck: Deck  # Pick Upz tokens not yet placed, counts per type
    track_pickups: list[int]  # per symbol (resource * 3 + place), the token's type, -1 taken or not placed
    pickups: list[list[int]]  # per seat, tokens held per type
    pickups_used: list[int]  # per type, tokens used (back in the box)
    res: list[list[int]]  # per seat: Streetz, Skillz, Swag; RG-RES-1
    upgraded: list[int]  # per seat, bitmask of resources with an Upgrade cube; RG-RES-2 RG-DECIDE-UPGRADE
    plaques: list[list[int]]  # per seat, Bronze, Gold, Platinum held
    supply: list[int]  # plaques left per denomination
    owed: list[int]  # per seat, points the supply could not make; RG-DECIDE-PLAQUES
    goal_deck: Deck  # Goalz tokens not drawn (The Champ is always in)
    goals: list[int]  # the Goalz in play
    goal_won: list[int]  # per Goal kind, the seat that collected an in-game Goal, -1 none
    cubes: list[int]  # per seat, Beef cubes
    cube_supply: int
    used: list[bool]  # per seat, the once-per-Album ability is covered; RG-RAP-2
    turns: list[int]  # per seat, turns taken
    phase: int = Phase.SETUP
    chance: list[tuple[int, int]] = field(default_factory=list)
    album: int = 0  # 0-2; RG-SETUP-8
    track: int = 0  # 0-4
    medallion: int = -1
    turn: int = -1
    actor: int = -1
    slot: int = -1  # the Come Upz slot being bought
    spend_left: int = 0
    starter: int = -1  # Beef
    target: int = -1
    dice: list[int] = field(default_factory=lambda: [0, 0, 0])  # 1-6, 0 not rolled
    bonus: list[int] = field(default_factory=lambda: [0, 0])  # +2 on Beef used by starter, target
    side: int = 0  # 0 the starter decides in the Beef window, 1 the target
    passes: int = 0
    final: list[int] = field(default_factory=list)  # end-game points per seat
    winners: list[int] = field(default_factory=list)
    # Per seat, for reports only (Game.seat_facts; no rule reads it): Beef started, Beef won as the
    # starter, Beef won, plaques won in Beef, plaques lost in Beef.
    beef_tally: list[list[int]] = field(default_factory=list)
    tell: Callable[[Any], None] | None = sink()  # while narrated: where the rules tell what happens


def _extra_city(s: State) -> list[int]:
    counts = [0] * C.NUM_KINDS
    for k in [s.extra_city, s.beef_card] + s.slots:
        if k >= 0:
            counts[k] += 1
    return counts


# Where the cards are (core/zones.py). Hands and draft offers are their owners'; each Album's cards in a
# hand are known by count (every draw says from which Album deck), so rules.Game.redeterminise deals
# them anew Album by Album.
ZONES = Zones(
    C.KIND_NAMES,
    C.KIND_COPIES,
    Pile("decks", per_seat=True, seen_by="nobody"),  # a list of piles (one per Album), none seen
    Pile("come_decks", per_seat=True, seen_by="nobody"),
    Pile("rapper_deck", seen_by="nobody"),
    Pile("city_deck", seen_by="nobody"),
    Pile("hands", per_seat=True, seen_by="owner"),
    Pile("offers", per_seat=True, seen_by="owner"),
    Pile("held", per_seat=True),
    Pile("timelines", per_seat=True),
    Pile("discard"),
    Pile("gone"),
    Held("rappers"),
    Held("cities"),
    extra=_extra_city,
)
