"""Recorded heuristic games: every game's heuristic and its variants, at every player count and level,
play the same moves as when the record was made. The compiled build compiles the heuristics too, and CI
runs this file on both builds, so the two are held to the same moves.

A change to a heuristic that is meant to change its play shows up here; record the games again with

    python tests/agents/test_heuristic_games.py
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import d2r_envs
from d2r_envs.agents import make_agent
from training.deals import play_game

RECORD = Path(__file__).with_name("heuristic_games.json")
GAMES = 2  # seeded games a line; in the second, random play takes one seat in three


def lines() -> list[tuple[str, str, int, dict[str, str]]]:
    out = []
    for game in d2r_envs.names():
        spec = d2r_envs.make_game(game, 4).spec
        levels = [{}, {"level": "legendary"}] if game == "extravaganza" else [{}]
        for agent in ["heuristic", *(f"heuristic:{v}" for v in d2r_envs.registry.package(game).variants)]:
            out += [(game, agent, n, options) for n in range(spec.min_players, spec.max_players + 1) for options in levels]
    return out


def key(game: str, agent: str, n: int, options: dict[str, str]) -> str:
    return f"{game} {agent} {n}p" + "".join(f" {k}={v}" for k, v in options.items())


def trace_digest(game: str, agent: str, n: int, options: dict[str, str]) -> str:
    """SHA-256 of every action (chance outcomes included) and the returns of the line's games."""
    digest = hashlib.sha256()
    for g in range(GAMES):
        engine = d2r_envs.make_game(game, n, **options)
        seated = [make_agent("random" if g and s % 3 == 2 else agent, engine) for s in range(n)]
        trace: list[int] = []
        returns, _, _ = play_game(engine, seated, np.random.default_rng([g, n]),
                                  [np.random.default_rng([g, n, s]) for s in range(n)], 100_000, trace=trace)
        digest.update(json.dumps([trace, returns]).encode())
    return digest.hexdigest()


def test_every_line_is_recorded() -> None:
    assert sorted(json.loads(RECORD.read_text(encoding="utf-8"))) == sorted(key(*line) for line in lines())


@pytest.mark.parametrize("line", lines(), ids=lambda line: key(*line))
def test_the_heuristic_plays_its_recorded_games(line: tuple[str, str, int, dict[str, str]]) -> None:
    recorded = json.loads(RECORD.read_text(encoding="utf-8"))
    assert trace_digest(*line) == recorded[key(*line)], (
        f"{key(*line)} plays other moves than recorded (on the {d2r_envs.build()} build); if the heuristic was "
        "meant to change, record again: python tests/agents/test_heuristic_games.py")


if __name__ == "__main__":
    RECORD.write_text(json.dumps({key(*line): trace_digest(*line) for line in lines()}, indent=1) + "\n",
                      encoding="utf-8")
    print(f"recorded {len(lines())} lines in {RECORD}", file=sys.stderr)
