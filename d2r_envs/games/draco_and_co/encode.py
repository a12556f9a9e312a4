"""Draco & Co observations, seat-relative: index 0 is the observer, then the players to the left."""

from __future__ import annotations

import numpy as np

from d2r_envs.core.obs import ObsLayout, Observer as _Observer, Piece
from d2r_envs.core.words import seat_name
from d2r_envs.games.draco_and_co import cards as C
from d2r_envs.games.draco_and_co.actions import relative_character
from d2r_envs.games.draco_and_co.state import Ask, Phase, State

P, K, H = C.MAX_PLAYERS, C.NUM_KINDS, C.NUM_CHARACTERS
MAX_MONEY = 200.0  # a float bound for the Box; money never comes close
MAX_CARDS = float(C.DECK_SIZE)

LAYOUT = ObsLayout(
    Piece("seats", (P,), 1, "1 for each seat in the game (relative)"),
    Piece("money", (P,), MAX_MONEY, "silver value of each player's fortune (public)"),  # DRACO-WEALTH-1
    Piece("hand_sizes", (P,), MAX_CARDS, "cards in each player's hand"),
    Piece("hand", (K,), MAX_CARDS, "my hand: copies of each card kind"),  # DRACO-HIDDEN-1: only my own hand
    Piece("discard", (K,), MAX_CARDS, "face-up discard pile: copies of each kind"),
    Piece("piles", (3,), MAX_CARDS, "draw pile size, cards removed (short game), times the pile ran out"),
    Piece("end_near", (1,), 1, "1 once the next toast is the final toast"),
    Piece("places", (H, H), 1, "place i (0 = first, by Draco's preferred side) holds relative character j"),
    Piece("controller", (H, P), 1, "relative character j is controlled by relative seat k"),
    Piece("char_class", (H, len(C.Class)), 1, "class of each relative character in the game"),
    Piece("cup", (P + 1,), 1, "relative seat holding the cup; last entry = centre"),
    Piece("cup_initial", (1,), 1, "the cup is still the set-up cup (no toast before the round ends)"),
    Piece("turn", (P,), 1, "relative seat whose turn it is"),
    Piece("phase", (len(Phase),), 1, "phase of the turn"),
    Piece("ask", (len(Ask),), 1, "what the card being resolved waits for"),
    Piece("card", (K,), 1, "the card being resolved"),
    Piece("step", (C.MAX_STEPS,), 1, "its step"),
    Piece("picked", (H,), 1, "relative characters chosen so far on this card"),
    Piece("todo", (H,), 1, "relative characters still to order or place on this card"),
    Piece("die", (C.DIE_SIDES,), 1, "the last die roll on this card"),
)

_O = LAYOUT.offsets
_SARAH = relative_character(C.AUNT_SARAH, 0, C.MIN_PLAYERS)  # the specials keep their relative index
_LAST_STEP = C.MAX_STEPS - 1
LAYOUT.check_order(  # encode() joins the observation from its pieces in this order
    "seats", "money", "hand_sizes", "hand", "discard", "piles", "end_near", "places", "controller", "char_class",
    "cup", "cup_initial", "turn", "phase", "ask", "card", "step", "picked", "todo", "die")
_U8, _F32, _frombuffer = np.uint8, np.float32, np.frombuffer


def _one_hots(size: int) -> list[bytes]:
    """Per index, the one-hot bytes of a piece of `size` entries; index -1 (or `size`): all zero."""
    return [bytes(1 if j == i else 0 for j in range(size)) for i in range(size)] + [bytes(size)]


_CUP, _TURN = _one_hots(P + 1), _one_hots(P)  # place P: the cup in the centre; nobody's turn
_PHASE, _ASK = _one_hots(len(Phase)), _one_hots(len(Ask))
_FLAG = (b"\x00", b"\x01")
_PLACES_PAD = [bytes(H * (H - k)) for k in range(H + 1)]  # after a circle of k places
_CARD_SIZE = _O["die"] + C.DIE_SIDES - _O["card"]  # the pieces `card` to `die`
_NO_CARD = bytes(_CARD_SIZE)
_STEP_AT, _PICKED_AT, _TODO_AT, _DIE_AT = (_O[name] - _O["card"] for name in ("step", "picked", "todo", "die"))


