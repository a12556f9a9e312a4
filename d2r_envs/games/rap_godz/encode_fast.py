"""The fast Rap Godz encoder: the Observer the Game uses. Its vector is exactly the one encode.py, the
observation's spec, defines (tests/rap_godz/test_encode.py checks it byte for byte against
`encode.encode` at every node of seeded games, for every seat, player count and observation option);
its text is the spec's `string_from`. What it works out from fields that change seldom it keeps in the
Observer, never in the State.
"""

from __future__ import annotations

from itertools import compress
from typing import ClassVar

import numpy as np

from d2r_envs.core.obs import Observer as _Observer
from d2r_envs.games.rap_godz import cards as C
from d2r_envs.games.rap_godz import encode as spec
from d2r_envs.games.rap_godz import heuristic, standing
from d2r_envs.games.rap_godz.encode import LAYOUT, MAJORITY_MAX, NC, NCI, NP, NR, P, Options, layout_of
from d2r_envs.games.rap_godz.state import Phase, State

_COME, _RAP, _CITY = C.COME_FIRST, C.RAPPER_FIRST, C.CITY_FIRST
_O = LAYOUT.offsets
_SIZE = {piece.name: int(np.prod(piece.shape)) for piece in LAYOUT.pieces}
_VIEWS, _VIEWS_SIZE = _O["card_fit"], _O["majority"] - _O["card_fit"]  # card_fit .. come_cost, one run
_SLOT_FIT = _O["slot_fit"]
_COME_COST_AT = _O["come_cost"] - _VIEWS

# The piece `majority` as positions in the combos' values (3 a combo, then a 0 at the end for a Beef
# card's row), for bytes.translate.
_ZERO = 3 * len(standing.COMBOS)
_TO_256 = [bytes(256 - k) for k in range(256)]  # the zeros that make k bytes a translate table
_COMBO_ROWS = bytearray(j for i in standing.COMBO_OF
                        for j in ((3 * i, 3 * i + 1, 3 * i + 2) if i >= 0 else (_ZERO,) * 3))


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
_DYNAMIC_PHASES = frozenset((Phase.SPEND, Phase.TARGET, Phase.ROLL, Phase.BEEF))  # the only ones with a Beef or a buy
_CARD_DECK = [c.deck for c in C.CARDS]
# A hand's cards of each Album: the Album kinds, read as one big-endian integer and multiplied by a run
# of ones as long as an Album, add up each Album's counts at its last byte (every partial sum is a hand's
# few cards, under 256, so no byte carries into the next).
_ALBUM_LEN = len(C.ALBUM_KINDS[0])
_ONES = int.from_bytes(bytes([1] * _ALBUM_LEN), "big")
_ALBUM_SHIFTS = [8 * (_ALBUM_LEN * (C.ALBUMS - d) - 1) for d in range(C.ALBUMS)]  # where Album d's sum lies
assert C.ALBUM_KINDS == [list(range(d * _ALBUM_LEN, (d + 1) * _ALBUM_LEN)) for d in range(C.ALBUMS)] and C.ALBUMS == 3


def _onehot(i: int, width: int) -> bytes:
    return bytes(1 if j == i else 0 for j in range(width))


_RAPPER_ROW = {k: _onehot(k - _RAP, NR) for k in range(_RAP, _RAP + NR)} | {-1: bytes(NR)}  # kind (-1: none) -> row
_CITY_ROW = {k: _onehot(k - _CITY, NCI) for k in range(_CITY, _CITY + NCI)} | {-1: bytes(NCI)}

# A seat's career row on the board: its rows of the pieces `res` to `owed`, then of `held` to `timeline`;
# the plaque supply follows the last seat's row.
_CAREER_PIECES = (("res", 3), ("upgraded", 3), ("points", 1), ("plaques", 3), ("owed", 1),
                  ("held", NC), ("colours", C.NUM_COLOURS), ("icons", C.NUM_COLOURS), ("timeline", 3))
