"""Rap Godz' picture (core/svg.py): the Album and Track, the Goalz, Citiez and Come Upz, the Pick Upz
on the tracks and any Beef, each rapper's plaques, resources and timeline, and a hand.

A seat's view shows what its observation holds: its own hand and draft offer, of the others' hands
only how many cards of each Album they hold; everything else lies face up. From above everything is
shown. Within core.svg `narrow` the same picture is one column: the Goalz and Citiez, the Come Upz,
the seat's own panel and hand, the others'.
"""

from __future__ import annotations

from typing import Any

from d2r_envs.core import svg as S
from d2r_envs.core.events import result_headline
from d2r_envs.core.words import plural
from d2r_envs.core.zones import card_count
from d2r_envs.games.rap_godz import cards as C
from d2r_envs.games.rap_godz.actions import ACTIONS
from d2r_envs.games.rap_godz.state import Phase, State

WIDTH = 1200
COLOUR = ("#8c8c8c", "#e8c42f", "#3f9b4f", "#8455b8", "#3d79c9")  # grey, yellow, green, purple, blue
BEEF = "#b0352b"
TOP_H = 262
PANEL_H = 262
HAND_H = 150
_SPANS = [(min(ks), max(ks) + 1) for ks in C.ALBUM_KINDS]  # each Album's card kinds


def kind_fill(k: int) -> str:
    if k >= C.CITY_FIRST:
        return S.tint(COLOUR[C.CITIEZ[k - C.CITY_FIRST].colour], 0.4)
    if k >= C.RAPPER_FIRST:
        return S.tint(COLOUR[C.RAPPERZ[k - C.RAPPER_FIRST].colour], 0.4)
    colour = C.CARDS[k].colour
    return BEEF if colour < 0 else COLOUR[colour]


def size(n: int) -> tuple[int, int]:
    """The canvas for `n` players: the same for every state of the game."""
    return WIDTH, 58 + 12 + TOP_H + 12 + PANEL_H + 12 + HAND_H + 12


def svg(game: Any, s: State, seat: int | None) -> str:
    width, height = size(game.n)
    width = S.width(width)
    narrow = width < WIDTH  # the narrow layout (core.svg `narrow`): one column, as tall as it holds
    over = s.phase == Phase.OVER
    c = S.Canvas(width, height, title=f"Rap Godz: {game.decision_name(s)}")
    if over:
        head = result_headline(game, s)
        detail = "final plaques: " + ", ".join(f"player_{p} {f}" for p, f in enumerate(s.final))
    else:
        head = f"Album {s.album + 1}, Track {s.track + 1}" + (f": player_{s.turn}'s turn" if s.turn >= 0 else "")
        detail = game.decision_name(s)
    view = "from above" if seat is None else f"player_{seat}'s view"
    y = S.banner(c, "Rap Godz", view, head, detail, done=over) + 12
    actor = s.actor if s.actor >= 0 else s.turn
    own = seat if seat is not None else actor
    if narrow:  # the board, the Come Upz, the seat's own panel and hand, the other rappers
        m, w = 8, width - 16
        y = _board(c, game, s, m, y - 4, w, narrow) + m
        y = _come_upz(c, game, s, m, y, w, narrow) + m
        y = S.stack_seats(y, own, game.n, lambda p, y: _player(c, game, s, seat, p, m, y, w, narrow=True),
                          lambda y: _hand(c, game, s, own, m, y, w, seat is None, narrow), m)
        c.resize(y)
        return str(c)
    _board(c, game, s, 12, y, 560)
    _come_upz(c, game, s, 12 + 572, y, width - 24 - 572)
    y += TOP_H + 12
    _players(c, game, s, seat, 12, y, width - 24)
    y += PANEL_H + 12
    _hand(c, game, s, own, 12, y, width - 24, seat is None)
    return str(c)


