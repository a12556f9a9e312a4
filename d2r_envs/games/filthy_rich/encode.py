"""Filthy Rich observations, seat-relative: index 0 is the observer, then the players to the left.

A seat sees all money, the whole book, every business, asset and luxury on the table, the discard
pile, its own hand and the sizes of the other hands and of the deck.
"""

from __future__ import annotations

import numpy as np

from d2r_envs.core.obs import ObsLayout, Observer as _Observer, Piece
from d2r_envs.core.zones import card_count
from d2r_envs.games.filthy_rich import cards as C
from d2r_envs.games.filthy_rich.state import Ask, Phase, State

P, K, B, L = C.MAX_PLAYERS, C.NUM_KINDS, C.NUM_BUSINESSES, C.NUM_LUXURIES
S, PG = C.SLOTS, C.PAGES
NA = len(C.ASSET_KINDS)
MONEY = 255  # money and bids beyond this show as 255

LAYOUT = ObsLayout(
    Piece("seats", (P,), 1, "1 for each seat in the game"),
    Piece("options", (1,), 1, "fan variant: one tax per turn"),
    Piece("phase", (len(Phase),), 1, "phase of the turn"),
    Piece("ask", (len(Ask),), 1, "what the card being played asks for"),
    Piece("actor", (P,), 1, "who decides now"),
    Piece("turn", (P,), 1, "whose turn it is"),
    Piece("money", (P,), MONEY, "each player's money"),
    Piece("page", (PG,), 1, "the current page"),
    Piece("actions_left", (C.ACTIONS_PER_TURN + 1,), 1, "actions left this turn (0, 1, 2)"),
    Piece("dice", (10,), 16, "business dice rolled this turn: how many show each number 0-9"),
    Piece("dice_count", (1,), 16, "business dice to roll this turn"),
    Piece("hand", (K,), 8, "my hand: copies of each kind"),
    Piece("hand_sizes", (P,), C.DECK_SIZE, "cards in each player's hand"),
    Piece("deck_size", (1,), C.DECK_SIZE, "cards in the deck"),
    Piece("discard", (K,), 8, "the discard pile: copies of each kind"),
    Piece("alive", (P,), 1, "players still in the game"),
    Piece("assets", (P, NA), 8, "each player's asset cards on the table"),
    Piece("businesses", (P, B), 1, "the businesses each player runs"),
    Piece("luxuries", (P, L), 1, "the luxuries each player owns"),
    Piece("for_sale", (L,), 1, "luxuries still to buy"),  # FR-SETUP-5: face up
    Piece("taxes", (P,), 64, "each player's tax symbols"),
    Piece("book", (PG, S, B), 1, "the sign card in each slot of each page"),
    Piece("visible", (S, B), 1, "the sign visible in each slot from the current page"),
    Piece("visible_owner", (P, S), 1, "the slots where each player's sign is visible"),
    Piece("card", (C.NUM_CARDS,), 1, "the card being played (while it asks for a choice)"),
    Piece("lot", (L,), 1, "the luxury being auctioned"),
    Piece("high_bid", (1,), MONEY, "the high bid so far (0: none)"),
    Piece("high_bidder", (P,), 1, "who holds the high bid"),
    Piece("lowest_bid", (1,), MONEY, "the lowest bid allowed now"),
)

_O = LAYOUT.offsets
_U8, _F32 = np.uint8, np.float32
_OVER, _AUCTION = int(Phase.OVER), int(Phase.AUCTION)
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
_PRICE = [x.price for x in C.LUXURIES]
_A0, _A1 = C.ASSET_KINDS[0], C.ASSET_KINDS[-1] + 1
assert C.ASSET_KINDS == tuple(range(_A0, _A1)), "the asset kinds must be contiguous"
_SIGN = [bytes(1 if i == b else 0 for i in range(B)) for b in range(B)] + [bytes(B)]  # business (-1: none) -> one-hot
_IS = [bytes(1 if x == q + 1 else 0 for x in range(256)) for q in range(P)]  # translate: seat + 1 -> 1, else 0
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


class _Board:
    """What the observation keeps of the table until it changes: the pieces `alive` to `taxes` with
    the seats' rows in seat order, and per observer and page the pieces `alive` to `visible_owner`
    (contiguous in LAYOUT). It holds while the state's containers keep the stamps it was built from
    (core/stamped.py) and the same players are in."""

    __slots__ = ("owner", "lux", "assets", "book", "alive", "rows", "blocks")

    def __init__(self, game, s: State) -> None:
        self.owner, self.lux, self.assets, self.book = s.owner.stamp, s.lux_owner.stamp, s.assets.stamp, s.book.stamp
        self.alive = s.alive[:]  # (a plain list, compared by value)
        taxes = [(t if t < 64 else 64) if a else 0 for t, a in zip(game.tax_table(s), s.alive)]
        # Per piece: the seats' rows joined twice over (so that any rotation is one slice), the row
        # width, the rows' length, and what follows them (padding to MAX_PLAYERS rows; after the
        # luxuries, the `for_sale` piece too).
        n = s.num_players
        pad, pad_assets, pad_businesses, pad_luxuries = _PADS[n]
        owned, luxes = b"".join(s.owner.held), b"".join(s.lux_owner.held)
        assets = b"".join([a[_A0:_A1] for a in s.assets.counts])
        self.rows = ((bytes(s.alive) * 2, 1, n, pad),
                     (assets * 2, NA, NA * n, pad_assets),
                     (owned * 2, B, B * n, pad_businesses),
                     (luxes * 2, L, L * n, pad_luxuries + s.lux_owner.free),
                     (bytes(taxes) * 2, 1, n, pad))
        self.blocks: dict[int, bytes] = {}

    def block(self, me: int) -> bytes:
        """The pieces `alive` to `taxes` for seat `me`: each piece's rows rotated to start at `me`."""
        parts = []
        for doubled, width, size, tail in self.rows:
            cut = me * width
            parts += (doubled[cut : cut + size], tail)
        return b"".join(parts)


