"""Drags 2 Riches observations, seat-relative: index 0 is the observer, then the players to the left.

A seat sees its own hand and Look, every Floordrobe, the Market, the Event cards, counts of the
others' hands and Wardrobes, which Look slots the others have filled, the Events each player won,
what its Peek showed, and thumbs only once everyone has chosen.
"""

from __future__ import annotations

import numpy as np

from d2r_envs.core.obs import ObsLayout, Observer as _Observer, Piece
from d2r_envs.core.zones import card_count
from d2r_envs.games.drags_2_riches import cards as C
from d2r_envs.games.drags_2_riches.state import Ask, Phase, State

P, K, T, E, H = C.MAX_PLAYERS, C.NUM_KINDS, C.NUM_TYPES, C.NUM_EVENTS, C.NUM_CHARACTERS
W = C.SLOT_WIDTH
ALL = 80.0  # more than the cards of any kind or any pile

LAYOUT = ObsLayout(
    Piece("seats", (P,), 1, "1 for each seat in the game"),
    Piece("options", (5,), 1, "intro game, Last Minute Additions, Category Is, Thrifting, Characters"),
    Piece("phase", (len(Phase),), 1, "phase of the round"),
    Piece("ask", (len(Ask),), 1, "what the card or Character action being resolved waits for"),
    Piece("actor", (P,), 1, "who decides now"),
    Piece("turn", (P,), 1, "whose turn it is"),
    Piece("first", (P,), 1, "who holds the First Player token"),
    Piece("round", (1,), 20, "the round number"),
    Piece("event", (E,), 1, "the current Event card"),
    Piece("events_left", (E,), 1, "Event cards still to come"),
    Piece("events_won", (P,), E, "how many Event cards each player won"),
    Piece("prestige", (P,), 100, "each player's prestige"),
    Piece("hand", (K,), ALL, "my hand: copies of each kind"),
    Piece("hand_sizes", (P,), ALL, "cards in each player's hand"),
    Piece("wardrobe_sizes", (P,), ALL, "cards in each player's Wardrobe"),
    Piece("floors", (P, K), ALL, "each player's Floordrobe (face up): copies of each kind"),
    Piece("active", (K,), ALL, "cards activated this turn (face up)"),
    Piece("coins", (1,), ALL, "coins left to spend this turn"),
    Piece("turn_flags", (2,), 1, "a card was bought this turn; Thrifting was used this turn"),
    Piece("look", (T, W), 1, "my Look: the card in each slot (index within the slot's kinds, starter first)"),
    Piece("look_value", (1,), ALL, "my Look's value now (with this round's effects)"),
    Piece("filled", (P, T), 1, "which Look slots each player has filled"),
    Piece("market", (K,), C.MARKET_SIZE, "the Market: copies of each kind"),
    Piece("pile", (1,), ALL, "cards left in the Market draw pile"),
    Piece("trash", (K,), ALL, "trashed cards"),
    Piece("card", (K,), 1, "the card being resolved"),
    Piece("target", (P,), 1, "the player a Shade targets"),
    Piece("peek", (K,), ALL, "what my Peek showed of a hand (while that hand is unchanged)"),
    Piece("peeked", (P,), 1, "whose hand that is"),
    Piece("characters", (P, H), 1, "each player's Character (optional rule)"),
    Piece("used", (P,), 1, "the Character action was used (public)"),
    Piece("bonus", (P,), 4, "this round: flat bonus to each Look (Deathdrop Diva)"),
    Piece("glamazon", (P,), 1, "this round: +1 per Look card (Glamazon)"),
    Piece("zeroed", (P, T), 1, "this round: Look types worth 0 to each player (Sickening)"),
    Piece("doubled", (P, T), 1, "this round: Look types doubled for each player (Drag Mother)"),
    Piece("my_thumbs", (3,), 1, "my thumbs choice in this Event Phase"),
    Piece("revealed", (P,), ALL, "1 + the Look value each player revealed at the last Event Phase (0: not revealed)"),
    Piece("pending", (P,), 8, "reversed Shades waiting for each player's next hand"),
)

