"""Drags 2 Riches' picture (core/svg.py): the Event and the Market (while Characters are chosen, the
Characters on offer in its place), each queen's Look, Floordrobe, prestige and counts, and a hand with
each card's text.

A seat's view shows what its observation holds (D2R-HIDDEN-1): its own hand and Look, its Peek, of
the others only which Look slots are filled and how many cards their hands and Wardrobes hold, and
the thumbs only once everyone has chosen; from above everything is shown. Within core.svg `narrow`
the same picture is one column: the Event and the Market, the seat's own panel and hand, the others'.
"""

from __future__ import annotations

from typing import Any

from d2r_envs.core import svg as S
from d2r_envs.core.events import result_headline
from d2r_envs.core.words import plural
from d2r_envs.games.drags_2_riches import cards as C
from d2r_envs.games.drags_2_riches.actions import ACTIONS
from d2r_envs.games.drags_2_riches.state import Ask, Phase, State

WIDTH = 1200
TYPE_FILL = ("#8455b8", "#e46aa6", "#d2453c", "#ec8a2c", "#2f9c95")  # Outfit, Hair, Heels, Makeup, Accessories
COIN_FILL = ("#c0c0c0", "#e8c42f")  # Silver, Gold
PANEL_H = 196
LOOK_ROWS = 5 * 19 + 4  # the narrow layout's Look, a slot to a row
THUMBS = ("thumbs down", "thumbs up", "thumbs up + Deathdrop Diva")


def kind_fill(k: int) -> str:
    t = C.TYPE_OF[k]
    return COIN_FILL[k] if t < 0 else TYPE_FILL[t]


def size(n: int) -> tuple[int, int]:
    """The canvas for `n` players: the same for every state of the game."""
    rows = 1 if n <= 3 else 2
    return WIDTH, 58 + 12 + 176 + 12 + rows * PANEL_H + (rows - 1) * 10 + 12 + 150 + 12


def svg(game: Any, s: State, seat: int | None) -> str:
    n = game.n
    width, height = size(n)
    width = S.width(width)
    narrow = width < WIDTH
    over = s.phase == Phase.OVER
    c = S.Canvas(width, height, title=f"Drags 2 Riches: {game.decision_name(s)}")
    if over:
        head = result_headline(game, s)
        detail = "prestige: " + ", ".join(f"player_{p} {game.prestige(s, p)} ({plural(len(s.won[p]), 'event')})" for p in range(n))
    else:
        head = f"round {s.round}" + (f": player_{s.turn}'s turn" if s.turn >= 0 else "")
        detail = game.decision_name(s)
    view = "from above" if seat is None else f"player_{seat}'s view"
    y = S.banner(c, "Drags 2 Riches", view, head, detail, done=over) + 12
    actor = s.actor if s.actor >= 0 else s.turn
    own = seat if seat is not None else actor
    if narrow:
        m = 8
        y = _table(c, game, s, m, y - 4, width - 2 * m, narrow) + m
        y = S.stack_seats(y, own, n, lambda p, y: _player(c, game, s, seat, p, m, y, width - 2 * m, narrow),
                          lambda y: _hand(c, game, s, own, m, y, width - 2 * m, seat is None, narrow), m)
        c.resize(y)
        return str(c)
    y = _table(c, game, s, 12, y, width - 24) + 12
    y = _players(c, game, s, seat, 12, y, width - 24) + 12
    _hand(c, game, s, own, 12, y, width - 24, seat is None)
    return str(c)


def _turn_lines(s: State) -> list[str]:
    """What the turn has done so far, a line each (none when no turn is under way)."""
    if s.turn < 0 or s.phase == Phase.OVER:
        return []
    lines = [f"player_{s.turn}'s turn", f"coins to spend: {s.coins}",
             "bought a card" if s.bought else "nothing bought yet"]
    if s.thrifted:
        lines.append("Thrifting used")
    if s.card >= 0 and s.phase in (Phase.CARD, Phase.REACT):
        lines.append(f"resolving {C.KINDS[s.card].name}")
    if s.target >= 0:
        lines.append(f"target: player_{s.target}")
    return lines


