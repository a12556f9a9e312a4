"""The Rap Godz action space: one Discrete(N) for every player count.

Cards are named by kind (cards.CARDS; Rapperz and Citiez by their index). Players are named relative to
the actor: `target` k is the player k+1 seats to the left.
"""

from __future__ import annotations

from d2r_envs.core.actions import ActionSpace, Segment
from d2r_envs.games.rap_godz import cards as C

ACTIONS = ActionSpace(
    Segment("pass", (), "end the play with no card played (only when none can be played), or pass in a Beef window"),
    Segment("rapper", (C.NUM_RAPPERZ,), "set-up draft: keep this Rapper (the other goes back)"),
    Segment("city", (C.NUM_CITIEZ,), "set-up draft: keep this City (the other goes back)"),
    Segment("draw", (), "get a card: draw from the current Album deck"),
    Segment("come_upz", (C.MAX_SLOTS,), "get a card: buy the face-up Come Upz in this slot (then spend the cards)"),
    Segment("spend", (C.NUM_PLAY,), "spend a card of this kind from the hand for the Come Upz"),
    Segment("play", (C.NUM_PLAY,), "play a card of this kind (from the hand or a held Come Upz); a Beef card starts Beef"),
    Segment("target", (C.MAX_PLAYERS - 1,), "start Beef with the player k+1 seats to the left"),
    Segment("card_pickup", (), "use a +1 Card Pick Upz: draw a card"),
    Segment("res_pickup", (C.NUM_RES,), "use a +3 Resources Pick Upz on this resource (Streetz, Skillz, Swag)"),
    Segment("boost", (), "use a +2 on Beef Pick Upz"),
    Segment("ability", (), "use my Rapper's once-per-Album ability (an extra draw, or a Beef reroll)"),
)

PASS = ACTIONS.start("pass")
RAPPER = ACTIONS.start("rapper")
CITY = ACTIONS.start("city")
DRAW = ACTIONS.start("draw")
COME_UPZ = ACTIONS.start("come_upz")
SPEND = ACTIONS.start("spend")
PLAY = ACTIONS.start("play")
TARGET = ACTIONS.start("target")
CARD_PICKUP = ACTIONS.start("card_pickup")
RES_PICKUP = ACTIONS.start("res_pickup")
BOOST = ACTIONS.start("boost")
ABILITY = ACTIONS.start("ability")