_RECORD = sum(w for _, w in _CAREER_PIECES)
_TIMELINE = 11 + NC  # where the timeline's columns start: cards per colour, icons per colour, cards, Come Upz, Beef cards
_COLUMNS = _RECORD - _TIMELINE
assert [w for _, w in _CAREER_PIECES[:6]] == [3, 3, 1, 3, 1, NC] and _COLUMNS == 2 * C.NUM_COLOURS + 3


def _kind_columns(k: int) -> tuple[tuple[int, int], ...]:
    """Card kind k's (column, amount) in a seat's timeline columns (a Beef card has no colour)."""
    c, nc = C.CARDS[k], C.NUM_COLOURS
    row = [] if c.beef else [(c.colour, 1), (nc + c.colour, c.icons)]
    return tuple(row + [(2 * nc, 1)] + ([(2 * nc + 1, 1)] if c.come else []) + ([(2 * nc + 2, 1)] if c.beef else []))


def _big_endian(pairs: tuple[tuple[int, int], ...]) -> int:
    """(column, amount) pairs as one big-endian integer of _COLUMNS bytes: a timeline's columns are its
    kinds' sums, each under 256, so adding the integers adds the columns."""
    cols = bytearray(_COLUMNS)
    for col, amount in pairs:
        cols[col] += amount
    return int.from_bytes(cols, "big")


_KIND_COLUMNS = [_big_endian(_kind_columns(k)) for k in range(NP)]


def _timeline_columns(timeline: bytearray) -> bytes:
    """A seat's timeline columns, from its timeline's cards per kind."""
    total = 0
    for k in compress(range(NP), timeline):
        total += timeline[k] * _KIND_COLUMNS[k]
    return total.to_bytes(_COLUMNS, "big")


def _counter_offsets(n: int) -> tuple[int, ...]:
    """Where the table's counts start on the board at n players, after the abilities used (a seat
    each): in-game Goalz won (per Goal, a seat each), Pick Upz on the track (per symbol, a type each),
    Pick Upz held (per seat, a type each), Beef cubes (a seat each), cubes left; then their width."""
    won = n
    track = won + C.NUM_GOALZ * n
    held = track + 3 * C.NUM_PICKUP_SPACES
    cubes = held + 3 * n
    return won, track, held, cubes, cubes + n, cubes + n + 1


class _Setup:
    """What the set-up fixes (each seat's Rapper and City, the Citiez on the board, the Goalz in play)."""

    __slots__ = ("rappers", "cities", "fixed", "city_colours", "majority")

    def __init__(self, game, s: State) -> None:
        self.rappers = b"".join([_RAPPER_ROW[k] for k in s.rappers])
        self.cities = b"".join([_CITY_ROW[k] for k in s.cities])
        fixed = bytearray(NCI + C.NUM_GOALZ)  # the pieces `board_cities` and `goals`
        for k in game.board_cities(s):
            fixed[k - _CITY] = 1
        for goal in s.goals:
            fixed[NCI + goal] = 1
        self.fixed = bytes(fixed)
        self.city_colours = [C.CITIEZ[k - _CITY].colour for k in game.board_cities(s)]
        self.majority = standing.signature(self.city_colours, s.goals)


# The views for learning and the piece slots by what they depend on, shared by every observer in the
# process. Their values are bytearrays, as are the heads, Beef rows and majority rows the observer keeps:
# a bytearray slice set from bytes first copies the bytes into a new bytearray.
_FITS: dict[tuple, bytearray] = {}  # (Rapper, City) -> the piece card_fit
_SHORTS: dict[tuple, bytearray] = {}  # resources -> the piece short (at most 31 ** 3 of them, 98 bytes each)
_SLOT_ROWS: dict[tuple, bytearray] = {}  # the face-up Come Upz -> the piece slots


