"""Extravaganza's event log and texts: each transition told as each seat may see it.

`events` tells the action (or chance outcome) itself, then what it changed, read from the states
before and after: rhinestones taken and paid, lips, points per category, desires, 10-tokens, whose
turn it is, and the end. Who sees what (EX-DECIDE-HIDDEN): a card taken into a hand is named to its
taker only (the others read "takes a card from the display"); a dealt reveal card to its owner only;
everything else (the stage, payments, discards, Handwerk's reveals, played reveal cards) is public.
"""

from __future__ import annotations

from typing import Any

from d2r_envs.core.events import Event, public, secret
from d2r_envs.core.words import indefinite, plural
from d2r_envs.games.extravaganza import actions as A
from d2r_envs.games.extravaganza import cards as C
from d2r_envs.games.extravaganza.state import SHIFT, Op, State

_MASK = (1 << SHIFT) - 1

_DECISIONS = {
    Op.DRAFT: "drafts a queen",
    Op.PLACE: "places her queen",
    Op.SETUP_DRAW: "takes a starting card from the display",
    Op.PIROUETTE: "may take a bedazzled rhinestone (Pirouette)",
    Op.MOVE: "moves (or passes)",
    Op.PAY_QUEEN: "pays a rhinestone to a queen passed",
    Op.GREEN_LAND: "names the colour of the green rhinestone landed on (Green Screen)",
    Op.BODY_ODDY: "may take a rhinestone from a nearby queen (Body Oddy)",
    Op.DRAW: "draws a card (or passes)",
    Op.DANCE: "dances (or passes)",
    Op.STARS: "chooses the stars of the dance",
    Op.HALF: "pays half of a pair",
    Op.ELEGANZA: "chooses Eleganza's colour",
    Op.FLOORWERK: "chooses Floorwerk's colour",
    Op.SHOW_SELF: "reveals a card for Handwerk (or stops)",
    Op.SHOW_OTHER: "reveals a card for a nearby Handwerk",
    Op.SHADE: "chooses a display card to Shade",
    Op.LIP_SYNC: "lip-syncs (claims the next lyric or stops)",
    Op.BLOOD: "chooses whose lyrics score (Blood Sucker)",
    Op.END_REVEAL: "may play a reveal card before the turn ends",
}


def seat(p: int) -> str:
    return f"player_{p}"


def colour(c: int) -> str:
    return C.COLOURS[c]


def stone(c: int) -> str:
    """ "a blue rhinestone", "an orange rhinestone"."""
    return indefinite(f"{colour(c)} rhinestone")


def judge(game: Any, s: State, j: int) -> str:
    cat = C.CATEGORIES[s.cats[j]] if s.cats[j] >= 0 else "?"
    return f"{C.JUDGES[j]} ({cat})"


def decision_name(game: Any, s: State, code: int, arg: int) -> str:
    if code < 10:
        return "chance: " + Op(code).name.lower().replace("_", " ")
    who = arg if code in (Op.DRAFT, Op.PLACE, Op.SETUP_DRAW, Op.SHOW_OTHER) else s.turn
    return f"{seat(who)} {_DECISIONS[Op(code)]}"


def _head(s: State) -> tuple[int, int]:
    return s.todo[0] >> SHIFT, s.todo[0] & _MASK


def action_to_string(game: Any, s: State, a: int) -> str:
    """The action's text; any action id in range has one, legal here or not."""
    try:
        return _action_text(game, s, a)
    except (IndexError, ValueError, StopIteration):
        name, idx = A.ACTIONS.decode(a)
        return f"{name} {list(idx)}" if idx else name


