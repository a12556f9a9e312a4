"""The Extravaganza action space: one Discrete(N) for every player count, from named segments.

Multi-part choices are short sequences of sub-decisions (a destination, then a colour per queen
passed; a card and its stars, then each half of each pair). Seats are relative to the actor: k = 0
is the actor, k = 1 the next to her left.
"""

from __future__ import annotations

from d2r_envs.core.actions import ActionSpace, Segment
from d2r_envs.games.extravaganza import cards as C

ACTIONS = ActionSpace(
    Segment("pass", (), "skip an optional step (move, draw, dance, a power's take, the end-of-turn reveal)"),
    Segment("queen", (C.NUM_QUEENS,), "draft option: pick this queen"),
    Segment("space", (C.NUM_SPACES,), "place your queen at set-up; the move's destination; Pirouette's space"),
    Segment("color", (C.NUM_COLOURS,), "pay a queen you pass a rhinestone of this colour; Eleganza's / Floorwerk's "
            "colour; Green Screen's landing colour"),
    Segment("take", (C.MAX_PLAYERS - 1, C.NUM_COLOURS), "Body Oddy: from the queen k+1 seats left, a rhinestone of colour c"),
    Segment("draw", (C.NUM_JUDGES,), "take the display card of judge j"),
    Segment("dance", (C.NUM_CARDS,), "play this card from hand"),
    Segment("stars", (C.MAX_STARS,), "for 1 / 2 / 3 stars"),
    Segment("pay_stone", (C.NUM_COLOURS,), "one half of a pair: an actual rhinestone of colour c"),
    Segment("pay_green", (C.NUM_COLOURS,), "Green Screen Queen: a green rhinestone as colour c"),
    Segment("pay_card", (C.NUM_CARDS,), "one half of a pair: discard this card (hand or played) as its colour"),
    Segment("pay_stage", (), "Stage Presence: your current stage area as a rhinestone of its colour"),
    Segment("show", (C.NUM_CARDS,), "Handwerk: reveal this card from your hand"),
    Segment("stop", (), "end the Handwerk reveals; end the lip sync"),
    Segment("judge", (C.NUM_JUDGES,), "Shade: discard judge j's display card"),
    Segment("claim", (), "lip sync: claim the next lyric token"),
    Segment("lyrics_of", (C.MAX_PLAYERS,), "Blood Sucker: score with the held lyrics of the queen k seats left"),
    Segment("reveal", (C.NUM_REVEALS,), "play this reveal card"),
)

PASS = ACTIONS.start("pass")
QUEEN = ACTIONS.start("queen")
SPACE = ACTIONS.start("space")
COLOR = ACTIONS.start("color")
TAKE = ACTIONS.start("take")
DRAW = ACTIONS.start("draw")
DANCE = ACTIONS.start("dance")
STARS = ACTIONS.start("stars")
PAY_STONE = ACTIONS.start("pay_stone")
PAY_GREEN = ACTIONS.start("pay_green")
PAY_CARD = ACTIONS.start("pay_card")
PAY_STAGE = ACTIONS.start("pay_stage")
SHOW = ACTIONS.start("show")
STOP = ACTIONS.start("stop")
JUDGE = ACTIONS.start("judge")
CLAIM = ACTIONS.start("claim")
LYRICS_OF = ACTIONS.start("lyrics_of")
REVEAL = ACTIONS.start("reveal")