_O = LAYOUT.offsets
_U8, _F32 = np.uint8, np.float32
_OVER, _THUMBS_PHASE, _CARD_PHASE, _REACT_PHASE = int(Phase.OVER), int(Phase.THUMBS), int(Phase.CARD), int(Phase.REACT)
# Offsets by piece name (not by position: a piece added to LAYOUT cannot shift them).
_PHASE = _O["phase"]
_ASK = _O["ask"]
_ACTOR = _O["actor"]
_TURN = _O["turn"]
_FIRST = _O["first"]
_ROUND = _O["round"]
_EVENT = _O["event"]
_LEFT = _O["events_left"]
_WON = _O["events_won"]
_PRESTIGE = _O["prestige"]
_HAND = _O["hand"]
_HSIZE = _O["hand_sizes"]
_WSIZE = _O["wardrobe_sizes"]
_FLOORS = _O["floors"]
_ACTIVE = _O["active"]
_COINS = _O["coins"]
_FLAGS = _O["turn_flags"]
_LOOK = _O["look"]
_VALUE = _O["look_value"]
_FILLED = _O["filled"]
_MARKET = _O["market"]
_PILE = _O["pile"]
_TRASH = _O["trash"]
_CARD = _O["card"]
_TARGET = _O["target"]
_PEEK = _O["peek"]
_PEEKED = _O["peeked"]
_CHARS = _O["characters"]
_USED = _O["used"]
_BONUS = _O["bonus"]
_HO = _O["glamazon"]
_ZEROED = _O["zeroed"]
_DOUBLED = _O["doubled"]
_MY_THUMBS = _O["my_thumbs"]
_REVEALED = _O["revealed"]
_PENDING = _O["pending"]
PRESTIGE = tuple(e.prestige for e in C.EVENTS)
VALUE_OR_0 = C.VALUE + (0,)  # index -1 (an empty Look slot) is worth 0
LOOK_POS = tuple(W * C.TYPE_OF[k] + C.SLOT_INDEX[k] for k in range(K))  # a worn kind's entry in "look"
BITS = [bytes(m >> t & 1 for t in range(T)) for m in range(1 << T)]  # type bitmask -> its T bytes


