"""Extravaganza's picture (core/svg.py): the stage with its rhinestones and queens, the judges with
their categories and display cards, the song, each queen's supply and scores, and a hand (while the
queens are drafted, the queens left to draft in its place).

A seat's view shows what its observation holds (EX-DECIDE-HIDDEN): its own hand and reveal cards, of
the others only how many they hold; never a deck's order or contents. From above everything is shown.
Within core.svg `narrow` the same picture is one column: the stage, the judges and the song, the seat's
own panel and hand, the others'.
"""

from __future__ import annotations

from typing import Any

from d2r_envs.core import svg as S
from d2r_envs.core.events import result_headline
from d2r_envs.core.words import plural
from d2r_envs.games.extravaganza import cards as C
from d2r_envs.games.extravaganza.actions import ACTIONS
from d2r_envs.games.extravaganza.state import Op, State

WIDTH = 1200
STONE = tuple(S.PALETTE[name] for name in C.COLOURS)  # purple, orange, blue, green, yellow
CELL = 56
TOP_H = 24 + 5 * CELL + 44
PANEL_H = 236
HAND_H = 132


def size(n: int) -> tuple[int, int]:
    """The canvas for `n` players: the same for every state of the game."""
    return WIDTH, 58 + 12 + TOP_H + 12 + PANEL_H + 12 + HAND_H + 12


def svg(game: Any, s: State, seat: int | None) -> str:
    width, height = size(game.n)
    width = S.width(width)
    narrow = width < WIDTH  # the narrow layout (core.svg `narrow`): one column, as tall as it holds
    c = S.Canvas(width, height, title=f"Extravaganza: {game.decision_name(s)}")
    if s.over:
        head = result_headline(game, s)
        detail = "final scores: " + ", ".join(f"player_{q} {f}" for q, f in enumerate(s.final))
    else:
        head = f"player_{s.turn}'s turn" if s.turn >= 0 else "setting up"
        detail = game.decision_name(s)
    view = "from above" if seat is None else f"player_{seat}'s view"
    y = S.banner(c, "Extravaganza", view, head, detail, done=s.over) + 12
    decider = _decider(game, s)
    own = seat if seat is not None else decider
    if narrow:  # the stage, the judges and the song, the seat's own panel and hand, the other queens
        m, w = 8, width - 16
        y = _stage(c, game, s, m, y - 4, w) + m
        y = _judges(c, game, s, m, y, w, narrow) + m
        y = S.stack_seats(y, own, game.n, lambda q, y: _player(c, game, s, seat, q, m, y, w, narrow=True),
                          lambda y: _hand(c, game, s, own, m, y, w, seat is None, narrow), m)
        c.resize(y)
        return str(c)
    _stage(c, game, s, 12, y)
    _judges(c, game, s, 12 + 5 * CELL + 32, y, width - 24 - 5 * CELL - 32)
    y += TOP_H + 12
    _players(c, game, s, seat, 12, y, width - 24)
    y += PANEL_H + 12
    _hand(c, game, s, own, 12, y, width - 24, seat is None)
    return str(c)


def place(game: Any, s: State, action: int) -> str | None:
    """Where `action` happens in the picture (`core.svg.Canvas.spot`): a queen left to draft, a stage
    space (Stage Presence: the actor's own), a judge, the song's next lyric, a card of the hand, the
    reveal cards held, a rhinestone colour of a queen's supply (a colour to pay or choose: the actor's
    own; Green Screen's: her green; Body Oddy's take: the other queen's), a queen whose lyrics Blood
    Sucker scores with; None for a move with no place. Seats in actions are relative to the actor; a
    place names the seat itself."""
    kind, args = ACTIONS.decode(action)
    me = game.current_player(s)
    if kind == "space":
        return f"space:{args[0]}"
    if kind in ("draw", "judge"):
        return f"judge:{args[0]}"
    if kind in ("dance", "pay_card", "show"):
        return f"card:{args[0]}"
    if kind == "reveal":
        return "card:reveal"
    if kind == "claim":
        return "song"
    if kind in ("color", "pay_stone"):
        return f"stone:{me}:{args[0]}"
    if kind == "pay_green":
        return f"stone:{me}:{C.GREEN}"
    if kind == "pay_stage" and s.pos[me] >= 0:
        return f"space:{s.pos[me]}"
    if kind == "take":
        return f"stone:{(me + args[0] + 1) % game.n}:{args[1]}"
    if kind == "lyrics_of":
        return f"player:{(me + args[0]) % game.n}"
    if kind == "queen":
        return f"queen:{args[0]}"
    return None