def _view(game, s: State) -> tuple[bytes, bytes]:
    """The `visible` piece from the current page, and each seat's row of `visible_owner` in seat
    order."""
    row = game.visible_row(s)
    owner = s.owner.of
    owners = bytes([owner[b] + 1 if b >= 0 else 0 for b in row])  # 0: no sign, else seat + 1
    return b"".join(map(_SIGN.__getitem__, row)), b"".join([owners.translate(_IS[q]) for q in range(s.num_players)])


class Observer(_Observer):
    """`encode` writes one byte per entry (every entry is a whole number up to 255) into a copy of
    a per-game template, mostly as slices of the state's own bytearrays rotated to the seat, and
    converts to float32 once (the core derives `entries`). What it works out from the table (the
    business, luxury, asset, tax and book pieces) it keeps while the state's containers keep their
    stamps (`_Board`)."""

    layout = LAYOUT

    def __init__(self, game) -> None:
        self.game = game
        n = game.n
        template = bytearray(LAYOUT.size)
        for k in range(n):
            template[_O["seats"] + k] = 1
        template[_O["options"]] = int(game.config.one_tax_per_turn)
        self._template = bytes(template)
        self._rel = [[(q - me) % n for q in range(n)] for me in range(n)]
        # What it worked out from the table, kept while the state's containers keep their stamps:
        self._board: _Board | None = None
        self._views: list = [None, None]  # the book's and owners' stamps, then each page's `_view` (None: not yet)

    def encode(self, s: State, me: int) -> np.ndarray:
        n = s.num_players
        v = bytearray(self._template)
        rel = self._rel[me]  # seat -> its place after me (index -1: none)
        phase = s.phase
        key = (phase, s.ask, rel[s.actor], rel[s.turn]) if phase != _OVER and s.turn >= 0 else (phase, s.ask, -1, -1)
        head = _HEADS.get(key)
        v[_PHASE:_MONEY] = head if head is not None else _head(key)
        money = s.money[me:] + s.money[:me]
        if max(money) > MONEY:
            money = [min(m, MONEY) for m in money]
        v[_MONEY : _MONEY + n] = money
        page = s.page
        if s.dice:
            v[_PAGE + page] = 1
            v[_ACTIONS + s.actions_left] = 1
            for d in s.dice:
                v[_DICE + d] += 1
            v[_NDICE] = page + 1 + s.extra_dice
        else:  # page, actions_left, no dice yet, dice_count: one precomputed run of bytes
            v[_PAGE:_HAND] = _TURN_BYTES[page][s.actions_left][s.extra_dice] if s.extra_dice < 8 else _turn_bytes(
                page, s.actions_left, s.extra_dice)
        v[_HAND : _HAND + K] = s.hands[me]
        sizes = list(map(card_count, s.hands))
        v[_HSIZE : _HSIZE + n] = sizes[me:] + sizes[:me]
        v[_DECK] = s.deck.n
        v[_DISCARD:_ALIVE] = s.discard
        board = self._board
        if (board is None or board.book is not s.book.stamp or board.owner is not s.owner.stamp
                or board.lux is not s.lux_owner.stamp or board.assets is not s.assets.stamp or board.alive != s.alive):
            board = self._board = _Board(self.game, s)
        key = PG * me + page
        block = board.blocks.get(key)
        if block is None:
            views = self._views
            if views[0] is not s.book.stamp or views[1] is not s.owner.stamp:
                views = self._views = [s.book.stamp, s.owner.stamp] + [None] * PG
            view = views[2 + page]
            if view is None:
                view = views[2 + page] = _view(self.game, s)
            visible, slots = view
            block = b"".join((board.block(me), s.book.cells, visible, slots[S * me :], slots[: S * me]))
            board.blocks[key] = block
        v[_ALIVE : _VOWNER + S * n] = block
        if s.card >= 0:
            v[_CARD + s.card - B] = 1
        if phase == _AUCTION:
            v[_LOT + s.lot] = 1
            if s.high >= 0:
                v[_HIGH] = min(s.high, MONEY)
                v[_HIGH_BIDDER + rel[s.high_bidder]] = 1
            v[_LOWEST] = min(_PRICE[s.lot] if s.high < 0 else s.high + 1, MONEY)
        return np.frombuffer(v, _U8).astype(_F32)

    def string_from(self, s: State, me: int) -> str:
        g = self.game
        lines = [f"player_{me} | page {s.page + 1} | turn player_{s.turn} | {g.decision_name(s)} | dice {s.dice}"]
        return "\n".join(lines + g.book_to_string(s) + g.seat_lines(s, me))