def _fit(key: tuple) -> bytearray:
    """The piece `card_fit` for a (Rapper, City) (-1: none yet)."""
    rapper = C.RAPPERZ[key[0] - _RAP].colour if key[0] >= 0 else -2
    city = C.CITIEZ[key[1] - _CITY].colour if key[1] >= 0 else -2
    fit = _FITS[key] = bytearray(b"".join(bytes((c == rapper, c == city)) for c in _COLOUR))
    return fit


def _short(key: tuple) -> bytearray:
    """The piece `short` for these resources."""
    short = _SHORT_BY[0][key[0]] + _SHORT_BY[1][key[1]] + _SHORT_BY[2][key[2]]
    short = _SHORTS[key] = bytearray(short.to_bytes(NP, "big"))
    return short


def _slot_rows(slots: tuple) -> bytearray:
    """The piece `slots` for the face-up Come Upz."""
    rows = bytearray(C.MAX_SLOTS * NC)
    for j, k in enumerate(slots):
        if k >= 0:
            rows[j * NC + k - _COME] = 1
    if len(_SLOT_ROWS) >= 4096:
        _SLOT_ROWS.clear()
    _SLOT_ROWS[slots] = rows
    return rows


_NOTHING_SHORT = bytes([1] + [0] * 255)  # the piece short -> per card kind, 1 where I lack nothing for its lock