def _decider(game: Any, s: State) -> int:
    p = game.current_player(s)
    return p if p >= 0 else s.turn


def _stage(c: S.Canvas, game: Any, s: State, x: float, y: float, w: float = 5 * CELL + 20) -> float:
    """The 5x5 stage: each space tinted by its area, its rhinestone, the queen standing there (in the
    middle of a wider panel). Returns the y below it."""
    body = S.panel(c, x, y, w, TOP_H, "The stage", "#3c2f4f", note=f"bag {s.bag.n}")
    gx, gy = x + (w - 5 * CELL) / 2, body + 8
    queens = {pos: q for q, pos in enumerate(s.pos) if pos >= 0}
    for sp in range(C.NUM_SPACES):
        r, col = divmod(sp, C.SIDE)
        cx, cy = gx + col * CELL, gy + r * CELL
        c.rect(cx, cy, CELL - 2, CELL - 2, fill=S.tint(STONE[game.areas[sp]], 0.55),
               stroke=S.INK if sp == s.landed else "none", stroke_width=2, rx=4)
        c.spot(f"space:{sp}", cx, cy, CELL - 2, CELL - 2)
        c.text(cx + 4, cy + 12, C.space_name(sp), size=9, fill=S.MUTED)
        if s.stage[sp] >= 0:
            c.circle(cx + CELL - 14, cy + 14, 8, fill=STONE[s.stage[sp]], stroke="#ffffff", stroke_width=1.5)
        if sp in queens:
            q = queens[sp]
            c.circle(cx + CELL / 2 - 1, cy + CELL / 2 + 6, 15, fill=S.SEATS[q], stroke="#ffffff", stroke_width=2)
            c.text(cx + CELL / 2 - 1, cy + CELL / 2 + 11, f"p{q}", size=12, fill="#ffffff", bold=True, anchor="middle")
        elif sp in s.path:
            c.circle(cx + CELL / 2 - 1, cy + CELL / 2 + 6, 4, fill=S.INK)
    c.text(x + 10, y + TOP_H - 26, "spent:", size=11)
    _dots(c, x + 66, y + TOP_H - 30, s.spent)
    c.text(x + 10, y + TOP_H - 12, f"lips in the supply: {s.lip_supply}", size=11, fill=S.MUTED, width=w - 20)
    return y + TOP_H


def _dots(c: S.Canvas, x: float, cy: float, counts: list[int]) -> None:
    """Rhinestones by colour: a dot of each colour and how many."""
    for k in range(C.NUM_COLOURS):
        c.circle(x + k * 34, cy, 9, fill=STONE[k])
        c.text(x + k * 34 + 12, cy + 4, str(counts[k]), size=11, bold=True)


