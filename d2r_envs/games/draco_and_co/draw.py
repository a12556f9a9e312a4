"""Draco & Co's picture (core/svg.py): the circle before Draco with each place's toast, the players'
fortunes and characters, and a hand with each card's text.

A seat's view shows its own hand and only the sizes of the others' (DRACO-HIDDEN-1), as its
observation; from above every hand is shown. Within core.svg `narrow` the same picture is one column:
the circle, the seat's own panel and hand, the others'.
"""

from __future__ import annotations

from typing import Any

from d2r_envs.core import svg as S
from d2r_envs.core.events import result_headline
from d2r_envs.core.words import plural
from d2r_envs.games.draco_and_co import cards as C
from d2r_envs.games.draco_and_co.actions import ACTIONS, absolute_character
from d2r_envs.games.draco_and_co.state import Phase, State

WIDTH = 1200
_CLASS = {C.Class.AMAZON: "Amazon", C.Class.GOBLIN: "Goblin", C.Class.ROGUE: "Rogue", C.Class.DWARF: "Dwarf",
          C.Class.AUNT_SARAH: "Sarah", C.Class.BROTHER_JOHN: "John", C.Class.ZORK: "Zork"}
_SPECIAL_FILL = {C.AUNT_SARAH: "#f2d5e4", C.BROTHER_JOHN: "#d9d2c3", C.ZORK: "#c7e0d0"}


def colour(seat: int) -> str:
    return S.PALETTE[C.COLOURS[seat]]


