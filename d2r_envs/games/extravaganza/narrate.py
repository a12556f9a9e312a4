"""Extravaganza's event log and texts: each transition told as each seat may see it.

`events(game, before, action, after)` applies the action to a copy of `before` that has a sink
(`State.tell`): the rules themselves tell what happens, as it happens (facts.py), and this module puts
it into words, reading the names and counts it mentions from the copy as it stands when each fact is
told. First the action (or chance outcome) itself, named from the state it was taken at; then what it
led to, seat by seat: points per category, desires and 10-tokens claimed, lips, rhinestones and the
cards held (a sum over the transition: a rhinestone paid and one collected of the same colour leave
nothing to say); then whose turn it is, the checkered flag, and the end. The words are all this module
holds; what happens is said once, by rules.py. Only a log pays for the narration (the action applied a
second time, to the copy); without a sink, the rules tell nothing. `after` is what the rules make of `before` and the action, so the narration does
not need it.

Who sees what (EX-DECIDE-HIDDEN): a card taken into a hand is named to its taker only (the others read
"takes a card from the display"), and a hand's cards to their holder (the others read how many); a
dealt reveal card to its owner only; everything else (the stage, payments, discards, Handwerk's
reveals, played reveal cards) is public.
"""

from __future__ import annotations

from typing import Any

from d2r_envs.core.events import Event, public, result_events, secret
from d2r_envs.core.words import indefinite, plural
from d2r_envs.games.extravaganza import actions as A
from d2r_envs.games.extravaganza import cards as C
from d2r_envs.games.extravaganza import facts as F
from d2r_envs.games.extravaganza.state import Op, State, op_name


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
        return "chance: " + op_name(code).lower().replace("_", " ")
    who = arg if code in (Op.DRAFT, Op.PLACE, Op.SETUP_DRAW, Op.SHOW_OTHER) else s.turn
    return f"{seat(who)} {_DECISIONS[code]}"


def _head(s: State) -> tuple[int, int]:
    return s.todo[0].op, s.todo[0].arg


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
        verb = {Op.PLACE: "place the queen on", Op.PIROUETTE: "take the rhinestone on"}.get(code, "move to")
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


# Facts into words ---------------------------------------------------------------------------


def events(game: Any, before: State, action: int, after: State) -> list[Event]:
    told = game.clone(before)
    teller = told.tell = _Teller(game, told)
    game.apply_legal(told, action)
    return teller.done()


def _acted(game: Any, s: State, action: int) -> Event:
    """The action itself, named from the state it was taken at (`s`, as the rules begin it)."""
    code, arg = _head(s)
    text = action_to_string(game, s, action)
    if code < 10:
        if code == Op.REVEAL_DEAL:
            return secret(arg, text, f"{seat(arg)} is dealt a reveal card")
        return public(text)
    p = game.current_player(s)
    if _hidden_action(game, s, action):
        return secret(p, f"{seat(p)}: {text}", f"{seat(p)}: takes a card from the display")
    return public(f"{seat(p)}: {text}")


