"""The fast Extravaganza encoder: the Observer the Game uses. Its vector is exactly the one encode.py,
the observation's spec, defines, with the views for learning (from views.py) and without
(tests/extravaganza/test_encode.py checks it byte for byte against `encode.encode` at every node of
seeded games, for every seat and player count); its text is the spec's `string_from`. It keeps each
seat's vector and rewrites only the pieces whose fields changed.
"""

from __future__ import annotations

from operator import attrgetter, itemgetter
from typing import ClassVar

import numpy as np

from d2r_envs.core.obs import Observer as _Observer
from d2r_envs.core.zones import card_count
from d2r_envs.games.extravaganza import cards as C, heuristic, views
from d2r_envs.games.extravaganza import encode as spec
from d2r_envs.games.extravaganza.encode import J, K, L, NC, P, S, SONG, Options, layout_of
from d2r_envs.games.extravaganza.state import Op, State

_ONE = [bytes(1 if i == j else 0 for i in range(64)) for j in range(64)]


def _onehot(i: int, width: int) -> bytes:
    return _ONE[i][:width] if i >= 0 else bytes(width)


_BITS = [bytes((m >> c) & 1 for c in range(NC)) for m in range(32)]


def _bits(mask: int) -> bytes:
    return _BITS[mask]


def _table(width: int, count: int) -> list[bytes]:
    """Row i: the one-hot of i in `width` entries, for i in 0..count-1; row -1 (the last): all zeros."""
    return [_onehot(i, width) for i in range(count)] + [bytes(width)]


_COLOUR_ROW = _table(NC, NC)
_SPACE_ROW = _table(S, S)
_QUEEN_ROW = _table(C.NUM_QUEENS, C.NUM_QUEENS)
_CAT_ROW = _table(C.NUM_CATEGORIES, C.NUM_CATEGORIES)
_DESIRE_ROW = _table(C.NUM_DESIRE_KINDS, C.NUM_DESIRE_KINDS)


def _row(ids, width: int) -> bytearray:
    """A row with a 1 at each id (ids >= 0)."""
    row = bytearray(width)
    for i in ids:
        row[i] = 1
    return row


def _rows(lists: list, width: int) -> list[bytearray]:
    """Per list of ids, a row with a 1 at each id."""
    return [_row(ids, width) for ids in lists]


