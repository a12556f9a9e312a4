"""Filthy Rich's picture (core/svg.py): the book (the signs visible from the current page, and all four
pages), the luxuries and who owns them, each tycoon's money, businesses and assets, and a hand.

A seat's view shows what its observation holds: everything on the table, its own hand and the sizes
of the others' hands and of the deck. From above every hand is shown. Within core.svg `narrow` the same
picture is one column: the book, the luxuries, the seat's own panel and hand, the others'.
"""

from __future__ import annotations

from typing import Any

from d2r_envs.core import svg as S
from d2r_envs.core.events import result_headline
from d2r_envs.core.words import plural
from d2r_envs.games.filthy_rich import cards as C
from d2r_envs.games.filthy_rich.actions import ACTIONS
from d2r_envs.games.filthy_rich.state import NO_OWNER, ON_AUCTION, REMOVED, Phase, State

WIDTH = 1200
TOP_H = 372
PANEL_H = 176
HAND_H = 150
BOOK = "#1f5c4a"
SLOT = 96  # a slot of the current view


def size(n: int) -> tuple[int, int]:
    """The canvas for `n` players: the same for every state of the game."""
    rows = 1 if n <= 3 else 2
    return WIDTH, 58 + 12 + TOP_H + 12 + rows * PANEL_H + (rows - 1) * 10 + 12 + HAND_H + 12


def svg(game: Any, s: State, seat: int | None) -> str:
    n = game.n
    width, height = size(n)
    width = S.width(width)
    narrow = width < WIDTH  # the narrow layout (core.svg `narrow`): one column, as tall as it holds
    over = s.phase == Phase.OVER
    c = S.Canvas(width, height, title=f"Filthy Rich: {game.decision_name(s)}")
    if over:
        head = result_headline(game, s)
        detail = f"player_{s.winner} " + ("bought a third luxury" if sum(o == s.winner for o in s.lux_owner) >= 3
                                          else "is the last tycoon standing")
    else:
        head = f"page {s.page + 1}: player_{s.turn}'s turn" if s.turn >= 0 else "setting up"
        detail = game.decision_name(s)
    view = "from above" if seat is None else f"player_{seat}'s view"
    y = S.banner(c, "Filthy Rich", view, head, detail, done=over) + 12
    actor = s.actor if s.actor >= 0 else s.turn
    own = seat if seat is not None else actor
    if narrow:  # the book, the luxuries, the seat's own panel and hand, the other players
        m, w = 8, width - 16
        y = _book(c, game, s, m, y - 4, w, narrow) + m
        y = _luxuries(c, game, s, m, y, w, narrow) + m
        y = S.stack_seats(y, own, n, lambda p, y: _player(c, game, s, seat, p, m, y, w, narrow=True),
                          lambda y: _hand(c, s, own, m, y, w, seat is None, narrow), m)
        c.resize(y)
        return str(c)
    _book(c, game, s, 12, y, 620)
    _luxuries(c, game, s, 12 + 620 + 12, y, width - 24 - 632)
    y += TOP_H + 12
    y = _players(c, game, s, seat, 12, y, width - 24) + 12
    _hand(c, s, own, 12, y, width - 24, seat is None)
    return str(c)


def place(game: Any, s: State, action: int) -> str | None:
    """Where `action` happens in the picture (`core.svg.Canvas.spot`): a card of the hand (opening a
    business: its card), a luxury, a player, a business sold (its sign where the book shows it), a page
    to turn to; None for a bid, passing and a business the open page hides. Seats in actions are
    relative to the actor; a place names the seat itself."""
    kind, args = ACTIONS.decode(action)
    if kind in ("play", "discard", "open"):
        return f"card:{args[0]}"
    if kind == "luxury":
        return f"luxury:{args[0]}"
    if kind == "player":
        return f"player:{(game.current_player(s) + args[0] + 1) % game.n}"
    if kind == "sell" and args[0] in game.visible_row(s):
        return f"business:{args[0]}"
    if kind == "page":
        return f"page:{args[0]}"
    return None


def _owner_fill(s: State, b: int) -> str:
    o = s.owner[b] if b >= 0 else -1
    return S.SEATS[o] if o >= 0 else "#d8d3c8"


