"""Rap Godz observations, seat-relative: row 0 is the observer, then the players to its left, padded to 4.

Only what the seat may know: its own hand and draft offer; of the other hands only how many cards of
each Album they hold (every draw names its deck); everything else lies face up.
"""

from __future__ import annotations

import numpy as np

from d2r_envs.core.obs import Memo, ObsLayout, Observer as _Observer, Piece
from d2r_envs.core.zones import card_count
from d2r_envs.games.rap_godz import cards as C
from d2r_envs.games.rap_godz import standing
from d2r_envs.games.rap_godz.state import Phase, State

MAJORITY_MAX = 40  # the view `majority`'s cap, in twentieths of a chance

P, NP, NC = C.MAX_PLAYERS, C.NUM_PLAY, C.NUM_COME
NR, NCI = C.NUM_RAPPERZ, C.NUM_CITIEZ
_COME, _RAP, _CITY = C.COME_FIRST, C.RAPPER_FIRST, C.CITY_FIRST

LAYOUT = ObsLayout(
    Piece("seats", (P,), 1, "1 for each seat in the game (relative)"),
    Piece("phase", (len(Phase),), 1, "the phase (state.Phase)"),
    Piece("album", (C.ALBUMS,), 1, "the current Album"),
    Piece("track", (C.TRACKS,), 1, "the current Track"),
    Piece("turn", (P,), 1, "relative seat whose turn it is"),
    Piece("actor", (P,), 1, "relative seat deciding now"),
    Piece("medallion", (P,), 1, "relative seat holding the Medallion"),
    Piece("res", (P, C.NUM_RES), C.TRACK_MAX, "Streetz, Skillz, Swag per seat"),
    Piece("upgraded", (P, C.NUM_RES), 1, "resources on an Upgrade cube per seat"),
    Piece("points", (P,), 255, "plaque points per seat (255 at most)"),
    Piece("plaques", (P, 3), 36, "Bronze, Gold, Platinum plaques held per seat"),
    Piece("owed", (P,), 255, "points the supply could not make, per seat"),
    Piece("supply", (3,), 36, "plaques left in the supply"),
    Piece("hand", (NP,), 10, "my hand: cards per kind"),
    Piece("hand_albums", (P, C.ALBUMS), 10, "cards of each Album in each hand"),
    Piece("held", (P, NC), 5, "Come Upz held face up per seat, per Come Upz kind"),
    Piece("colours", (P, C.NUM_COLOURS), 60, "timeline cards per colour per seat"),
    Piece("icons", (P, C.NUM_COLOURS), 60, "timeline icons per colour per seat"),
    Piece("timeline", (P, 3), 60, "timeline cards, Come Upz and Beef cards per seat"),
    Piece("rapper", (P, NR), 1, "each seat's Rapper"),
    Piece("city", (P, NCI), 1, "each seat's City (Hometown)"),
    Piece("used", (P,), 1, "the once-per-Album ability is covered, per seat"),
    Piece("offer", (NR + NCI,), 1, "my draft offer: Rapperz, then Citiez"),
    Piece("board_cities", (NCI,), 1, "Citiez on the board"),
    Piece("goals", (C.NUM_GOALZ,), 1, "Goalz in play"),
    Piece("goal_won", (C.NUM_GOALZ, P), 1, "in-game Goalz collected, by relative seat"),
    Piece("slots", (C.MAX_SLOTS, NC), 1, "the face-up Come Upz per slot"),
    Piece("decks", (6,), 60, "cards left in the Album decks 1-3 and the Come Upz decks 1-3"),
    Piece("track_pickups", (C.NUM_PICKUP_SPACES, 3), 1, "the Pick Upz type on each track symbol"),
    Piece("pickups", (P, 3), 9, "Pick Upz held per seat, per type"),
    Piece("cubes", (P,), C.BEEF_CUBES, "Beef cubes per seat"),
    Piece("cube_supply", (1,), C.BEEF_CUBES, "Beef cubes left"),
    Piece("beef_album", (C.ALBUMS,), 1, "the Album of the Beef card being fought over"),
    Piece("starter", (P,), 1, "relative seat that started the Beef"),
    Piece("target", (P,), 1, "relative seat the Beef targets"),
    Piece("dice", (3, C.DIE_SIDES), 1, "the starter's die, the red die, the target's die"),
    Piece("bonus", (2,), 20, "+2 on Beef used by the starter, the target"),
    Piece("spend_left", (1,), 3, "cards still to spend for the Come Upz"),
    Piece("buying", (C.MAX_SLOTS,), 1, "the Come Upz slot being bought"),
    # Views for learning, from what the pieces above show: how each card fits me (a card's worth to a
    # seat turns on its Rapper's and City's colours and its lock), by kind and by face-up slot.
    Piece("card_fit", (NP, 2), 1, "per card kind: its colour is my Rapper's bonus colour; my City's colour"),
    Piece("short", (NP,), C.TRACK_MAX, "per card kind: how much of its lock's resource I still lack (RG-PLAY-2)"),
    Piece("slot_fit", (C.MAX_SLOTS, 3), 1, "per face-up Come Upz: its colour is my Rapper's; my City's; I could play it"),
    Piece("come_cost", (1,), C.COME_COST, "cards a Come Upz costs me now (RG-TURN-2)"),
    # ... and what each card's play would change in the end-game majorities (standing.py).
    Piece("majority", (NP, 3), MAJORITY_MAX, "per card kind: the change its play would make in my chance of holding "
          "the Citiez on the board of its colour, Mono, and Timeline or Come Up, in twentieths (standing.py)"),
)


