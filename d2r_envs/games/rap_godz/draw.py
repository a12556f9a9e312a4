"""Rap Godz' picture (core/svg.py): the Album and Track, the Goalz, Citiez and Come Upz, the Pick Upz
on the tracks and any Beef, each rapper's plaques, resources and timeline, and a hand.

A seat's view shows what its observation holds: its own hand and draft offer, of the others' hands
only how many cards of each Album they hold; everything else lies face up. From above everything is
shown.
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
    _board(c, game, s, 12, y, 560)
    _come_upz(c, game, s, 12 + 572, y, width - 24 - 572)
    y += TOP_H + 12
    _players(c, game, s, seat, 12, y, width - 24)
    y += PANEL_H + 12
    actor = s.actor if s.actor >= 0 else s.turn
    _hand(c, game, s, seat if seat is not None else actor, 12, y, width - 24, seat is None)
    return str(c)


def _board(c: S.Canvas, game: Any, s: State, x: float, y: float, w: float) -> None:
    """The Goalz and Citiez to win, the decks and the supplies."""
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
    decks = " / ".join(str(d.n) for d in s.decks)
    come = " / ".join(str(d.n) for d in s.come_decks)
    supply = ", ".join(f"{m} {name}" for m, name in zip(s.supply, C.PLAQUE_NAMES))
    S.lines(c, x + 10, y + TOP_H - 48, w - 20, [f"Album decks {decks} | Come Upz decks {come}",
                                               f"plaques left: {supply} | Beef cubes left: {s.cube_supply}"],
            size=11, fill=S.MUTED)


def _come_upz(c: S.Canvas, game: Any, s: State, x: float, y: float, w: float) -> None:
    """The face-up Come Upz, the Pick Upz on the resource tracks, and the Beef under way."""
    body = S.panel(c, x, y, w, TOP_H, "Come Upz, Pick Upz and Beef", "#2d2d44",
                   note=f"a Come Upz costs {plural(C.COME_COST, 'card')}")
    slots = len(s.slots)
    cw = (w - 20 - 4 * (C.MAX_SLOTS - 1)) / C.MAX_SLOTS
    for i in range(slots):
        cx = x + 10 + i * (cw + 4)
        k = s.slots[i]
        if k < 0:
            c.rect(cx, body + 8, cw, 84, fill="none", stroke=S.EDGE, rx=5, dash=True)
            continue
        fill = kind_fill(k)
        buying = i == s.slot and s.phase == Phase.SPEND
        c.rect(cx, body + 8, cw, 84, fill="#ffffff", stroke=S.INK if buying else fill, stroke_width=3 if buying else 2, rx=5)
        c.spot(f"come_upz:{i}", cx, body + 8, cw, 84)
        c.rect(cx + 2, body + 10, cw - 4, 16, fill=fill, rx=4)
        c.text(cx + 6, body + 22, C.KIND_NAMES[k], size=10, bold=True, fill=S.contrast(fill), width=cw - 12)
        for j, line in enumerate(S.wrap(C.card_text(k), cw - 10, 9, 4)):
            c.text(cx + 5, body + 40 + 12 * j, line, size=9)
    c.text(x + 10, body + 112, "Pick Upz on the tracks:", size=11, fill=S.MUTED)
    for r in range(C.NUM_RES):
        ty = body + 122 + r * 20
        c.text(x + 10, ty + 13, C.RESOURCES[r], size=11, bold=True)
        for j, space in enumerate(C.PICKUP_SPACES):
            t = s.track_pickups[r * 3 + j]
            label = f"{space}: " + (C.PICKUP_TYPES[t] if t >= 0 else "-")
            c.text(x + 80 + j * 120, ty + 13, label, size=11, fill=S.INK if t >= 0 else S.MUTED, width=116)
    if s.starter >= 0:
        card = C.KIND_NAMES[s.beef_card] if s.beef_card >= 0 else "-"
        dice = " ".join(str(d) if d else "-" for d in s.dice)
        text = (f"Beef over {card}: player_{s.starter} vs player_{s.target}, dice {dice}"
                f" (starter, red, target), +2s used {s.bonus[0]}/{s.bonus[1]}")
        c.rect(x + 10, y + TOP_H - 32, w - 20, 22, fill=S.tint(BEEF, 0.75), rx=4)
        c.text(x + 16, y + TOP_H - 16, text, size=12, bold=True, width=w - 32)


def _players(c: S.Canvas, game: Any, s: State, seat: int | None, x: float, y: float, w: float) -> None:
    n = game.n
    over = s.phase == Phase.OVER
    for p, (bx, by, bw, bh) in enumerate(S.cells(x, y, w, PANEL_H, n, n)):
        sees = seat is None or seat == p
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
        if s.rappers[p] >= 0:
            rapper = C.RAPPERZ[s.rappers[p] - C.RAPPER_FIRST]
            c.text(bx + 10, yy + 12, f"{rapper.name} ({C.DIFFICULTY[rapper.difficulty]})" + (" - used" if s.used[p] else ""),
                   size=11, bold=True, width=bw - 20)
            c.text(bx + 10, yy + 26, rapper.text, size=10, fill=S.MUTED, width=bw - 20)
        else:
            c.text(bx + 10, yy + 12, "no Rapper yet", size=11, fill=S.MUTED)
        city = C.KIND_NAMES[s.cities[p]] if s.cities[p] >= 0 else "-"
        c.text(bx + 10, yy + 40, f"Hometown: {city}", size=10, width=bw - 20)
        yy += 48
        for r in range(C.NUM_RES):
            top = C.TRACK_MAX if s.upgraded[p] >> r & 1 else C.TRACK_TOP
            S.bar(c, bx + 10, yy, bw - 20, 16, s.res[p][r], top, S.tint(S.SEATS[p], 0.4),
                  label=f"{C.RESOURCES[r]} {s.res[p][r]}/{top}")
            yy += 19
        picks = ", ".join(f"{m} {t}" for m, t in zip(s.pickups[p], C.PICKUP_TYPES) if m) or "none"
        c.text(bx + 10, yy + 12, f"Pick Upz: {picks} | Beef cubes {s.cubes[p]}", size=10, width=bw - 20)
        yy += 18
        if sees:
            items = [(C.KIND_NAMES[k] + (f" x{m}" if m > 1 else ""), kind_fill(k)) for k, m in enumerate(s.hands[p]) if m]
            items += [("offer: " + C.KIND_NAMES[k], kind_fill(k)) for k, m in enumerate(s.offers[p]) if m]
            c.text(bx + 10, yy + 12, "hand:", size=10, fill=S.MUTED)
            S.chips(c, bx + 48, yy, bw - 58, items, size=10, rows=1, empty="no cards")
        else:
            albums = [card_count(s.hands[p][a:b]) for a, b in _SPANS]
            c.text(bx + 10, yy + 12, f"hand: {plural(sum(albums), 'card')} (by Album: {' / '.join(map(str, albums))})",
                   size=10, fill=S.MUTED, width=bw - 20)
        yy += 20
        held = [(C.KIND_NAMES[k], kind_fill(k)) for k, m in enumerate(s.held[p]) for _ in range(m)]
        c.text(bx + 10, yy + 12, "held:", size=10, fill=S.MUTED)
        S.chips(c, bx + 48, yy, bw - 58, held, size=10, rows=1, empty="no Come Upz")
        yy += 20
        colours = game.colour_cards(s, p)
        beefs = sum(s.timelines[p][k] for k in C.BEEF_KINDS)
        items = [(f"{C.COLOURS[i]} {m}", COLOUR[i]) for i, m in enumerate(colours) if m]
        items += [(f"Beef {beefs}", BEEF)] if beefs else []
        c.text(bx + 10, yy + 12, f"timeline ({card_count(s.timelines[p])}):", size=10, fill=S.MUTED)
        S.chips(c, bx + 10, yy + 18, bw - 20, items, size=10, rows=1, empty="no cards yet")


def place(game: Any, s: State, action: int) -> str | None:
    """Where `action` happens in the picture (`core.svg.Canvas.spot`): a card of the hand, a player, a
    face-up Come Upz; None for a move with no place. Seats in actions are relative to the actor; a place
    names the seat itself."""
    kind, args = ACTIONS.decode(action)
    if kind in ("play", "spend"):
        return f"card:{args[0]}"
    if kind == "target":
        return f"player:{(game.current_player(s) + args[0] + 1) % game.n}"
    if kind == "come_upz":
        return f"come_upz:{args[0]}"
    return None


def _hand(c: S.Canvas, game: Any, s: State, p: int, x: float, y: float, w: float, above: bool) -> None:
    """Seat `p`'s hand with each card's text, and its draft offer while the draft lasts."""
    if p < 0:
        S.panel(c, x, y, w, HAND_H, "Hands are dealt after the draft", "#2d2d44")
        return
    body = S.panel(c, x, y, w, HAND_H, f"player_{p}'s hand" + (" (the seat to act)" if above else ""), S.SEATS[p],
                   note=plural(card_count(s.hands[p]), "card"))
    cards = [(C.KIND_NAMES[k] + (f" x{m}" if m > 1 else ""), kind_fill(k), C.card_text(k))
             for k, m in enumerate(s.hands[p]) if m]
    offer = [k for k, m in enumerate(s.offers[p]) if m]
    S.card_list(c, x, y, w, HAND_H, body, cards, label_w=180, empty="" if offer else "no cards",
                places=[f"card:{k}" for k, m in enumerate(s.hands[p]) if m])
    if offer:
        text = "draft offer: " + "; ".join(
            f"{C.KIND_NAMES[k]} ({C.RAPPERZ[k - C.RAPPER_FIRST].text})" if k < C.CITY_FIRST
            else f"{C.KIND_NAMES[k]} (start: " + ", ".join(f"{r} {v}" for r, v in zip(C.RESOURCES, C.CITIEZ[k - C.CITY_FIRST].start)) + ")"
            for k in offer)
        c.text(x + 10, body + 20 + min(len(cards), 5) * 23, text, size=12, bold=True, width=w - 20)
