"""Filthy Rich observations, seat-relative: index 0 is the observer, then the players to the left.

A seat sees all money, the whole book, every business, asset and luxury on the table, the discard
pile, its own hand and the sizes of the other hands and of the deck.

This module is the observation's spec: `LAYOUT` names its pieces, `encode` writes them plainly from the
state's fields, piece by piece, and `string_from` is the seat's view as text. The Observer the Game
uses is the fast encoder in encode_fast.py, checked byte for byte against `encode` at every node
(tests/filthy_rich/test_encode.py).
"""

from __future__ import annotations

import numpy as np

from d2r_envs.core.obs import ObsLayout, Piece
from d2r_envs.core.words import seat_name
from d2r_envs.games.filthy_rich import cards as C
from d2r_envs.games.filthy_rich.state import ASK_NAMES, NO_OWNER, NUM_PHASES, Phase, State

P, K, B, L = C.MAX_PLAYERS, C.NUM_KINDS, C.NUM_BUSINESSES, C.NUM_LUXURIES
S, PG = C.SLOTS, C.PAGES
NA = len(C.ASSET_KINDS)
MONEY = 255  # money and bids beyond this show as 255

LAYOUT = ObsLayout(
    Piece("seats", (P,), 1, "1 for each seat in the game"),
    Piece("options", (1,), 1, "fan variant: one tax per turn"),
    Piece("phase", (NUM_PHASES,), 1, "phase of the turn"),
    Piece("ask", (len(ASK_NAMES),), 1, "what the card being played asks for"),
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


_CONNECTIONS = C.EFFECT_KIND[C.Effect.CONNECTIONS]


def _tax_symbols(s: State, q: int) -> int:
    """Seat q's tax symbols: on its businesses, luxuries and assets, less Government Connections' (FR-TAX-2)."""
    symbols = (sum(b.tax for b, owner in zip(C.BUSINESSES, s.owner) if owner == q)
               + sum(x.tax for x, owner in zip(C.LUXURIES, s.lux_owner) if owner == q)
               + sum(C.card_of(k).tax * s.assets[q][k] for k in C.ASSET_KINDS))
    cut = C.card_of(_CONNECTIONS).amount * s.assets[q][_CONNECTIONS]
    return max(0, symbols - cut)


def encode(game, s: State, me: int) -> np.ndarray:
    """Seat `me`'s observation, piece by piece into LAYOUT's named views, from its definitions there."""
    n = s.num_players
    out = np.zeros(LAYOUT.size, np.float32)
    v = LAYOUT.views(out)
    rel = [(me + i) % n for i in range(n)]  # relative index i -> seat
    v["seats"][:n] = 1
    v["options"][0] = game.config.one_tax_per_turn
    v["phase"][s.phase] = 1
    v["ask"][s.ask] = 1
    if s.phase != Phase.OVER:
        for name, who in (("actor", s.actor), ("turn", s.turn)):
            if who >= 0:
                v[name][(who - me) % n] = 1
    v["page"][s.page] = 1
    v["actions_left"][s.actions_left] = 1
    for d in s.dice:
        v["dice"][d] += 1
    v["dice_count"][0] = s.page + 1 + s.extra_dice
    v["hand"][:] = list(s.hands[me])  # my own hand only; of the others' only their sizes
    v["deck_size"][0] = sum(s.deck)
    v["discard"][:] = list(s.discard)
    for i, q in enumerate(rel):
        v["money"][i] = min(s.money[q], MONEY)
        v["hand_sizes"][i] = sum(s.hands[q])
        v["alive"][i] = s.alive[q]
        v["assets"][i] = [s.assets[q][k] for k in C.ASSET_KINDS]
        if s.alive[q]:
            v["taxes"][i] = _tax_symbols(s, q)
    for b, o in enumerate(s.owner):
        if o >= 0:
            v["businesses"][(o - me) % n, b] = 1
    for pg in range(C.PAGES):
        for slot in range(C.SLOTS):
            if s.book[pg][slot] >= 0:
                v["book"][pg, slot, s.book[pg][slot]] = 1
    for slot in range(C.SLOTS):
        b = game.visible(s, slot)
        if b >= 0:
            v["visible"][slot, b] = 1
            v["visible_owner"][(s.owner[b] - me) % n, slot] = 1
    for x, o in enumerate(s.lux_owner):
        if o >= 0:
            v["luxuries"][(o - me) % n, x] = 1
        v["for_sale"][x] = o == NO_OWNER
    if s.card >= 0:
        v["card"][s.card - C.NUM_BUSINESSES] = 1
    if s.phase == Phase.AUCTION:
        v["lot"][s.lot] = 1
        if s.high >= 0:
            v["high_bid"][0] = min(s.high, MONEY)
            v["high_bidder"][(s.high_bidder - me) % n] = 1
        v["lowest_bid"][0] = min(C.LUXURIES[s.lot].price if s.high < 0 else s.high + 1, MONEY)
    return out


def string_from(game, s: State, me: int) -> str:
    """Seat `me`'s view as text."""
    turn = seat_name(s.turn, "not begun")
    lines = [f"player_{me} | page {s.page + 1} | turn {turn} | {game.decision_name(s)} | dice "
             + (" ".join(map(str, s.dice)) or "-")]
    return "\n".join(lines + game.book_to_string(s) + game.seat_lines(s, me))
