"""Drags 2 Riches observations, seat-relative: index 0 is the observer, then the players to the left.

A seat sees its own hand and Look, every Floordrobe, the Market, the Event cards, counts of the
others' hands and Wardrobes, which Look slots the others have filled, the Events each player won,
what its Peek showed, and thumbs only once everyone has chosen.
"""

from __future__ import annotations

import numpy as np

from d2r_envs.core.obs import ObsLayout, Observer as _Observer, Piece
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
    Piece("won", (P, E), 1, "the Event cards each player won"),
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
    Piece("target", (P,), 1, "the player a Shade or Lend targets"),
    Piece("peek", (K,), ALL, "what my Peek showed of a hand (while that hand is unchanged)"),
    Piece("peeked", (P,), 1, "whose hand that is"),
    Piece("characters", (P, H), 1, "each player's Character (optional rule)"),
    Piece("used", (P,), 1, "the Character action was used (public)"),
    Piece("bonus", (P,), 4, "this round: flat bonus to each Look (Deathdrop Diva)"),
    Piece("glamazon", (P,), 1, "this round: +1 per Look card (Glamazon)"),
    Piece("zeroed", (P, T), 1, "this round: Look types worth 0 to each player (Sickening)"),
    Piece("doubled", (P, T), 1, "this round: Look types doubled for each player (Drag Mother)"),
    Piece("my_thumbs", (3,), 1, "my thumbs choice in this Event Phase"),
    Piece("thumbs", (P, 3), 1, "each player's thumbs choice, once everyone has chosen"),
    Piece("revealed", (P,), ALL, "Look values revealed at the last Event Phase"),
    Piece("pending", (P,), 8, "reversed Shades waiting for each player's next hand"),
)

_O = LAYOUT.offsets
_U8, _F32 = np.uint8, np.float32


class Observer(_Observer):
    """`encode` writes one byte per entry (every entry is a small whole number) and converts to
    float32 once; `entries` lists its non-zero entries."""

    layout = LAYOUT

    def __init__(self, game) -> None:
        self.game = game
        n = game.n
        cfg = game.config
        self._template = bytearray(LAYOUT.size)
        for k in range(n):
            self._template[_O["seats"] + k] = 1
        flags = (cfg.intro_game, cfg.last_minute_additions, cfg.category_is, cfg.thrifting, cfg.characters)
        for i, f in enumerate(flags):
            self._template[_O["options"] + i] = int(f)

    def encode(self, s: State, me: int) -> np.ndarray:
        n = s.num_players
        g = self.game
        v = self._template[:]
        order = [(me + i) % n for i in range(n)]
        v[_O["phase"] + s.phase] = 1
        v[_O["ask"] + s.ask] = 1
        for name, who in (("actor", s.actor), ("turn", s.turn), ("first", s.first)):
            if who >= 0 and s.phase != Phase.OVER:
                v[_O[name] + (who - me) % n] = 1
        v[_O["round"]] = s.round
        if s.event >= 0:
            v[_O["event"] + s.event] = 1
        base = _O["events_left"]
        for d in s.stages[s.stage:]:
            for e in s.decks[d]:
                v[base + e] = 1
            special = C.SELL_OUT if (g.config.intro_game and d == s.stages[-1]) else C.DECK_SPECIAL[d]
            v[base + special] = 1
        won, pres = _O["won"], _O["prestige"]
        hs, ws = _O["hand_sizes"], _O["wardrobe_sizes"]
        floors, filled = _O["floors"], _O["filled"]
        for i, q in enumerate(order):
            for e in s.won[q]:
                v[won + E * i + e] = 1
            v[pres + i] = g.prestige(s, q)
            v[hs + i] = sum(s.hands[q])
            v[ws + i] = sum(s.wardrobes[q])
            v[floors + K * i : floors + K * (i + 1)] = s.floors[q]
            for t, k in enumerate(s.looks[q]):
                if k >= 0:
                    v[filled + T * i + t] = 1
        v[_O["hand"] : _O["hand"] + K] = s.hands[me]
        if s.turn >= 0:
            v[_O["active"] : _O["active"] + K] = s.active[s.turn]
        v[_O["coins"]] = s.coins
        v[_O["turn_flags"]] = s.bought
        v[_O["turn_flags"] + 1] = s.thrifted
        look = _O["look"]
        for t, k in enumerate(s.looks[me]):
            if k >= 0:
                v[look + W * t + C.SLOT_INDEX[k]] = 1
        glam = s.phase == Phase.THUMBS and s.thumbs[me] == 2
        v[_O["look_value"]] = g.look_value(s, me, glam)
        v[_O["market"] : _O["market"] + K] = s.market
        v[_O["pile"]] = sum(s.pile)
        v[_O["trash"] : _O["trash"] + K] = s.trash
        if s.phase in (Phase.CARD, Phase.REACT) and s.card >= 0:
            v[_O["card"] + s.card] = 1
        if s.target >= 0:
            v[_O["target"] + (s.target - me) % n] = 1
        if s.peek[me] >= 0:
            v[_O["peek"] : _O["peek"] + K] = s.peek_hand[me]
            v[_O["peeked"] + (s.peek[me] - me) % n] = 1
        hidden = s.phase == Phase.THUMBS
        for i, q in enumerate(order):
            ch = s.characters[q]
            if ch >= 0:
                v[_O["characters"] + H * i + ch] = 1
            v[_O["used"] + i] = s.used[q]  # Deathdrop Diva with the thumbs counts only at the reveal
            v[_O["bonus"] + i] = s.bonus[q]
            v[_O["glamazon"] + i] = s.ho[q]
            for t in range(T):
                v[_O["zeroed"] + T * i + t] = s.zeroed[q] >> t & 1
                v[_O["doubled"] + T * i + t] = s.doubled[q] >> t & 1
            if s.thumbs[q] >= 0 and not hidden:
                v[_O["thumbs"] + 3 * i + s.thumbs[q]] = 1
            if s.last_values[q] >= 0:
                v[_O["revealed"] + i] = s.last_values[q]
            v[_O["pending"] + i] = len(s.pending[q])
        if s.thumbs[me] >= 0:
            v[_O["my_thumbs"] + s.thumbs[me]] = 1
        return np.frombuffer(v, _U8).astype(_F32)

    def entries(self, s: State, me: int) -> tuple[list[int], list[float]]:
        vec = self.encode(s, me)
        idx = np.flatnonzero(vec)
        return idx.tolist(), vec[idx].tolist()

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