def _table(c: S.Canvas, game: Any, s: State, x: float, y: float, w: float, narrow: bool = False) -> float:
    """The Event, the Market, the pile and what the turn has played so far."""
    if narrow:
        return _table_narrow(c, game, s, x, y, w)
    h = 176
    choosing = s.phase == Phase.CHARACTERS  # the Characters on offer stand where the Market will be
    title = "The Event and the Characters to choose" if choosing else "The Event and the Market"
    body = S.panel(c, x, y, w, h, title, "#4a3b5c", note=f"first player: player_{s.first}" if s.first >= 0 else "")
    # The Event card.
    c.rect(x + 10, body + 8, 180, h - 42, fill="#fbf3df", stroke=S.EDGE, rx=6)
    c.spot("event", x + 10, body + 8, 180, h - 42)
    if s.event >= 0:
        ev = C.EVENTS[s.event]
        c.text(x + 100, body + 30, ev.name, size=14, bold=True, anchor="middle", width=166)
        c.text(x + 100, body + 64, f"{ev.prestige}", size=30, bold=True, anchor="middle")
        c.text(x + 100, body + 82, "prestige", size=11, fill=S.MUTED, anchor="middle")
        c.text(x + 100, body + 102, f"deck {'I' * (ev.deck + 1)}", size=11, fill=S.MUTED, anchor="middle")
    else:
        c.text(x + 100, body + 60, "no Event yet", size=12, fill=S.MUTED, anchor="middle")
    left = sum(len(s.decks[d]) + 1 for d in s.stages[s.stage:])  # each deck's regulars, then its special
    c.text(x + 100, body + h - 42, f"Events to come: {left}", size=11, fill=S.MUTED, anchor="middle")
    # The Market, one card per copy (the Characters on offer in its place while one is chosen).
    mx, mw = x + 204, 8 * 102
    if choosing:  # four to a row across the rest of the panel (no turn is under way at set-up)
        for k, box in zip(_offer(s), S.cells(mx, body + 8, x + w - 10 - mx, h - 40, 8, 4, gap=8)):
            _character(c, k, *box)
        return y + h
    cards = [k for k in range(C.NUM_KINDS) for _ in range(s.market[k])]
    for i in range(C.MARKET_SIZE):
        cx = mx + i * 102
        if i < len(cards):
            _card(c, cards[i], cx, body + 8, 96, 112)
            c.spot(f"market:{cards[i]}", cx, body + 8, 96, 112)
        else:
            c.rect(cx, body + 8, 96, 112, fill="none", stroke=S.EDGE, rx=6, dash=True)
    c.text(mx, body + 140, f"Market draw pile {s.pile.n} | trash {sum(s.trash)}", size=12, fill=S.MUTED)
    # The turn so far.
    tx = mx + mw + 8
    tw = x + w - tx - 10
    if s.turn >= 0 and not s.phase == Phase.OVER:
        lines = _turn_lines(s)
        yy = S.lines(c, tx, body + 4, tw, lines, size=12)
        active = [(C.KINDS[k].name + (f" x{m}" if m > 1 else ""), kind_fill(k)) for k, m in enumerate(s.active[s.turn]) if m]
        if active:
            c.text(tx, yy + 10, "played this turn:", size=11, fill=S.MUTED)
            S.chips(c, tx, yy + 16, tw, active, size=10, rows=2)
    return y + h