_O = LAYOUT.offsets
# Regions of the vector (runs of pieces in LAYOUT order), each written as one slice.
_HEAD, _CAREER1 = _O["phase"], _O["res"]  # phase .. medallion: per decision, from a table by key
_HAND, _HALB = _O["hand"], _O["hand_albums"]  # res .. supply before the hand: the career
_CAREER2, _TABLE1 = _O["held"], _O["rapper"]  # held .. timeline: the career
_OFFER = _O["offer"]  # rapper .. used: the table
_TABLE2, _SLOTS = _O["board_cities"], _O["slots"]  # board_cities .. goal_won: the table
_DECKS, _TABLE3 = _O["decks"], _O["track_pickups"]
_BEEF = _O["beef_album"]  # track_pickups .. cube_supply: the table
_STARTER, _TARGET, _DICE, _BONUS = _O["starter"], _O["target"], _O["dice"], _O["bonus"]
_SPEND_LEFT, _BUYING = _O["spend_left"], _O["buying"]
_CARD_FIT, _SHORT, _SLOT_FIT, _COME_COST = _O["card_fit"], _O["short"], _O["slot_fit"], _O["come_cost"]
_MAJORITY = _O["majority"]
# The piece `majority` as positions in the combos' values (3 a combo, then a 0 at the end for a Beef
# card's row), for bytes.translate.
_ZERO = 3 * len(standing.COMBOS)
_TO_256 = [bytes(256 - k) for k in range(256)]  # the zeros that make k bytes a translate table
_COMBO_ROWS = bytes(j for i in standing.COMBO_OF for j in ((3 * i, 3 * i + 1, 3 * i + 2) if i >= 0 else (_ZERO,) * 3))


def majority_bytes(table: list[tuple]) -> bytes:
    """The piece `majority` from `standing.combo_gains`' table (a Beef card's row stays 0)."""
    values = bytes([min(MAJORITY_MAX, round(20 * x)) for row in table for x in row])
    return _COMBO_ROWS.translate(values + _TO_256[len(values)])


def _short_by(r: int) -> list[int]:
    """Per amount x of resource r, the piece `short` of the cards locked on r alone, as a big-endian
    integer: the three resources' rows touch different kinds, so adding them joins them."""
    rows = []
    for x in range(C.TRACK_MAX + 1):
        row = bytearray(NP)
        for k, c in enumerate(C.CARDS):
            if c.lock and c.lock[0] == r and x < c.lock[1]:
                row[k] = c.lock[1] - x
        rows.append(int.from_bytes(row, "big"))
    return rows


