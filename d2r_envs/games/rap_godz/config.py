"""Rap Godz options."""

from __future__ import annotations

from dataclasses import dataclass

from d2r_envs.core.config import option


@dataclass(frozen=True)
class Config:
    num_players: int = option(4, range(2, 5), "players, 2 to 4")  # RG-COMP-1