def _judges(c: S.Canvas, game: Any, s: State, x: float, y: float, w: float, narrow: bool = False) -> float:
    """The five judges (category, display card, deck), the song, and what this turn has done (narrow:
    a judge to a row, the texts wrapped). Returns the y below it."""
    size = max(11, S.min_font())
    rows = []  # narrow: each judge's facts and desire lines
    for j in range(C.NUM_JUDGES):
        facts = [f"deck: {plural(s.decks[j].n, 'card')}"]
        if game.tens_on:
            facts.append(f"10-tokens left: {s.tens_left[j]}")
        desire = S.wrap("desire: " + C.desire_text(s.desire_face[j]), w - 20, size, 4) \
            if narrow and game.desires_on and s.desire_face[j] >= 0 else []
        rows.append((" | ".join(facts), desire))
    turn = _this_turn(game, s)
    turn_lines = S.wrap(turn, w - 20, size, 4) if narrow and turn else []
    row_h = [66 + 14 * len(d) + 8 for _, d in rows]
    h = TOP_H if not narrow else 24 + sum(row_h) + 68 + 15 * len(turn_lines) + 8
    body = S.panel(c, x, y, w, h, "The judges and the song", "#3c2f4f",
                   note=f"first player: player_{s.first}" if s.first >= 0 else "")
    jw = (w - 20 - 4 * 8) / 5 if not narrow else 132
    jy = body + 4
    for j in range(C.NUM_JUDGES):
        jx = x + 10 + j * (jw + 8) if not narrow else x + 10
        top = body if not narrow else jy
        c.spot(f"judge:{j}", jx - 3, top + 2, (jw + 6) if not narrow else w - 14, 104 if not narrow else row_h[j] - 4)
        c.text(jx, top + 16, C.JUDGES[j], size=12, bold=True, width=jw)
        c.text(jx, top + 31, f"{C.JUDGE_ROLES[j]} judge, {plural(C.JUDGE_POINTS[j], 'pt')}", size=10, fill=S.MUTED,
               width=jw)
        cat = C.CATEGORIES[s.cats[j]] if s.cats[j] >= 0 else "?"
        c.text(jx, top + 50, cat, size=15, bold=True, width=jw)
        kx, ky, kw = (jx, top + 58, jw) if not narrow else (x + 10 + jw + 8, top + 6, w - 20 - jw - 8)
        k = s.display[j]
        if k >= 0:
            fill = STONE[C.CARD_COLOUR[k]]
            c.rect(kx, ky, kw, 44, fill=fill, rx=5)
            c.text(kx + 6, ky + 17, C.move_name(C.CARD_CATEGORY[k], C.card_move(k)), size=11, bold=True,
                   fill=S.contrast(fill), width=kw - 12)
            c.text(kx + 6, ky + 35, f"{C.COLOURS[C.CARD_COLOUR[k]]}, up to {plural(C.CARD_STARS[k], 'star')}",
                   size=10, fill=S.contrast(fill), width=kw - 12)
        else:
            c.rect(kx, ky, kw, 44, fill="none", stroke=S.EDGE, rx=5, dash=True)
        if narrow:
            c.text(jx, top + 66, rows[j][0], size=11, fill=S.MUTED, width=w - 20)
            for i, line in enumerate(rows[j][1]):
                c.text(jx, top + 80 + 14 * i, line, size=11)
            jy += row_h[j]
            continue
        facts = [f"deck: {plural(s.decks[j].n, 'card')}"]
        if game.tens_on:
            facts.append(f"10-tokens left: {s.tens_left[j]}")
        yy = S.lines(c, jx, body + 104, jw, facts, size=10, fill=S.MUTED)
        if game.desires_on and s.desire_face[j] >= 0:
            for i, line in enumerate(S.wrap("desire: " + C.desire_text(s.desire_face[j]), jw, 10, 4)):
                c.text(jx, yy + 12 + 13 * i, line, size=10)
    # The song: one token a slot, the next to claim outlined, the flag's slot marked.
    sy = body + 214 if not narrow else jy + 14
    c.text(x + 10, sy, f"the song ({s.song_next}/{game.song_length} claimed"
           + (", the flag is revealed)" if s.end_triggered else ")"), size=11, fill=S.MUTED)
    tw = min(34, (w - 20) / game.song_length)
    for i in range(game.song_length):
        tx, ty = x + 10 + i * tw, sy + 8
        t = s.song[i] if i < len(s.song) else -1
        claimed = i < s.song_next
        if t >= 0:
            fill = S.tint(STONE[C.LYRIC_COLOUR[t]], 0.6) if claimed else STONE[C.LYRIC_COLOUR[t]]
            c.rect(tx, ty, tw - 4, 26, fill=fill, rx=4, stroke=S.INK if i == s.song_next else "none", stroke_width=2)
            if i == s.song_next:
                c.spot("song", tx - 2, ty - 2, tw, 30)
            c.text(tx + (tw - 4) / 2, ty + 18, str(C.LYRIC_STARS[t]), size=12, bold=not claimed, anchor="middle",
                   fill=S.contrast(fill))
        else:
            c.rect(tx, ty, tw - 4, 26, fill="none", stroke=S.EDGE, rx=4, dash=True)
        if i == game.flag_slot:
            c.text(tx + (tw - 4) / 2, ty + 40, "flag", size=9, fill=S.MUTED, anchor="middle")
    if narrow:
        for i, line in enumerate(turn_lines):
            c.text(x + 10, sy + 58 + 15 * i, line, size=11)
        return y + h
    c.text(x + 10, y + TOP_H - 10, turn, size=11, width=w - 20)
    return y + TOP_H