def _fill(c: int) -> str:
    return _SPECIAL_FILL[c] if c in _SPECIAL_FILL else colour(c // 2)


def size(n: int) -> tuple[int, int]:
    """The canvas for `n` players: the same for every state of the game."""
    rows = 1 if n <= 3 else 2
    return WIDTH, 58 + 12 + 190 + 12 + rows * 150 + (rows - 1) * 10 + 12 + 176 + 12


def svg(game: Any, s: State, seat: int | None) -> str:
    n = game.n
    width, height = size(n)
    width = S.width(width)
    narrow = width < WIDTH  # the narrow layout (core.svg `narrow`): one column, as tall as it holds
    over = s.phase == Phase.OVER
    c = S.Canvas(width, height, title=f"Draco & Co: {game.decision_name(s)}")
    player = game.current_player(s)
    if over:
        head = result_headline(game, s)
        detail = "winners: " + (", ".join(f"player_{p}" for p in s.winners) or "Draco (all lose)")
    else:
        head = f"turn {s.turns}: player_{s.turn}" if s.turn >= 0 else "setting up"
        detail = game.decision_name(s)
    view = "from above" if seat is None else f"player_{seat}'s view ({C.COLOURS[seat]})"
    y = S.banner(c, "Draco & Co", view, head, detail, done=over) + 12
    shown = seat if seat is not None else (player if player >= 0 else s.turn)
    if narrow:  # the circle, the seat's own panel and hand, the other players
        m, w = 8, width - 16
        y = _circle(c, game, s, m, y - 4, w, narrow) + m
        y = S.stack_seats(y, shown, n, lambda p, y: _players(c, game, s, seat, m, y, w, player, only=p),
                          lambda y: _hand(c, s, shown, m, y, w, seat is None, narrow), m)
        c.resize(y)
        return str(c)
    y = _circle(c, game, s, 12, y, width - 24) + 12
    y = _players(c, game, s, seat, 12, y, width - 24, player) + 12
    _hand(c, s, shown, 12, y, width - 24, seat is None)
    return str(c)


def _circle(c: S.Canvas, game: Any, s: State, x: float, y: float, w: float, narrow: bool = False) -> float:
    """The characters in their places from Draco's preferred side, with what a toast pays each place
    (narrow: Draco and the piles above, the places five to a row, the texts wrapped). Returns the y
    below it."""
    piles = f"draw pile {s.draw_pile.n} | discards {sum(s.discard)} | pile ran out {s.exhausted}/{game.ends_after}"
    toast = "toast: +4 +3 +2 +1 silver to the first four places; the last two pay 2 and 1"
    resolving = ""
    if s.card >= 0:
        card = C.CATALOGUE[s.card]
        resolving = f"resolving {card.name} (step {s.step + 1}): {card.text}" + (f" | die: {s.die}" if s.die else "")
    places = len(game.characters)
    size = max(11, S.min_font())
    per_row = 5 if narrow else places
    step = min(72, (w - 150) / places) if not narrow else (w - 20) / per_row
    r = min(27, step / 2 - 3)
    row_h = 2 * r + 70
    rows = -(-places // per_row)
    toast_lines = S.wrap(toast, w - 20, size, 3) if narrow else [toast]
    resolving_lines = S.wrap(resolving, w - 20, max(12, size), 4, bold=True) if narrow and resolving else []
    h = 190 if not narrow else 24 + 86 + rows * row_h + 15 * len(toast_lines) + 16 * len(resolving_lines) + 12
    top = S.panel(c, x, y, w, h, "The circle before Draco", "#5b4a3a", note="" if narrow else piles)
    cy = top + 58
    dx, dy, dr = (x + 48, cy, 34) if not narrow else (x + 38, top + 38, 28)
    c.circle(dx, dy, dr, fill="#b8402f", stroke="#6e2219", stroke_width=2)
    c.spot("draco", dx - dr - 3, dy - dr - 3, 2 * dr + 6, 2 * dr + 6)
    c.text(dx, dy + 5, "Draco", size=13, fill="#ffffff", bold=True, anchor="middle")
    cup = ["the cup:", "in the centre" if s.cup < 0 else f"player_{s.cup}"] + (["(set-up cup)"] if s.cup_initial and s.cup >= 0 else [])
    if narrow:  # beside Draco: the cup and the piles
        c.text(x + 78, top + 22, " ".join(cup), size=11, fill=S.MUTED, width=w - 88)
        for i, line in enumerate(S.wrap(piles, w - 88, size, 2)):
            c.text(x + 78, top + 40 + 15 * i, line, size=11, fill=S.MUTED)
    else:
        for i, line in enumerate(cup):
            c.text(x + 48, cy + 52 + 13 * i, line, size=11, fill=S.MUTED, anchor="middle", width=90)
    x0 = x + 110 + (w - 120 - step * places) / 2 if not narrow else x + 10
    gains = _toast(game, places)
    for i in range(places):
        cx = x0 + step * (i % per_row) + step / 2
        if narrow:  # the row of this place
            top_i = top + 66 + (i // per_row) * row_h
            cy = top_i + 58
        else:
            top_i = top
        c.text(cx, top_i + 20, str(i + 1), size=11, fill=S.MUTED, anchor="middle")
        ch = s.order[i] if i < len(s.order) else -1
        if ch < 0:
            c.circle(cx, cy, r, fill="none", stroke=S.EDGE, stroke_width=1.5)
            c.text(cx, cy + 4, "?", size=12, fill=S.MUTED, anchor="middle")
        else:
            fill = _fill(ch)
            c.spot(f"character:{ch}", cx - step / 2 + 2, top_i + 6, step - 4, r + 58)
            c.circle(cx, cy, r, fill=fill, stroke=S.INK if ch in s.picked or ch in s.todo else "#ffffff",
                     stroke_width=3 if ch in s.picked or ch in s.todo else 1.5)
            c.text(cx, cy + 4, _CLASS[C.CHARACTER_CLASS[ch]], size=10, fill=S.contrast(fill), anchor="middle",
                   width=2 * r - 2)
            owner = game.controller(s, ch)
            c.text(cx, cy + r + 15, f"p{owner}" if owner >= 0 else "-", size=11, anchor="middle", bold=owner >= 0)
        g = gains[i]
        if g:
            c.text(cx, cy + r + 31, f"{g:+d}", size=11, fill="#2e7d32" if g > 0 else "#c62828", anchor="middle")
    if narrow:  # under the places: the toast, then the card being resolved
        ty = top + 78 + rows * row_h
        c.spot("toast", x + 6, ty - 13, w - 12, 15 * len(toast_lines) + 2)
        for i, line in enumerate(toast_lines):
            c.text(x + 10, ty + 15 * i, line, size=11, fill=S.MUTED)
        for i, line in enumerate(resolving_lines):
            c.text(x + 10, ty + 15 * len(toast_lines) + 4 + 16 * i, line, size=12, bold=True)
        return y + h
    toast_w = S.text_width(toast, 11)
    c.spot("toast", x + w - 14 - toast_w, y + h - 24, toast_w + 8, 20)
    c.text(x + w - 10, y + h - 10, toast, size=11, fill=S.MUTED, anchor="end")
    if resolving:  # the card being resolved, under the circle
        c.text(x + 12, y + h - 10, resolving, size=12, bold=True, width=w - 470)
    return y + h


def _toast(game: Any, places: int) -> list[int]:
    """What a toast pays (or charges) the owner of each place, the specials aside."""
    out = [0] * places
    for i, g in enumerate(C.TOAST_GAINS):
        out[i] = g
    for i, charge in enumerate(C.TOAST_CHARGES):
        out[places - 1 - i] = -charge
    return out


def _players(c: S.Canvas, game: Any, s: State, seat: int | None, x: float, y: float, w: float, player: int,
             only: int | None = None) -> float:
    """The players' panels side by side; `only`: that player's alone, `w` wide with a chip row more
    (the narrow layout). Returns the y below them."""
    n = game.n
    rows = 1 if n <= 3 else 2
    boxes: list[tuple[float, float, float, float] | None] = list(
        S.cells(x, y, w, rows * 150 + (rows - 1) * 10, n, 3 if n > 4 else n if n <= 3 else 2))
    more = 0
    if only is not None:
        more, rows = 1, 1
        boxes = [(x, y, w, 150.0 + 2 * 23) if p == only else None for p in range(n)]
    richest = game.richest(s)
    laid_out = len(s.order) == len(game.characters) and -1 not in s.order
    gains, costs = game.toast_deltas(s) if laid_out and s.phase != Phase.OVER else (None, None)
    for p, box in enumerate(boxes):
        if box is None:
            continue
        bx, by, bw, bh = box
        mark = S.HIGHLIGHT if (p in s.winners if s.phase == Phase.OVER else p == player) else None
        name = f"player_{p} ({C.COLOURS[p]})" + (" - you" if p == seat else "")
        flags = []
        if s.cup == p:
            flags.append("holds the cup")
        if p == s.turn and s.phase != Phase.OVER:
            flags.append("turn")
        body = S.panel(c, bx, by, bw, bh, name, colour(p), note=", ".join(flags), mark=mark)
        c.spot(f"player:{p}", bx, by, bw, bh)
        gold, silver = divmod(s.money[p], 3)
        c.text(bx + 10, body + 24, f"{s.money[p]} silver", size=20, bold=True)
        c.text(bx + 10 + S.text_width(f"{s.money[p]} silver", 20, True) + 8, body + 24,
               f"({gold} gold, {silver} silver){', the richest' if p == richest else ''}", size=11, fill=S.MUTED)
        mine = [ch for ch in game.characters if game.controller(s, ch) == p]
        items = [(f"{i + 1}. {C.character_name(ch)}", _fill(ch)) for i, ch in enumerate(s.order) if ch in mine]
        S.chips(c, bx + 10, body + 34, bw - 20, items, rows=1 + more)
        body += 23 * more
        cards = sum(s.hands[p])
        if gains is not None:
            toast = " ".join(t for t in (f"+{gains[p]}" if gains[p] else "", f"-{costs[p]}" if costs[p] else "") if t)
            c.text(bx + bw - 10, body + 74, f"a toast now: {toast or '0'}", size=11, anchor="end")
        if seat is None or seat == p:
            c.text(bx + 10, body + 74, f"hand ({cards}):", size=11, fill=S.MUTED)
            items = [(C.CATALOGUE[k].name + (f" x{m}" if m > 1 else ""), "#fbf3df") for k, m in enumerate(s.hands[p]) if m]
            S.chips(c, bx + 10, body + 80, bw - 20, items, size=10, rows=2 + more, empty="no cards")
        else:
            c.text(bx + 10, body + 74, "hand: " + plural(cards, "card"), size=11, fill=S.MUTED)
            S.chips(c, bx + 10, body + 80, bw - 20, [("", "#7a6a58")] * cards, size=10, rows=1, max_chip=14)
    return y + rows * (150 + 2 * 23 * more) + (rows - 1) * 10


def place(game: Any, s: State, action: int) -> str | None:
    """Where `action` happens in the picture (`core.svg.Canvas.spot`): a card of the hand, a player, a
    character in the circle, Draco (the way he moves), the toast (proposing one); None for declining a
    toast. Seats in actions are relative to the actor; a place names the seat itself."""
    kind, args = ACTIONS.decode(action)
    if kind == "play":
        return f"card:{args[0]}"
    if kind == "player":
        return f"player:{(game.current_player(s) + args[0] + 1) % game.n}"
    if kind == "character":
        return f"character:{absolute_character(args[0], game.current_player(s), game.n)}"
    if kind == "direction":
        return "draco"
    if kind == "toast":
        return "toast"
    return None


def _hand(c: S.Canvas, s: State, p: int, x: float, y: float, w: float, above: bool, narrow: bool = False) -> float:
    """Seat `p`'s hand with each card's text (the acting seat's, seen from above; narrow: one card to a
    row). Returns the y below it."""
    h = 176 if not narrow else 48
    if p < 0:
        S.panel(c, x, y, w, h, "Hands are dealt after the circle is laid out", "#5b4a3a")
        return y + h
    whose = f"player_{p}'s hand" + (" (the seat to act)" if above else "")
    if narrow:
        cards = [(C.CATALOGUE[k].name + (f" x{m}" if m > 1 else ""), None, C.CATALOGUE[k].text)
                 for k, m in enumerate(s.hands[p]) if m]
        return S.card_rows(c, x, y, w, whose, colour(p), plural(sum(s.hands[p]), "card"), cards,
                           [f"card:{k}" for k, m in enumerate(s.hands[p]) if m])
    body = S.panel(c, x, y, w, h, whose, colour(p), note=plural(sum(s.hands[p]), "card"))
    cards = [(C.CATALOGUE[k].name + (f" x{m}" if m > 1 else ""), None, C.CATALOGUE[k].text)
             for k, m in enumerate(s.hands[p]) if m]
    S.card_list(c, x, y, w, h, body - 2, cards, per_col=7, line=20, label_w=200,
                places=[f"card:{k}" for k, m in enumerate(s.hands[p]) if m])
    return y + h
