"""The fast Filthy Rich encoder: the Observer the Game uses. Its vector is exactly the one encode.py,
the observation's spec, defines (tests/filthy_rich/test_encode.py checks it byte for byte against
`encode.encode` at every node of seeded games, for every seat and player count, the option on and off);
its text is the spec's `string_from`.
"""

from __future__ import annotations

from operator import itemgetter, mul

import numpy as np

from d2r_envs.core.obs import Observer as _Observer
from d2r_envs.core.zones import card_counts
from d2r_envs.games.filthy_rich import cards as C
from d2r_envs.games.filthy_rich import encode as spec
from d2r_envs.games.filthy_rich.encode import LAYOUT, MONEY, NA, B, L, P, PG, S
from d2r_envs.games.filthy_rich.state import NO_OWNER, Phase, State

_O = LAYOUT.offsets
# Offsets by piece name (not by position: a piece added to LAYOUT cannot shift them).
_PHASE = _O["phase"]
_ASK = _O["ask"]
_ACTOR = _O["actor"]
_TURN = _O["turn"]
_MONEY = _O["money"]
_PAGE = _O["page"]
_ACTIONS = _O["actions_left"]
_DICE = _O["dice"]
_NDICE = _O["dice_count"]
_HAND = _O["hand"]
_HSIZE = _O["hand_sizes"]
_DECK = _O["deck_size"]
_DISCARD = _O["discard"]
_ALIVE = _O["alive"]
_ASSETS = _O["assets"]
_BUSINESSES = _O["businesses"]
_LUX = _O["luxuries"]
_FOR_SALE = _O["for_sale"]
_TAXES = _O["taxes"]
_BOOK = _O["book"]
_VISIBLE = _O["visible"]
_VOWNER = _O["visible_owner"]
_CARD = _O["card"]
_LOT = _O["lot"]
_HIGH = _O["high_bid"]
_HIGH_BIDDER = _O["high_bidder"]
_LOWEST = _O["lowest_bid"]
_A0, _A1 = C.ASSET_KINDS[0], C.ASSET_KINDS[-1] + 1
assert C.ASSET_KINDS == tuple(range(_A0, _A1)), "the asset kinds must be contiguous"
assert (sum(b.tax for b in C.BUSINESSES) + sum(x.tax for x in C.LUXURIES)
        + sum(C.card_of(k).tax * C.COPIES[k] for k in C.ASSET_KINDS)) <= 64, "taxes fit their piece unclipped"
_SIGN = [bytes(1 if i == b else 0 for i in range(B)) for b in range(B)] + [bytes(B)]  # business (-1: none) -> one-hot
_IS = [bytes(1 if x == q + 1 else 0 for x in range(256)) for q in range(P)]  # translate: seat + 1 -> 1, else 0
_BYTE = [bytes((i,)) for i in range(256)]  # a number -> its one byte
_PADS = [(bytes(P - n), bytes((P - n) * NA), bytes((P - n) * B), bytes((P - n) * L)) for n in range(P + 1)]  # per n


_HEADS: dict[tuple, bytes] = {}  # (phase, ask, actor's place, turn's place) -> the pieces `phase` to `turn`


def _head(key: tuple) -> bytes:
    phase, ask, actor, turn = key
    v = bytearray(_O["money"] - _O["phase"])
    v[phase] = 1
    v[_ASK - _PHASE + ask] = 1
    if actor >= 0:  # (before the first turn, and once the game is over, nobody acts)
        v[_ACTOR - _PHASE + actor] = 1
        v[_TURN - _PHASE + turn] = 1
    head = _HEADS[key] = bytes(v)
    return head


def _turn_bytes(page: int, actions_left: int, extra_dice: int) -> bytes:
    """The pieces `page` to `dice_count` before any die is rolled."""
    v = bytearray(_O["hand"] - _O["page"])
    v[page] = 1
    v[PG + actions_left] = 1
    v[-1] = min(page + 1 + extra_dice, 255)
    return bytes(v)


_TURN_BYTES = [[[_turn_bytes(pg, a, x) for x in range(8)] for a in range(C.ACTIONS_PER_TURN + 1)] for pg in range(PG)]


