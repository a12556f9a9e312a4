"""Draco & Co state: plain data, changed in place by rules.Game.

`tell` is no part of the state: the sink the rules tell what happens to (facts.py) while a copy is
narrated, None otherwise; it is not compared, and a clone starts without one (core.events.sink).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from d2r_envs.core.events import sink
from d2r_envs.core.zones import Deck, Held, Pile, Zones
from d2r_envs.games.draco_and_co import cards as C


class Phase(enum.IntEnum):
    FIRST_PLAYER = 0  # chance: who starts
    CIRCLE = 1  # chance: the next place of the circle at set-up (or after a shuffle)
    DEAL = 2  # chance: dealing the hands (and the short game's removed cards)
    PLAY = 3  # decision: play an action card
    CARD = 4  # inside a card: a decision or a chance event the card asks for
    TOAST = 5  # decision: propose a toast or not
    DRAW = 6  # chance: the turn's draws, then the turn ends
    OVER = 7


class Ask(enum.IntEnum):
    """What the card being resolved waits for (Phase.CARD)."""

    NONE = 0
    CHARACTER = 1  # a character for the current step
    ORDER = 2  # the next character of a group to move
    DIRECTION = 3  # Draco's direction
    PLAYER = 4  # a player to steal from
    DIE = 5  # chance: a die roll
    PLACE = 6  # chance: which character lands in the next place (shuffles)
    ARRANGE = 7  # the special that goes in the next special place


@dataclass(slots=True)
class State:
    num_players: int
    hands: list[list[int]]  # per seat, counts per card kind (hidden from others) (DRACO-HIDDEN-1)
    draw_pile: Deck  # face down, drawn at random; its size is draw_pile.n
    removed: list[int]  # short game: cards taken out face down, never seen (DRACO-VARIANT-1)
    discard: list[int]  # counts per kind, face up (DRACO-PLAY-1)
    money: list[int]  # per seat, in silver (1 gold = 3 silver) (DRACO-WEALTH-2)
    bank: int  # silver value left in the bank (may go below zero: the bank never runs out) (DRACO-WEALTH-2)
    order: list[int]  # character ids from first place (next to Draco, his preferred side) to last
    sarah_owner: int = -1  # seat that played Old Friendship, -1 for none (DRACO-SARAH-2)
    cup: int = -1  # seat holding the cup, -1 when it is in the centre (DRACO-CUP-1)
    cup_initial: bool = True  # the set-up cup goes back at the end of its holder's first turn (DRACO-CUP-2)
    first_player: int = -1
    turn: int = -1  # whose turn it is
    phase: Phase = Phase.FIRST_PLAYER
    exhausted: int = 0  # times the draw pile has run out (DRACO-END-1)
    draws: list[int] = field(default_factory=list)  # seats due to draw, in order (-1: remove a card)
    # The card being resolved.
    card: int = -1
    step: int = 0
    ask: Ask = Ask.NONE
    picked: list[int] = field(default_factory=list)  # characters chosen for this card, in order
    sub: int = 0  # choices made so far within the current step
    todo: list[int] = field(default_factory=list)  # characters still to move / place
    slots: list[int] = field(default_factory=list)  # places being filled by a shuffle or arrangement
    die: int = 0  # last die roll on this card (0: none)
    winners: list[int] = field(default_factory=list)
    turns: int = 0  # turns started, for display
    tell: Callable[[Any], None] | None = sink()  # while narrated: where the rules tell what happens


# Where the action cards are (core/zones.py): the census and redeterminise come from this.
ZONES = Zones(
    [kind.name for kind in C.CATALOGUE],
    [kind.copies for kind in C.CATALOGUE],
    Pile("hands", per_seat=True, seen_by="owner"),  # DRACO-HIDDEN-1
    Pile("removed", seen_by="nobody"),  # the short game's cards, never seen
    Pile("draw_pile", seen_by="nobody"),
    Pile("discard"),
    Held("card"),  # the card being resolved
)
