"""Extravaganza observations, seat-relative: per-seat rows start with the observer, then the players
to her left, padded to 4 seats. Only what the seat may know (EX-DECIDE-HIDDEN): her own hand and
reveal cards; of the others, their hand sizes and reveal-card counts; never a deck's order or contents.
"""

from __future__ import annotations

import numpy as np

from d2r_envs.core.obs import Memo, ObsLayout, Observer as _Observer, Piece
from d2r_envs.core.zones import card_count
from d2r_envs.games.extravaganza import cards as C
from d2r_envs.games.extravaganza.state import SHIFT, State

P, K, S, NC, J = C.MAX_PLAYERS, C.NUM_CARDS, C.NUM_SPACES, C.NUM_COLOURS, C.NUM_JUDGES
L, SONG = C.NUM_LYRICS, C.MAX_SONG
NUM_OPS = 50

LAYOUT = ObsLayout(
    Piece("modules", (3,), 1, "Queen Powers, Judge Desires, 10s & Reveals are on"),
    Piece("seats", (P,), 1, "1 for each seat in the game (relative)"),
    Piece("first", (P,), 1, "the purse first player (relative)"),
    Piece("turn", (P,), 1, "whose turn it is (relative)"),
    Piece("decider", (P,), 1, "who decides now (relative; none at chance)"),
    Piece("op", (NUM_OPS,), 1, "the pending step (state.Op) at the front of the queue"),
    Piece("areas", (S, NC), 1, "the colour area of each stage space (the layout)"),
    Piece("stage", (S, NC), 1, "the rhinestone on each space, by colour"),
    Piece("queen_at", (P, S), 1, "each seat's queen's space"),
    Piece("queen_of", (P, C.NUM_QUEENS), 1, "each seat's queen"),
    Piece("supply", (P, NC), C.NUM_STONES, "each seat's rhinestones per colour"),
    Piece("bag", (NC,), C.NUM_STONES, "rhinestones in the bag per colour"),
    Piece("spent", (NC,), C.NUM_STONES, "spent rhinestones per colour"),
    Piece("lips", (P,), C.NUM_LIPS, "each seat's lips"),
    Piece("lip_supply", (1,), C.NUM_LIPS, "lips left in the supply"),
    Piece("hand_size", (P,), 75, "cards in each seat's hand"),
    Piece("hand", (K,), 1, "my hand"),
    Piece("stacks", (P, K), 1, "each seat's played cards"),
    Piece("top", (P, C.NUM_CATEGORIES), 1, "the category of the top card of each seat's stack"),
    Piece("categories", (J, C.NUM_CATEGORIES), 1, "each judge's category"),
    Piece("display", (K,), 1, "the face-up display cards"),
    Piece("deck_size", (J,), C.CARDS_PER_CATEGORY, "cards left in each judge's deck"),
    Piece("removed", (K,), 1, "cards discarded out of the game"),
    Piece("song_colour", (SONG, NC), 1, "the colour of the lyric in each song slot"),
    Piece("song_words", (SONG,), 5, "the words of the lyric in each song slot"),
    Piece("song_next", (SONG + 1,), 1, "the next unclaimed slot (the last entry: the song is over)"),
    Piece("flag", (SONG,), 1, "the slot whose claim reveals the checkered flag"),
    Piece("end_triggered", (1,), 1, "the flag has been revealed"),
    Piece("lyrics", (P, L), 1, "each seat's claimed lyric tokens"),
    Piece("claiming", (L,), 1, "lyric tokens claimed in the lip sync under way"),
    Piece("scores", (P, J), C.CATEGORY_CAP, "each seat's category tracks, by judge"),
    Piece("tens", (P, J), 1, "each seat's 10-tokens, by judge"),
    Piece("tens_left", (J,), P, "10-tokens left beside each judge"),
    Piece("desire_face", (J, C.NUM_DESIRE_KINDS), 1, "each judge's face-up desire"),
    Piece("desires", (P, J), C.NUM_DESIRES, "desire tokens each seat has claimed, by judge"),
    Piece("reveal_hand", (C.NUM_REVEALS,), 1, "my reveal cards"),
    Piece("reveal_count", (P,), C.REVEALS_EACH, "reveal cards in each seat's hand"),
    Piece("revealed", (P, C.NUM_REVEALS), 1, "reveal cards each seat has played"),
    Piece("turns", (P,), 60, "turns each seat has started"),
    Piece("moved", (3,), 60, "this turn: spaces moved, queens passed, strut"),
    Piece("path", (S,), 1, "this turn: spaces moved past"),
    Piece("landed", (S,), 1, "this turn: the space landed on"),
    Piece("land_colour", (NC,), 1, "this turn: the colour collected on landing"),
    Piece("danced", (K,), 1, "the card being danced or danced this turn"),
    Piece("dance_area", (NC,), 1, "the area it was danced in"),
    Piece("spent_kinds", (2, NC), 1, "this dance: actual rhinestone colours spent; discarded card colours spent"),
    Piece("turn_points", (J,), 255, "points scored this turn per judge's category (clipped at 255)"),
    Piece("revealed_turn", (1,), 1, "a reveal card was played this turn"),
    Piece("payment", (4,), C.MAX_STARS, "stars, pairs paid, Stage Presence used, pairs left"),
    Piece("half", (NC,), 1, "the colour of the open half pair"),
    Piece("choice", (NC,), 1, "the colour chosen for Eleganza / Floorwerk"),
    Piece("shown", (K,), 1, "cards revealed for the Handwerk under way"),
    Piece("shade_picked", (J,), 1, "judges whose display card the Shade under way discarded"),
    Piece("bedazzled", (S,), 1, "spaces filled by the bedazzle under way"),
    Piece("oddy_done", (P,), 1, "seats Body Oddy took from this landing"),
)