_AT = layout_of(True, True).offsets  # the state's pieces lie at the same offsets in all three
_FIRST, _TURN, _DECIDER, _OP = _AT["first"], _AT["turn"], _AT["decider"], _AT["op"]
_STAGE, _QUEEN_AT, _QUEEN_OF = _AT["stage"], _AT["queen_at"], _AT["queen_of"]
_SUPPLY, _BAG, _SPENT, _LIPS, _HAND_SIZE = _AT["supply"], _AT["bag"], _AT["spent"], _AT["lips"], _AT["hand_size"]
_HAND, _STACKS, _TOP, _DISPLAY, _DECK_SIZE = _AT["hand"], _AT["stacks"], _AT["top"], _AT["display"], _AT["deck_size"]
_CATEGORIES = _AT["categories"]
_REMOVED, _SONG_COLOUR, _SONG_NEXT, _END = _AT["removed"], _AT["song_colour"], _AT["song_next"], _AT["end_triggered"]
_LYRICS, _CLAIMING, _SCORES, _TENS, _TENS_LEFT = _AT["lyrics"], _AT["claiming"], _AT["scores"], _AT["tens"], _AT["tens_left"]
_DESIRE_FACE, _DESIRES = _AT["desire_face"], _AT["desires"]
_REVEAL_HAND, _REVEAL_COUNT, _REVEALED = _AT["reveal_hand"], _AT["reveal_count"], _AT["revealed"]
_TURNS, _MOVED, _PATH, _LANDED, _LAND_COLOUR = _AT["turns"], _AT["moved"], _AT["path"], _AT["landed"], _AT["land_colour"]
_DANCED, _DANCE_AREA, _SPENT_KINDS, _TURN_POINTS = _AT["danced"], _AT["dance_area"], _AT["spent_kinds"], _AT["turn_points"]
_REVEALED_TURN, _PAYMENT, _HALF, _CHOICE = _AT["revealed_turn"], _AT["payment"], _AT["half"], _AT["choice"]
_SHOWN, _SHADE_PICKED, _BEDAZZLED, _ODDY_DONE = _AT["shown"], _AT["shade_picked"], _AT["bedazzled"], _AT["oddy_done"]
_DISPLAY_COLOUR = _AT["display_colour"]
_REACH, _TOLL = _AT["reach"], _AT["toll"]
_DANCE_RATE, _PAYABLE, _DRAW_POINTS = _AT["dance_rate"], _AT["payable"], _AT["draw_points"]
_LANDING_GAIN, _DRAW_GAIN, _COLOUR_COUNT = _AT["landing_gain"], _AT["draw_gain"], _AT["colour_count"]
_OUTLOOK = _AT["move_outlook"]  # then draw_outlook: contiguous
assert _LIPS + P == _AT["lip_supply"] and _HAND_SIZE + P == _HAND and _TURN == _FIRST + P  # written as one run
assert _PAYABLE == _DANCE_RATE + J and _DRAW_POINTS == _PAYABLE + 1 and _TOLL == _REACH + S  # written as one run
_SEAT_OPS = frozenset((Op.DRAFT, Op.PLACE, Op.SETUP_DRAW, Op.SHOW_OTHER))  # rules.Game.current_player
_U8, _F32 = np.uint8, np.float32
_SIZE = attrgetter("n")  # a Deck's size
_KINDS_BITS = [_BITS[m >> NC] + _BITS[m & 31] for m in range(1024)]  # spent_kinds: actual bits, card bits
_CARD_COLOUR_ROW = [_COLOUR_ROW[C.CARD_COLOUR[k]] for k in range(K)] + [bytes(NC)]  # by card id; -1: none
_CARD_STARS = list(C.CARD_STARS) + [0]  # by card id; -1: none
_NO_POINTS = [0] * J


def _rotated(rows: list, me: int) -> bytes:
    """Per-seat rows (bytes), in seat order, as seat `me` sees them: itself first, then to its left."""
    return b"".join(rows[me:] + rows[:me])


class _Seen:
    """What one seat's base vector was last written from: copies of the state's fields (None: not yet).
    Each group of pieces is rewritten only when its fields differ from these by value."""

    __slots__ = ("stage", "pos", "queen", "stacks", "cats", "song", "lyrics", "revealed",
                 "supply", "hands", "lips", "spent", "bag", "lip_supply", "display", "deck_size", "removed",
                 "scores", "turns", "whose", "song_at", "claiming", "tens", "tens_left", "reveal_hands",
                 "desire_face", "desires")

    def __init__(self) -> None:
        self.stage: list[int] | None = None
        self.pos: list[int] | None = None
        self.queen: list[int] | None = None
        self.stacks: list[list[int] | None] | None = None  # per seat (None: not yet)
        self.cats: list[int] | None = None
        self.song: list[int] | None = None
        self.lyrics: list[list[int] | None] | None = None  # per seat
        self.revealed: list[list[int]] | None = None
        self.supply: list[list[int] | None] | None = None  # per seat
        self.hands: list[bytes | None] | None = None  # per seat
        self.lips: list[int] | None = None
        self.spent: list[int] | None = None
        self.bag: bytearray | None = None
        self.lip_supply: int | None = None
        self.display: list[int] | None = None
        self.deck_size: list[int] | None = None
        self.removed: bytes | None = None
        self.scores: list[list[int]] | None = None
        self.turns: list[int] | None = None
        self.whose: tuple[int, int] | None = None
        self.song_at: tuple[int, bool | None] = (-1, None)  # song_next, end_triggered
        self.claiming: list[int] | None = None
        self.tens: list[list[int] | None] | None = None  # per seat
        self.tens_left: list[int] | None = None
        self.reveal_hands: list[bytes] | None = None
        self.desire_face: list[int] | None = None
        self.desires: list[list[int] | None] | None = None  # per seat