def _action_text(game: Any, s: State, a: int) -> str:
    if s.over or not s.todo:
        return f"action {a}"
    code, arg = _head(s)
    if code < 10:
        return _chance_text(game, s, code, arg, a)
    p = game.current_player(s)
    name, idx = A.ACTIONS.decode(a)
    if name == "pass":
        return "pass"
    if name == "queen":
        return f"play {C.QUEENS[idx[0]]} ({C.POWERS[idx[0]]})"
    if name == "space":
        sp = idx[0]
        verb = {Op.PLACE: "place the queen on", Op.PIROUETTE: "take the rhinestone on"}.get(Op(code), "move to")
        return f"{verb} {C.space_name(sp)}"
    if name == "color":
        if code == Op.PAY_QUEEN:
            return f"pay {seat(arg)} {stone(idx[0])}"
        return f"{'count the green as' if code == Op.GREEN_LAND else 'score'} {colour(idx[0])}"
    if name == "take":
        q = (p + idx[0] + 1) % game.n
        return f"take {stone(idx[1])} from {seat(q)}"
    if name == "draw":
        j = idx[0]
        k = s.display[j]
        return f"take {C.CARD_NAMES[k] if k >= 0 else 'nothing'} from {judge(game, s, j)}'s display"
    if name == "dance":
        return f"dance {C.CARD_NAMES[idx[0]]}"
    if name == "stars":
        return plural(idx[0] + 1, "star")
    if name == "pay_stone":
        return f"pay {stone(idx[0])}"
    if name == "pay_green":
        return f"pay a green rhinestone as {colour(idx[0])}"
    if name == "pay_card":
        return f"discard {C.CARD_NAMES[idx[0]]} as {stone(C.CARD_COLOUR[idx[0]])}"
    if name == "pay_stage":
        return f"pay with the {colour(game.areas[s.pos[p]])} stage area (Stage Presence)"
    if name == "show":
        return f"reveal {C.CARD_NAMES[idx[0]]}"
    if name == "stop":
        return "stop"
    if name == "judge":
        j = idx[0]
        if s.display[j] < 0:
            return f"shade {judge(game, s, j)}'s display (empty)"
        return f"shade {C.CARD_NAMES[s.display[j]]} from {judge(game, s, j)}'s display"
    if name == "claim":
        t = s.song[s.song_next]
        return f"claim the {C.lyric_name(t)} for {plural(C.LYRIC_STARS[t], 'lip')}"
    if name == "lyrics_of":
        return "score with own lyrics" if idx[0] == 0 else f"score with {seat((p + idx[0]) % game.n)}'s lyrics"
    return f"play reveal card {C.reveal_name(idx[0])}"


def _chance_text(game: Any, s: State, code: int, arg: int, a: int) -> str:
    if code == Op.FILL:
        return f"{stone(a)} bedazzles {C.space_name(arg)}"
    if code == Op.GIFT:
        return f"{seat(arg)} draws {stone(a)} from the bag"
    if code == Op.FLIP:
        return f"{judge(game, s, arg)}'s deck flips {C.CARD_NAMES[a]}"
    if code == Op.LYRIC:
        return f"song slot {arg + 1}: {C.lyric_name(a)}"
    if code == Op.CATEGORY:
        return f"{C.JUDGES[arg]} judges {C.CATEGORIES[a]}"
    if code == Op.FIRST:
        return f"{seat(a)} is the purse first player"
    if code == Op.QUEEN_DEAL:
        return f"{seat(arg)} plays {C.QUEENS[a]}"
    if code == Op.REVEAL_DEAL:
        return f"{seat(arg)} is dealt {C.reveal_name(a)}"
    return f"{C.JUDGES[arg]} desires: {C.desire_text(a)}"


def _hidden_action(game: Any, before: State, action: int) -> bool:
    """A card taken into a hand: its name is for the taker only (EX-DECIDE-HIDDEN)."""
    code, _ = _head(before)
    return code in (Op.DRAW, Op.SETUP_DRAW) and A.DRAW <= action < A.DANCE


def events(game: Any, before: State, action: int, after: State) -> list[Event]:
    out: list[Event] = []
    code, arg = _head(before)
    text = action_to_string(game, before, action)
    if code < 10:
        if code == Op.REVEAL_DEAL:
            out.append(secret(arg, text, f"{seat(arg)} is dealt a reveal card"))
        else:
            out.append(public(text))
    else:
        p = game.current_player(before)
        if _hidden_action(game, before, action):
            out.append(secret(p, f"{seat(p)}: {text}", f"{seat(p)}: takes a card from the display"))
        else:
            out.append(public(f"{seat(p)}: {text}"))
    out += _changes(game, before, after)
    if after.over:
        for q in range(game.n):
            b = game.score_breakdown(after, q)
            out.append(public(f"{seat(q)} final score {after.final[q]} (10s {b['tens']}, lyric diversity "
                              f"{b['diversity']}, categories {b['review']}, desire sets and judges "
                              f"{after.final[q] - b['tens'] - b['diversity'] - b['review']})"))
        out += game.result_events(after)
    return out


