"""The fast Drags 2 Riches encoder: the Observer the Game uses. Its vector is exactly the one encode.py,
the observation's spec, defines (tests/drags_2_riches/test_encode.py checks it byte for byte against
`encode.encode` at every node of seeded games, for every seat, several player counts and the options);
its text is the spec's `string_from`.
"""

from __future__ import annotations

import numpy as np

from d2r_envs.core.obs import Observer as _Observer
from d2r_envs.core.zones import card_counts
from d2r_envs.games.drags_2_riches import cards as C
from d2r_envs.games.drags_2_riches import encode as spec
from d2r_envs.games.drags_2_riches.encode import LAYOUT, E, H, K, P, T, W
from d2r_envs.games.drags_2_riches.rules import Game
from d2r_envs.games.drags_2_riches.state import NUM_ASKS, NUM_PHASES, Phase, State

_O = LAYOUT.offsets
# Where each per-seat piece from `characters` to `doubled` starts, counted from `characters`.
_USED_AT, _BONUS_AT, _HO_AT, _ZEROED_AT, _DOUBLED_AT = (
    _O[name] - _O["characters"] for name in ("used", "bonus", "glamazon", "zeroed", "doubled"))
LOOK_POS = tuple(W * C.TYPE_OF[k] + C.SLOT_INDEX[k] for k in range(K))  # a worn kind's entry in "look"
BITS = [bytes(m >> t & 1 for t in range(T)) for m in range(1 << T)]  # type bitmask -> its T bytes
LAYOUT.check_order(  # encode() joins the observation from its pieces in this order
    "seats", "options", "phase", "ask", "actor", "turn", "first", "round", "event", "events_left", "events_won",
    "prestige", "hand", "hand_sizes", "wardrobe_sizes", "floors", "active", "coins", "turn_flags", "look",
    "look_value", "filled", "market", "pile", "trash", "card", "target", "peek", "peeked", "characters", "used",
    "bonus", "glamazon", "zeroed", "doubled", "my_thumbs", "revealed", "pending")


def _one_hots(size: int) -> list[bytes]:
    """Per index, the one-hot bytes of a piece of `size` entries; index -1 (or `size`): all zero."""
    return [bytes(1 if j == i else 0 for j in range(size)) for i in range(size)] + [bytes(size)]


_PHASES, _ASKS, _SEATS, _EVENTS, _KINDS = (_one_hots(x) for x in (NUM_PHASES, NUM_ASKS, P, E, K))
_THUMBS = _one_hots(3)
_NO_EVENTS, _NO_KINDS = _EVENTS[-1], _KINDS[-1]
_NO_PEEK = bytes(K + P)
_NO_CHARACTERS = bytes(_O["my_thumbs"] - _O["characters"])  # the pieces `characters` to `doubled`


