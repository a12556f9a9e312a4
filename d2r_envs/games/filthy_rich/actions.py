"""The Filthy Rich action space: one Discrete(N) for every player count.

Players are named relative to the actor: `player` k is the player k+1 seats to the left.
A bid is the lowest legal bid plus a fixed step: the lowest is the luxury's printed price before
anyone bids, then the high bid + $1; steps are BID_STEPS dollars. So six actions cover every
auction, and any sum a player can pay is reachable in a few raises.
"""

from __future__ import annotations

from d2r_envs.core.actions import ActionSpace, Segment
from d2r_envs.games.filthy_rich import cards as C

BID_STEPS = (0, 1, 2, 4, 8, 16)

ACTIONS = ActionSpace(
    Segment("done", (), "luxury: buy none; tax time: sell no more; after the actions: roll the dice; auction: pass"),
    Segment("luxury", (C.NUM_LUXURIES,), "buy this luxury"),
    Segment("sell", (C.NUM_BUSINESSES,), "sell my business for $2 per sign card (my turn before the roll, or tax time)"),
    Segment("play", (C.NUM_CARDS,), "play an action or asset card of this kind"),
    Segment("open", (C.NUM_BUSINESSES, C.SLOTS), "open this business, its sign's top-left card in slot 1-9 of the current page"),
    Segment("discard", (C.NUM_KINDS,), "discard a card of this kind for $1"),
    Segment("player", (C.MAX_PLAYERS - 1,), "target the player k+1 seats to the left"),
    Segment("business", (C.NUM_BUSINESSES,), "Mysterious Fire: burn this business; Business Scout: take this business card"),
    Segment("page", (C.PAGES,), "Page Turner: turn to page 1-4"),
    Segment("bid", (len(BID_STEPS),), f"auction: bid the lowest legal bid plus ${', $'.join(map(str, BID_STEPS))}"),
)

DONE = ACTIONS.start("done")
LUXURY = ACTIONS.start("luxury")
SELL = ACTIONS.start("sell")
PLAY = ACTIONS.start("play")
OPEN = ACTIONS.start("open")
DISCARD = ACTIONS.start("discard")
PLAYER = ACTIONS.start("player")
BUSINESS = ACTIONS.start("business")
PAGE = ACTIONS.start("page")
BID = ACTIONS.start("bid")