def _board(c: S.Canvas, game: Any, s: State, x: float, y: float, w: float, narrow: bool = False) -> float:
    """The Goalz and Citiez to win, the decks and the supplies. Returns the y below it."""
    if narrow:
        return _board_narrow(c, game, s, x, y, w)
    body = S.panel(c, x, y, w, TOP_H, "Goalz and Citiez", "#2d2d44",
                   note=f"Medallion: player_{s.medallion}" if s.medallion >= 0 else "")
    c.text(x + 10, body + 16, "Goalz (10 plaques each)", size=11, fill=S.MUTED)
    yy = body + 22
    for g in s.goals:
        name, text, in_game = C.GOALZ[g][:3]
        won = f"won by player_{s.goal_won[g]}" if s.goal_won[g] >= 0 else ("in-game" if in_game else "at the end")
        c.rect(x + 10, yy, w - 20, 20, fill="#efeaf6", rx=3)
        c.text(x + 16, yy + 14, name, size=12, bold=True, width=110)
        c.text(x + 128, yy + 14, text, size=11, width=w - 270)
        c.text(x + w - 16, yy + 14, won, size=11, fill=S.MUTED, anchor="end", width=130)
        yy += 23
    yy = max(yy, body + 22 + 5 * 23) + 6
    c.text(x + 10, yy + 10, "Citiez on the board (most icons of the colour)", size=11, fill=S.MUTED)
    items = [(C.KIND_NAMES[k], kind_fill(k)) for k in game.board_cities(s)]
    S.chips(c, x + 10, yy + 16, w - 20, items, size=11, rows=1)
    c.spot("deck", x + 6, y + TOP_H - 48, w - 12, 16)
    S.lines(c, x + 10, y + TOP_H - 48, w - 20, _supplies(s), size=11, fill=S.MUTED)
    return y + TOP_H


def _supplies(s: State) -> list[str]:
    decks = " / ".join(str(d.n) for d in s.decks)
    come = " / ".join(str(d.n) for d in s.come_decks)
    supply = ", ".join(f"{m} {name}" for m, name in zip(s.supply, C.PLAQUE_NAMES))
    return [f"Album decks {decks} | Come Upz decks {come}", f"plaques left: {supply} | Beef cubes left: {s.cube_supply}"]


def _board_narrow(c: S.Canvas, game: Any, s: State, x: float, y: float, w: float) -> float:
    """`_board` in one column: each Goal's name and state over its wrapped text."""
    size = max(11, S.min_font())
    goals = [(C.GOALZ[g][0], S.wrap(C.GOALZ[g][1], w - 32, size, 3),
              f"won by player_{s.goal_won[g]}" if s.goal_won[g] >= 0 else ("in-game" if C.GOALZ[g][2] else "at the end"))
             for g in s.goals]
    supplies = [line for text in _supplies(s) for line in S.wrap(text, w - 20, size, 3)]
    h = 24 + 22 + sum(24 + 14 * len(t) for _, t, _ in goals) + 24 + 50 + 15 * len(supplies) + 8
    body = S.panel(c, x, y, w, h, "Goalz and Citiez", "#2d2d44",
                   note=f"Medallion: player_{s.medallion}" if s.medallion >= 0 else "")
    c.text(x + 10, body + 16, "Goalz (10 plaques each)", size=11, fill=S.MUTED)
    yy = body + 22
    for name, texts, won in goals:
        gh = 20 + 14 * len(texts)
        c.rect(x + 10, yy, w - 20, gh, fill="#efeaf6", rx=3)
        c.text(x + 16, yy + 15, name, size=12, bold=True, width=w - 130)
        c.text(x + w - 16, yy + 15, won, size=11, fill=S.MUTED, anchor="end", width=100)
        for i, t in enumerate(texts):
            c.text(x + 16, yy + 30 + 14 * i, t, size=11)
        yy += gh + 4
    c.text(x + 10, yy + 14, "Citiez on the board (most icons of the colour)", size=11, fill=S.MUTED, width=w - 20)
    items = [(C.KIND_NAMES[k], kind_fill(k)) for k in game.board_cities(s)]
    S.chips(c, x + 10, yy + 20, w - 20, items, size=11, rows=2)
    yy += 20 + 50
    c.spot("deck", x + 6, yy, w - 12, 16)
    for i, line in enumerate(supplies):
        c.text(x + 10, yy + 12 + 15 * i, line, size=11, fill=S.MUTED)
    return y + h


