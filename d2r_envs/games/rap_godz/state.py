"""Rap Godz state: plain data, changed in place by rules.Game.

Card piles are counts per card kind (cards.NUM_KINDS, one index space for Album cards, Come Upz, Rapperz
and Citiez), each a bytearray; a pile chance draws from is a core `Deck`. Single cards lying in one
place (a kept Rapper, a face-up Come Upz slot) are kinds, -1 for none.

`tell` is no part of the state: the sink the rules tell what happens to (facts.py) while a copy is
narrated, None otherwise; it is not compared, and a clone starts without one (core.events.sink).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from d2r_envs.core.events import sink
from d2r_envs.core.stamped import Marks, Tally
from d2r_envs.core.zones import Deck, Held, Pile, Zones
from d2r_envs.games.rap_godz import cards as C


class Phase(enum.IntEnum):
    SETUP = 0  # chance: Pick Upz, the draft's Rapperz and Citiez; RG-SETUP-1 RG-SETUP-2
    RAPPER = 1  # decision: keep one of two Rapperz; RG-SETUP-2
    CITY = 2  # decision: keep one of two Citiez; RG-SETUP-2
    DEAL = 3  # chance: extra City, Goalz, Come Upz, hands; RG-SETUP-4..7
    START = 4  # chance: the Medallion's tie roll; RG-SETUP-9 RG-ALBUM-4
    GET = 5  # decision: draw, or buy a Come Upz; RG-TURN-2
    SPEND = 6  # decision: the cards paid for the Come Upz, one at a time
    PLAY = 7  # decision: play a card (or start Beef); RG-PLAY-1
    TARGET = 8  # decision: the Beef target; RG-BEEF-1
    ROLL = 9  # chance: Beef dice; RG-BEEF-2
    BEEF = 10  # decision: +2 on Beef, a reroll or pass; RG-PICK-3 RG-DECIDE-BOOST
    ALBUM = 11  # chance: Come Upz replaced and hands drawn up at a new Album; RG-ALBUM-2 RG-ALBUM-3
    OVER = 12


class Task(enum.IntEnum):
    """Chance events waiting in `State.chance` as (task, argument), first due first."""

    PICKUP = 0  # a Pick Upz token for space `arg`; RG-SETUP-1
    RAPPER = 1  # a Rapper dealt to seat `arg`'s draft
    CITY = 2  # a City dealt to seat `arg`'s draft
    EXTRA_CITY = 3  # at 2 players, one more City on the board; RG-SETUP-4
    GOAL = 4  # a random Goal; RG-SETUP-5
    COME = 5  # a Come Upz for slot `arg`; RG-SETUP-6 RG-TURN-4 RG-ALBUM-2
    DRAW = 6  # seat `arg` draws from the current Album deck; RG-TURN-5
    MEDALLION = 7  # a die roll among the tied seats (bitmask `arg`); RG-SETUP-9
    DIE = 8  # Beef die `arg` (0 the starter's, 1 the red, 2 the target's); RG-BEEF-2


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
    # Marks for the observer (encode_fast.py; core/stamped.py `Marks`): the rules renew a part whenever what
    # it covers changes. `table`: part 0 the set-up (the Rapperz, Citiez, the extra City, Goalz), part 1
    # the timelines (renewed with each card played into one).
    table: Marks
    # Counts the observation shows, kept by the rules where they write what is counted (core/stamped.py
    # `Tally`; invariants.py checks them): `albums`, per seat its hand's cards of each Album (public: every
    # draw names its deck; a redeterminised copy keeps them); `record`, per seat its career record
    # (`record_row`: resources, Upgrade cubes, points, plaques, points owed, Come Upz held, the timeline's
    # columns), then the plaque supply.
    # `counters`, the table's counts (`counters_row`: abilities used, in-game Goalz won, Pick Upz on the
    # track and held, Beef cubes).
    albums: Tally
    record: Tally
    counters: Tally
    phase: Phase = Phase.SETUP
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



# A seat's career record (State.record's part p): where each field starts. Resources (3), Upgrade cubes
# (3, one a resource), points (at most 255), plaques (3), points owed (at most 255), Come Upz held per kind,
# then the timeline's columns: cards per colour, icons per colour, then cards, Come Upz and Beef cards.
REC_RES, REC_UP, REC_POINTS, REC_PLAQUES, REC_OWED, REC_HELD = 0, 3, 6, 7, 10, 11
REC_TIMELINE = REC_HELD + C.NUM_COME
TIMELINE_COLUMNS = 2 * C.NUM_COLOURS + 3
RECORD = REC_TIMELINE + TIMELINE_COLUMNS


def _timeline_row(k: int) -> tuple[tuple[int, int], ...]:
    """Card kind k's (column, amount) in a career record's timeline columns."""
    c, nc, at = C.CARDS[k], C.NUM_COLOURS, REC_TIMELINE
    row = [] if c.beef else [(at + c.colour, 1), (at + nc + c.colour, c.icons)]
    return tuple(row + [(at + 2 * nc, 1)] + ([(at + 2 * nc + 1, 1)] if c.come else [])
                 + ([(at + 2 * nc + 2, 1)] if c.beef else []))


# per card kind, what it adds to a career record (nothing for a Rapper or a City: never in a timeline)
TIMELINE_ROW = [_timeline_row(k) for k in range(len(C.CARDS))] + [()] * (C.NUM_KINDS - len(C.CARDS))


def counter_offsets(n: int) -> tuple[int, ...]:
    """Where State.counters' fields start at n players: abilities used (a seat each), in-game Goalz won
    (per Goal, a seat each), Pick Upz on the track (per symbol, a type each), Pick Upz held (per seat, a
    type each), Beef cubes (a seat each), cubes left; then its width."""
    won = n
    track = won + C.NUM_GOALZ * n
    held = track + 3 * C.NUM_PICKUP_SPACES
    cubes = held + 3 * n
    return 0, won, track, held, cubes, cubes + n, cubes + n + 1


def counters_row(s: State) -> list[int]:
    """State.counters worked out from the fields (what it must hold)."""
    n = s.num_players
    row = [int(u) for u in s.used] + [0] * (C.NUM_GOALZ * n)
    for goal, p in enumerate(s.goal_won):
        if p >= 0:
            row[n + goal * n + p] = 1
    for t in s.track_pickups:
        row += [int(t == i) for i in range(3)]
    return row + [x for pk in s.pickups for x in pk] + list(s.cubes) + [s.cube_supply]


def record_row(s: State, p: int) -> list[int]:
    """Seat p's career record worked out from the fields (what State.record's part p must hold)."""
    r, up, pl, owed = s.res[p], s.upgraded[p], s.plaques[p], s.owed[p]
    points = pl[0] + C.PLAQUE_VALUES[1] * pl[1] + C.PLAQUE_VALUES[2] * pl[2] + owed
    row = list(r) + [up & 1, up >> 1 & 1, up >> 2 & 1, min(255, points)] + list(pl) + [min(255, owed)]
    row += list(s.held[p][C.COME_FIRST : C.NUM_PLAY]) + [0] * TIMELINE_COLUMNS
    for k, x in enumerate(s.timelines[p]):
        for col, amount in TIMELINE_ROW[k] if x else ():
            row[col] += x * amount
    return row

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