def _this_turn(game: Any, s: State) -> str:
    """What the turn under way has done so far."""
    if s.over or s.turn < 0 or not s.turns or not s.todo or s.todo[0].op in (Op.DRAFT, Op.PLACE, Op.SETUP_DRAW):
        return ""
    parts = []
    if s.moved:
        parts.append(f"moved {plural(s.moved, 'space')} through {plural(s.passed, 'queen')}"
                     + (f" (+{s.strut} strut)" if s.strut else ""))
    if s.landed >= 0:
        parts.append(f"landed on {C.space_name(s.landed)}")
    if s.danced >= 0:
        parts.append(f"danced {C.CARD_NAMES[s.danced]}" + (f" for {plural(s.stars, 'star')}, {plural(s.paid, 'pair')} paid" if s.stars else ""))
    if s.shown:
        parts.append("Handwerk shows " + ", ".join(C.CARD_NAMES[k] for k in s.shown))
    return "this turn: " + ("; ".join(parts) if parts else "nothing yet")


def _players(c: S.Canvas, game: Any, s: State, seat: int | None, x: float, y: float, w: float) -> None:
    n = game.n
    for q, (bx, by, bw, bh) in enumerate(S.cells(x, y, w, PANEL_H, n, n)):
        _player(c, game, s, seat, q, bx, by, bw, bh)