class _Board:
    """Where each piece lies in the observer's board: one byte array holding every seat's rows in
    seat order (not rotated), each seat's own pieces (hand, offer, views, majority) side by side, and
    the seat one-hots by absolute seat; `index[me]` gathers seat me's observation from it in one
    numpy take (rotating, padding with the zero byte)."""

    def __init__(self, n: int) -> None:
        self.n = n
        at = 0

        def take(size: int) -> int:
            nonlocal at
            start, at = at, at + size
            return start

        self.zero, self.one = take(1), take(1)
        self.head = take(_SIZE["phase"] + _SIZE["album"] + _SIZE["track"] + 3 * n)  # seats absolute
        # each seat's career row, then the plaque supply's
        self.career = take((n + 1) * _RECORD)
        self.supply = self.career + n * _RECORD
        self.hands, self.albums = take(n * C.NUM_KINDS), take(n * C.ALBUMS)
        self.rappers, self.cities = take(n * NR), take(n * NCI)
        self.offers = take(n * (NR + NCI))
        self.fixed = take(NCI + C.NUM_GOALZ)
        self.slots, self.decks = take(_SIZE["slots"]), take(6)
        # the table's counts: abilities used, Goalz won, Pick Upz on the track and held, Beef cubes
        offsets = _counter_offsets(n)
        self.used = take(offsets[-1])
        self.goal_won, self.track, self.pickups, self.cubes, self.cube_supply = (self.used + o for o in offsets[:5])
        self.beef = take(C.ALBUMS)
        self.starter, self.target = take(n), take(n)
        self.rest = take(_SIZE["dice"] + _SIZE["bonus"] + 1 + C.MAX_SLOTS)  # dice, bonus, spend_left, buying
        self.dynamic = (self.beef, at)  # beef_album .. buying: zero outside Beef and buying
        self.views, self.majority = take(n * _VIEWS_SIZE), take(n * NP * 3)
        self.playable = take(n * NP)  # per seat, per card kind: I could play it (slot_fit gathers from it)
        self.size = at
        self.timeline_at = [self.career + p * _RECORD + _TIMELINE for p in range(n)]  # each seat's timeline columns
        self.index = [self._index(me) for me in range(n)]
        # Each seat's slot_fit entries of its index, as writable bytes (a memoryview on the array): set
        # from the bytes below by slot_index, with no numpy call.
        self.slot_fit = [idx[_SLOT_FIT : _SLOT_FIT + 3 * C.MAX_SLOTS].data.cast("B") for idx in self.index]
        # per seat, per card kind k (-1: an empty slot), its slot_fit entries' board positions (as index bytes)
        self._slot_at = [{-1: _positions((self.zero,) * 3),
                          **{k: _positions((v + 2 * k, v + 2 * k + 1, self.playable + me * NP + k)) for k in range(NP)}}
                         for me, v in ((me, self.views + me * _VIEWS_SIZE) for me in range(n))]
        self._slot_pad = [_positions([self.zero] * (3 * (C.MAX_SLOTS - j))) for j in range(C.MAX_SLOTS + 1)]

    def _index(self, me: int) -> np.ndarray:
        n, idx = self.n, np.zeros(LAYOUT.size, np.intp)  # zero: the zero byte
        seat = [(me + j) % n for j in range(n)]  # relative place j -> absolute seat

        def put(name: str, source) -> None:
            """Piece `name`'s entries, in order, from the board positions `source` gives (a list)."""
            idx[_O[name] : _O[name] + len(source)] = source

        put("seats", [self.one] * n)
        head, w = self.head, _SIZE["phase"] + _SIZE["album"] + _SIZE["track"]
        put("phase", range(head, head + _SIZE["phase"]))
        put("album", range(head + _SIZE["phase"], head + _SIZE["phase"] + C.ALBUMS))
        put("track", range(head + _SIZE["phase"] + C.ALBUMS, head + w))
        for k, name in enumerate(("turn", "actor", "medallion")):
            put(name, [head + w + k * n + q for q in seat])
        at = 0
        for name, width in _CAREER_PIECES:
            put(name, [self.career + q * _RECORD + at + i for q in seat for i in range(width)])
            at += width
        put("supply", range(self.supply, self.supply + 3))
        put("hand", range(self.hands + me * C.NUM_KINDS, self.hands + me * C.NUM_KINDS + NP))
        put("hand_albums", [self.albums + q * C.ALBUMS + a for q in seat for a in range(C.ALBUMS)])
        put("rapper", [self.rappers + q * NR + i for q in seat for i in range(NR)])
        put("city", [self.cities + q * NCI + i for q in seat for i in range(NCI)])
        put("used", [self.used + q for q in seat])
        put("offer", range(self.offers + me * (NR + NCI), self.offers + (me + 1) * (NR + NCI)))
        put("board_cities", range(self.fixed, self.fixed + NCI))
        put("goals", range(self.fixed + NCI, self.fixed + NCI + C.NUM_GOALZ))
        for g in range(C.NUM_GOALZ):
            idx[_O["goal_won"] + g * P : _O["goal_won"] + g * P + n] = [self.goal_won + g * n + q for q in seat]
        put("slots", range(self.slots, self.slots + _SIZE["slots"]))
        put("decks", range(self.decks, self.decks + 6))
        put("track_pickups", range(self.track, self.track + _SIZE["track_pickups"]))
        put("pickups", [self.pickups + q * 3 + t for q in seat for t in range(3)])
        put("cubes", [self.cubes + q for q in seat])
        put("cube_supply", [self.cube_supply])
        put("beef_album", range(self.beef, self.beef + C.ALBUMS))
        put("starter", [self.starter + q for q in seat])
        put("target", [self.target + q for q in seat])
        rest = _O["buying"] + C.MAX_SLOTS - _O["dice"]
        idx[_O["dice"] : _O["dice"] + rest] = range(self.rest, self.rest + rest)
        idx[_VIEWS : _VIEWS + _VIEWS_SIZE] = range(self.views + me * _VIEWS_SIZE, self.views + (me + 1) * _VIEWS_SIZE)
        put("majority", range(self.majority + me * NP * 3, self.majority + (me + 1) * NP * 3))
        idx[_O["slot_fit"] : _O["slot_fit"] + 3 * C.MAX_SLOTS] = self.zero  # set by slot_index
        return idx

    def slot_index(self, me: int, slots: tuple) -> bytes:
        """Where seat me's piece `slot_fit` lies on the board for these face-up Come Upz (the bytes of
        its index entries): each slot's card_fit (two entries) and its playable entry."""
        return b"".join(map(self._slot_at[me].__getitem__, slots)) + self._slot_pad[len(slots)]