_SHORT_BY = [_short_by(r) for r in range(C.NUM_RES)]
_COLOUR = [-1 if c.beef else c.colour for c in C.CARDS]  # a Beef card has no colour to fit
_OVER = int(Phase.OVER)
_ALBUM_SPANS = [(min(k), max(k) + 1) for k in C.ALBUM_KINDS]
(_A0, _A1), (_B0, _B1), (_C0, _C1) = _ALBUM_SPANS
_CARD_DECK = [c.deck for c in C.CARDS]
_PV1, _PV2 = C.PLAQUE_VALUES[1], C.PLAQUE_VALUES[2]
_UPG = [bytes((u & 1, u >> 1 & 1, u >> 2 & 1)) for u in range(8)]  # Upgrade bitmask -> its row


def _onehot(i: int, width: int) -> bytes:
    return bytes(1 if j == i else 0 for j in range(width))


_RAPPER_ROW = {k: _onehot(k - _RAP, NR) for k in range(_RAP, _RAP + NR)} | {-1: bytes(NR)}  # kind (-1: none) -> row
_CITY_ROW = {k: _onehot(k - _CITY, NCI) for k in range(_CITY, _CITY + NCI)} | {-1: bytes(NCI)}
_PICK_ROW = [_onehot(i, 3) for i in range(3)] + [bytes(3)]  # Pick Upz type (-1: none) -> row
# Per card kind (every kind: a whole timeline's counts at once), its weight in each timeline column:
# cards per colour (5), icons per colour (5), then all cards, Come Upz, Beef cards (the pieces
# `colours`, `icons` and `timeline`).
_NT = 2 * C.NUM_COLOURS + 3
_TL = np.zeros((C.NUM_KINDS, _NT), np.float32)
for _k, _c in enumerate(C.CARDS):
    if not _c.beef:
        _TL[_k, _c.colour] = 1
        _TL[_k, C.NUM_COLOURS + _c.colour] = _c.icons
    _TL[_k, 2 * C.NUM_COLOURS :] = (1, _c.come, _c.beef)
del _k, _c

# A seat's career record: its rows of the pieces `res` to `owed`, then of `held` to `timeline`.
_CAREER_PIECES = (("res", 3), ("upgraded", 3), ("points", 1), ("plaques", 3), ("owed", 1),
                  ("held", NC), ("colours", C.NUM_COLOURS), ("icons", C.NUM_COLOURS), ("timeline", 3))
_RECORD = sum(w for _, w in _CAREER_PIECES)


def _career_order(n: int) -> np.ndarray:
    """Where each byte of the regions `res`..`supply` and `held`..`timeline` comes from, in the records
    of the n seats joined from the observer on, then the supply (3 bytes), then a zero (the padding)."""
    at, order = 0, []
    for name, width in _CAREER_PIECES:
        order += [seat * _RECORD + at + j if seat < n else n * _RECORD + 3 for seat in range(P) for j in range(width)]
        at += width
        if name == "owed":
            order += [n * _RECORD + i for i in range(3)]  # the supply
    return np.array(order, np.intp)


_CAREER_ORDER = {n: _career_order(n) for n in range(C.MIN_PLAYERS, P + 1)}
_CAREER1_SIZE = _HAND - _CAREER1
assert _CAREER1_SIZE + _TABLE1 - _CAREER2 == len(_CAREER_ORDER[P]), "the career regions are the career pieces"


def _record(s: State, p: int, timeline: bytes) -> bytes:
    """Seat p's career record (see _CAREER_PIECES), given its timeline's columns."""
    r, pl, o, u = s.res[p], s.plaques[p], s.owed[p], s.upgraded[p]
    points = pl[0] + _PV1 * pl[1] + _PV2 * pl[2] + o
    return bytes((r[0], r[1], r[2], u & 1, u >> 1 & 1, u >> 2 & 1, min(255, points), pl[0], pl[1], pl[2],
                  min(255, o))) + s.held[p][_COME:NP] + timeline


def _timeline_columns(timeline: bytearray) -> bytes:
    """A timeline's columns: cards per colour, icons per colour, cards, Come Upz, Beef cards."""
    return np.frombuffer(timeline, np.uint8).dot(_TL).astype(np.uint8).tobytes()