def _dice_bytes(page: int, actions_left: int, dice: list[int], extra_dice: int) -> bytes:
    """The pieces `page` to `dice_count` once dice are rolled."""
    v = bytearray(_O["hand"] - _O["page"])
    v[page] = 1
    v[PG + actions_left] = 1
    for d in dice:
        v[_DICE - _PAGE + d] += 1
    v[-1] = page + 1 + extra_dice
    return bytes(v)


def _tail(game, s: State, rel: list[int]) -> bytes:
    """The pieces `card` to `lowest_bid`, for a card being played or an auction."""
    v = bytearray(_O["lowest_bid"] + 1 - _CARD)
    if s.card >= 0:
        v[s.card - B] = 1
    if s.phase == Phase.AUCTION:
        v[_LOT - _CARD + s.lot] = 1
        if s.high >= 0:
            v[_HIGH - _CARD] = min(s.high, MONEY)
            v[_HIGH_BIDDER - _CARD + rel[s.high_bidder]] = 1
        v[_LOWEST - _CARD] = min(game.lowest_bid(s), MONEY)
    return bytes(v)


_NO_TAIL = bytes(_O["lowest_bid"] + 1 - _CARD)
LAYOUT.check_order(  # encode() joins the observation from its pieces in this order
    "seats", "options", "phase", "ask", "actor", "turn", "money", "page", "actions_left", "dice", "dice_count",
    "hand", "hand_sizes", "deck_size", "discard", "alive", "assets", "businesses", "luxuries", "for_sale", "taxes",
    "book", "visible", "visible_owner", "card", "lot", "high_bid", "high_bidder", "lowest_bid")


def _held(owners: list[int], n: int) -> bytes:
    """Per seat in seat order, a byte per item: 1 where that seat holds it."""
    rows = [bytearray(len(owners)) for _ in range(n)]
    for item, o in enumerate(owners):
        if o >= 0:
            rows[o][item] = 1
    return b"".join(rows)


class _Table:
    """What the observation keeps of the table, with copies of the fields it was worked out from:
    who runs each business, who owns each luxury, the assets, who is in and the book. `encode`
    builds a new one when any of those fields differs from its copy, and the new one takes over each
    part whose own fields did not change. The parts: the pieces `alive` to `taxes` (contiguous in
    LAYOUT) with the seats' rows in seat order, joined twice over (so that any rotation is one
    slice), and per observer those pieces rotated to it; the `book` piece; per page, the `visible`
    piece and the seats' rows of `visible_owner` (`view`)."""

    __slots__ = ("owner", "lux", "assets", "alive", "book", "n", "alive2", "assets2", "owned2", "lux2", "for_sale",
                 "taxes2", "blocks", "cells", "views")
    assets2: bytes
    owned2: bytes
    lux2: bytes
    for_sale: bytes
    cells: bytes
    views: list

    def __init__(self, game, s: State, old: "_Table | None") -> None:
        self.owner = s.owner[:]
        self.lux = s.lux_owner[:]
        self.assets = [a[:] for a in s.assets]
        self.alive = s.alive[:]
        self.book = [page[:] for page in s.book]
        self.n = n = s.num_players
        self.alive2 = bytes(s.alive) * 2
        if old is not None and old.assets == self.assets:
            self.assets2 = old.assets2
        else:
            self.assets2 = b"".join([a[_A0:_A1] for a in s.assets]) * 2
        same_owner = old is not None and old.owner == self.owner
        self.owned2 = old.owned2 if old is not None and same_owner else _held(s.owner, n) * 2
        if old is not None and old.lux == self.lux:
            self.lux2, self.for_sale = old.lux2, old.for_sale
        else:  # (after the luxuries' padding, the `for_sale` piece)
            self.lux2 = _held(s.lux_owner, n) * 2
            self.for_sale = _PADS[n][3] + bytes([o == NO_OWNER for o in s.lux_owner])
        self.taxes2 = bytes(map(mul, game.tax_table(s), s.alive)) * 2  # (0 for a player knocked out)
        self.blocks: list = [None] * n
        if old is not None and old.book == self.book:
            self.cells = old.cells
            self.views = old.views if same_owner else [None] * PG
        else:
            self.cells = b"".join([_SIGN[b] for page in s.book for b in page])
            self.views = [None] * PG

    def block(self, me: int) -> bytes:
        """The pieces `alive` to `taxes` for seat `me`: each piece's rows rotated to start at `me`."""
        n = self.n
        end = me + n
        pad, pad_assets, pad_businesses, _ = _PADS[n]
        block = self.blocks[me] = b"".join((
            self.alive2[me:end], pad, self.assets2[me * NA : end * NA], pad_assets,
            self.owned2[me * B : end * B], pad_businesses, self.lux2[me * L : end * L], self.for_sale,
            self.taxes2[me:end], pad))
        return block

    def view(self, game, s: State) -> tuple[bytes, bytes]:
        """The `visible` piece from the current page, and each seat's row of `visible_owner` in seat
        order, joined twice over (so that any rotation is one slice)."""
        row = game.visible_row(s)
        owners = bytes([s.owner[b] + 1 if b >= 0 else 0 for b in row])  # 0: no sign, else seat + 1
        view = self.views[s.page] = (b"".join([_SIGN[b] for b in row]),
                                     b"".join(map(owners.translate, _IS[: s.num_players])) * 2)
        return view