def _player(c: S.Canvas, game: Any, s: State, seat: int | None, q: int, bx: float, by: float, bw: float,
            bh: float = PANEL_H, narrow: bool = False) -> float:
    """Queen `q`'s panel: power, place, rhinestones and lips, category scores, stack, lyrics, desires
    and 10s, hand (the seat's own cards; of another's how many). Narrow: the texts wrap and the lyrics
    and hand take a row more. Returns the y below it."""
    decider = game.current_player(s)
    returns = game.returns(s)
    sees = seat is None or seat == q
    size = max(11, S.min_font())
    more = 1 if narrow else 0
    extras = []
    if game.desires_on:
        extras.append("desires claimed, by judge: " + " / ".join(str(d) for d in s.desires[q]))
    if game.tens_on:
        tens = [C.CATEGORIES[s.cats[j]] for j in range(C.NUM_JUDGES) if s.tens[q][j] and s.cats[j] >= 0]
        held = [C.REWARDS[C.REVEAL_REWARD[r]] for r in range(C.NUM_REVEALS) if s.reveal_hands[q][r]]
        extras.append(f"10s: {', '.join(tens) or 'none'} | reveal cards played {len(s.revealed[q])}, held "
                      + (", ".join(held) if sees and held else str(len(held))))
    power = f"power: {C.POWERS[s.queen[q]]}" if game.powers and s.queen[q] >= 0 else ""
    if narrow:
        extras = [line for text in extras for line in S.wrap(text, bw - 20, size, 3)]
        power_lines = S.wrap(power, bw - 20, size, 3) if power else []
        # strip, place and power, dots, scores, stack, lyrics, extras, hand
        bh = (24 + 4 + 18 + 16 * len(power_lines) + (6 if power else 0) + 24 + 36 + 16 + 43 + 16 * len(extras)
              + 18 + (3 if sees else 1) * 23 + 6)
    mark = S.HIGHLIGHT if (returns[q] == max(returns) if s.over else q == decider) else None
    queen = C.QUEENS[s.queen[q]] if s.queen[q] >= 0 else "no queen yet"
    note = "first player" if q == s.first else ""
    c.spot(f"player:{q}", bx, by, bw, bh)
    body = S.panel(c, bx, by, bw, bh, f"player_{q}: {queen}" + (" - you" if q == seat else ""), S.SEATS[q],
                   note="" if narrow else note, mark=mark)
    yy = body + 4
    if narrow and note:  # in the body, leaving the title strip to the name
        c.text(bx + 10, yy + 12, note, size=11, bold=True)
    place = C.space_name(s.pos[q]) if s.pos[q] >= 0 else "-"
    c.text(bx + bw - 10, yy + 12, f"at {place}", size=11, anchor="end")
    if narrow:  # the power under the place, wrapped
        for i, line in enumerate(power_lines):
            c.text(bx + 10, yy + 30 + 16 * i, line, size=11, fill=S.MUTED)
        yy += 16 * len(power_lines) + (6 if power else 0)
    elif power:
        c.text(bx + 10, yy + 12, power, size=11, fill=S.MUTED, width=bw - 20)
    yy += 18
    # Rhinestones and lips.
    for k in range(C.NUM_COLOURS):
        c.spot(f"stone:{q}:{k}", bx + 18 + k * 34 - 11, yy - 1, 32, 22)
    _dots(c, bx + 18, yy + 10, s.supply[q])
    c.text(bx + 18 + 5 * 34, yy + 14, f"lips {s.lips[q]}", size=11, width=bw - 190)
    yy += 24
    # Category tracks, one per judge.
    bar_w = (bw - 20 - 4 * 4) / 5
    for j in range(C.NUM_JUDGES):
        cat = C.CATEGORIES[s.cats[j]] if s.cats[j] >= 0 else "?"
        S.bar(c, bx + 10 + j * (bar_w + 4), yy, bar_w, 18, s.scores[q][j], C.CATEGORY_CAP, S.tint(S.SEATS[q], 0.45),
              label=str(s.scores[q][j]))
        c.text(bx + 10 + j * (bar_w + 4), yy + 30, cat, size=9, fill=S.MUTED, width=bar_w)
    yy += 36
    top = C.CARD_NAMES[s.stacks[q][-1]] if s.stacks[q] else "-"
    c.text(bx + 10, yy + 12, f"played {len(s.stacks[q])} (top: {top})", size=11, width=bw - 20)
    yy += 16
    lyrics = [(f"{C.LYRIC_STARS[t]}", STONE[C.LYRIC_COLOUR[t]]) for t in s.lyrics[q]]
    c.text(bx + 10, yy + 13, "lyrics:", size=10, fill=S.MUTED)
    S.chips(c, bx + 52, yy + 2, bw - 62, lyrics, size=10, rows=1 + more, empty="none")
    yy += 20 + 23 * more
    for line in extras:
        c.text(bx + 10, yy + 12, line, size=10, fill=S.MUTED, width=bw - 20)
        yy += 16
    cards = sum(s.hands[q])
    if sees:
        items = [(C.CARD_NAMES[k], STONE[C.CARD_COLOUR[k]]) for k in range(C.NUM_CARDS) if s.hands[q][k]]
        c.text(bx + 10, yy + 13, f"hand ({cards}):", size=10, fill=S.MUTED)
        S.chips(c, bx + 10, yy + 18, bw - 20, items, size=10, rows=2 + more, empty="no cards")
    else:
        c.text(bx + 10, yy + 13, "hand: " + plural(cards, "card"), size=10, fill=S.MUTED)
        S.chips(c, bx + 10, yy + 18, bw - 20, [("", "#6b5b7a")] * cards, size=10, rows=1, max_chip=14)
    return by + bh