class _Career:
    """The regions `res`..`supply` and `held`..`timeline` (what a play changes: resources, plaques,
    Come Upz held, timelines) from the seats' records, for each observer once."""

    __slots__ = ("records", "blocks")

    def __init__(self, records: list[bytes], supply: list[int]) -> None:
        self.records = (b"".join(records) * 2, bytes(supply) + b"\0")
        self.blocks: list = [None] * len(records)

    def block(self, me: int) -> bytes:
        block = self.blocks[me]
        if block is None:
            doubled, tail = self.records
            n = len(self.blocks)
            cut = me * _RECORD
            data = np.frombuffer(doubled[cut : cut + n * _RECORD] + tail, np.uint8)
            block = self.blocks[me] = data.take(_CAREER_ORDER[n]).tobytes()
        return block


class _Rows:
    """Per-seat rows (each `width` bytes) in seat order, joined twice over so that the rows rotated
    to start at any seat are one slice; then the padding up to MAX_PLAYERS rows."""

    __slots__ = ("doubled", "width", "size", "pad")

    def __init__(self, rows: bytes, width: int, n: int) -> None:
        self.doubled, self.width, self.size, self.pad = rows * 2, width, width * n, bytes((P - n) * width)

    def rotated(self, me: int) -> bytes:
        cut = me * self.width
        return self.doubled[cut : cut + self.size] + self.pad


class _Setup:
    """What the set-up fixes (each seat's Rapper and City, the Citiez on the board, the Goalz in play)."""

    __slots__ = ("rapper", "city", "fixed", "city_colours", "majority")

    def __init__(self, game, s: State) -> None:
        n = s.num_players
        self.rapper = _Rows(b"".join([_RAPPER_ROW[k] for k in s.rappers]), NR, n)
        self.city = _Rows(b"".join([_CITY_ROW[k] for k in s.cities]), NCI, n)
        fixed = bytearray(NCI + C.NUM_GOALZ)  # the pieces `board_cities` and `goals`
        for k in game.board_cities(s):
            fixed[k - _CITY] = 1
        for goal in s.goals:
            fixed[NCI + goal] = 1
        self.fixed = bytes(fixed)
        self.city_colours = [C.CITIEZ[k - _CITY].colour for k in game.board_cities(s)]
        self.majority = standing.signature(self.city_colours, s.goals)


class _Table:
    """The pieces `rapper` to `used`, `board_cities` to `goal_won` and `track_pickups` to
    `cube_supply`: set up once, or changed now and then (an ability used, a Pick Upz or a Goal taken,
    Beef won), worked out once per change, and for each observer once."""

    __slots__ = ("n", "setup", "used", "goal_won", "track", "pickups", "cubes", "cube_supply", "blocks")

    def __init__(self, setup: _Setup, s: State) -> None:
        n = self.n = s.num_players
        self.setup = setup
        self.used = _Rows(bytes(s.used), 1, n)
        self.goal_won = [(goal, p) for goal, p in enumerate(s.goal_won) if p >= 0]
        self.track = b"".join([_PICK_ROW[t] for t in s.track_pickups])
        self.pickups = _Rows(b"".join(map(bytes, s.pickups)), 3, n)
        self.cubes = _Rows(bytes(s.cubes), 1, n)
        self.cube_supply = bytes((s.cube_supply,))
        self.blocks: list = [None] * n

    def block(self, me: int) -> tuple[bytes, bytes, bytes]:
        block = self.blocks[me]
        if block is None:
            setup, n = self.setup, self.n
            won = bytearray(C.NUM_GOALZ * P)
            for goal, p in self.goal_won:
                won[goal * P + (p - me) % n] = 1
            block = self.blocks[me] = (
                setup.rapper.rotated(me) + setup.city.rotated(me) + self.used.rotated(me),
                setup.fixed + won,
                self.track + self.pickups.rotated(me) + self.cubes.rotated(me) + self.cube_supply,
            )
        return block


_DISCOUNT = {_RAP + i for i, r in enumerate(C.RAPPERZ) if r.ability == C.Ability.DISCOUNT}  # Rapperz with it
# The views for learning by what they depend on, shared by every observer in the process.
_FITS: dict[tuple, bytes] = {}  # (Rapper, City) -> the piece card_fit
_SHORTS: dict[tuple, bytes] = {}  # resources -> the piece short (at most 31 ** 3 of them, 98 bytes each)
_SLOT_ROWS: dict[tuple, tuple] = {}  # ((Rapper, City), resources, slots...) -> the pieces slots and slot_fit


