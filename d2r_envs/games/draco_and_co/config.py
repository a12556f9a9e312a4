"""Draco & Co options."""

from __future__ import annotations

from dataclasses import dataclass

from d2r_envs.core.config import option


@dataclass(frozen=True)
class Config:
    num_players: int = option(4, range(3, 7), "players, 3 to 6")
    # DRACO-VARIANT-1
    short_game: int = option(0, (0, 10, 20), "variant: remove this many cards from the draw pile at set-up")
    # DRACO-VARIANT-2
    long_game: bool = option(False, (False, True), "variant: the game ends only after the draw pile runs out twice")