class _Teller:
    """The sink of a narrated copy. The action is said first; what it led to is summed up seat by seat
    once it is all told (each seat's points per judge, desires and 10s, then its lips, rhinestones and
    hand, each as it stands at its last fact), then whose turn it is, the flag and the end."""

    def __init__(self, game: Any, s: State) -> None:
        self.game, self.s = game, s
        self.first: list[Event] = []
        self.scored: dict[tuple[int, int], list[int]] = {}  # (seat, judge): [points gained, track now]
        self.claimed: set[tuple[int, int]] = set()  # (seat, judge) desires taken
        self.tens: set[tuple[int, int]] = set()  # (seat, judge) 10-tokens taken
        self.lips: dict[int, list[int]] = {}  # seat: [lips gained, lips now]
        self.stones: dict[int, tuple[list[int], list[int]]] = {}  # seat: (gained per colour, supply now)
        self.cards: dict[int, list[Any]] = {}  # seat: [cards gained, the hand now]
        self.turn_was: int | None = None  # whose turn it was when the first turn began
        self.turn = -1
        self.turn_number = 0
        self.flag = False
        self.over = False
        self.end: list[Event] = []

    def _stone(self, q: int, c: int, k: int) -> None:
        gained, _ = self.stones.get(q) or ([0] * C.NUM_COLOURS, None)
        gained[c] += k
        self.stones[q] = (gained, self.s.supply[q][:])

    def _card(self, q: int, k: int) -> None:
        entry = self.cards.setdefault(q, [0, None])
        entry[0] += k
        entry[1] = bytes(self.s.hands[q])

    def _lips(self, q: int, k: int) -> None:
        entry = self.lips.setdefault(q, [0, 0])
        entry[0] += k
        entry[1] = self.s.lips[q]

    def __call__(self, fact: tuple) -> None:
        s = self.s
        match fact:
            case F.Acted(_, action):
                self.first.append(_acted(self.game, s, action))
            case F.Scored(q, j, gained):
                entry = self.scored.setdefault((q, j), [0, 0])
                entry[0] += gained
                entry[1] = s.scores[q][j]
            case F.DesireClaimed(q, j):
                self.claimed.add((q, j))
            case F.TenEarned(q, j):
                self.tens.add((q, j))
            case F.LipsTaken(q, k):
                self._lips(q, k)
            case F.LyricClaimed(q, token):
                self._lips(q, -C.LYRIC_STARS[token])
            case F.FlagRevealed():
                self.flag = True
            case F.StoneFromBag(q, c) | F.StonePicked(q, _, c):
                self._stone(q, c, 1)
            case F.StonePaidToQueen(q, to, c):
                self._stone(q, c, -1)
                self._stone(to, c, 1)
            case F.StoneTaken(q, victim, c):
                self._stone(victim, c, -1)
                self._stone(q, c, 1)
            case F.Collected(q, c, count):
                self._stone(q, c, count)
            case F.StoneSpent(q, c, green):
                self._stone(q, C.GREEN if green else c, -1)
            case F.Drew(q, _, _):
                self._card(q, 1)
            case F.Danced(q, _):
                self._card(q, -1)
            case F.CardSpent(q, _, from_hand):
                if from_hand:
                    self._card(q, -1)
            case F.TurnBegan(q, was):
                if self.turn_was is None:
                    self.turn_was = was
                self.turn, self.turn_number = q, s.turns[q]
            case F.GameOver():
                self.over = True
                self.end = _final_events(self.game, s)
            case _:
                raise ValueError(f"no words for {fact!r}")

    def done(self) -> list[Event]:
        out = self.first
        over = self.over
        for q in range(self.game.n):
            for j in range(C.NUM_JUDGES):
                gained, now = self.scored.get((q, j), (0, 0))
                if gained:
                    out.append(public(f"{seat(q)} scores {gained} in {C.CATEGORIES[self.s.cats[j]]} (now {now})"))
                if (q, j) in self.claimed:
                    out.append(public(f"{seat(q)} claims {C.JUDGES[j]}'s desire"))
                if (q, j) in self.tens:
                    out.append(public(f"{seat(q)} earns a 10 from {C.JUDGES[j]}"))
            gained, now = self.lips.get(q, (0, 0))
            if gained:
                out.append(public(f"{seat(q)} lips {now - gained} -> {now}"))
            if q in self.stones and any(self.stones[q][0]):
                out.append(public(f"{seat(q)} rhinestones: " + _stones(self.stones[q][1])))
            if q in self.cards and self.cards[q][0] and not over:
                hand = self.cards[q][1]
                mine = ", ".join(C.CARD_NAMES[k] for k in range(C.NUM_CARDS) if hand[k]) or "nothing"
                held = f"{seat(q)} holds {plural(sum(hand), 'card')}"
                out.append(secret(q, f"{held}: {mine}", held))
        if self.turn_was is not None and self.turn != self.turn_was and not over:
            out.append(public(f"-- {seat(self.turn)}'s turn {self.turn_number} --"))
        if self.flag:
            out.append(public("the checkered flag is revealed: the round is played out"))
        return out + self.end


def _final_events(game: Any, s: State) -> list[Event]:
    """The end: each seat's final score by source, then the result."""
    out = []
    for q in range(game.n):
        b = game.score_breakdown(s, q)
        out.append(public(f"{seat(q)} final score {s.final[q]} (10s {b['tens']}, lyric diversity "
                          f"{b['diversity']}, categories {b['review']}, desire sets and judges "
                          f"{s.final[q] - b['tens'] - b['diversity'] - b['review']})"))
    return out + result_events(game, s)


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
                Op.END_REVEAL: "end the turn"}.get(code, "")
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