def _fit(key: tuple) -> bytes:
    """The piece `card_fit` for a (Rapper, City) (-1: none yet)."""
    rapper = C.RAPPERZ[key[0] - _RAP].colour if key[0] >= 0 else -2
    city = C.CITIEZ[key[1] - _CITY].colour if key[1] >= 0 else -2
    fit = _FITS[key] = b"".join(bytes((c == rapper, c == city)) for c in _COLOUR)
    return fit


def _short(key: tuple) -> bytes:
    """The piece `short` for these resources."""
    short = _SHORTS[key] = (_SHORT_BY[0][key[0]] + _SHORT_BY[1][key[1]] + _SHORT_BY[2][key[2]]).to_bytes(NP, "big")
    return short


def _slot_rows(key: tuple, fit: bytes, short: bytes) -> tuple[bytes, bytes]:
    """The pieces `slots` and `slot_fit` for the face-up Come Upz in `key` (after the (Rapper, City)
    and the resources, whose `fit` and `short` slot_fit reads)."""
    rows, fits = bytearray(C.MAX_SLOTS * NC), bytearray(3 * C.MAX_SLOTS)
    for j, k in enumerate(key[2:]):
        if k >= 0:
            rows[j * NC + k - _COME] = 1
            fits[3 * j : 3 * j + 3] = (fit[2 * k], fit[2 * k + 1], not short[k])
    if len(_SLOT_ROWS) >= 50_000:
        _SLOT_ROWS.clear()
    made = _SLOT_ROWS[key] = (bytes(rows), bytes(fits))
    return made


_HEADS: dict[tuple, bytes] = {}  # (phase, album, track, turn, actor, medallion places) -> the head's bytes


def _head(key: tuple) -> bytes:
    phase, album, track, turn, actor, medallion = key
    v = bytearray(_CAREER1 - _HEAD)
    v[phase] = 1
    v[_O["album"] - _HEAD + album] = 1
    v[_O["track"] - _HEAD + track] = 1
    for name, place in (("turn", turn), ("actor", actor), ("medallion", medallion)):
        if place >= 0:
            v[_O[name] - _HEAD + place] = 1
    head = _HEADS[key] = bytes(v)
    return head


