"""Drags 2 Riches observations, seat-relative: index 0 is the observer, then the players to the left.

A seat sees its own hand and Look, every Floordrobe, the Market, the Event cards, counts of the
others' hands and Wardrobes, which Look slots the others have filled, the Events each player won,
what its Peek showed, and thumbs only once everyone has chosen.

This module is the observation's spec: `LAYOUT` names its pieces, `encode` writes them plainly from the
state's fields, piece by piece, and `string_from` is the seat's view as text. The Observer the Game
uses is the fast encoder in encode_fast.py, checked byte for byte against `encode` at every node
(tests/drags_2_riches/test_encode.py).
"""

from __future__ import annotations

import numpy as np

from d2r_envs.core.obs import ObsLayout, Piece
from d2r_envs.core.words import seat_name
from d2r_envs.games.drags_2_riches import cards as C
from d2r_envs.games.drags_2_riches.state import NUM_ASKS, NUM_PHASES, Phase, State

P, K, T, E, H = C.MAX_PLAYERS, C.NUM_KINDS, C.NUM_TYPES, C.NUM_EVENTS, C.NUM_CHARACTERS
W = C.SLOT_WIDTH
ALL = 80.0  # more than the cards of any kind or any pile

LAYOUT = ObsLayout(
    Piece("seats", (P,), 1, "1 for each seat in the game"),
    Piece("options", (5,), 1, "intro game, Last Minute Additions, Category Is, Thrifting, Characters"),
    Piece("phase", (NUM_PHASES,), 1, "phase of the round"),
    Piece("ask", (NUM_ASKS,), 1, "what the card or Character action being resolved waits for"),
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


def encode(game, s: State, me: int) -> np.ndarray:
    """Seat `me`'s observation, piece by piece into LAYOUT's named views, from its definitions there."""
    n = s.num_players
    out = np.zeros(LAYOUT.size, np.float32)
    v = LAYOUT.views(out)
    rel = [(me + i) % n for i in range(n)]  # relative index i -> seat
    cfg = game.config
    v["seats"][:n] = 1
    v["options"][:] = [cfg.intro_game, cfg.last_minute_additions, cfg.category_is, cfg.thrifting, cfg.characters]
    v["phase"][s.phase] = 1
    v["ask"][s.ask] = 1
    if s.phase != Phase.OVER:
        for name, who in (("actor", s.actor), ("turn", s.turn), ("first", s.first)):
            if who >= 0:
                v[name][(who - me) % n] = 1
    v["round"][0] = s.round
    if s.event >= 0:
        v["event"][s.event] = 1
    revealed = set(e for w in s.won for e in w) | set(s.gone) | ({s.event} if s.event >= 0 else set())
    in_game = [e for d in game.stages for e in C.DECK_REGULARS[d]] + [C.DECK_SPECIAL[d] for d in game.stages[:-1]]
    in_game.append(C.SELL_OUT)  # the last deck ends with the Sell-Out Tour (deck II in the intro game)
    for e in in_game:
        if e not in revealed:
            v["events_left"][e] = 1
    for i, q in enumerate(rel):
        v["events_won"][i] = len(s.won[q])
        v["prestige"][i] = sum(C.EVENTS[e].prestige for e in s.won[q])
        v["hand_sizes"][i] = sum(s.hands[q])  # D2R-HIDDEN-1: the others' hands and Wardrobes as counts only
        v["wardrobe_sizes"][i] = sum(s.wardrobes[q])
        v["floors"][i] = list(s.floors[q])  # D2R-GLOSS-FLOOR: face up
        v["filled"][i] = [k >= 0 for k in s.looks[q]]  # D2R-HIDDEN-1: of the others' Looks only the slots filled
        if s.characters[q] >= 0:
            v["characters"][i, s.characters[q]] = 1
        v["used"][i] = s.used[q]
        v["bonus"][i] = s.bonus[q]
        v["glamazon"][i] = s.ho[q]
        v["zeroed"][i] = [s.zeroed[q] >> t & 1 for t in range(C.NUM_TYPES)]
        v["doubled"][i] = [s.doubled[q] >> t & 1 for t in range(C.NUM_TYPES)]
        if s.phase != Phase.THUMBS:  # who competed (and their Looks) shows once all have chosen
            v["revealed"][i] = s.last_values[q] + 1
        v["pending"][i] = len(s.pending[q])
    v["hand"][:] = list(s.hands[me])  # my own hand only
    if s.turn >= 0:
        v["active"][:] = list(s.active[s.turn])
    v["coins"][0] = s.coins
    v["turn_flags"][:] = [s.bought, s.thrifted]
    for t, k in enumerate(s.looks[me]):
        if k >= 0:
            v["look"][t, C.SLOT_KINDS[t].index(k)] = 1
    v["look_value"][0] = game.look_value(s, me, s.phase == Phase.THUMBS and s.thumbs[me] == 2)
    v["market"][:] = list(s.market)
    v["pile"][0] = sum(s.pile)
    v["trash"][:] = list(s.trash)
    if s.card >= 0 and s.phase in (Phase.CARD, Phase.REACT):
        v["card"][s.card] = 1
    if s.target >= 0:
        v["target"][(s.target - me) % n] = 1
    if s.peek[me] >= 0:  # D2R-HIDDEN-2
        v["peek"][:] = list(s.peek_hand[me])
        v["peeked"][(s.peek[me] - me) % n] = 1
    if s.thumbs[me] >= 0:  # D2R-EVENT-2: my own thumbs only
        v["my_thumbs"][s.thumbs[me]] = 1
    return out


def string_from(game, s: State, me: int) -> str:
    """Seat `me`'s view as text."""
    n = s.num_players
    ev = C.EVENTS[s.event] if s.event >= 0 else None
    lines = [
        f"player_{me} | round {s.round} | event: " + (f"{ev.name} ({ev.prestige})" if ev else "-")
        + f" | first {seat_name(s.first, 'player not drawn yet')} | {game.decision_name(s)}",
        "market: " + C.counts_to_string(s.market) + f" | draw pile {sum(s.pile)} | coins {s.coins}",
        "your hand: " + C.counts_to_string(s.hands[me]),
        "your look: " + (", ".join(C.KINDS[k].name for k in s.looks[me] if k >= 0) or "-")
        + f" (value {game.look_value(s, me, s.phase == Phase.THUMBS and s.thumbs[me] == 2)})",
    ]
    if s.peek[me] >= 0:
        lines.append(f"your peek at player_{s.peek[me]}: " + C.counts_to_string(s.peek_hand[me]))
    for q in range(n):
        slots = "".join(C.TYPES[t][0] if k >= 0 else "." for t, k in enumerate(s.looks[q]))
        lines.append(
            f"p{q}: prestige {game.prestige(s, q)} ({len(s.won[q])} events) | look slots {slots}"
            f" | hand {sum(s.hands[q])} | wardrobe {sum(s.wardrobes[q])}"
            f" | floordrobe: {C.counts_to_string(s.floors[q])}"
        )
    return "\n".join(lines)
