"""The fast Draco & Co encoder: the Observer the Game uses. Its vector is exactly the one encode.py, the
observation's spec, defines (tests/draco_and_co/test_encode.py checks it byte for byte against
`encode.encode` at every node of seeded games, for every seat and player count, with and without the
game-length options); its text is the spec's `string_from`.
"""

from __future__ import annotations

import numpy as np

from d2r_envs.core.obs import Observer as _Observer
from d2r_envs.games.draco_and_co import cards as C
from d2r_envs.games.draco_and_co import encode as spec
from d2r_envs.games.draco_and_co.actions import relative_character
from d2r_envs.games.draco_and_co.encode import LAYOUT, H, P
from d2r_envs.games.draco_and_co.state import Ask, Phase, State

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
    """`encode` joins the observation, a byte per entry (every entry is a small whole number; a fortune
    above 255, which never happens in practice, takes the spec's path), from its pieces in LAYOUT's
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
            return spec.encode(self.game, s, me)
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

    def string_from(self, s: State, me: int) -> str:
        return spec.string_from(self.game, s, me)