def _book(c: S.Canvas, game: Any, s: State, x: float, y: float, w: float, narrow: bool = False) -> float:
    """The signs a die can hit now (visible from the current page), the four pages, the dice (narrow:
    the pages in a row under the signs, the discard wrapped). Returns the y below it."""
    discard = S.wrap("discard: " + C.counts_to_string(s.discard), w - 20, max(11, S.min_font()), 8) if narrow else []
    h = TOP_H if not narrow else 24 + 10 + 3 * SLOT + 120 + 20 + 15 * len(discard) + 6
    body = S.panel(c, x, y, w, h, f"The book, open at page {s.page + 1}", BOOK,
                   note=f"deck {s.deck.n} | discard {sum(s.discard)}")
    row = game.visible_row(s)
    gx, gy = x + 10, body + 10
    pages = s.book
    for slot in range(C.SLOTS):
        r, col = divmod(slot, 3)
        cx, cy = gx + col * SLOT, gy + r * SLOT
        b = row[slot]
        fill = _owner_fill(s, b) if b >= 0 else "#f3efe6"
        c.rect(cx, cy, SLOT - 4, SLOT - 4, fill=fill, stroke=S.EDGE, rx=5)
        if b >= 0 and row.index(b) == slot:  # a sign's place: its first slot in view
            c.spot(f"business:{b}", cx - 1, cy - 1, SLOT - 2, SLOT - 2)
        ink = S.contrast(fill)
        c.text(cx + 6, cy + 16, str(slot + 1), size=13, bold=True, fill=ink)
        if b >= 0:
            on = next(pg for pg in range(s.page, -1, -1) if pages[pg][slot] >= 0)
            c.text(cx + SLOT - 10, cy + 16, f"p.{on + 1}", size=10, fill=ink, anchor="end")
            for i, line in enumerate(S.wrap(C.BUSINESSES[b].name, SLOT - 14, 11, 3, bold=True)):
                c.text(cx + 6, cy + 36 + 14 * i, line, size=11, bold=True, fill=ink)
            o = s.owner[b]
            c.text(cx + 6, cy + SLOT - 12, f"player_{o}" if o >= 0 else "closed", size=10, fill=ink)
    # The four pages, page 4 on top (narrow: from left to right, page 4 first).
    px = gx + 3 * SLOT + 14
    cell = 20
    if narrow:
        _pages(c, s, gx, gy + 3 * SLOT + 8, cell)
        yy = gy + 3 * SLOT + 120
        c.text(x + 10, yy + 12, "dice this turn: " + (", ".join(map(str, s.dice)) if s.dice else "none yet"),
               size=12, width=w - 20)
        for i, line in enumerate(discard):
            c.text(x + 10, yy + 32 + 15 * i, line, size=11, fill=S.MUTED, width=w - 20)
        return y + h
    c.text(px, body + 12, "all pages (4 on top):", size=11, fill=S.MUTED)
    for i, pg in enumerate(range(C.PAGES - 1, -1, -1)):
        ty = body + 22 + i * (3 * cell + 14)
        current = pg == s.page
        c.spot(f"page:{pg}", px - 4, ty - 4, 62 + 3 * cell + 20, 3 * cell + 6)
        c.text(px, ty + 34, f"page {pg + 1}", size=12, bold=current, fill=S.INK if current else S.MUTED)
        for slot in range(C.SLOTS):
            r, col = divmod(slot, 3)
            b = pages[pg][slot]
            c.rect(px + 62 + col * cell, ty + r * cell, cell - 2, cell - 2,
                   fill=_owner_fill(s, b) if b >= 0 else "#f3efe6", stroke=S.INK if current else S.EDGE, rx=2)
        if current:
            c.polygon([(px + 62 + 3 * cell + 4, ty + 30), (px + 62 + 3 * cell + 14, ty + 24),
                       (px + 62 + 3 * cell + 14, ty + 36)], fill=S.INK)
    # Business signs in the book, their owners, and the dice.
    c.text(x + 10, y + TOP_H - 40, "dice this turn: " + (", ".join(map(str, s.dice)) if s.dice else "none yet"),
           size=12, width=w - 20)
    c.text(x + 10, y + TOP_H - 20, "discard: " + C.counts_to_string(s.discard), size=11, fill=S.MUTED, width=w - 20)
    return y + TOP_H