_ONE = [bytes(1 if i == j else 0 for i in range(64)) for j in range(64)]


def _onehot(i: int, width: int) -> bytes:
    return _ONE[i][:width] if i >= 0 else bytes(width)


_BITS = [bytes((m >> c) & 1 for c in range(NC)) for m in range(32)]


def _bits(mask: int) -> bytes:
    return _BITS[mask]


def _table(width: int, count: int) -> list[bytes]:
    """Row i: the one-hot of i in `width` entries, for i in 0..count-1; row -1 (the last): all zeros."""
    return [_onehot(i, width) for i in range(count)] + [bytes(width)]


_COLOUR_ROW = _table(NC, NC)
_SPACE_ROW = _table(S, S)
_QUEEN_ROW = _table(C.NUM_QUEENS, C.NUM_QUEENS)
_CAT_ROW = _table(C.NUM_CATEGORIES, C.NUM_CATEGORIES)
_DESIRE_ROW = _table(C.NUM_DESIRE_KINDS, C.NUM_DESIRE_KINDS)


def _rows(lists: list, width: int) -> list[bytes]:
    """Per list of ids, a row with a 1 at each id."""
    out = []
    for ids in lists:
        row = bytearray(width)
        for i in ids:
            row[i] = 1
        out.append(bytes(row))
    return out


