"""Filthy Rich as a PettingZoo AEC env, in PettingZoo's classic `env()` / `raw_env()` form."""

from __future__ import annotations

from typing import Any

import d2r_envs

NAME = "filthy_rich"


def raw_env(num_players: int = 4, render_mode: str | None = None, **options: Any):
    return d2r_envs.raw_env(NAME, num_players, render_mode=render_mode, **options)


def env(num_players: int = 4, render_mode: str | None = None, **options: Any):
    return d2r_envs.make(NAME, num_players, render_mode=render_mode, **options)
