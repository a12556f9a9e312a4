"""The Draco & Co action space: one Discrete(N) for every player count.

Characters are named relative to the actor: index 2*k + j is the j-th character of the player k
seats to the actor's left (k = 0 is the actor), 12-14 are Aunt Sarah, Brother John and Zork.
"""

from __future__ import annotations

from d2r_envs.core.actions import ActionSpace, Segment
from d2r_envs.games.draco_and_co import cards

ACTIONS = ActionSpace(
    Segment("decline", (), "do not propose a toast"),
    Segment("toast", (), "propose a toast"),
    Segment("play", (cards.NUM_KINDS,), "play an action card of this kind"),
    Segment("character", (cards.NUM_CHARACTERS,), "choose a character (relative to the actor)"),
    Segment("player", (cards.MAX_PLAYERS - 1,), "choose the player k+1 seats to the left"),
    Segment("direction", (2,), "Draco moves: 0 = the first characters go last, 1 = the last come first"),
)

DECLINE = ACTIONS.start("decline")
TOAST = ACTIONS.start("toast")
PLAY = ACTIONS.start("play")
CHARACTER = ACTIONS.start("character")
PLAYER = ACTIONS.start("player")
DIRECTION = ACTIONS.start("direction")


def relative_character(c: int, me: int, n: int) -> int:
    """Absolute character id -> the index the seat `me` uses for it."""
    if c >= 12:
        return c
    return 2 * ((c // 2 - me) % n) + c % 2


def absolute_character(r: int, me: int, n: int) -> int:
    """The inverse of relative_character."""
    if r >= 12:
        return r
    return 2 * ((r // 2 + me) % n) + r % 2