def _pages(c: S.Canvas, s: State, x: float, y: float, cell: float) -> None:
    """The four pages side by side, page 4 first, the open one outlined with a mark under it."""
    c.text(x, y + 12, "all pages (4 on top):", size=11, fill=S.MUTED)
    for i, pg in enumerate(range(C.PAGES - 1, -1, -1)):
        tx, ty = x + i * (3 * cell + 22), y + 20
        current = pg == s.page
        c.spot(f"page:{pg}", tx - 3, ty - 2, 3 * cell + 6, 18 + 3 * cell + 14)
        c.text(tx, ty + 12, f"page {pg + 1}", size=12, bold=current, fill=S.INK if current else S.MUTED)
        for slot in range(C.SLOTS):
            r, col = divmod(slot, 3)
            b = s.book[pg][slot]
            c.rect(tx + col * cell, ty + 18 + r * cell, cell - 2, cell - 2,
                   fill=_owner_fill(s, b) if b >= 0 else "#f3efe6", stroke=S.INK if current else S.EDGE, rx=2)
        if current:
            c.polygon([(tx + 1.5 * cell - 1, ty + 18 + 3 * cell + 2), (tx + 1.5 * cell - 7, ty + 18 + 3 * cell + 10),
                       (tx + 1.5 * cell + 5, ty + 18 + 3 * cell + 10)], fill=S.INK)


def _luxuries(c: S.Canvas, game: Any, s: State, x: float, y: float, w: float, narrow: bool = False) -> float:
    """The twelve luxuries, their prices and owners; the auction under way (narrow: wrapped). Returns
    the y below it."""
    auction = ""
    if s.phase == Phase.AUCTION and s.lot >= 0:
        high = f"high bid ${s.high} by player_{s.high_bidder}" if s.high >= 0 else "no bid yet"
        auction = f"auction: {C.LUXURIES[s.lot].name} (from player_{s.seller}), {high}"
    lines = S.wrap(auction, w - 20, max(12, S.min_font()), 3, bold=True) if narrow and auction else []
    h = TOP_H if not narrow else 24 + 8 + 24 * len(C.LUXURIES) + 16 * len(lines) + 8
    name_w, price_at, status_w = (w - 198, w - 120, 100) if narrow else (w - 220, w - 140, 110)
    body = S.panel(c, x, y, w, h, "Luxuries (the third one wins)", "#6b4f1d")
    for i, lux in enumerate(C.LUXURIES):
        ly = body + 8 + i * 24
        o = s.lux_owner[i]
        if o >= 0:
            status, fill = f"player_{o}", S.SEATS[o]
        else:
            status, fill = {NO_OWNER: ("for sale", "#f3efe6"), REMOVED: ("out of the game", "#c8c8c8"),
                            ON_AUCTION: ("on auction", S.HIGHLIGHT)}[o]
        c.rect(x + 10, ly, w - 20, 20, fill=S.tint(fill, 0.6) if o >= 0 else fill, rx=3)
        c.spot(f"luxury:{i}", x + 8, ly - 1, w - 16, 22)
        c.text(x + 16, ly + 14, lux.name, size=12, bold=o >= 0, width=name_w)
        c.text(x + price_at, ly + 14, f"${lux.price}, tax {lux.tax}", size=11, fill=S.MUTED, anchor="end")
        c.text(x + w - 16, ly + 14, status, size=11, anchor="end", width=status_w)
    for i, line in enumerate(lines):
        c.text(x + 10, body + 8 + 24 * len(C.LUXURIES) + 14 + 16 * i, line, size=12, bold=True, width=w - 20)
    if auction and not narrow:
        c.text(x + 10, y + TOP_H - 12, auction, size=12, bold=True, width=w - 20)
    return y + h


def _players(c: S.Canvas, game: Any, s: State, seat: int | None, x: float, y: float, w: float) -> float:
    n = game.n
    rows = 1 if n <= 3 else 2
    boxes = S.cells(x, y, w, rows * PANEL_H + (rows - 1) * 10, n, n if n <= 3 else (2 if n == 4 else 3))
    for p, (bx, by, bw, bh) in enumerate(boxes):
        _player(c, game, s, seat, p, bx, by, bw, bh)
    return y + rows * PANEL_H + (rows - 1) * 10


