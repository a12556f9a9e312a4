"""The Drags 2 Riches action space: one Discrete(N) for every player count.

Players are named relative to the actor: `target` k is the player k+1 seats to the left, `winner`
k is the player k seats to the left (0 = the actor).
"""

from __future__ import annotations

from d2r_envs.core.actions import ActionSpace, Segment
from d2r_envs.games.drags_2_riches import cards as C

ACTIONS = ActionSpace(
    Segment("end", (), "end the phase: stop playing cards / buying, or done adding to the Look"),
    Segment("activate", (C.NUM_KINDS,), "activate a card of this kind from the hand"),
    Segment("wear", (C.NUM_KINDS,), "wear a card of this kind from the hand (its Look slot; a worn card there goes to the Floordrobe)"),
    Segment("buy", (C.NUM_KINDS,), "buy a Market card of this kind (Thrifting: take it free)"),
    Segment("ability", (), "use my Character's once-per-game action"),
    Segment("thumbs", (3,), "Event Phase: 0 = thumbs down, 1 = thumbs up, 2 = thumbs up and Glam Stoker's Deathdrop Diva"),
    Segment("react", (3,), "targeted by Shade: 0 = take it, 1 = show a Block Shade, 2 = Reverse Shade (a card or Kelisha Keys)"),
    Segment("target", (C.MAX_PLAYERS - 1,), "choose the player k+1 seats to the left"),
    Segment("card", (C.NUM_KINDS,), "choose a card of this kind (to Return, Lend, Borrow, Trash or take)"),
    Segment("look_type", (C.NUM_TYPES,), "choose a Look card type (Outfit, Hair, Heels, Makeup, Accessories)"),
    Segment("character", (C.NUM_CHARACTERS,), "set-up: choose this Character"),
    Segment("winner", (C.MAX_PLAYERS,), "Category Is: award the Event to the tied player k seats to the left"),
)

END = ACTIONS.start("end")
ACTIVATE = ACTIONS.start("activate")
WEAR = ACTIONS.start("wear")
BUY = ACTIONS.start("buy")
ABILITY = ACTIONS.start("ability")
THUMBS = ACTIONS.start("thumbs")
REACT = ACTIONS.start("react")
TARGET = ACTIONS.start("target")
CARD = ACTIONS.start("card")
LOOK_TYPE = ACTIONS.start("look_type")
CHARACTER = ACTIONS.start("character")
WINNER = ACTIONS.start("winner")

DOWN, UP, UP_GLAM = THUMBS, THUMBS + 1, THUMBS + 2
TAKE, BLOCK, REVERSE = REACT, REACT + 1, REACT + 2