class Observer(_Observer):
    """`encode` joins the observation, one byte per entry (every entry is a small whole number), from
    its pieces in LAYOUT's order, mostly the state's own bytearrays and slices, one-hot pieces from
    precomputed tables, and converts to float32 once (the core derives `entries`)."""

    layout = LAYOUT
    game: Game

    def __init__(self, game: Game) -> None:
        self.game = game
        n = game.n
        cfg = game.config
        self._characters = cfg.characters
        template = bytearray(LAYOUT.size)
        for k in range(n):
            template[_O["seats"] + k] = 1
        flags = (cfg.intro_game, cfg.last_minute_additions, cfg.category_is, cfg.thrifting, cfg.characters)
        for i, f in enumerate(flags):
            template[_O["options"] + i] = int(f)
        self._orders = [[(me + i) % n for i in range(n)] for me in range(n)]
        self._place = [[(q - me) % n for q in range(n)] + [P] for me in range(n)]  # seat -> place ([-1]: P)
        self._nobody = [P] * (n + 1)  # once the game is over, nobody acts
        self._head = bytes(template[: _O["phase"]])  # the pieces `seats` and `options`
        self._pad = bytes(P - n)  # a per-seat piece's rows beyond the player count
        self._no_seats = bytes(P)
        self._no_scores = (bytes(2 * P),)
        self._floors_pad, self._filled_pad = bytes(K * (P - n)), bytes(T * (P - n))
        # _below[i]: events still to come from the deck of stage i on, once stage i's regulars are out.
        stages = game.stages
        self._below: list[bytes] = []
        for i in range(len(stages)):
            left = bytearray(E)
            for j, d in enumerate(stages[i:], i):
                last = j == len(stages) - 1
                left[C.SELL_OUT if (cfg.intro_game and last) else C.DECK_SPECIAL[d]] = 1  # D2R-DECIDE-INTRO
                if j > i:
                    for e in C.DECK_REGULARS[d]:
                        left[e] = 1
            self._below.append(bytes(left))

    def encode(self, s: State, me: int) -> np.ndarray:
        n = s.num_players
        order = self._orders[me]
        place = self._place[me] if s.phase != Phase.OVER else self._nobody  # seat -> its place after me ([-1]: P)
        phase, pad = s.phase, self._pad
        left: bytes | bytearray = _NO_EVENTS
        if s.stage < len(s.stages):  # the current deck's events, then everything in the decks below
            left = bytearray(self._below[s.stage])
            for e in s.decks[s.stages[s.stage]]:
                left[e] = 1
        won = s.won
        scores: tuple[bytes, ...] = self._no_scores
        if any(won):
            prestige = s.prestige
            scores = (bytes([len(won[q]) for q in order]), pad, bytes(prestige[me:] + prestige[:me]), pad)
        hands, floors, looks, worn = s.hands, s.floors, s.looks, s.worn
        sizes = [w.n for w in s.wardrobes]
        look = bytearray(T * W)
        for k in looks[me]:
            if k >= 0:
                look[LOOK_POS[k]] = 1
        value = self.game.look_value(s, me, phase == Phase.THUMBS and s.thumbs[me] == 2)  # with this round's effects
        peek = s.peek[me]
        values = s.last_values
        return np.frombuffer(b"".join((
            self._head, _PHASES[phase], _ASKS[s.ask], _SEATS[place[s.actor]], _SEATS[place[s.turn]],
            _SEATS[place[s.first]], bytes((s.round,)), _EVENTS[s.event], left, *scores,
            hands[me], bytes(card_counts(hands[me:] + hands[:me])), pad,  # D2R-HIDDEN-1: others' hands and
            bytes(sizes[me:] + sizes[:me]), pad,  # Wardrobes as counts only
            b"".join(floors[me:] + floors[:me]), self._floors_pad,  # D2R-GLOSS-FLOOR
            s.active[s.turn] if s.turn >= 0 else _NO_KINDS, bytes((s.coins, s.bought, s.thrifted)),
            look, bytes((value,)),  # D2R-HIDDEN-1: of the others' Looks only which slots are filled
            b"".join([BITS[m] for m in worn[me:] + worn[:me]]), self._filled_pad,
            s.market, bytes((s.pile.n,)), s.trash,
            _KINDS[s.card] if phase == Phase.CARD or phase == Phase.REACT else _NO_KINDS,
            _SEATS[self._place[me][s.target]],
            s.peek_hand[me] + _SEATS[(peek - me) % n] if peek >= 0 else _NO_PEEK,  # D2R-HIDDEN-2
            self._effects(s, order) if self._characters else _NO_CHARACTERS,
            _THUMBS[s.thumbs[me]],  # D2R-EVENT-2: my own thumbs only
            # who competed (and their Looks) shows once all have chosen:
            bytes([x + 1 for x in values[me:] + values[:me]]) + pad if phase != Phase.THUMBS and max(values) >= 0
            else self._no_seats,
            bytes([len(s.pending[q]) for q in order]) + pad if any(s.pending) else self._no_seats,
        )), np.uint8).astype(np.float32)

    def _effects(self, s: State, order: list[int]) -> bytes:
        """The pieces `characters` to `doubled` (every per-round Look effect comes from a Character)."""
        v = bytearray(_NO_CHARACTERS)
        for i, q in enumerate(order):
            if s.characters[q] >= 0:
                v[H * i + s.characters[q]] = 1
            v[_USED_AT + i] = s.used[q]  # Deathdrop Diva chosen with the thumbs counts only at the reveal
        for i, q in enumerate(order):
            v[_BONUS_AT + i] = s.bonus[q]
            v[_HO_AT + i] = s.ho[q]
            v[_ZEROED_AT + T * i : _ZEROED_AT + T * i + T] = BITS[s.zeroed[q]]
            v[_DOUBLED_AT + T * i : _DOUBLED_AT + T * i + T] = BITS[s.doubled[q]]
        return bytes(v)

    def string_from(self, s: State, me: int) -> str:
        return spec.string_from(self.game, s, me)