def _player(c: S.Canvas, game: Any, s: State, seat: int | None, p: int, bx: float, by: float, bw: float,
            bh: float = PANEL_H, narrow: bool = False) -> float:
    """Player `p`'s panel: money, tax symbols, luxuries, businesses, assets and hand (the cards of the
    seat's own, of another's how many); narrow: a chip row more for luxuries, businesses and assets, two
    more for the hand. Returns the y below it."""
    over = s.phase == Phase.OVER
    sees = seat is None or seat == p
    more = 1 if narrow else 0
    if narrow:
        bh = PANEL_H + 5 * 23
    mark = S.HIGHLIGHT if (p == s.winner if over else p == s.actor) else None
    note = "out" if not s.alive[p] else ("turn" if p == s.turn and not over else "")
    c.spot(f"player:{p}", bx, by, bw, bh)
    body = S.panel(c, bx, by, bw, bh, f"player_{p}" + (" - you" if p == seat else ""), S.SEATS[p], note=note,
                   mark=mark)
    c.text(bx + 10, body + 26, f"${s.money[p]}", size=22, bold=True, fill=S.INK if s.alive[p] else S.MUTED)
    c.text(bx + bw - 10, body + 24, f"tax symbols {game.tax_symbols(s, p)}", size=11, fill=S.MUTED, anchor="end")
    yy = body + 36
    rows_of = (
        ("luxuries", [(C.LUXURIES[i].name, "#f0d98c") for i, o in enumerate(s.lux_owner) if o == p]),
        ("businesses", [(C.BUSINESSES[b].name, S.tint(S.SEATS[p], 0.5)) for b, o in enumerate(s.owner) if o == p]),
        ("assets", [(C.KIND_NAMES[k] + (f" x{m}" if m > 1 else ""), "#dfe6ef")
                    for k, m in enumerate(s.assets[p]) if m]),
    )
    for label, items in rows_of:
        c.text(bx + 10, yy + 12, label + ":", size=10, fill=S.MUTED)
        S.chips(c, bx + 76, yy, bw - 86, items, size=10, rows=1 + more, empty="none")
        yy += 22 + 23 * more
    cards = sum(s.hands[p])
    c.text(bx + 10, yy + 12, "hand:", size=10, fill=S.MUTED)
    if sees:
        items = [(C.KIND_NAMES[k] + (f" x{m}" if m > 1 else ""), "#fbf3df") for k, m in enumerate(s.hands[p]) if m]
        S.chips(c, bx + 76, yy, bw - 86, items, size=10, rows=2 + 2 * more, empty="no cards")
    else:
        c.text(bx + 76, yy + 12, plural(cards, "card"), size=10, fill=S.MUTED)
        S.chips(c, bx + 130, yy, bw - 140, [("", "#4f7d6b")] * cards, size=10, rows=1, max_chip=14)
    return by + bh


def _hand(c: S.Canvas, s: State, p: int, x: float, y: float, w: float, above: bool, narrow: bool = False) -> float:
    """Seat `p`'s hand with what each card does (narrow: one card to a row). Returns the y below it."""
    if p < 0:
        h = HAND_H if not narrow else 48
        S.panel(c, x, y, w, h, "Hands are dealt once the first player is known", BOOK)
        return y + h
    if narrow:
        cards = [(C.KIND_NAMES[k] + (f" x{m}" if m > 1 else ""), None,
                  C.BUSINESSES[k].text if k < C.NUM_BUSINESSES else C.card_of(k).text)
                 for k, m in enumerate(s.hands[p]) if m]
        return S.card_rows(c, x, y, w, f"player_{p}'s hand" + (" (the seat to act)" if above else ""), S.SEATS[p],
                           plural(sum(s.hands[p]), "card"), cards, [f"card:{k}" for k, m in enumerate(s.hands[p]) if m])
    body = S.panel(c, x, y, w, HAND_H, f"player_{p}'s hand" + (" (the seat to act)" if above else ""), S.SEATS[p],
                   note=plural(sum(s.hands[p]), "card"))
    cards = [(C.KIND_NAMES[k] + (f" x{m}" if m > 1 else ""), None,
              C.BUSINESSES[k].text if k < C.NUM_BUSINESSES else C.card_of(k).text)
             for k, m in enumerate(s.hands[p]) if m]
    S.card_list(c, x, y, w, HAND_H, body, cards, label_w=200, places=[f"card:{k}" for k, m in enumerate(s.hands[p]) if m])
    return y + HAND_H