def _changes(game: Any, b: State, a: State) -> list[Event]:
    out: list[Event] = []
    for q in range(game.n):
        for j in range(C.NUM_JUDGES):
            if a.scores[q][j] != b.scores[q][j]:
                out.append(public(f"{seat(q)} scores {a.scores[q][j] - b.scores[q][j]} in "
                                  f"{C.CATEGORIES[a.cats[j]]} (now {a.scores[q][j]})"))
            if a.desires[q][j] != b.desires[q][j]:
                out.append(public(f"{seat(q)} claims {C.JUDGES[j]}'s desire"))
            if a.tens[q][j] != b.tens[q][j]:
                out.append(public(f"{seat(q)} earns a 10 from {C.JUDGES[j]}"))
        if a.lips[q] != b.lips[q]:
            out.append(public(f"{seat(q)} lips {b.lips[q]} -> {a.lips[q]}"))
        if a.supply[q] != b.supply[q]:
            out.append(public(f"{seat(q)} rhinestones: " + _stones(a.supply[q])))
        if sum(a.hands[q]) != sum(b.hands[q]) and not (a.over):
            mine = ", ".join(C.CARD_NAMES[k] for k in range(C.NUM_CARDS) if a.hands[q][k]) or "nothing"
            held = f"{seat(q)} holds {plural(sum(a.hands[q]), 'card')}"
            out.append(secret(q, f"{held}: {mine}", held))
    if a.turn != b.turn and a.turn >= 0 and not a.over:
        out.append(public(f"-- {seat(a.turn)}'s turn {a.turns[a.turn]} --"))
    if a.end_triggered and not b.end_triggered:
        out.append(public("the checkered flag is revealed: the round is played out"))
    return out


def _stones(supply: list[int]) -> str:
    return ", ".join(f"{n} {colour(c)}" for c, n in enumerate(supply) if n) or "none"


def explain(game: Any, s: State, a: int) -> str:
    if s.over or game.current_player(s) < 0:
        return ""
    p = game.current_player(s)
    name, idx = A.ACTIONS.decode(a)
    code, arg = _head(s)
    if name == "space" and code == Op.MOVE:
        dest = idx[0]
        path = next(r[: r.index(dest)] for r in C.RAYS[s.pos[p]] if dest in r)
        through = sum(1 for sp in path if sp in s.pos)
        landing = s.stage[dest]
        return (f"{plural(len(path) + 1, 'space')}, through {plural(through, 'queen')} (a rhinestone each); lands on "
                + (stone(landing) if landing >= 0 else "an empty space"))
    if name == "draw":
        k = s.display[idx[0]]
        c = C.CARD_COLOUR[k]
        lips = sum(1 for d in s.display if d >= 0 and C.CARD_COLOUR[d] == c) + sum(
            1 for x in s.stacks[p] if C.CARD_COLOUR[x] == c)
        if code != Op.DRAW:
            return C.CARD_NAMES[k]
        return f"{C.CARD_NAMES[k]}: up to {plural(C.CARD_STARS[k], 'star')}; {plural(lips, 'lip')}"
    if name in ("dance", "show", "pay_card"):
        k = idx[0]
        stars = plural(C.CARD_STARS[k], "star")
        return f"{C.CARDS_RULE[C.CARD_CATEGORY[k]]}; up to {stars}; {colour(C.CARD_COLOUR[k])}"
    if name == "claim":
        t = s.song[s.song_next]
        return f"{plural(C.LYRIC_STARS[t], 'lip')} for {plural(C.LYRIC_STARS[t], 'star')} ({colour(C.LYRIC_COLOUR[t])})"
    if name == "reveal":
        return C.reveal_text(idx[0])
    if name == "queen":
        return C.POWERS[idx[0]]
    if name == "judge":
        return plural(C.CARD_STARS[s.display[idx[0]]], "star")
    if name == "pass":
        return {Op.MOVE: "stay where you are", Op.DRAW: "take no card", Op.DANCE: "do not dance",
                Op.END_REVEAL: "end the turn"}.get(Op(code), "")
    if name in ("pay_stone", "pay_green", "pay_stage"):
        return f"pair {s.paid + 1} of {s.stars}" + (f", completing the {colour(s.half)} pair" if s.half >= 0 else "")
    if name == "stop":
        return "end the lip sync" if code == Op.LIP_SYNC else "reveal no more cards"
    if name == "color" and code in (Op.ELEGANZA, Op.FLOORWERK):
        c = idx[0]
        n = s.spent[c] if code == Op.ELEGANZA else s.stage.count(c)
        return f"{plural(n, colour(c) + ' rhinestone')} x {plural(s.stars, 'star')}"
    if name == "space" and code == Op.PLACE:
        here = s.stage[idx[0]]
        return f"take its {colour(here)} rhinestone" if here >= 0 else ""
    return ""