class Observer(_Observer):
    """`encode` joins the observation, one byte per entry (every entry is a whole number up to 255),
    from its pieces in LAYOUT's order, mostly the state's own bytearrays and slices of them rotated
    to the seat, and converts to float32 once (the core derives `entries`). What it works out from
    the table (the business, luxury, asset, tax and book pieces, and per page the visible signs) it
    keeps while the table's fields are equal to the copies it keeps (`_Table`)."""

    layout = LAYOUT

    def __init__(self, game) -> None:
        self.game = game
        n = game.n
        self._head = bytes([1] * n + [0] * (P - n) + [game.config.one_tax_per_turn])  # the pieces `seats`, `options`
        self._pad = bytes(P - n)  # a per-seat piece's rows beyond the player count
        self._slots_pad = bytes(S * (P - n))
        self._rel = [[(q - me) % n for q in range(n)] for me in range(n)]
        self._rot = [itemgetter(*[(me + i) % n for i in range(n)]) for me in range(n)]  # seat order -> from me
        self._table: _Table | None = None  # what it worked out from the table, with the fields it read

    def encode(self, s: State, me: int) -> np.ndarray:
        n = s.num_players
        rel = self._rel[me]  # seat -> its place after me (index -1: none)
        phase = s.phase
        if phase != Phase.OVER and s.turn >= 0:
            key = (phase, s.ask, rel[s.actor], rel[s.turn])
        else:
            key = (phase, s.ask, -1, -1)
        head = _HEADS.get(key) or _head(key)
        rot = self._rot[me]
        try:
            money = bytes(rot(s.money))
        except ValueError:  # above 255
            money = bytes([min(m, MONEY) for m in rot(s.money)])
        page = s.page
        if s.dice:
            turn = _dice_bytes(page, s.actions_left, s.dice, s.extra_dice)
        else:  # page, actions_left, no dice yet, dice_count: one precomputed run of bytes
            turn = _TURN_BYTES[page][s.actions_left][s.extra_dice] if s.extra_dice < 8 else _turn_bytes(
                page, s.actions_left, s.extra_dice)
        hands = s.hands
        table = self._table
        if (table is None or table.owner != s.owner or table.lux != s.lux_owner or table.assets != s.assets
                or table.alive != s.alive or table.book != s.book):
            table = self._table = _Table(self.game, s, table)
        visible, slots = table.views[page] or table.view(self.game, s)
        pad = self._pad
        return np.frombuffer(b"".join((
            self._head, head, money, pad, turn, hands[me], bytes(card_counts(rot(hands))), pad,
            _BYTE[s.deck.n], s.discard, table.blocks[me] or table.block(me), table.cells, visible,
            slots[S * me : S * (me + n)], self._slots_pad,
            _NO_TAIL if s.card < 0 and phase != Phase.AUCTION else _tail(self.game, s, rel))),
            np.uint8).astype(np.float32)

    def string_from(self, s: State, me: int) -> str:
        return spec.string_from(self.game, s, me)