class Observer(_Observer):
    """`encode` writes a core Frame piece by piece; tests/extravaganza/test_encode.py checks it
    against a plain encoder written independently, at every node of random games."""

    layout = LAYOUT

    def __init__(self, game) -> None:
        self.game = game
        n = game.n
        # What changes seldom, worked out once per change (core.obs.Memo compares the fields by value).
        self._song = Memo(State, ["song"], lambda s: (
            b"".join(_COLOUR_ROW[C.LYRIC_COLOUR[t] if t >= 0 else -1] for t in s.song),
            bytes(C.LYRIC_STARS[t] if t >= 0 else 0 for t in s.song)))
        self._cats = Memo(State, ["cats"], lambda s: b"".join(_CAT_ROW[c] for c in s.cats))
        self._stacks = Memo(State, ["stacks"], lambda s: (
            _rows(s.stacks, K), [_CAT_ROW[C.CARD_CATEGORY[st[-1]] if st else -1] for st in s.stacks]))
        self._lyrics = Memo(State, ["lyrics"], lambda s: _rows(s.lyrics, L))
        self._revealed = Memo(State, ["revealed"], lambda s: _rows(s.revealed, C.NUM_REVEALS))
        self._template = []
        for me in range(n):
            f = LAYOUT.frame(LAYOUT.blank(), me, n)
            f.put("modules", (int(game.powers), int(game.desires_on), int(game.tens_on)))
            for k in range(n):
                f.one("seats", k)
            f.put("areas", b"".join(_onehot(game.areas[sp], NC) for sp in range(S)))
            f.one("flag", game.flag_slot)
            self._template.append(bytes(f))

    def encode(self, s: State, me: int) -> np.ndarray:
        g = self.game
        n = g.n
        f = LAYOUT.frame(self._template[me], me, n)
        f.seat("first", s.first)
        f.seat("turn", s.turn)
        if not s.over:
            code = s.todo[0] >> SHIFT
            f.one("op", code)
            who = g.current_player(s)
            f.seat("decider", who)
        f.put("stage", b"".join(map(_COLOUR_ROW.__getitem__, s.stage)))
        f.seat_rows("queen_at", list(map(_SPACE_ROW.__getitem__, s.pos)))
        f.seat_rows("queen_of", list(map(_QUEEN_ROW.__getitem__, s.queen)))
        f.seat_rows("supply", list(map(bytes, s.supply)))
        f.put("bag", s.bag.counts)
        f.put("spent", bytes(s.spent))
        f.seats("lips", s.lips)
        f.one("lip_supply", 0, s.lip_supply)
        f.seats("hand_size", list(map(card_count, s.hands)))
        f.put("hand", s.hands[me])  # EX-DECIDE-HIDDEN: my own hand only
        stacks, tops = self._stacks(s)
        f.seat_rows("stacks", stacks)
        f.seat_rows("top", tops)
        f.put("categories", self._cats(s))
        for k in s.display:
            if k >= 0:
                f.one("display", k)
        f.put("deck_size", bytes(d.n for d in s.decks))
        f.put("removed", s.removed)
        colours, words = self._song(s)
        f.put("song_colour", colours)
        f.put("song_words", words)
        f.one("song_next", s.song_next if s.song_next < g.song_length else SONG)
        if s.end_triggered:
            f.one("end_triggered")
        f.seat_rows("lyrics", self._lyrics(s))
        for t in s.claiming:
            f.one("claiming", t)
        f.seat_rows("scores", list(map(bytes, s.scores)))
        f.seat_rows("tens", list(map(bytes, s.tens)))
        f.put("tens_left", bytes(s.tens_left))
        f.put("desire_face", b"".join(map(_DESIRE_ROW.__getitem__, s.desire_face)))
        f.seat_rows("desires", list(map(bytes, s.desires)))
        f.put("reveal_hand", s.reveal_hands[me])  # EX-DECIDE-HIDDEN: my own reveal cards only
        f.seats("reveal_count", list(map(card_count, s.reveal_hands)))
        f.seat_rows("revealed", self._revealed(s))
        f.seats("turns", s.turns)
        f.put("moved", (s.moved, s.passed, min(s.strut, 60)))
        for sp in s.path:
            f.one("path", sp)
        if s.landed >= 0:
            f.one("landed", s.landed)
        if s.land_colour >= 0:
            f.one("land_colour", s.land_colour)
        danced = s.playing if s.playing >= 0 else s.danced
        if danced >= 0:
            f.one("danced", danced)
        if s.dance_area >= 0:
            f.one("dance_area", s.dance_area)
        f.put("spent_kinds", _bits(s.spent_actual) + _bits(s.spent_cards))
        f.put("turn_points", bytes(min(x, 255) for x in s.turn_points))
        if s.revealed_turn:
            f.one("revealed_turn")
        f.put("payment", (s.stars, s.paid, int(s.stage_used), max(0, s.stars - s.paid)))
        if s.half >= 0:
            f.one("half", s.half)
        if s.choice >= 0:
            f.one("choice", s.choice)
        for k in s.shown:
            f.one("shown", k)
        for j in s.shade_picked:
            f.one("shade_picked", j)
        for sp in s.bedazzled:
            f.one("bedazzled", sp)
        for q in s.oddy_done:
            f.seat("oddy_done", q)
        return f.vector()

    def string_from(self, s: State, me: int) -> str:
        from d2r_envs.games.extravaganza import narrate

        g = self.game
        head = "game over" if s.over else g.decision_name(s)
        lines = [f"player_{me} | turn of player_{s.turn} | {head}",
                 f"song {s.song_next}/{g.song_length}{' (flag revealed)' if s.end_triggered else ''} | bag "
                 f"{s.bag.n} | spent {narrate._stones(s.spent)} | lips left {s.lip_supply}",
                 narrate.stage_text(g, s),
                 "display: " + "; ".join(
                     f"{narrate.judge(g, s, j)}: {C.CARD_NAMES[s.display[j]] if s.display[j] >= 0 else '-'} "
                     f"({s.decks[j].n} left)" for j in range(J))]
        for q in range(g.n):
            lines.append(narrate.player_text(g, s, q))
        lines.append("your hand: " + (", ".join(C.CARD_NAMES[k] for k in range(K) if s.hands[me][k]) or "-"))
        if g.tens_on:
            lines.append("your reveal cards: " + (", ".join(
                C.reveal_name(r) for r in range(C.NUM_REVEALS) if s.reveal_hands[me][r]) or "-"))
        if g.desires_on:
            lines.append("desires: " + "; ".join(
                f"{C.JUDGES[j]}: {C.desire_text(d) if d >= 0 else '-'}" for j, d in enumerate(s.desire_face)))
        if s.shown:
            lines.append("Handwerk shown: " + ", ".join(C.CARD_NAMES[k] for k in s.shown))
        return "\n".join(lines)
