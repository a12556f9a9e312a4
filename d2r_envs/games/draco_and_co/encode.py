"""Draco & Co observations, seat-relative: index 0 is the observer, then the players to the left.

Only what the seat may know: its own hand (DRACO-HIDDEN-1), and of the others only their hand sizes;
the circle, the cup, every fortune (DRACO-WEALTH-1), the discard pile and the card being played are
public.

This module is the observation's spec: `LAYOUT` names its pieces, `encode` writes them plainly from the
state's fields, piece by piece, and `string_from` is the seat's view as text. The Observer the Game
uses is the fast encoder in encode_fast.py, checked byte for byte against `encode` at every node
(tests/draco_and_co/test_encode.py).
"""

from __future__ import annotations

import numpy as np

from d2r_envs.core.obs import ObsLayout, Piece
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


def encode(game, s: State, me: int) -> np.ndarray:
    """Seat `me`'s observation, piece by piece into LAYOUT's named views."""
    n = s.num_players
    out = np.zeros(LAYOUT.size, np.float32)
    v = LAYOUT.views(out)
    rel = lambda c: relative_character(c, me, n)  # noqa: E731  (a character's row as `me` sees it)
    for k in range(n):
        q = (me + k) % n  # the seat at relative place k
        v["seats"][k] = 1
        v["money"][k] = s.money[q]  # DRACO-WEALTH-1
        v["hand_sizes"][k] = sum(s.hands[q])
    v["hand"][:] = list(s.hands[me])  # DRACO-HIDDEN-1: only my own hand
    v["discard"][:] = list(s.discard)
    v["piles"][:] = [s.draw_pile.n, sum(s.removed), s.exhausted]
    v["end_near"][0] = s.exhausted >= game.ends_after
    for i, c in enumerate(s.order):
        if c >= 0:  # (a circle being shuffled has empty places)
            v["places"][i, rel(c)] = 1
    for c in game.characters:
        owner = game.controller(s, c)
        if owner >= 0:
            v["controller"][rel(c), (owner - me) % n] = 1
        v["char_class"][rel(c), C.CHARACTER_CLASS[c]] = 1
    v["cup"][P if s.cup < 0 else (s.cup - me) % n] = 1  # the last entry: the centre
    v["cup_initial"][0] = s.cup_initial
    if s.turn >= 0:
        v["turn"][(s.turn - me) % n] = 1
    v["phase"][s.phase] = 1
    v["ask"][s.ask] = 1
    if s.card >= 0:
        v["card"][s.card] = 1
        v["step"][min(s.step, C.MAX_STEPS - 1)] = 1
        for c in s.picked:
            v["picked"][rel(c)] = 1
        for c in s.todo:
            v["todo"][rel(c)] = 1
        if s.die:
            v["die"][s.die - 1] = 1
    return out


def string_from(game, s: State, me: int) -> str:
    """Seat `me`'s view as text."""
    lines = [
        f"player_{me} ({C.COLOURS[me]}) | turn of {seat_name(s.turn, 'nobody (set-up)')} | {game.decision_name(s)}",
        game.circle_to_string(s),
        "cup: " + ("centre" if s.cup < 0 else f"player_{s.cup}")
        + f" | draw pile {s.draw_pile.n} | discards {sum(s.discard)} | pile ran out {s.exhausted}/{game.ends_after}",
        "money: " + " ".join(f"p{p}={m}" for p, m in enumerate(s.money)),
        "hand sizes: " + " ".join(f"p{p}={sum(h)}" for p, h in enumerate(s.hands)),
        "your hand: " + C.hand_to_string(s.hands[me]),
    ]
    if s.card >= 0:
        lines.append(f"resolving: {C.CATALOGUE[s.card].name}: {C.CATALOGUE[s.card].text}")
    return "\n".join(lines)