class Observer(_Observer):
    """`encode` writes one byte per entry (every entry is a small whole number) into a copy of a
    per-seat template, mostly as slices, and converts to float32 once (the core derives `entries`)."""

    layout = LAYOUT

    def __init__(self, game) -> None:
        self.game = game
        n = game.n
        cfg = game.config
        self._intro = cfg.intro_game
        self._characters = cfg.characters
        template = bytearray(LAYOUT.size)
        for k in range(n):
            template[_O["seats"] + k] = 1
        flags = (cfg.intro_game, cfg.last_minute_additions, cfg.category_is, cfg.thrifting, cfg.characters)
        for i, f in enumerate(flags):
            template[_O["options"] + i] = int(f)
        self._template = bytes(template)
        self._orders = [[(me + i) % n for i in range(n)] for me in range(n)]
        # _below[i]: events still to come from the deck of stage i on, once stage i's regulars are out.
        stages = game.stages
        self._below = []
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
        v = bytearray(self._template)
        order = self._orders[me]
        phase = s.phase
        v[_PHASE + phase] = 1
        v[_ASK + s.ask] = 1
        if phase != _OVER:
            if s.actor >= 0:
                v[_ACTOR + (s.actor - me) % n] = 1
            if s.turn >= 0:
                v[_TURN + (s.turn - me) % n] = 1
            if s.first >= 0:
                v[_FIRST + (s.first - me) % n] = 1
        v[_ROUND] = s.round
        if s.event >= 0:
            v[_EVENT + s.event] = 1
        if s.stage < len(s.stages):  # the current deck's events, then everything in the decks below
            v[_LEFT : _LEFT + E] = self._below[s.stage]
            for e in s.decks[s.stages[s.stage]]:
                v[_LEFT + e] = 1
        floors, looks, won = s.floors, s.looks, s.won
        sizes = list(map(card_count, s.hands))
        v[_HSIZE : _HSIZE + n] = sizes[me:] + sizes[:me]  # D2R-HIDDEN-1: others' hands and Wardrobes as counts only
        sizes = [w.n for w in s.wardrobes]
        v[_WSIZE : _WSIZE + n] = sizes[me:] + sizes[:me]
        v[_FLOORS : _FLOORS + K * n] = b"".join(floors[me:] + floors[:me])  # D2R-GLOSS-FLOOR
        worn = s.worn  # D2R-HIDDEN-1: only which slots
        v[_FILLED : _FILLED + T * n] = b"".join(map(BITS.__getitem__, worn[me:] + worn[:me]))
        if any(won):
            v[_WON : _WON + n] = [len(won[q]) for q in order]
            prestige = s.prestige
            v[_PRESTIGE : _PRESTIGE + n] = prestige[me:] + prestige[:me]
        v[_HAND : _HAND + K] = s.hands[me]  # D2R-HIDDEN-1
        if s.turn >= 0:
            v[_ACTIVE : _ACTIVE + K] = s.active[s.turn]
        v[_COINS] = s.coins
        v[_FLAGS] = s.bought
        v[_FLAGS + 1] = s.thrifted
        for k in looks[me]:
            if k >= 0:
                v[_LOOK + LOOK_POS[k]] = 1
        if self._characters:  # the Look's value with this round's Character effects
            v[_VALUE] = self.game.look_value(s, me, phase == _THUMBS_PHASE and s.thumbs[me] == 2)
        else:
            v[_VALUE] = sum(map(VALUE_OR_0.__getitem__, looks[me]))
        v[_MARKET : _MARKET + K] = s.market
        v[_PILE] = s.pile.n
        v[_TRASH : _TRASH + K] = s.trash
        if s.card >= 0 and (phase == _CARD_PHASE or phase == _REACT_PHASE):
            v[_CARD + s.card] = 1
        if s.target >= 0:
            v[_TARGET + (s.target - me) % n] = 1
        if s.peek[me] >= 0:  # D2R-HIDDEN-2
            v[_PEEK : _PEEK + K] = s.peek_hand[me]
            v[_PEEKED + (s.peek[me] - me) % n] = 1
        if self._characters:  # every per-round Look effect comes from a Character
            for i, q in enumerate(order):
                if s.characters[q] >= 0:
                    v[_CHARS + H * i + s.characters[q]] = 1
                v[_USED + i] = s.used[q]  # Deathdrop Diva chosen with the thumbs counts only at the reveal
            for i, q in enumerate(order):
                v[_BONUS + i] = s.bonus[q]
                v[_HO + i] = s.ho[q]
                v[_ZEROED + T * i : _ZEROED + T * i + T] = BITS[s.zeroed[q]]
                v[_DOUBLED + T * i : _DOUBLED + T * i + T] = BITS[s.doubled[q]]
        thumbs = s.thumbs
        if thumbs[me] >= 0:  # D2R-EVENT-2: my own thumbs only
            v[_MY_THUMBS + thumbs[me]] = 1
        values = s.last_values
        if phase != _THUMBS_PHASE and max(values) >= 0:  # who competed (and their Looks) shows once all have chosen
            v[_REVEALED : _REVEALED + n] = [x + 1 for x in values[me:] + values[:me]]
        if any(s.pending):
            v[_PENDING : _PENDING + n] = [len(s.pending[q]) for q in order]
        return np.frombuffer(v, _U8).astype(_F32)

    def string_from(self, s: State, me: int) -> str:
        g = self.game
        n = s.num_players
        ev = C.EVENTS[s.event] if s.event >= 0 else None
        lines = [
            f"player_{me} | round {s.round} | event: " + (f"{ev.name} ({ev.prestige})" if ev else "-")
            + f" | first player_{s.first} | {g.decision_name(s)}",
            "market: " + C.counts_to_string(s.market) + f" | draw pile {sum(s.pile)} | coins {s.coins}",
            "your hand: " + C.counts_to_string(s.hands[me]),
            "your look: " + (", ".join(C.KINDS[k].name for k in s.looks[me] if k >= 0) or "-")
            + f" (value {g.look_value(s, me, s.phase == Phase.THUMBS and s.thumbs[me] == 2)})",
        ]
        if s.peek[me] >= 0:
            lines.append(f"your peek at player_{s.peek[me]}: " + C.counts_to_string(s.peek_hand[me]))
        for q in range(n):
            slots = "".join(C.TYPES[t][0] if k >= 0 else "." for t, k in enumerate(s.looks[q]))
            lines.append(
                f"p{q}: prestige {g.prestige(s, q)} ({len(s.won[q])} events) | look slots {slots}"
                f" | hand {sum(s.hands[q])} | wardrobe {sum(s.wardrobes[q])}"
                f" | floordrobe: {C.counts_to_string(s.floors[q])}"
            )
        return "\n".join(lines)
