"""Filthy Rich options."""

from __future__ import annotations

from dataclasses import dataclass

from d2r_envs.core.config import option


@dataclass(frozen=True)
class Config:
    num_players: int = option(4, range(2, 6), "players, 2 to 5")
    # FR-OPT-1
    one_tax_per_turn: bool = option(False, (False, True), "fan variant: only the first 0 rolled each turn triggers taxes and 0-roll payouts")