def _come_upz(c: S.Canvas, game: Any, s: State, x: float, y: float, w: float, narrow: bool = False) -> float:
    """The face-up Come Upz, the Pick Upz on the resource tracks, and the Beef under way (narrow: three
    cards to a row, each track's Pick Upz under its name, the Beef wrapped). Returns the y below it."""
    size = max(11, S.min_font())
    beef = []
    if s.starter >= 0:
        card = C.KIND_NAMES[s.beef_card] if s.beef_card >= 0 else "-"
        dice = " ".join(str(d) if d else "-" for d in s.dice)
        beef = [(f"Beef over {card}: player_{s.starter} vs player_{s.target}, dice {dice}"
                 f" (starter, red, target), +2s used {s.bonus[0]}/{s.bonus[1]}")]
        beef = S.wrap(beef[0], w - 32, max(12, size), 3, bold=True) if narrow else beef
    per_row = 3 if narrow else C.MAX_SLOTS
    ch = 84 if not narrow else 120
    rows = -(-C.MAX_SLOTS // per_row)
    top = 8 + rows * (ch + 6) - 6  # below the cards
    track_h = 20 if not narrow else 36
    h = TOP_H if not narrow else 24 + top + 30 + C.NUM_RES * track_h + (10 + 16 * len(beef) + 6 if beef else 0) + 8
    cost = f"a Come Upz costs {plural(C.COME_COST, 'card')}"
    body = S.panel(c, x, y, w, h, "Come Upz, Pick Upz and Beef", "#2d2d44", note="" if narrow else cost)
    slots = len(s.slots)
    cw = (w - 20 - 4 * (per_row - 1)) / per_row
    for i in range(slots):
        cx, cy = x + 10 + (i % per_row) * (cw + 4), body + 8 + (i // per_row) * (ch + 6)
        k = s.slots[i]
        if k < 0:
            c.rect(cx, cy, cw, ch, fill="none", stroke=S.EDGE, rx=5, dash=True)
            continue
        fill = kind_fill(k)
        buying = i == s.slot and s.phase == Phase.SPEND
        c.rect(cx, cy, cw, ch, fill="#ffffff", stroke=S.INK if buying else fill, stroke_width=3 if buying else 2, rx=5)
        c.spot(f"come_upz:{i}", cx, cy, cw, ch)
        c.rect(cx + 2, cy + 2, cw - 4, 16, fill=fill, rx=4)
        c.text(cx + 6, cy + 14, C.KIND_NAMES[k], size=10, bold=True, fill=S.contrast(fill), width=cw - 12)
        wrap_size = 9 if not narrow else size  # the narrow layout wraps at the size drawn
        for j, line in enumerate(S.wrap(C.card_text(k), cw - 10, wrap_size, 4 if not narrow else 7)):
            c.text(cx + 5, cy + 32 + (wrap_size + 3) * j, line, size=9)
    ty0 = body + top + 16 if narrow else body + 112
    c.text(x + 10, ty0, "Pick Upz on the tracks:", size=11, fill=S.MUTED)
    if narrow:  # the cost, which the title strip has no room for
        c.text(x + w - 10, ty0, cost, size=11, fill=S.MUTED, anchor="end", width=w / 2 - 20)
    for r in range(C.NUM_RES):
        ty = ty0 + 10 + r * track_h
        c.text(x + 10, ty + 13, C.RESOURCES[r], size=11, bold=True)
        for j, space in enumerate(C.PICKUP_SPACES):
            t = s.track_pickups[r * 3 + j]
            label = f"{space}: " + (C.PICKUP_TYPES[t] if t >= 0 else "-")
            if narrow:
                lw = (w - 16) / 3
                c.text(x + 10 + j * lw, ty + 29, label, size=11, fill=S.INK if t >= 0 else S.MUTED, width=lw - 1)
            else:
                c.text(x + 80 + j * 120, ty + 13, label, size=11, fill=S.INK if t >= 0 else S.MUTED, width=116)
    if beef and narrow:
        by = ty0 + 10 + C.NUM_RES * track_h + 6
        c.rect(x + 10, by, w - 20, 8 + 16 * len(beef), fill=S.tint(BEEF, 0.75), rx=4)
        for i, line in enumerate(beef):
            c.text(x + 16, by + 17 + 16 * i, line, size=12, bold=True, width=w - 32)
    elif beef:
        c.rect(x + 10, y + TOP_H - 32, w - 20, 22, fill=S.tint(BEEF, 0.75), rx=4)
        c.text(x + 16, y + TOP_H - 16, beef[0], size=12, bold=True, width=w - 32)
    return y + h


def _players(c: S.Canvas, game: Any, s: State, seat: int | None, x: float, y: float, w: float) -> None:
    n = game.n
    for p, (bx, by, bw, bh) in enumerate(S.cells(x, y, w, PANEL_H, n, n)):
        _player(c, game, s, seat, p, bx, by, bw, bh)


def _player(c: S.Canvas, game: Any, s: State, seat: int | None, p: int, bx: float, by: float, bw: float,
            bh: float = PANEL_H, narrow: bool = False) -> float:
    """Rapper `p`'s panel: plaques, Rapper, Hometown, resources, Pick Upz, hand (the seat's own cards
    and offer; of another's how many of each Album), held Come Upz and timeline. Narrow: the texts wrap
    and the chips take a row more. Returns the y below it."""
    over = s.phase == Phase.OVER
    sees = seat is None or seat == p
    size = max(11, S.min_font())
    rapper = C.RAPPERZ[s.rappers[p] - C.RAPPER_FIRST] if s.rappers[p] >= 0 else None
    picks = ", ".join(f"{m} {t}" for m, t in zip(s.pickups[p], C.PICKUP_TYPES) if m) or "none"
    picks_text = f"Pick Upz: {picks} | Beef cubes {s.cubes[p]}"
    albums = [card_count(s.hands[p][a:b]) for a, b in _SPANS]
    count_text = f"hand: {plural(sum(albums), 'card')} (by Album: {' / '.join(map(str, albums))})"
    wrapped = (lambda text, n: S.wrap(text, bw - 20, size, n)) if narrow else (lambda text, n: [text])
    ability = wrapped(rapper.text, 3) if rapper else []
    pick_lines = wrapped(picks_text, 2)
    count_lines = wrapped(count_text, 2) if not sees else []
    more = 1 if narrow else 0
    if narrow:
        bh = (PANEL_H + 14 * (max(len(ability), 1) - 1) + 14 * (len(pick_lines) - 1)
              + (23 if sees else 14 * (len(count_lines) - 1)) + 23 + 23)
    mark = S.HIGHLIGHT if (p in s.winners if over else p == s.actor) else None
    note = ", ".join(t for t in ("Medallion" if p == s.medallion else "", "turn" if p == s.turn and not over else "") if t)
    c.spot(f"player:{p}", bx, by, bw, bh)
    body = S.panel(c, bx, by, bw, bh, f"player_{p}" + (" - you" if p == seat else ""), S.SEATS[p], note=note,
                   mark=mark)
    b, g, pl = s.plaques[p]
    points = game.points(s, p)
    c.text(bx + 10, body + 24, plural(points, "plaque"), size=18, bold=True)
    c.text(bx + bw - 10, body + 22, f"{b}x1 {g}x5 {pl}x25", size=10, fill=S.MUTED, anchor="end")
    yy = body + 32
    if rapper is not None:
        c.spot(f"rapper:{p}", bx + 6, yy, bw - 12, 16 + 14 * len(ability))
        c.text(bx + 10, yy + 12, f"{rapper.name} ({C.DIFFICULTY[rapper.difficulty]})" + (" - used" if s.used[p] else ""),
               size=11, bold=True, width=bw - 20)
        for i, line in enumerate(ability):
            c.text(bx + 10, yy + 26 + 14 * i, line, size=10, fill=S.MUTED, width=bw - 20)
    else:
        c.text(bx + 10, yy + 12, "no Rapper yet", size=11, fill=S.MUTED)
    yy += 14 * (max(len(ability), 1) - 1)
    city = C.KIND_NAMES[s.cities[p]] if s.cities[p] >= 0 else "-"
    c.text(bx + 10, yy + 40, f"Hometown: {city}", size=10, width=bw - 20)
    yy += 48
    for r in range(C.NUM_RES):
        top = C.TRACK_MAX if s.upgraded[p] >> r & 1 else C.TRACK_TOP
        c.spot(f"res:{p}:{r}", bx + 8, yy - 1, bw - 16, 18)
        S.bar(c, bx + 10, yy, bw - 20, 16, s.res[p][r], top, S.tint(S.SEATS[p], 0.4),
              label=f"{C.RESOURCES[r]} {s.res[p][r]}/{top}")
        yy += 19
    c.spot(f"pickups:{p}", bx + 6, yy, bw - 12, 16 + 14 * (len(pick_lines) - 1))
    for i, line in enumerate(pick_lines):
        c.text(bx + 10, yy + 12 + 14 * i, line, size=10, width=bw - 20)
    yy += 18 + 14 * (len(pick_lines) - 1)
    if sees:
        items = [(C.KIND_NAMES[k] + (f" x{m}" if m > 1 else ""), kind_fill(k)) for k, m in enumerate(s.hands[p]) if m]
        items += [("offer: " + C.KIND_NAMES[k], kind_fill(k)) for k, m in enumerate(s.offers[p]) if m]
        c.text(bx + 10, yy + 12, "hand:", size=10, fill=S.MUTED)
        S.chips(c, bx + 48, yy, bw - 58, items, size=10, rows=1 + more, empty="no cards")
        yy += 23 * more
    else:
        for i, line in enumerate(count_lines):
            c.text(bx + 10, yy + 12 + 14 * i, line, size=10, fill=S.MUTED, width=bw - 20)
        yy += 14 * (len(count_lines) - 1)
    yy += 20
    held = [(C.KIND_NAMES[k], kind_fill(k)) for k, m in enumerate(s.held[p]) for _ in range(m)]
    c.text(bx + 10, yy + 12, "held:", size=10, fill=S.MUTED)
    S.chips(c, bx + 48, yy, bw - 58, held, size=10, rows=1 + more, empty="no Come Upz")
    yy += 20 + 23 * more
    colours = game.colour_cards(s, p)
    beefs = sum(s.timelines[p][k] for k in C.BEEF_KINDS)
    items = [(f"{C.COLOURS[i]} {m}", COLOUR[i]) for i, m in enumerate(colours) if m]
    items += [(f"Beef {beefs}", BEEF)] if beefs else []
    c.text(bx + 10, yy + 12, f"timeline ({card_count(s.timelines[p])}):", size=10, fill=S.MUTED)
    S.chips(c, bx + 10, yy + 18, bw - 20, items, size=10, rows=1 + more, empty="no cards yet")
    return by + bh


def place(game: Any, s: State, action: int) -> str | None:
    """Where `action` happens in the picture (`core.svg.Canvas.spot`): a card of the hand or of the draft
    offer, a player, a face-up Come Upz, the Album deck to draw from, the actor's Pick Upz, resource
    track or Rapper; None for a pass. Seats in actions are relative to the actor; a place names the seat
    itself."""
    kind, args = ACTIONS.decode(action)
    me = game.current_player(s)
    if kind in ("play", "spend"):
        return f"card:{args[0]}"
    if kind in ("rapper", "city"):  # a card of the seat's own draft offer, drawn with its hand
        return f"card:{args[0] + (C.RAPPER_FIRST if kind == 'rapper' else C.CITY_FIRST)}"
    if kind == "target":
        return f"player:{(me + args[0] + 1) % game.n}"
    if kind == "come_upz":
        return f"come_upz:{args[0]}"
    if kind == "draw":
        return "deck"
    if kind in ("card_pickup", "boost"):
        return f"pickups:{me}"
    if kind == "res_pickup":
        return f"res:{me}:{args[0]}"
    if kind == "ability":
        return f"rapper:{me}"
    return None


def _offer_text(k: int) -> str:
    """A card of the draft offer: a Rapper's ability, or a City's starting resources."""
    if k < C.CITY_FIRST:
        return C.RAPPERZ[k - C.RAPPER_FIRST].text
    return "start: " + ", ".join(f"{r} {v}" for r, v in zip(C.RESOURCES, C.CITIEZ[k - C.CITY_FIRST].start))


def _hand(c: S.Canvas, game: Any, s: State, p: int, x: float, y: float, w: float, above: bool,
          narrow: bool = False) -> float:
    """Seat `p`'s hand with each card's text, and its draft offer while the draft lasts (narrow: one
    card to a row, the offer's after them). Returns the y below it."""
    if p < 0:
        h = HAND_H if not narrow else 48
        S.panel(c, x, y, w, h, "Hands are dealt after the draft", "#2d2d44")
        return y + h
    if narrow:
        rows = [(C.KIND_NAMES[k] + (f" x{m}" if m > 1 else ""), kind_fill(k), C.card_text(k))
                for k, m in enumerate(s.hands[p]) if m]
        places = [f"card:{k}" for k, m in enumerate(s.hands[p]) if m]
        places += [f"card:{k}" for k, m in enumerate(s.offers[p]) if m]
        offered = [("draft offer: " + C.KIND_NAMES[k], kind_fill(k), _offer_text(k)) for k, m in enumerate(s.offers[p]) if m]
        return S.card_rows(c, x, y, w, f"player_{p}'s hand" + (" (the seat to act)" if above else ""), S.SEATS[p],
                           plural(card_count(s.hands[p]), "card"), rows + offered, places,
                           empty="" if offered else "no cards", text_lines=4)
    body = S.panel(c, x, y, w, HAND_H, f"player_{p}'s hand" + (" (the seat to act)" if above else ""), S.SEATS[p],
                   note=plural(card_count(s.hands[p]), "card"))
    cards = [(C.KIND_NAMES[k] + (f" x{m}" if m > 1 else ""), kind_fill(k), C.card_text(k))
             for k, m in enumerate(s.hands[p]) if m]
    offer = [k for k, m in enumerate(s.offers[p]) if m]
    S.card_list(c, x, y, w, HAND_H, body, cards, label_w=180, empty="" if offer else "no cards",
                places=[f"card:{k}" for k, m in enumerate(s.hands[p]) if m])
    if offer:
        parts = [f"{C.KIND_NAMES[k]} ({_offer_text(k)})" for k in offer]
        text = "draft offer: " + "; ".join(parts)
        ty = body + 20 + min(len(cards), 5) * 23
        at = x + 10 + S.text_width("draft offer: ", 12, bold=True)
        for k, part in zip(offer, parts):  # each offered card's stretch of the line
            end = min(at + S.text_width(part, 12, bold=True), x + w - 10)
            c.spot(f"card:{k}", at - 2, ty - 16, max(end - at, 20) + 4, 22)
            at = end + S.text_width("; ", 12, bold=True)
        c.text(x + 10, ty, text, size=12, bold=True, width=w - 20)
    return y + HAND_H