class Observer(_Observer):
    """`entries` is the reference definition of the observation; `encode` is a faster path to
    exactly the same vector (tests/draco_and_co/test_encode_fast_path.py checks that they agree).

    encode joins the observation, a byte per entry (every entry is a small whole number; a fortune
    above 255, which never happens in practice, takes the generic path), from its pieces in LAYOUT's
    order: the circle as one run of precomputed one-hot rows, the controllers and classes as one
    per-seat run written at set-up through a core Frame (fixed for the game but for Aunt Sarah's
    controller: one run per owner), the one-hot pieces from precomputed tables.
    """

    layout = LAYOUT

    def __init__(self, game) -> None:
        self.game = game
        n = game.n
        chars = list(game.characters)
        setup = game.new_initial_state()  # the player characters' controllers never change
        self._ends_after = game.ends_after
        self._seats = bytes([1] * n + [0] * (P - n))
        self._pad = bytes(P - n)  # a per-seat piece's rows beyond the player count
        self._place = [[(q - me) % n for q in range(n)] + [P] for me in range(n)]  # seat -> place ([-1]: P)
        self._controllers: list[list[bytes]] = []  # [seat][Aunt Sarah's owner, -1: none] -> controller, char_class
        self._rel: list[list[int]] = []  # absolute character -> relative index, per seat
        self._rows: list[list[bytes]] = []  # [seat][character] -> its one-hot row of "places"; [-1]: empty
        for me in range(n):
            rel = [relative_character(c, me, n) if c in chars else -1 for c in range(H)]
            self._rel.append(rel)
            rows = [bytes(1 if j == rel[c] else 0 for j in range(H)) for c in range(H)]
            self._rows.append(rows + [bytes(H)])
            f = LAYOUT.frame(LAYOUT.blank(), me, n)
            for k in range(n):
                f.one("seats", k)
            for c in chars:
                r = rel[c]
                if c < 12:  # player characters: the controller is fixed (Aunt Sarah's is not)
                    f.seat("controller", game.controller(setup, c), row=r, width=P)
                f.one("char_class", len(C.Class) * r + C.CHARACTER_CLASS[c])
            runs = []
            for owner in [*range(n), -1]:
                g = LAYOUT.frame(bytes(f), me, n)
                g.seat("controller", owner, row=_SARAH, width=P)
                runs.append(bytes(g[_O["controller"] : _O["cup"]]))
            self._controllers.append(runs)

    def encode(self, s: State, me: int) -> np.ndarray:
        rel = self._place[me]  # seat -> its place after me (index -1: none)
        money, hands, order, pad = s.money, s.hands, s.order, self._pad
        rows = self._rows[me]
        try:
            data = b"".join((
                self._seats, bytes(money[me:] + money[:me]), pad,  # DRACO-WEALTH-1
                bytes(list(map(sum, hands[me:] + hands[:me]))), pad,
                bytes(hands[me]), bytes(s.discard),  # DRACO-HIDDEN-1: only my own hand
                bytes((s.draw_pile.n, sum(s.removed), s.exhausted, s.exhausted >= self._ends_after)),
                b"".join([rows[c] for c in order]), _PLACES_PAD[len(order)], self._controllers[me][s.sarah_owner],
                _CUP[rel[s.cup]], _FLAG[s.cup_initial], _TURN[rel[s.turn]], _PHASE[s.phase], _ASK[s.ask],
                _NO_CARD if s.card < 0 else self._card(s, me),
            ))
        except ValueError:  # a value beyond a byte
            return super().encode(s, me)
        return _frombuffer(data, _U8).astype(_F32)

    def _card(self, s: State, me: int) -> bytes:
        """The pieces `card` to `die` while a card is being resolved."""
        v = bytearray(_CARD_SIZE)
        v[s.card] = 1
        v[_STEP_AT + min(s.step, _LAST_STEP)] = 1
        rel = self._rel[me]
        for c in s.picked:
            v[_PICKED_AT + rel[c]] = 1
        for c in s.todo:
            v[_TODO_AT + rel[c]] = 1
        if s.die:
            v[_DIE_AT + s.die - 1] = 1
        return bytes(v)

    def entries(self, s: State, me: int) -> tuple[list[int], list[float]]:
        n = s.num_players
        idx: list[int] = []
        val: list[float] = []
        add_i, add_v = idx.append, val.append
        for k in range(n):
            q = (me + k) % n
            add_i(_O["seats"] + k), add_v(1.0)
            add_i(_O["money"] + k), add_v(s.money[q])  # DRACO-WEALTH-1
            add_i(_O["hand_sizes"] + k), add_v(sum(s.hands[q]))
        base_hand, base_discard = _O["hand"], _O["discard"]
        for kind, c in enumerate(s.hands[me]):  # DRACO-HIDDEN-1
            if c:
                add_i(base_hand + kind), add_v(c)
        for kind, c in enumerate(s.discard):
            if c:
                add_i(base_discard + kind), add_v(c)
        idx += [_O["piles"], _O["piles"] + 1, _O["piles"] + 2]
        val += [s.draw_pile.n, sum(s.removed), s.exhausted]
        if s.exhausted >= self.game.ends_after:
            add_i(_O["end_near"]), add_v(1.0)
        places, ctrl, cls = _O["places"], _O["controller"], _O["char_class"]
        for i, c in enumerate(s.order):
            if c >= 0:
                add_i(places + H * i + relative_character(c, me, n)), add_v(1.0)
        for c in self.game.characters:
            r = relative_character(c, me, n)
            owner = self.game.controller(s, c)
            if owner >= 0:
                add_i(ctrl + P * r + (owner - me) % n), add_v(1.0)
            add_i(cls + len(C.Class) * r + C.CHARACTER_CLASS[c]), add_v(1.0)
        add_i(_O["cup"] + (P if s.cup < 0 else (s.cup - me) % n)), add_v(1.0)
        if s.cup_initial:
            add_i(_O["cup_initial"]), add_v(1.0)
        if s.turn >= 0:
            add_i(_O["turn"] + (s.turn - me) % n), add_v(1.0)
        add_i(_O["phase"] + s.phase), add_v(1.0)
        add_i(_O["ask"] + s.ask), add_v(1.0)
        if s.card >= 0:
            add_i(_O["card"] + s.card), add_v(1.0)
            add_i(_O["step"] + min(s.step, C.MAX_STEPS - 1)), add_v(1.0)
            for c in s.picked:
                add_i(_O["picked"] + relative_character(c, me, n)), add_v(1.0)
            for c in s.todo:
                add_i(_O["todo"] + relative_character(c, me, n)), add_v(1.0)
            if s.die:
                add_i(_O["die"] + s.die - 1), add_v(1.0)
        return idx, val

    def string_from(self, s: State, me: int) -> str:
        g = self.game
        lines = [
            f"player_{me} ({C.COLOURS[me]}) | turn of {seat_name(s.turn, 'nobody (set-up)')} | {g.decision_name(s)}",
            g.circle_to_string(s),
            "cup: " + ("centre" if s.cup < 0 else f"player_{s.cup}")
            + f" | draw pile {s.draw_pile.n} | discards {sum(s.discard)} | pile ran out {s.exhausted}/{g.ends_after}",
            "money: " + " ".join(f"p{p}={m}" for p, m in enumerate(s.money)),
            "hand sizes: " + " ".join(f"p{p}={sum(h)}" for p, h in enumerate(s.hands)),
            "your hand: " + C.hand_to_string(s.hands[me]),
        ]
        if s.card >= 0:
            lines.append(f"resolving: {C.CATALOGUE[s.card].name}: {C.CATALOGUE[s.card].text}")
        return "\n".join(lines)