class _Encoder:
    """An observer's encoder: `encode` copies the seat's base vector, writes the pieces of the turn under
    way into the copy and converts it. The base holds every other piece, each group rewritten only when the fields it shows
    differ from the copies it was written from (`_Seen`), and per seat where a piece has a row per
    seat: most steps change a few of them. tests/extravaganza/test_encode.py checks it byte for byte against the spec
    (`encode.encode`) at every node of random games, with and without the views."""

    def __init__(self, game, views: bool, outlook: bool) -> None:
        self.game = game
        self.views = views
        self.outlook = outlook
        layout = layout_of(views, outlook)
        n = game.n
        self._orders = [tuple((me + i) % n for i in range(n)) for me in range(n)]
        self._pad = [0] * (P - n)  # one entry per seat row not in the game
        self._no_rows = [-1] * (P - n)  # the same, in a one-hot table (row -1: zeros)
        self._base = []  # per seat: what never changes in the game, then the kept groups
        for me in range(n):
            f = layout.frame(layout.blank(), me, n)
            f.put("modules", (int(game.powers), int(game.desires_on), int(game.tens_on)))
            for k in range(n):
                f.one("seats", k)
            f.put("areas", b"".join(_onehot(game.areas[sp], NC) for sp in range(S)))
            f.one("flag", game.flag_slot)
            self._base.append(bytearray(f))
        self._seen = [_Seen() for _ in range(n)]
        self._stage: tuple = (None, b"")  # a copy of State.stage and the piece stage for it (every seat's)

    def _write_stacks(self, base: bytearray, s: State, me: int, k: _Seen) -> None:
        """The rows of stacks and top of each seat whose stack changed."""
        seen = k.stacks or [None] * self.game.n
        for q, stack in enumerate(s.stacks):
            if stack != seen[q]:
                seen[q] = stack[:]
                r = (q - me) % self.game.n
                base[_STACKS + r * K:_STACKS + (r + 1) * K] = _row(stack, K)
                at = _TOP + r * C.NUM_CATEGORIES
                base[at:at + C.NUM_CATEGORIES] = _CAT_ROW[C.CARD_CATEGORY[stack[-1]] if stack else -1]
        k.stacks = seen

    def _write_seldom(self, base: bytearray, s: State, me: int, k: _Seen) -> None:
        """Those of queen_of, categories, song_colour + song_words and lyrics that changed."""
        queen = s.queen
        if queen != k.queen:
            k.queen = queen[:]
            base[_QUEEN_OF:_QUEEN_OF + C.NUM_QUEENS * self.game.n] = b"".join(
                map(_QUEEN_ROW.__getitem__, queen[me:] + queen[:me]))
        if s.cats != k.cats:
            k.cats = s.cats[:]
            base[_CATEGORIES:_CATEGORIES + J * C.NUM_CATEGORIES] = b"".join(_CAT_ROW[c] for c in s.cats)
        if s.song != k.song:
            k.song = s.song[:]
            song = (b"".join(_COLOUR_ROW[C.LYRIC_COLOUR[t] if t >= 0 else -1] for t in s.song)
                    + bytes(NC * (SONG - len(s.song)))
                    + bytes(C.LYRIC_STARS[t] if t >= 0 else 0 for t in s.song))
            base[_SONG_COLOUR:_SONG_COLOUR + len(song)] = song
        n = self.game.n
        lyrics = s.lyrics
        if lyrics != k.lyrics:
            seen = k.lyrics or [None] * n
            for q in range(n):
                if lyrics[q] != seen[q]:
                    seen[q] = lyrics[q][:]
                    at = _LYRICS + (q - me) % n * L
                    base[at:at + L] = _row(seen[q], L)
            k.lyrics = seen

    def _write_stones(self, base: bytearray, s: State, me: int, k: _Seen) -> None:
        """The supply rows of the seats whose supply changed; bag, spent."""
        if s.supply != k.supply:
            k.supply = self._write_rows(base, _SUPPLY, NC, s.supply, k.supply, me)
        counts = s.bag.counts
        if counts != k.bag:
            k.bag = counts[:]
            base[_BAG:_BAG + NC] = k.bag
        if s.spent != k.spent:
            k.spent = s.spent[:]
            base[_SPENT:_SPENT + NC] = k.spent

    def _write_hands(self, base: bytearray, hands: list, me: int, k: _Seen) -> None:
        """hand_size and hand, for the seats whose hand changed."""
        n = self.game.n
        seen = k.hands
        if seen is None:
            seen = k.hands = [None] * n
        for q in range(n):
            hand = hands[q]
            if hand != seen[q]:
                seen[q] = bytes(hand)
                base[_HAND_SIZE + (q - me) % n] = card_count(hand)
                if q == me:
                    base[_HAND:_HAND + K] = hand  # EX-DECIDE-HIDDEN: my own hand only

    def _write_display(self, base: bytearray, s: State, k: _Seen, sizes: list[int]) -> None:
        """display (the cards that left it cleared, those that came set) and deck_size."""
        old, display = k.display or (), s.display
        for c in old:
            if c >= 0:
                base[_DISPLAY + c] = 0
        for c in display:
            if c >= 0:
                base[_DISPLAY + c] = 1
        k.display, k.deck_size = display[:], sizes
        base[_DECK_SIZE:_DECK_SIZE + J] = sizes

    def _write_song_at(self, base: bytearray, s: State, k: _Seen) -> None:
        """song_next, end_triggered, claiming."""
        k.song_at, k.claiming = (s.song_next, s.end_triggered), s.claiming[:]
        row = bytearray(SONG + 1)
        row[s.song_next if s.song_next < self.game.song_length else SONG] = 1
        base[_SONG_NEXT:_SONG_NEXT + SONG + 1] = row
        base[_END] = 1 if s.end_triggered else 0
        base[_CLAIMING:_CLAIMING + L] = _row(k.claiming, L)

    def _write_modules(self, base: bytearray, s: State, me: int, k: _Seen) -> None:
        """The pieces of 10s & Reveals and of Judge Desires that changed (a module's stay 0 when it is off)."""
        n = self.game.n
        if self.game.tens_on:
            if s.revealed != k.revealed:
                k.revealed = list(map(list, s.revealed))
                base[_REVEALED:_REVEALED + C.NUM_REVEALS * n] = _rotated(_rows(s.revealed, C.NUM_REVEALS), me)
            tens = s.tens
            if tens != k.tens:
                k.tens = self._write_rows(base, _TENS, J, tens, k.tens, me)
            if s.tens_left != k.tens_left:
                k.tens_left = s.tens_left[:]
                base[_TENS_LEFT:_TENS_LEFT + J] = k.tens_left
            if s.reveal_hands != k.reveal_hands:
                k.reveal_hands = list(map(bytes, s.reveal_hands))
                base[_REVEAL_HAND:_REVEAL_HAND + C.NUM_REVEALS] = k.reveal_hands[me]  # EX-DECIDE-HIDDEN: mine only
                counts = list(map(card_count, k.reveal_hands))
                base[_REVEAL_COUNT:_REVEAL_COUNT + n] = counts[me:] + counts[:me]
        if self.game.desires_on:
            face = s.desire_face
            if face != k.desire_face:
                k.desire_face = face[:]
                base[_DESIRE_FACE:_DESIRE_FACE + J * C.NUM_DESIRE_KINDS] = b"".join(itemgetter(*face)(_DESIRE_ROW))
            desires = s.desires
            if desires != k.desires:
                k.desires = self._write_rows(base, _DESIRES, J, desires, k.desires, me)

    def _write_rows(self, base: bytearray, at: int, width: int, rows: list, seen: list | None, me: int) -> list:
        """The per-seat rows (lists of counts) of a piece that differ from `seen`, each at its seat's place
        as `me` sees them; the new copies."""
        n = self.game.n
        seen = seen or [None] * n
        for q in range(n):
            if rows[q] != seen[q]:
                seen[q] = row = rows[q][:]
                i = at + (q - me) % n * width
                base[i:i + width] = row
        return seen

    def encode(self, s: State, me: int) -> np.ndarray:
        g = self.game
        n = g.n
        base, k = self._base[me], self._seen[me]
        # the kept groups, each compared with what it was written from
        stage = s.stage
        if stage != k.stage:
            kept = self._stage  # the piece is the same for every seat
            if stage != kept[0]:
                kept = self._stage = (stage[:], b"".join(itemgetter(*stage)(_COLOUR_ROW)))
            k.stage = kept[0]
            base[_STAGE:_STAGE + S * NC] = kept[1]
        pos = s.pos
        if pos != k.pos:
            k.pos = pos[:]
            base[_QUEEN_AT:_QUEEN_AT + S * P] = b"".join(itemgetter(*pos[me:], *pos[:me], *self._no_rows)(_SPACE_ROW))
        if s.stacks != k.stacks:
            self._write_stacks(base, s, me, k)
        self._write_seldom(base, s, me, k)
        self._write_modules(base, s, me, k)
        if s.supply != k.supply or s.spent != k.spent or s.bag.counts != k.bag:
            self._write_stones(base, s, me, k)
        lips = s.lips
        if lips != k.lips or s.lip_supply != k.lip_supply:
            k.lips, k.lip_supply = lips[:], s.lip_supply
            base[_LIPS:_LIPS + P + 1] = lips[me:] + lips[:me] + self._pad + [s.lip_supply]  # lips, lip_supply
        hands = s.hands
        if hands != k.hands:
            self._write_hands(base, hands, me, k)
        # deck sizes read every time: in one game they change with the display, but two branches of a
        # search may show the same display over decks of different sizes
        sizes = list(map(_SIZE, s.decks))
        if s.display != k.display or sizes != k.deck_size:
            self._write_display(base, s, k, sizes)
        if s.removed != k.removed:
            k.removed = bytes(s.removed)
            base[_REMOVED:_REMOVED + K] = k.removed
        scores = s.scores
        if scores != k.scores:
            k.scores = list(map(list, scores))
            row = []
            for q in self._orders[me]:
                row += scores[q]
            base[_SCORES:_SCORES + J * n] = row
        turns = s.turns
        if turns != k.turns:
            k.turns = turns[:]
            base[_TURNS:_TURNS + n] = turns[me:] + turns[:me]
        first, turn = s.first, s.turn
        if (first, turn) != k.whose:
            k.whose = (first, turn)
            whose = bytearray(2 * P)  # first, turn: contiguous
            if first >= 0:
                whose[(first - me) % n] = 1
            if turn >= 0:
                whose[P + (turn - me) % n] = 1
            base[_FIRST:_FIRST + 2 * P] = whose
        if s.song_next != k.song_at[0] or s.end_triggered != k.song_at[1] or s.claiming != k.claiming:
            self._write_song_at(base, s, k)
        v = bytearray(base)
        # the step under way, and this turn's pieces (mostly zero)
        if not s.over:
            head = s.todo[0]
            code = head.op
            v[_OP + code] = 1
            if code >= 10:  # who decides (rules.Game.current_player; none at chance)
                who = head.arg if code in _SEAT_OPS else turn
                if who >= 0:
                    v[_DECIDER + (who - me) % n] = 1
        if s.moved or s.passed or s.strut:
            v[_MOVED:_MOVED + 3] = (s.moved, s.passed, min(s.strut, 60))
        if s.path:
            for sp in s.path:
                v[_PATH + sp] = 1
        if s.landed >= 0:
            v[_LANDED + s.landed] = 1
        if s.land_colour >= 0:
            v[_LAND_COLOUR + s.land_colour] = 1
        danced = s.playing if s.playing >= 0 else s.danced
        if danced >= 0:
            v[_DANCED + danced] = 1
        if s.dance_area >= 0:
            v[_DANCE_AREA + s.dance_area] = 1
        if s.spent_actual or s.spent_cards:
            v[_SPENT_KINDS:_SPENT_KINDS + 2 * NC] = _KINDS_BITS[s.spent_actual << NC | s.spent_cards]
        points = s.turn_points
        if points != _NO_POINTS and points:
            try:
                v[_TURN_POINTS:_TURN_POINTS + J] = points
            except ValueError:  # (clipped at 255)
                v[_TURN_POINTS:_TURN_POINTS + J] = [x if x < 255 else 255 for x in points]
        if s.revealed_turn:
            v[_REVEALED_TURN] = 1
        stars, paid = s.stars, s.paid
        if stars or paid or s.stage_used:
            v[_PAYMENT:_PAYMENT + 4] = (stars, paid, s.stage_used, stars - paid if stars > paid else 0)
        if s.half >= 0:
            v[_HALF + s.half] = 1
        if s.choice >= 0:
            v[_CHOICE + s.choice] = 1
        if s.shown:
            for c in s.shown:
                v[_SHOWN + c] = 1
        if s.shade_picked:
            for j in s.shade_picked:
                v[_SHADE_PICKED + j] = 1
        if s.bedazzled:
            for sp in s.bedazzled:
                v[_BEDAZZLED + sp] = 1
        if s.oddy_done:
            for q in s.oddy_done:
                v[_ODDY_DONE + (q - me) % n] = 1
        if self.views:
            self._write_views(v, s, me)
        if self.outlook:
            v[_OUTLOOK:_OUTLOOK + heuristic.OUTLOOK_SIZE] = heuristic.outlook(self.game, s, me)
        return np.frombuffer(v, _U8).astype(_F32)

    def _write_views(self, v: bytearray, s: State, me: int) -> None:
        """The views for learning (the views layout's last pieces)."""
        g = self.game
        display = s.display
        view = (b"".join(map(_CARD_COLOUR_ROW.__getitem__, display)) + bytes(map(_CARD_STARS.__getitem__, display))
                + bytes(g.lips_by_judge(s, me)))  # display_colour, display_stars, draw_lips: contiguous
        v[_DISPLAY_COLOUR:_DISPLAY_COLOUR + len(view)] = view
        if s.turn == me and not s.over:
            code = s.todo[0].op
            if code == Op.MOVE or code == Op.DRAW:
                rates = views.dance_rates(g, s, me)
                if code == Op.MOVE:
                    gains, reach, toll = views.move_views(g, s, me, rates)
                    v[_REACH:_REACH + 2 * S] = reach + toll  # reach, toll: contiguous
                    v[_LANDING_GAIN:_LANDING_GAIN + S] = gains
                else:
                    v[_DRAW_GAIN:_DRAW_GAIN + J + 1] = views.dance_gains(g, s, me, rates)
                pay = views.payable_stars(g, s, me)
                v[_DANCE_RATE:_DANCE_RATE + 2 * J + 1] = (
                    [r if r < 60 else 60 for r in rates] + [pay if pay < 20 else 20]
                    + [0 if k < 0 else min(255, rate * min(pay, _CARD_STARS[k])) for k, rate in zip(display, rates)])
            elif code == Op.ELEGANZA or code == Op.FLOORWERK:
                v[_COLOUR_COUNT:_COLOUR_COUNT + NC] = views.colour_counts(g, s)


class Observer(_Observer):
    """The Extravaganza Observer: `encode` is its `_Encoder`'s, a plain class of its own (where the build
    compiles this module, a native one: the Observer derives from core's Python Observer and so is not)."""

    Options: ClassVar[type] = Options
    layout = layout_of(False, False)

    def __init__(self, game, views: bool = False, outlook: bool = False) -> None:
        Options(views=views, outlook=outlook)  # outlook needs views
        self.game = game
        self.views = views
        self.options = {"views": views, "outlook": outlook}
        self.layout = layout_of(views, outlook)
        self._encoder = _Encoder(game, views, outlook)

    def encode(self, s: State, me: int) -> np.ndarray:
        return self._encoder.encode(s, me)

    def string_from(self, s: State, me: int) -> str:
        return spec.string_from(self.game, s, me)
