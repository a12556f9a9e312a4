"""Recorded search games: information-set MCTS, and the search a game's first model guides, choose the
same moves as when the record was made, in every game at its smallest and its largest player count. The
compiled build compiles the search and its play-outs too, and CI runs this file on both builds, so the two
are held to the same moves.

A change to a search that is meant to change its play shows up here; record the games again with

    python tests/agents/test_search_games.py
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

RECORD = Path(__file__).with_name("search_games.json")
MODELS = Path(__file__).resolve().parents[2] / "models"


def searchers(game: str) -> list[str]:
    """ISMCTS, and the search guided by the game's first model where it has one (a later model does not
    change the record). Few simulations: the moves differ from the heuristic's, the games stay quick."""
    return ["mcts:24"] + ([f"search:{game}/ppo-v1:4"] if (MODELS / game / "ppo-v1").is_dir() else [])


def lines() -> list[tuple[str, str, int]]:
    out = []
    for game in d2r_envs.names():
        spec = d2r_envs.make_game(game, 4).spec
        out += [(game, agent, n) for agent in searchers(game) for n in (spec.min_players, spec.max_players)]
    return out


def key(game: str, agent: str, n: int) -> str:
    return f"{game} {agent} {n}p"


def trace_digest(game: str, agent: str, n: int) -> str:
    """SHA-256 of every action (chance outcomes included) and the returns of a game in which the search
    takes seat 0 and the heuristic the others."""
    engine = d2r_envs.make_game(game, n)
    seated = [make_agent(agent if s == 0 else "heuristic", engine) for s in range(n)]
    trace: list[int] = []
    returns, _, _ = play_game(engine, seated, np.random.default_rng([7, n]),
                              [np.random.default_rng([7, n, s]) for s in range(n)], 100_000, trace=trace)
    return hashlib.sha256(json.dumps([trace, returns]).encode()).hexdigest()


def test_every_line_is_recorded() -> None:
    assert sorted(json.loads(RECORD.read_text(encoding="utf-8"))) == sorted(key(*line) for line in lines()), (
        "the record's lines are not this tree's games and searchers: python tests/agents/test_search_games.py")


@pytest.mark.parametrize("line", lines(), ids=lambda line: key(*line))
def test_the_search_plays_its_recorded_game(line: tuple[str, str, int]) -> None:
    recorded = json.loads(RECORD.read_text(encoding="utf-8"))
    assert trace_digest(*line) == recorded[key(*line)], (
        f"{key(*line)} plays other moves than recorded (on the {d2r_envs.build()} build); if the search was "
        "meant to change, record again: python tests/agents/test_search_games.py")


if __name__ == "__main__":
    RECORD.write_text(json.dumps({key(*line): trace_digest(*line) for line in lines()}, indent=1, sort_keys=True) + "\n",
                      encoding="utf-8")
    print(f"recorded {len(lines())} lines in {RECORD}", file=sys.stderr)