def state_to_string(game: Any, s: State) -> str:
    lines = [f"{'game over' if s.over else decision_name(game, s, *_head(s))} | first player "
             f"{seat(s.first) if s.first >= 0 else '?'} | song {s.song_next}/{game.song_length}"
             f"{' (flag revealed)' if s.end_triggered else ''} | bag {s.bag.n} | spent {_stones(s.spent)} | lips left {s.lip_supply}"]
    lines.append(stage_text(game, s))
    lines.append("display: " + "; ".join(
        f"{judge(game, s, j)}: {C.CARD_NAMES[s.display[j]] if s.display[j] >= 0 else '-'} ({s.decks[j].n} left)"
        for j in range(C.NUM_JUDGES)))
    lines.append("song: " + " ".join(
        ("*" if i == s.song_next else "") + (f"{C.COLOUR_LETTERS[C.LYRIC_COLOUR[t]]}{C.LYRIC_STARS[t]}" if t >= 0 else "?")
        for i, t in enumerate(s.song)))
    for q in range(game.n):
        lines.append(player_text(game, s, q) + " | hand: "
                     + (", ".join(C.CARD_NAMES[k] for k in range(C.NUM_CARDS) if s.hands[q][k]) or "-"))
    if s.over:
        lines.append("final: " + " ".join(f"{seat(q)}={f}" for q, f in enumerate(s.final)))
    return "\n".join(lines)


def stage_text(game: Any, s: State) -> str:
    rows = []
    for r in range(C.SIDE):
        cells = []
        for c in range(C.SIDE):
            sp = r * C.SIDE + c
            area = C.COLOUR_LETTERS[game.areas[sp]].lower()
            who = next((str(q) for q in range(game.n) if s.pos[q] == sp), "")
            gem = C.COLOUR_LETTERS[s.stage[sp]] if s.stage[sp] >= 0 else "."
            cells.append(f"{area}{who or gem}")
        rows.append(" ".join(cells))
    return "stage (area letter, then queen seat or rhinestone):\n" + "\n".join(rows)


def player_text(game: Any, s: State, q: int) -> str:
    queen = C.QUEENS[s.queen[q]] if s.queen[q] >= 0 else "?"
    top = C.CARD_NAMES[s.stacks[q][-1]] if s.stacks[q] else "-"
    parts = [f"{seat(q)} {queen} at {C.space_name(s.pos[q]) if s.pos[q] >= 0 else '-'}",
             f"rhinestones {_stones(s.supply[q])}", f"lips {s.lips[q]}", f"cards {sum(s.hands[q])}",
             f"played {len(s.stacks[q])} (top {top})",
             "scores " + "/".join(str(x) for x in s.scores[q]),
             "lyrics " + (" ".join(f"{C.COLOUR_LETTERS[C.LYRIC_COLOUR[t]]}{C.LYRIC_STARS[t]}" for t in s.lyrics[q]) or "-")]
    if game.desires_on:
        parts.append("desires " + "/".join(str(x) for x in s.desires[q]))
    if game.tens_on:
        parts.append("10s " + "".join(str(x) for x in s.tens[q]) + f", revealed {len(s.revealed[q])}")
    return " | ".join(parts)