def _table_narrow(c: S.Canvas, game: Any, s: State, x: float, y: float, w: float) -> float:
    """`_table` in one column: the Event over the Market, three cards to a row, then the turn so far."""
    cw, ch, gap = (w - 20 - 12) / 3, 136, 6
    rows = -(-C.MARKET_SIZE // 3)
    lines = _turn_lines(s)
    active = [(C.KINDS[k].name + (f" x{m}" if m > 1 else ""), kind_fill(k)) for k, m in enumerate(s.active[s.turn]) if m] if lines else []
    choosing = s.phase == Phase.CHARACTERS  # the Characters on offer stand where the Market will be
    offer = [(k, _character_lines(k, w - 20)) for k in _offer(s)]
    market_h = sum(20 + 14 * len(texts) + gap for _, texts in offer) if choosing else rows * (ch + gap)
    h = 24 + 80 + market_h + 22 + len(lines) * 16.2 + (74 if active else 0) + 8
    body = S.panel(c, x, y, w, h, "The Event and the Characters" if choosing else "The Event and the Market",
                   "#4a3b5c", note=f"first player: player_{s.first}" if s.first >= 0 else "")
    c.rect(x + 10, body + 8, w - 20, 64, fill="#fbf3df", stroke=S.EDGE, rx=6)
    c.spot("event", x + 10, body + 8, w - 20, 64)
    left = sum(len(s.decks[d]) + 1 for d in s.stages[s.stage:])
    if s.event >= 0:
        ev = C.EVENTS[s.event]
        c.text(x + 20, body + 28, ev.name, size=14, bold=True, width=w - 40)
        c.text(x + 20, body + 46, f"{ev.prestige} prestige | deck {'I' * (ev.deck + 1)}", size=12, width=w - 40)
    else:
        c.text(x + 20, body + 28, "no Event yet", size=12, fill=S.MUTED)
    c.text(x + 20, body + 64, f"Events to come: {left}", size=11, fill=S.MUTED)
    cards = [k for k in range(C.NUM_KINDS) for _ in range(s.market[k])]
    my = body + 80
    for k, texts in offer:  # one Character to a row
        _character(c, k, x + 10, my, w - 20, 20 + 14 * len(texts), texts)
        my += 20 + 14 * len(texts) + gap
    for i in range(C.MARKET_SIZE if not choosing else 0):
        cx, cy = x + 10 + (i % 3) * (cw + gap), my + (i // 3) * (ch + gap)
        if i < len(cards):
            _card(c, cards[i], cx, cy, cw, ch)
            c.spot(f"market:{cards[i]}", cx, cy, cw, ch)
        else:
            c.rect(cx, cy, cw, ch, fill="none", stroke=S.EDGE, rx=6, dash=True)
    yy = body + 80 + market_h + 10
    c.text(x + 10, yy, f"Market draw pile {s.pile.n} | trash {sum(s.trash)}", size=12, fill=S.MUTED, width=w - 20)
    yy = S.lines(c, x + 10, yy + 4, w - 20, lines, size=12)
    if active:
        c.text(x + 10, yy + 10, "played this turn:", size=11, fill=S.MUTED)
        S.chips(c, x + 10, yy + 16, w - 20, active, size=10, rows=2)
    return y + h


def place(game: Any, s: State, action: int) -> str | None:
    """Where `action` happens in the picture (`core.svg.Canvas.spot`): a Character on offer at set-up, a
    card of the hand, a Market card, a player, the Event (thumbs up or down), a card of the actor's
    Floordrobe (to Return or Trash), a slot of the actor's Look (a Look type), the actor's Character (its
    action); None for a move with no place. Seats in actions are relative to the actor; a place names
    the seat itself."""
    kind, args = ACTIONS.decode(action)
    me = game.current_player(s)
    if kind in ("activate", "wear"):
        return f"card:{args[0]}"
    if kind == "buy":
        return f"market:{args[0]}"
    if kind == "target":
        return f"player:{(me + args[0] + 1) % game.n}"
    if kind == "winner":
        return f"player:{(me + args[0]) % game.n}"
    if kind == "thumbs":
        return "event"
    if kind == "ability":
        return f"character:{me}"
    if kind == "character":
        return f"offer:{args[0]}"
    if kind == "look_type":
        return f"look:{me}:{args[0]}"
    if kind == "card":
        ask = s.ask
        if ask in (Ask.RETURN, Ask.TRASH):
            return f"floor:{me}:{args[0]}"
        if ask == Ask.LEND_CARD:
            return f"card:{args[0]}"
        if ask == Ask.TAKE:
            return f"market:{args[0]}"
        if ask == Ask.BORROW:  # a card of the victim's hand, which the picture does not show
            return f"player:{s.victim}"
    return None


def _card(c: S.Canvas, k: int, x: float, y: float, w: float, h: float) -> None:
    """A Market card: its type band, name, value and what it does."""
    kind = C.KINDS[k]
    fill = kind_fill(k)
    c.rect(x, y, w, h, fill="#ffffff", stroke=fill, stroke_width=2, rx=6)
    c.rect(x + 1, y + 1, w - 2, 18, fill=fill, rx=5)
    c.text(x + 6, y + 14, C.TYPES[kind.type] if kind.type >= 0 else "coin", size=10, fill=S.contrast(fill), width=w - 30)
    c.text(x + w - 6, y + 14, str(kind.value), size=11, fill=S.contrast(fill), bold=True, anchor="end")
    for i, line in enumerate(S.wrap(kind.name, w - 10, 11, 2, bold=True)):
        c.text(x + 5, y + 34 + 13 * i, line, size=11, bold=True)
    size = 9 if h <= 112 else max(9, S.min_font())  # a taller card (the narrow layout) wraps at the size drawn
    count = 4 if h <= 112 else int((h - 58) // (size + 2))
    for i, line in enumerate(S.wrap(kind.text, w - 10, size, count)):
        c.text(x + 5, y + 64 + (size + 2) * i, line, size=9, fill=S.MUTED)


def _offer(s: State) -> list[int]:
    """The Characters on offer while players choose theirs (every one not yet chosen: D2R-OPT-CHAR)."""
    if s.phase != Phase.CHARACTERS:
        return []
    return [ch for ch in range(C.NUM_CHARACTERS) if ch not in s.characters]


def _character_lines(ch: int, w: float, count: int = 3) -> list[str]:
    """What Character `ch`'s action does, wrapped to `w` in at most `count` lines of legible text."""
    return S.wrap(C.CHARACTERS[ch][2], w - 16, max(11, S.min_font()), count)


def _character(c: S.Canvas, ch: int, x: float, y: float, w: float, h: float, texts: list[str] | None = None) -> None:
    """A Character on offer, its place: its name and its action's name, what the action does under them."""
    name, ability = C.CHARACTERS[ch][:2]
    c.rect(x, y, w, h, fill="#f1edf6", stroke="#4a3b5c", rx=5)
    c.spot(f"offer:{ch}", x, y, w, h)
    c.text(x + 8, y + 15, name, size=12, bold=True, width=w - 16)
    at = x + 8 + S.text_width(name + " ", 12, bold=True)
    c.text(at, y + 15, ability, size=11, fill="#4a3b5c", bold=True, width=x + w - 8 - at)
    for i, line in enumerate(texts if texts is not None else _character_lines(ch, w, int((h - 20) // 14))):
        c.text(x + 8, y + 30 + 14 * i, line, size=11, fill=S.MUTED)


def _players(c: S.Canvas, game: Any, s: State, seat: int | None, x: float, y: float, w: float) -> float:
    n = game.n
    rows = 1 if n <= 3 else 2
    boxes = S.cells(x, y, w, rows * PANEL_H + (rows - 1) * 10, n, n if n <= 3 else (2 if n == 4 else 3))
    for p, (bx, by, bw, bh) in enumerate(boxes):
        _player(c, game, s, seat, p, bx, by, bw, bh=bh)
    return y + rows * PANEL_H + (rows - 1) * 10


def _player(c: S.Canvas, game: Any, s: State, seat: int | None, p: int, bx: float, by: float, bw: float,
            narrow: bool = False, bh: float = PANEL_H) -> float:
    """Player `p`'s panel: prestige, character, Look, facts, hand (the seat's own), Floordrobe. Narrow:
    the facts wrap and the chips take a row more. Returns the y below it."""
    over = s.phase == Phase.OVER
    revealed = s.phase != Phase.THUMBS and max(s.last_values, default=-1) >= 0
    sees = seat is None or seat == p
    facts = []
    if sees:
        facts.append(f"Look value {game.look_value(s, p, s.phase == Phase.THUMBS and s.thumbs[p] == 2)}")
    if revealed and s.last_values[p] >= 0:
        facts.append(f"revealed {s.last_values[p]}")
    if s.phase == Phase.THUMBS and s.thumbs[p] >= 0 and sees:
        facts.append(THUMBS[s.thumbs[p]])
    if s.pending and s.pending[p]:
        facts.append(f"{len(s.pending[p])} reversed Shade waiting")
    facts.append(f"hand {sum(s.hands[p])} | wardrobe {s.wardrobes[p].n}")
    fact_lines = S.wrap(" | ".join(facts), bw - 20, max(11, S.min_font()), 3) if narrow else [" | ".join(facts)]
    if narrow:  # as tall as it holds: strip, prestige, character, Look, facts, hand, Floordrobe rows
        character = 14 if s.characters and s.characters[p] >= 0 else 0
        bh = 24 + 34 + character + LOOK_ROWS + 4 + 14 * len(fact_lines) + (43 if sees else 0) + 23 * 3 + 6
    mark = S.HIGHLIGHT if (p in s.winners if over else p == s.actor) else None
    note = ", ".join(x for x in ("first player" if p == s.first else "", "turn" if p == s.turn and not over else "") if x)
    body = S.panel(c, bx, by, bw, bh, f"player_{p}" + (" - you" if p == seat else ""), S.SEATS[p], note=note, mark=mark)
    c.spot(f"player:{p}", bx, by, bw, bh)
    c.text(bx + 10, body + 24, f"{game.prestige(s, p)} prestige", size=18, bold=True)
    c.text(bx + bw - 10, body + 24, "events won: " + str(len(s.won[p])), size=11, fill=S.MUTED, anchor="end")
    yy = body + 34
    if s.characters and s.characters[p] >= 0:
        name, ability = C.CHARACTERS[s.characters[p]][:2]
        c.spot(f"character:{p}", bx + 6, yy - 1, bw - 12, 15)
        c.text(bx + 10, yy + 10, f"{name}: {ability}" + (" (used)" if s.used[p] else ""), size=11, width=bw - 20)
        yy += 14
    # The Look: one slot per type (narrow: a slot to a row).
    sw = (bw - 20 - 4 * 4) / 5
    for t in range(C.NUM_TYPES if not narrow else 0):
        k = s.looks[p][t]
        sx = bx + 10 + t * (sw + 4)
        c.spot(f"look:{p}:{t}", sx, yy + 4, sw, 34)
        if k >= 0:
            c.rect(sx, yy + 4, sw, 34, fill=S.tint(TYPE_FILL[t], 0.55 if sees else 0.75), stroke=TYPE_FILL[t], rx=4)
            if sees:
                label = C.KINDS[k].name.replace(f" {C.TYPES[t]}", "")
                c.text(sx + sw / 2, yy + 18, label, size=9, anchor="middle", bold=True, width=sw - 4)
                c.text(sx + sw / 2, yy + 32, f"value {C.VALUE[k]}", size=9, fill=S.MUTED, anchor="middle")
            else:
                c.text(sx + sw / 2, yy + 25, "face down", size=9, anchor="middle", width=sw - 4)
        else:
            c.rect(sx, yy + 4, sw, 34, fill="none", stroke=S.EDGE, rx=4, dash=True)
            c.text(sx + sw / 2, yy + 25, C.TYPES[t], size=9, fill=S.MUTED, anchor="middle", width=sw - 4)
    for t in range(C.NUM_TYPES if narrow else 0):
        k, ty = s.looks[p][t], yy + 4 + 19 * t
        c.spot(f"look:{p}:{t}", bx + 10, ty, bw - 20, 17)
        if k >= 0:
            c.rect(bx + 10, ty, bw - 20, 17, fill=S.tint(TYPE_FILL[t], 0.55 if sees else 0.75), stroke=TYPE_FILL[t], rx=4)
            label = f"{C.KINDS[k].name.replace(f' {C.TYPES[t]}', '')}, value {C.VALUE[k]}" if sees else "face down"
            c.text(bx + 16, ty + 13, f"{C.TYPES[t]}: {label}", size=11, bold=sees, width=bw - 32)
        else:
            c.rect(bx + 10, ty, bw - 20, 17, fill="none", stroke=S.EDGE, rx=4, dash=True)
            c.text(bx + 16, ty + 13, C.TYPES[t], size=11, fill=S.MUTED, width=bw - 32)
    yy += 42 if not narrow else LOOK_ROWS
    for i, line in enumerate(fact_lines):
        c.text(bx + 10, yy + 12 + 14 * i, line, size=11, width=bw - 20)
    yy += 18 + 14 * (len(fact_lines) - 1)
    more = 1 if narrow else 0
    if sees:
        hand = [(C.KINDS[k].name + (f" x{m}" if m > 1 else ""), kind_fill(k)) for k, m in enumerate(s.hands[p]) if m]
        c.text(bx + 10, yy + 11, "hand:", size=10, fill=S.MUTED)
        S.chips(c, bx + 46, yy, bw - 56, hand, size=10, rows=1 + more, empty="no cards")
        yy += 20 + 23 * more
    floor = [(C.KINDS[k].name + (f" x{m}" if m > 1 else ""), kind_fill(k)) for k, m in enumerate(s.floors[p]) if m]
    c.text(bx + 10, yy + 11, "floor:", size=10, fill=S.MUTED)
    S.chips(c, bx + 46, yy, bw - 56, floor, size=10, rows=3 if narrow else (2 if sees else 3), empty="empty Floordrobe",
            places=[f"floor:{p}:{k}" for k, m in enumerate(s.floors[p]) if m])
    return by + bh


def _hand(c: S.Canvas, game: Any, s: State, p: int, x: float, y: float, w: float, above: bool,
          narrow: bool = False) -> float:
    """Seat `p`'s hand with what each card does, and what its Peek showed (narrow: one card to a row,
    the Peek after them). Returns the y below it."""
    h = 150 if not narrow else 48
    if p < 0:
        S.panel(c, x, y, w, h, "Hands are dealt with the first Event", "#4a3b5c")
        return y + h
    if narrow:
        cards: list[tuple[str, str | None, str]] = [(C.KINDS[k].name + (f" x{m}" if m > 1 else ""), kind_fill(k), f"value {C.KINDS[k].value}: {C.KINDS[k].text}")
                 for k, m in enumerate(s.hands[p]) if m]
        places = [f"card:{k}" for k, m in enumerate(s.hands[p]) if m]
        if s.peek[p] >= 0:
            cards.append((f"peeked at player_{s.peek[p]}", None, C.counts_to_string(s.peek_hand[p])))
        return S.card_rows(c, x, y, w, f"player_{p}'s hand" + (" (the seat to act)" if above else ""), S.SEATS[p],
                           plural(sum(s.hands[p]), "card"), cards, places, text_lines=4)
    note = plural(sum(s.hands[p]), "card")
    if s.peek[p] >= 0:
        note = f"peeked at player_{s.peek[p]}: {C.counts_to_string(s.peek_hand[p])} | " + note
    body = S.panel(c, x, y, w, h, f"player_{p}'s hand" + (" (the seat to act)" if above else ""), S.SEATS[p], note=note)
    cards = [(C.KINDS[k].name + (f" x{m}" if m > 1 else ""), kind_fill(k), f"value {C.KINDS[k].value}: {C.KINDS[k].text}")
             for k, m in enumerate(s.hands[p]) if m]
    S.card_list(c, x, y, w, h, body, cards, places=[f"card:{k}" for k, m in enumerate(s.hands[p]) if m])
    return y + h
