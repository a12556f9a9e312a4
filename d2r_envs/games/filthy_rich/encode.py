"""Filthy Rich observations, seat-relative: index 0 is the observer, then the players to the left.

A seat sees all money, the whole book, every business, asset and luxury on the table, the discard
pile, its own hand and the sizes of the other hands and of the deck.
"""

from __future__ import annotations

import numpy as np

from d2r_envs.core.obs import ObsLayout, Observer as _Observer, Piece
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
    Piece("for_sale", (L,), 1, "luxuries still to buy"),
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
(_PHASE, _ASK, _ACTOR, _TURN, _MONEY, _PAGE, _ACTIONS, _DICE, _NDICE, _HAND, _HSIZE, _DECK, _DISCARD, _ALIVE,
 _ASSETS, _BUSINESSES, _LUX, _FOR_SALE, _TAXES, _BOOK, _VISIBLE, _VOWNER, _CARD, _LOT, _HIGH, _HIGH_BIDDER,
 _LOWEST) = (_O[p.name] for p in LAYOUT.pieces[2:])
_PRICE = [x.price for x in C.LUXURIES]
_A0, _A1 = C.ASSET_KINDS[0], C.ASSET_KINDS[-1] + 1
assert C.ASSET_KINDS == tuple(range(_A0, _A1)), "the asset kinds must be contiguous"
_SIGN = [bytes(1 if i == b else 0 for i in range(B)) for b in range(B)] + [bytes(B)]  # business (-1: none) -> one-hot


class _Board:
    """What the observation keeps of a board until it changes (State.board): the tax symbols, the
    pieces `alive` to `taxes` per seat, and per page the view from it."""

    __slots__ = ("taxes", "pages", "blocks")

    def __init__(self, game, s: State) -> None:
        self.taxes = [min(t, 64) if a else 0 for t, a in zip(game.tax_table(s), s.alive)]
        self.pages: dict[int, tuple[bytes, list[bytes]]] = {}  # page -> (`visible`, per seat its slots)
        self.blocks: dict[int, bytes] = {}  # seat -> the pieces `alive` to `taxes`

    def page(self, game, s: State) -> tuple[bytes, list[bytes]]:
        view = self.pages.get(s.page)
        if view is None:
            row = game.visible_row(s)
            slots = [bytearray(S) for _ in range(s.num_players)]
            for i, b in enumerate(row):
                if b >= 0:
                    slots[s.owner[b]][i] = 1
            view = self.pages[s.page] = (b"".join(map(_SIGN.__getitem__, row)), slots)
        return view


class Observer(_Observer):
    """`encode` writes one byte per entry (every entry is a whole number up to 255) into a copy of
    a per-game template, mostly as slices of the state's own bytearrays rotated to the seat, and
    converts to float32 once; `entries` lists its non-zero entries."""

    layout = LAYOUT

    def __init__(self, game) -> None:
        self.game = game
        n = game.n
        template = bytearray(LAYOUT.size)
        for k in range(n):
            template[_O["seats"] + k] = 1
        template[_O["options"]] = int(game.config.one_tax_per_turn)
        self._template = bytes(template)

    def encode(self, s: State, me: int) -> np.ndarray:
        n = s.num_players
        v = bytearray(self._template)
        phase = s.phase
        v[_PHASE + phase] = 1
        v[_ASK + s.ask] = 1
        if phase != _OVER:
            if s.actor >= 0:
                v[_ACTOR + (s.actor - me) % n] = 1
            if s.turn >= 0:
                v[_TURN + (s.turn - me) % n] = 1
        money = s.money[me:] + s.money[:me]
        if max(money) > MONEY:
            money = [min(m, MONEY) for m in money]
        v[_MONEY : _MONEY + n] = money
        v[_PAGE + s.page] = 1
        v[_ACTIONS + s.actions_left] = 1
        if s.dice:
            for d in s.dice:
                v[_DICE + d] += 1
        v[_NDICE] = s.page + 1 + s.extra_dice
        v[_HAND : _HAND + K] = s.hands[me]
        sizes = s.hand_n
        v[_HSIZE : _HSIZE + n] = sizes[me:] + sizes[:me]
        v[_DECK] = s.deck_n
        v[_DISCARD : _DISCARD + K] = s.discard
        v[_BOOK:_VISIBLE] = s.signs
        board = s.board
        if board is None:
            board = s.board = _Board(self.game, s)
        block = board.blocks.get(me)
        if block is None:
            block = board.blocks[me] = self.block(s, me, board)
        v[_ALIVE:_BOOK] = block
        visible, slots = board.page(self.game, s)
        v[_VISIBLE:_VOWNER] = visible
        v[_VOWNER : _VOWNER + S * n] = b"".join(slots[me:] + slots[:me])
        if s.card >= 0:
            v[_CARD + s.card - B] = 1
        if phase == _AUCTION:
            v[_LOT + s.lot] = 1
            if s.high >= 0:
                v[_HIGH] = min(s.high, MONEY)
                v[_HIGH_BIDDER + (s.high_bidder - me) % n] = 1
            v[_LOWEST] = min(_PRICE[s.lot] if s.high < 0 else s.high + 1, MONEY)
        return np.frombuffer(v, _U8).astype(_F32)

    def block(self, s: State, me: int, board: _Board) -> bytes:
        """The pieces `alive` to `taxes` (contiguous in LAYOUT) for seat `me`."""
        pad = bytes(P - s.num_players)
        alive, assets, owned, luxes, taxes = s.alive, s.assets, s.owned, s.luxes, board.taxes
        return b"".join((
            bytes(alive[me:] + alive[:me]), pad,
            b"".join([a[_A0:_A1] for a in assets[me:] + assets[:me]]), pad * NA,
            b"".join(owned[me:] + owned[:me]), pad * B,
            b"".join(luxes[me:] + luxes[:me]), pad * L,
            s.for_sale,
            bytes(taxes[me:] + taxes[:me]), pad,
        ))

    def entries(self, s: State, me: int) -> tuple[list[int], list[float]]:
        vec = self.encode(s, me)
        idx = np.flatnonzero(vec)
        return idx.tolist(), vec[idx].tolist()

    def string_from(self, s: State, me: int) -> str:
        g = self.game
        lines = [f"player_{me} | page {s.page + 1} | turn player_{s.turn} | {g.decision_name(s)} | dice {s.dice}"]
        lines += g.book_to_string(s)
        lines.append("your hand: " + C.counts_to_string(s.hands[me]))
        for q in range(s.num_players):
            biz = ", ".join(C.BUSINESSES[b].name for b, o in enumerate(s.owner) if o == q) or "-"
            lux = ", ".join(C.LUXURIES[x].name for x, o in enumerate(s.lux_owner) if o == q) or "-"
            out = "" if s.alive[q] else " OUT"
            lines.append(f"p{q}{out}: ${s.money[q]} | hand {s.hand_n[q]} | luxuries: {lux} | businesses: {biz}"
                         f" | assets: {C.counts_to_string(s.assets[q])}")
        lines.append(f"deck {s.deck_n} | discard: {C.counts_to_string(s.discard)}")
        if s.phase == Phase.AUCTION:
            lines.append(f"auction: {C.LUXURIES[s.lot].name}, high bid {s.high} by player_{s.high_bidder}")
        return "\n".join(lines)