def _hand(c: S.Canvas, game: Any, s: State, p: int, x: float, y: float, w: float, above: bool,
          narrow: bool = False) -> float:
    """Seat `p`'s hand (each card's colour, stars and category rule) and its reveal cards (narrow: one
    card to a row, the reveal cards after them). Returns the y below it."""
    if any(step.op == Op.DRAFT for step in s.todo):  # no hand is dealt before the queen draft
        return _draft(c, game, s, x, y, w, narrow)
    if p < 0:
        h = HAND_H if not narrow else 48
        S.panel(c, x, y, w, h, "Hands are dealt after the queens", "#3c2f4f")
        return y + h
    if narrow:
        kinds = [k for k in range(C.NUM_CARDS) if s.hands[p][k]]
        rows: list[tuple[str, str | None, str]] = [
            (f"{C.CARD_NAMES[k]}, up to {plural(C.CARD_STARS[k], 'star')}", STONE[C.CARD_COLOUR[k]],
             C.CARDS_RULE[C.CARD_CATEGORY[k]]) for k in kinds]
        if game.tens_on:
            held = [C.reveal_name(r) for r in range(C.NUM_REVEALS) if s.reveal_hands[p][r]]
            rows.append(("reveal cards", None, ", ".join(held) or "none"))
        return S.card_rows(c, x, y, w, f"player_{p}'s hand" + (" (the seat to act)" if above else ""), S.SEATS[p],
                           plural(sum(s.hands[p]), "card"), rows,
                           [f"card:{k}" for k in kinds] + (["card:reveal"] if game.tens_on else []),
                           empty="" if game.tens_on else "no cards")
    body = S.panel(c, x, y, w, HAND_H, f"player_{p}'s hand" + (" (the seat to act)" if above else ""), S.SEATS[p],
                   note=plural(sum(s.hands[p]), "card"))
    kinds = [k for k in range(C.NUM_CARDS) if s.hands[p][k]]
    col_w = (w - 30) / 2
    for i, k in enumerate(kinds[:8]):
        cx = x + 10 + (i // 4) * (col_w + 10)
        cy = body + 18 + (i % 4) * 19
        c.spot(f"card:{k}", cx - 4, cy - 14, col_w + 4, 18)
        c.rect(cx, cy - 12, 10, 15, fill=STONE[C.CARD_COLOUR[k]], rx=2)
        c.text(cx + 16, cy, f"{C.CARD_NAMES[k]}, up to {plural(C.CARD_STARS[k], 'star')}", size=12, bold=True,
               width=250)
        c.text(cx + 272, cy, C.CARDS_RULE[C.CARD_CATEGORY[k]], size=10, fill=S.MUTED, width=col_w - 274)
    if len(kinds) > 8:
        c.text(x + w - 10, body + 92, f"+{len(kinds) - 8} more", size=11, fill=S.MUTED, anchor="end")
    if not kinds:
        c.text(x + 10, body + 18, "no cards", size=12, fill=S.MUTED)
    if game.tens_on:
        reveals = [r for r in range(C.NUM_REVEALS) if s.reveal_hands[p][r]]
        items = [(C.reveal_name(r), S.tint(STONE[C.REVEAL_COLOUR[r]], 0.5)) for r in reveals]
        c.spot("card:reveal", x + 6, y + HAND_H - 27, w - 12, 24)
        c.text(x + 10, y + HAND_H - 10, "reveal cards:", size=10, fill=S.MUTED)
        S.chips(c, x + 84, y + HAND_H - 24, w - 94, items, size=10, rows=1, empty="none")
    return y + HAND_H


def _draft(c: S.Canvas, game: Any, s: State, x: float, y: float, w: float, narrow: bool = False) -> float:
    """The queens left to draft, each with her power where the game plays with powers (wide: four to a
    row; narrow: one to a row), in the hand's place. Returns the y below it."""
    left = [q for q in range(C.NUM_QUEENS) if q not in s.queen]
    drafter = next(step.arg for step in s.todo if step.op == Op.DRAFT)
    title, note = "Queens left to draft", f"player_{drafter} drafts"
    if narrow:
        rows: list[tuple[str, str | None, str]] = [
            (C.QUEENS[q], None, f"power: {C.POWERS[q]}" if game.powers else "") for q in left]
        return S.card_rows(c, x, y, w, title, "#3c2f4f", note, rows, [f"queen:{q}" for q in left],
                           empty="no queens left")
    body = S.panel(c, x, y, w, HAND_H, title, "#3c2f4f", note=note)
    for q, (qx, qy, qw, qh) in zip(left, S.cells(x + 10, body + 8, w - 20, HAND_H - 24 - 16, 8, 4, gap=8)):
        c.rect(qx, qy, qw, qh, fill="#efe9f5", stroke=S.EDGE, rx=5)
        c.spot(f"queen:{q}", qx, qy, qw, qh)
        c.text(qx + 10, qy + 19, C.QUEENS[q], size=13, bold=True, width=qw - 20)
        if game.powers:
            c.text(qx + 10, qy + 37, f"power: {C.POWERS[q]}", size=11, fill=S.MUTED, width=qw - 20)
    return y + HAND_H