def _positions(at) -> bytes:
    """Board positions as the bytes of index entries (np.intp)."""
    return np.array(at, np.intp).tobytes()


# bonus, spend_left and buying within the board's `rest` (which starts with dice)
_BONUS_AT, _SPEND_AT, _BUYING_AT = _O["bonus"] - _O["dice"], _O["spend_left"] - _O["dice"], _O["buying"] - _O["dice"]
assert _O["bonus"] == _O["dice"] + _SIZE["dice"] and _O["spend_left"] == _O["bonus"] + 2 and _O["buying"] == _O["spend_left"] + 1
assert _O["come_cost"] + 1 == _O["majority"] and _O["short"] == _O["card_fit"] + 2 * NP


class _Encoder:
    """An observer's encoder: one board (`_Board`), every seat's rows in seat order, kept up to date where
    the state changed, and each seat's observation gathered from it, rotated, in one numpy take. It
    keeps copies of the plain fields it last wrote from and compares them with the state's
    (a few list and byte comparisons a call): the career rows (resources, plaques, Come Upz held, the
    timelines' columns), the cards of each Album per hand, the table's counts and the set-up's rows are
    written only where those differ; each seat's views for learning when its resources, its ability used
    or the set-up differ from what they were made from, from process-wide tables, and its piece majority
    when the timelines or the set-up changed. The head, the hand, the offer and the decks are written at
    every call. tests/rap_godz/test_encode.py checks it byte for byte against the spec (`encode.encode`)
    at every node, and across games and copies encoded in turn.
    """

    def __init__(self, game) -> None:
        self.game = game
        n = self.n = game.n
        b = self._b = _Board(n)
        self._board = bytearray(b.size)
        self._board[b.one] = 1
        self._array = np.frombuffer(self._board, np.uint8)
        self._heads: dict[tuple, bytearray] = {}  # (phase, album, track, turn, actor, medallion) -> the head
        # Copies of the fields the board was last written from (None: nothing written yet).
        self._res: list = [None] * n
        self._upgraded: list = [None] * n
        self._plaques: list = [None] * n
        self._owed: list = [None] * n
        self._supply: list | None = None
        self._held: list = [None] * n
        self._timelines: list = [None] * n
        self._hands: list = [None] * n  # for the cards of each Album per hand
        self._used: list | None = None
        self._goal_won: list | None = None
        self._track_pickups: list | None = None
        self._pickups: list | None = None
        self._cubes: list | None = None
        self._cube_supply = -1
        self._rappers: list | None = None  # the set-up: Rapperz, Citiez, the extra City, Goalz
        self._cities: list | None = None
        self._extra_city = -2
        self._goals: list | None = None
        self._setup_made: _Setup | None = None  # what the set-up fixes, made anew when it changed
        self._timelines_seen: object = None  # a new object each time the timelines were seen to change
        self._decks: tuple = ()  # the deck sizes last written
        self._offers = True  # the board may hold draft offers
        # Per seat, the resources, ability used and set-up its views were last written from.
        self._views_res: list = [None] * n
        self._views_used: list = [None] * n
        self._views_setup: list = [None] * n
        self._slots_seen: list | None = None  # the face-up Come Upz last written (a copy of State.slots)
        self._slots_key: tuple | None = None  # the same as a tuple, the key of the slot tables
        self._slots_indexed: list = [None] * n  # per seat, the key its index last gathered slot_fit for
        self._dynamic = True  # beef_album .. buying may hold something
        # (Beef card, starter, target, dice, bonus, spend left, slot) -> the pieces beef_album .. buying
        self._dynamics: dict[tuple, bytearray] = {}
        # Per seat, the timelines' change and the set-up its piece majority was made for.
        self._majority_timelines: list = [None] * n
        self._majority_setup: list = [None] * n

    def _write_setup(self, s: State) -> None:
        """The set-up's rows: Rapperz, Citiez, the Citiez on the board, Goalz."""
        b, board, n = self._b, self._board, self.n
        self._rappers, self._cities, self._extra_city, self._goals = s.rappers[:], s.cities[:], s.extra_city, s.goals[:]
        setup = self._setup_made = _Setup(self.game, s)
        board[b.rappers : b.rappers + n * NR] = setup.rappers
        board[b.cities : b.cities + n * NCI] = setup.cities
        board[b.fixed : b.fixed + NCI + C.NUM_GOALZ] = setup.fixed

    def _write_careers(self, s: State) -> None:
        """The rows `res` to `held` of each seat whose resources, Upgrade cubes, plaques, points owed or
        Come Upz held changed (a played card changes several at once), and the supply."""
        b, board = self._b, self._board
        seen_res, seen_up, seen_plaques, seen_owed, seen_held = self._res, self._upgraded, self._plaques, self._owed, self._held
        for p, (r, up, pl, owed, held) in enumerate(zip(s.res, s.upgraded, s.plaques, s.owed, s.held)):
            if r != seen_res[p] or pl != seen_plaques[p] or held != seen_held[p] or up != seen_up[p] or owed != seen_owed[p]:
                seen_res[p], seen_up[p], seen_plaques[p], seen_owed[p], seen_held[p] = r[:], up, pl[:], owed, held[:]
                at = b.career + p * _RECORD
                board[at : at + _TIMELINE] = bytes((r[0], r[1], r[2], up & 1, up >> 1 & 1, up >> 2 & 1,
                                                    min(255, self.game.points(s, p)), pl[0], pl[1], pl[2],
                                                    min(255, owed))) + held[_COME:NP]
        if s.supply != self._supply:
            self._supply = s.supply[:]
            board[b.supply : b.supply + 3] = bytes(s.supply)

    def _write_timelines(self, s: State) -> None:
        """The columns of each timeline that changed."""
        b, board, seen = self._b, self._board, self._timelines
        for p, tl in enumerate(s.timelines):
            if tl != seen[p]:
                seen[p] = tl[:]
                at = b.timeline_at[p]
                board[at : at + _COLUMNS] = _timeline_columns(tl)
        self._timelines_seen = object()

    def _write_albums(self, s: State) -> None:
        """The cards of each Album in the hands that changed."""
        b, board, seen = self._b, self._board, self._hands
        first, second, third = _ALBUM_SHIFTS
        for p, hand in enumerate(s.hands):
            if hand != seen[p]:
                seen[p] = hand[:]
                sums = int.from_bytes(hand[: C.COME_FIRST], "big") * _ONES
                at = b.albums + p * C.ALBUMS
                board[at : at + C.ALBUMS] = bytes((sums >> first & 255, sums >> second & 255, sums >> third & 255))

    def _write_counts(self, s: State) -> None:
        """The table's counts: abilities used, Goalz won, Pick Upz on the track and held, Beef cubes."""
        b, board, n = self._b, self._board, self.n
        if s.used != self._used:
            self._used = s.used[:]
            board[b.used : b.used + n] = bytes(s.used)
        if s.goal_won != self._goal_won:
            self._goal_won = s.goal_won[:]
            won = bytearray(C.NUM_GOALZ * n)
            for goal, p in enumerate(s.goal_won):
                if p >= 0:
                    won[goal * n + p] = 1
            board[b.goal_won : b.goal_won + len(won)] = won
        if s.track_pickups != self._track_pickups:
            self._track_pickups = s.track_pickups[:]
            track = bytearray(3 * C.NUM_PICKUP_SPACES)
            for i, t in enumerate(s.track_pickups):
                if t >= 0:
                    track[3 * i + t] = 1
            board[b.track : b.track + len(track)] = track
        if s.pickups != self._pickups:
            self._pickups = [pk[:] for pk in s.pickups]
            board[b.pickups : b.pickups + 3 * n] = bytes([x for pk in s.pickups for x in pk])
        if s.cubes != self._cubes or s.cube_supply != self._cube_supply:
            self._cubes, self._cube_supply = s.cubes[:], s.cube_supply
            board[b.cubes : b.cubes + n + 1] = bytes(s.cubes + [s.cube_supply])

    def _head(self, key: tuple) -> bytearray:
        phase, album, track, turn, actor, medallion = key
        n = self.n
        v = bytearray(_SIZE["phase"] + _SIZE["album"] + _SIZE["track"] + 3 * n)
        v[phase] = 1
        v[_SIZE["phase"] + album] = 1
        v[_SIZE["phase"] + C.ALBUMS + track] = 1
        at = _SIZE["phase"] + _SIZE["album"] + _SIZE["track"]
        for k, seat in enumerate((turn, actor, medallion)):
            if seat >= 0:
                v[at + k * n + seat] = 1
        self._heads[key] = v
        return v

    def encode(self, s: State, me: int) -> np.ndarray:
        b, board = self._b, self._board
        phase = s.phase
        key = (phase, s.album, s.track, s.turn, s.actor if phase != Phase.OVER and not s.chance else -1, s.medallion)
        head = self._heads.get(key) or self._head(key)
        board[b.head : b.head + len(head)] = head
        # what changed since the last call, by comparing the fields with the copies last written from
        if s.rappers != self._rappers or s.cities != self._cities or s.extra_city != self._extra_city \
                or s.goals != self._goals:
            self._write_setup(s)
        setup = self._setup_made
        if s.res != self._res or s.plaques != self._plaques or s.held != self._held or s.upgraded != self._upgraded \
                or s.owed != self._owed or s.supply != self._supply:
            self._write_careers(s)
        if s.timelines != self._timelines:
            self._write_timelines(s)
        if s.hands != self._hands:
            self._write_albums(s)
        if s.used != self._used or s.pickups != self._pickups or s.track_pickups != self._track_pickups \
                or s.cubes != self._cubes or s.goal_won != self._goal_won or s.cube_supply != self._cube_supply:
            self._write_counts(s)
        at = b.hands + me * C.NUM_KINDS
        board[at : at + C.NUM_KINDS] = s.hands[me]
        if phase <= Phase.CITY:  # my draft offer; every offer is empty once the draft (the City phase) is over (RG-SETUP-2)
            at = b.offers + me * (NR + NCI)
            board[at : at + NR + NCI] = s.offers[me][_RAP:]
            self._offers = True
        elif self._offers:
            board[b.offers : b.offers + self.n * (NR + NCI)] = bytes(self.n * (NR + NCI))
            self._offers = False
        d, c = s.decks, s.come_decks
        decks = (d[0].n, d[1].n, d[2].n, c[0].n, c[1].n, c[2].n)
        if decks != self._decks:  # a tuple set into the board costs more than this check
            self._decks = decks
            board[b.decks : b.decks + 6] = decks
        # The views for learning (card_fit to come_cost), when what they depend on changed: the fit by
        # (Rapper, City) and the shortfall by resources, from tables; slot_fit is gathered from them
        # (and from the kinds I could play) by the take, at the face-up Come Upz's kinds.
        res, used = s.res[me], s.used[me]
        if res != self._views_res[me] or used != self._views_used[me] or setup is not self._views_setup[me]:
            self._views_res[me], self._views_used[me], self._views_setup[me] = res[:], used, setup
            at = b.views + me * _VIEWS_SIZE
            fkey, rkey = (s.rappers[me], s.cities[me]), tuple(res)
            fit = _FITS.get(fkey) or _fit(fkey)
            short = _SHORTS.get(rkey) or _short(rkey)
            board[at : at + 2 * NP] = fit
            board[at + 2 * NP : at + 3 * NP] = short
            board[at + _COME_COST_AT] = self.game.come_cost(s, me)  # on the Rapper and its ability used only
            at = b.playable + me * NP
            board[at : at + NP] = short.translate(_NOTHING_SHORT)
        slots = s.slots
        if slots != self._slots_seen:  # the piece slots
            self._slots_seen = slots[:]
            self._slots_key = slots_key = tuple(slots)
            board[b.slots : b.slots + _SIZE["slots"]] = _SLOT_ROWS.get(slots_key) or _slot_rows(slots_key)
        indexed = self._slots_key
        if self._slots_indexed[me] is not indexed:  # where my slot_fit lies, for these slots
            assert indexed is not None  # (set above on the first call)
            self._slots_indexed[me] = indexed
            b.slot_fit[me][:] = b.slot_index(me, indexed)
        if self._timelines_seen is not self._majority_timelines[me] or setup is not self._majority_setup[me]:
            self._majority_timelines[me], self._majority_setup[me] = self._timelines_seen, setup
            at = b.majority + me * NP * 3
            board[at : at + NP * 3] = self._majority(s, me)
        # Beef and buying (beef_album .. buying): zero but in a Beef or while buying a Come Upz.
        if phase in _DYNAMIC_PHASES:
            self._write_dynamic(s)
        elif self._dynamic:
            start, end = b.dynamic
            board[start:end] = bytes(end - start)
            self._dynamic = False
        # mode="wrap": every index lies on the board, and numpy's wrap loop is cheaper than its raising one
        return self._array.take(b.index[me], mode="wrap").astype(np.float32)

    def _write_dynamic(self, s: State) -> None:
        b, board = self._b, self._board
        start, end = b.dynamic
        key = (s.beef_card, s.starter, s.target, *s.dice, *s.bonus, s.spend_left, s.slot)
        v = self._dynamics.get(key)
        if v is None:
            v = self._dynamics[key] = self._dynamic_bytes(s)
        board[start:end] = v
        self._dynamic = True

    def _dynamic_bytes(self, s: State) -> bytearray:
        """The pieces beef_album .. buying (seats absolute)."""
        b = self._b
        start, end = b.dynamic
        v = bytearray(end - start)
        if s.beef_card >= 0:
            v[_CARD_DECK[s.beef_card]] = 1
        if s.starter >= 0:
            v[b.starter - start + s.starter] = 1
        if s.target >= 0:
            v[b.target - start + s.target] = 1
        rest = b.rest - start
        for i in range(3):
            if s.dice[i]:
                v[rest + i * C.DIE_SIDES + s.dice[i] - 1] = 1
        v[rest + _BONUS_AT : rest + _BONUS_AT + 2] = s.bonus
        v[rest + _SPEND_AT] = s.spend_left
        if s.slot >= 0:
            v[rest + _BUYING_AT + s.slot] = 1
        if len(self._dynamics) >= 4096:
            self._dynamics.clear()
        return v

    def _majority(self, s: State, me: int) -> bytearray:
        """The piece `majority` of seat `me`, from the timelines' columns (in the career rows)."""
        board = self._board
        setup = self._setup_made
        assert setup is not None  # written before any majority
        cols = [board[at : at + _COLUMNS] for at in self._b.timeline_at]
        values = standing.quantized(cols, setup.majority, me, 20, MAJORITY_MAX)
        return _COMBO_ROWS.translate(values + _TO_256[len(values)])


class Observer(_Observer):
    """The Rap Godz Observer: `encode` is its `_Encoder`'s, a plain class of its own (where the build
    compiles this module, a native one: the Observer derives from core's Python Observer and so is not),
    then under the option `outlook` the tuned heuristic's outlook."""

    Options: ClassVar[type] = Options
    layout = LAYOUT

    def __init__(self, game, outlook: bool = False) -> None:
        self.game = game
        self.outlook = outlook
        self.options = {"outlook": outlook}
        self.layout = layout_of(outlook)
        self._encoder = _Encoder(game)

    def encode(self, s: State, me: int) -> np.ndarray:
        v = self._encoder.encode(s, me)
        if self.outlook:
            return np.concatenate((v, np.array(heuristic.outlook(self.game, s, me), np.float32)))
        return v

    def string_from(self, s: State, me: int) -> str:
        return spec.string_from(self.game, s, me)