class Observer(_Observer):
    """`encode` writes one byte per entry into a copy of a per-seat template, in a few slices: the
    head (phase to Medallion) from a table by key; the hand, the draft offer and the decks from the
    state; what changes once a turn or less kept while the state's marks (State.career, albums, table:
    the rules renew a mark whenever what it covers changes) are the ones it was built from, and rotated
    to the seat once per change: the career (resources, plaques, Come Upz held, timelines; one seat's
    record rebuilt per changed mark), the cards per Album in each hand, the table (Rapperz, Citiez,
    Goalz, Pick Upz, Beef cubes); and the views for learning from small tables by what they depend on.
    tests/rap_godz/test_encode.py checks it against a plain numpy encoder written piece by piece, at
    every node, and that a mark seen twice always covers the same contents.
    """

    layout = LAYOUT

    def __init__(self, game) -> None:
        self.game = game
        n = game.n
        self._template = []
        for me in range(n):
            f = LAYOUT.frame(LAYOUT.blank(), me, n)
            for k in range(n):
                f.one("seats", k)
            self._template.append(bytes(f))
        self._place = [[(q - me) % n for q in range(n)] + [-1] for me in range(n)]  # index -1: nobody
        self._pad_albums = bytes(3 * (P - n))
        # The career and the table, kept while the state's marks are the ones they were built from
        # (State.career, State.table: the rules replace a mark whenever what it covers changes).
        self._career_stamp: object = None
        self._career_parts: list = [None] * (n + 1)
        self._career_value: _Career | None = None
        self._records: list = [b""] * n  # per seat, its career record ...
        self._timelines: list = [None] * n  # ... its timeline when that was worked out (a copy) ...
        self._columns: list = [b""] * n  # ... and the timeline's columns
        self._setup = Memo(State, ["rappers", "cities", "extra_city", "goals"], lambda s: _Setup(game, s))
        self._table_stamp: object = None
        self._table_value: _Table | None = None
        self._albums_stamp: object = None  # State.albums' stamp and parts when the cards per Album were worked out
        self._albums_parts: list = [None] * n
        self._albums = [b""] * n  # per seat, its hand's cards per Album
        self._albums_joined = b""
        self._timelines_seen = 0  # timelines worked out so far (their columns, by _career)
        # The piece majority per seat, made for that count of timelines and this set-up (State.table's
        # mark last seen, and the _Setup it gave)
        self._majority_timelines, self._majority_table, self._majority_setup = -1, None, None
        self._majority_seen: list = [None] * n

    def _career(self, s: State) -> _Career:
        """The career, from the seats' records: each worked out anew only where that seat's mark
        changed (a play changes one seat's, Beef two)."""
        marks = s.career
        if marks.stamp is self._career_stamp:
            return self._career_value
        parts, seen, records, timelines = marks.parts, self._career_parts, self._records, self._timelines
        for p in range(s.num_players):
            if parts[p] is not seen[p]:
                timeline = s.timelines[p]
                if timeline != timelines[p]:  # (most changes leave the timeline be)
                    self._columns[p] = _timeline_columns(timeline)
                    timelines[p] = bytes(timeline)
                    self._timelines_seen += 1
                records[p] = _record(s, p, self._columns[p])
        self._career_parts = parts[:]
        self._career_stamp = marks.stamp
        value = self._career_value = _Career(records, s.supply)
        return value

    def _table(self, s: State) -> _Table:
        """The table, worked out anew when the state's table mark changed."""
        stamp = s.table.stamp
        if stamp is not self._table_stamp:
            self._table_value = _Table(self._setup(s), s)
            self._table_stamp = stamp
        return self._table_value

    def _hand_albums(self, s: State) -> bytes:
        """Cards of each Album per hand, in seat order twice over (a seat's rotation is one slice);
        worked out anew for the seats whose mark changed (State.albums)."""
        marks = s.albums
        if marks.stamp is self._albums_stamp:
            return self._albums_joined
        parts, seen, albums = marks.parts, self._albums_parts, self._albums
        for p, h in enumerate(s.hands):
            if parts[p] is not seen[p]:
                albums[p] = bytes((card_count(h[_A0:_A1]), card_count(h[_B0:_B1]), card_count(h[_C0:_C1])))
        self._albums_parts = parts[:]
        self._albums_stamp = marks.stamp
        joined = self._albums_joined = b"".join(albums) * 2
        return joined

    def encode(self, s: State, me: int) -> np.ndarray:
        n = s.num_players
        v = bytearray(self._template[me])
        place = self._place[me]
        phase = s.phase
        key = (phase, s.album, s.track, place[s.turn],
               place[s.actor] if phase != _OVER and not s.chance else -1, place[s.medallion])
        head = _HEADS.get(key)
        v[_HEAD:_CAREER1] = head if head is not None else _head(key)
        career = self._career(s).block(me)
        v[_CAREER1:_HAND] = career[:_CAREER1_SIZE]
        v[_HAND:_HALB] = s.hands[me][:NP]
        cut = 3 * me
        v[_HALB:_CAREER2] = self._hand_albums(s)[cut : cut + 3 * n] + self._pad_albums
        v[_CAREER2:_TABLE1] = career[_CAREER1_SIZE:]
        table1, table2, table3 = self._table(s).block(me)
        v[_TABLE1:_OFFER] = table1
        v[_OFFER:_TABLE2] = s.offers[me][_RAP:]
        v[_TABLE2:_SLOTS] = table2
        # The views for learning (card_fit to come_cost): the fit by (Rapper, City), the shortfall by
        # resources, each from a table; the face-up Come Upz's rows from both, by them and the slots.
        fkey = (s.rappers[me], s.cities[me])
        fit = _FITS.get(fkey) or _fit(fkey)
        res = s.res[me]
        rkey = (res[0], res[1], res[2])
        short = _SHORTS.get(rkey) or _short(rkey)
        v[_CARD_FIT:_SHORT] = fit
        v[_SHORT:_SLOT_FIT] = short
        v[_COME_COST] = C.COME_COST_DISCOUNTED if fkey[0] in _DISCOUNT and not s.used[me] else C.COME_COST  # as rules.come_cost
        skey = (fkey, rkey, *s.slots)
        slots = _SLOT_ROWS.get(skey) or _slot_rows(skey, fit, short)
        v[_SLOTS:_DECKS] = slots[0]
        v[_SLOT_FIT:_COME_COST] = slots[1]
        d, c = s.decks, s.come_decks
        v[_DECKS:_TABLE3] = (d[0].n, d[1].n, d[2].n, c[0].n, c[1].n, c[2].n)
        v[_TABLE3:_BEEF] = table3
        v[_MAJORITY:] = self._majority(s, me)
        if s.beef_card >= 0:
            v[_BEEF + _CARD_DECK[s.beef_card]] = 1
        if s.starter >= 0:
            v[_STARTER + place[s.starter]] = 1
        if s.target >= 0:
            v[_TARGET + place[s.target]] = 1
        dice = s.dice
        if dice[0] or dice[1] or dice[2]:
            for i in range(3):
                if dice[i]:
                    v[_DICE + i * C.DIE_SIDES + dice[i] - 1] = 1
        bonus = s.bonus
        if bonus[0] or bonus[1]:
            v[_BONUS : _BONUS + 2] = bonus
        v[_SPEND_LEFT] = s.spend_left
        if s.slot >= 0:
            v[_BUYING + s.slot] = 1
        return np.frombuffer(v, np.uint8).astype(np.float32)

    def _majority(self, s: State, me: int) -> bytes:
        """The piece `majority` of seat `me`, worked out anew when a timeline or the table (the Citiez
        and Goalz) changed, from the timelines' columns the career keeps (call `_career` first)."""
        table = s.table.stamp
        if table is not self._majority_table:  # the table changed: did the set-up (Citiez, Goalz)?
            self._majority_table = table
            setup = self._setup(s)
            if setup is not self._majority_setup:
                self._majority_setup, self._majority_timelines = setup, -1
        if self._timelines_seen != self._majority_timelines:
            self._majority_timelines, self._majority_seen = self._timelines_seen, [None] * s.num_players
        made = self._majority_seen[me]
        if made is None:
            values = standing.quantized(self._columns, self._majority_setup.majority, me, 20, MAJORITY_MAX)
            made = self._majority_seen[me] = _COMBO_ROWS.translate(values + _TO_256[len(values)])
        return made

    def string_from(self, s: State, me: int) -> str:
        g = self.game
        lines = [f"you are player_{me} | Album {s.album + 1} Track {s.track + 1} | Medallion player_{s.medallion}"
                 f" | {g.decision_name(s)}"]
        lines.append("Goalz: " + ", ".join(C.GOALZ[k][0] + (f" (player_{s.goal_won[k]})" if s.goal_won[k] >= 0 else "")
                                         for k in s.goals) + " | Citiez: " + ", ".join(C.KIND_NAMES[k] for k in g.board_cities(s)))
        lines.append("Come Upz: " + ", ".join(C.KIND_NAMES[k] if k >= 0 else "-" for k in s.slots)
                     + f" | decks {[d.n for d in s.decks]} come {[d.n for d in s.come_decks]} | supply {s.supply}")
        lines.append("Pick Upz on the tracks: " + ", ".join(
            f"{C.RESOURCES[i // 3]} {C.PICKUP_SPACES[i % 3]}: {C.PICKUP_TYPES[t]}" for i, t in enumerate(s.track_pickups) if t >= 0))
        if s.starter >= 0:
            lines.append(f"Beef: player_{s.starter} vs player_{s.target}, dice {s.dice}, bonus {s.bonus}")
        for p in range(s.num_players):
            albums = [card_count(s.hands[p][a:b]) for a, b in _ALBUM_SPANS]
            rapper = C.KIND_NAMES[s.rappers[p]] if s.rappers[p] >= 0 else "-"
            city = C.KIND_NAMES[s.cities[p]] if s.cities[p] >= 0 else "-"
            lines.append(f"player_{p}: {g.points(s, p)} pts {s.plaques[p]} | {rapper}{' (used)' if s.used[p] else ''}, {city}"
                         f" | res {s.res[p]} | Pick Upz {s.pickups[p]} | cubes {s.cubes[p]} | hand {albums}"
                         f" | held: {C.counts_to_string(s.held[p])} | timeline: {C.counts_to_string(s.timelines[p])}")
        lines.append("your hand: " + C.counts_to_string(s.hands[me]))
        if any(s.offers[me]):
            lines.append("your draft offer: " + C.counts_to_string(s.offers[me]))
        return "\n".join(lines)
