"""Difficulty levels: the file's checks, every level's agent, and the recorded order of the levels."""

from __future__ import annotations

import json

import pytest

import d2r_envs
from d2r_envs import difficulty
from d2r_envs.agents import make_agent
from training import levels as levels_tool


@pytest.mark.parametrize("game", d2r_envs.names())
def test_every_game_has_levels_whose_agents_build(game: str) -> None:
    found = difficulty.levels(game)
    assert len(found) >= 2
    for level in found:
        assert level.about and make_agent(level.agent, game) is not None
        assert difficulty.agent_for(game, level.name) == level.agent


@pytest.mark.parametrize("game", d2r_envs.names())
def test_levels_are_strictly_ordered_by_their_recorded_tournaments(game: str) -> None:
    found = difficulty.levels(game)
    recorded = {(e["upper"], e["lower"]): e for e in difficulty.results(game)}
    for lower, upper in zip(found, found[1:]):
        entry = recorded.get((upper.name, lower.name))
        assert entry is not None, f"{game}: no tournament recorded between {upper.name} and {lower.name}"
        assert (entry["upper_agent"], entry["lower_agent"]) == (upper.agent, lower.agent), (
            f"{game}: the recorded {upper.name}/{lower.name} tournament played other agents; run it again")
        assert entry["players"] == levels_tool.players_for(game) and entry["games"] >= 200
        assert levels_tool.ordered(entry), f"{game}: {upper.name} does not beat {lower.name}: {entry}"


@pytest.mark.parametrize("game", d2r_envs.names())
def test_the_game_readme_shows_the_recorded_levels(game: str) -> None:
    text = levels_tool.readme_path(game).read_text(encoding="utf-8")
    assert levels_tool.readme_table(text, game) == difficulty.table(game), (
        f"{game}'s README levels table is not models/levels.json's: python -m training.levels {game} --record writes it")


def test_an_unknown_level_is_refused_naming_the_levels() -> None:
    with pytest.raises(ValueError, match="unknown level 'godlike' for rap_godz; its levels, weakest first: easy, medium"):
        difficulty.agent_for("rap_godz", "godlike")


@pytest.mark.parametrize("change,message", [
    (lambda d: d.update(format="d2r-levels/0"), "format must be"),
    (lambda d: d["games"].update(chess={"levels": []}), "unknown game 'chess'"),
    (lambda d: d["games"]["rap_godz"]["levels"].append(dict(d["games"]["rap_godz"]["levels"][0])), "its own name"),
    (lambda d: d["games"]["rap_godz"]["levels"][0].pop("about"), "lacks about"),
])
def test_a_bad_levels_file_is_refused(tmp_path, change, message) -> None:
    data = json.loads(difficulty.LEVELS_FILE.read_text())
    change(data)
    path = tmp_path / "levels.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=message):
        difficulty.read(path)


def test_the_tool_plays_and_records_a_pair(tmp_path, monkeypatch) -> None:
    data = {"format": difficulty.FORMAT, "games": {"drags_2_riches": {"levels": [
        {"name": "low", "agent": "random", "about": "random moves"},
        {"name": "high", "agent": "heuristic", "about": "rules of thumb"}], "results": []}}}
    path = tmp_path / "levels.json"
    path.write_text(json.dumps(data))
    readme = tmp_path / "README.md"
    readme.write_text(f"# A game\n\n{levels_tool.MARKS[0]}\nold\n{levels_tool.MARKS[1]}\n\nmore\n")
    monkeypatch.setattr(difficulty, "LEVELS_FILE", path)
    monkeypatch.setattr(levels_tool, "readme_path", lambda game: readme)
    difficulty.reload()
    try:
        assert levels_tool.main(["drags_2_riches", "--games", "8", "--workers", "1", "--record"]) == 0
        [entry] = difficulty.read(path)["games"]["drags_2_riches"]["results"]
        table = difficulty.table("drags_2_riches")
        assert "| high | `heuristic` |" in table and "vs low's" in table
        assert readme.read_text() == f"# A game\n\n{levels_tool.MARKS[0]}\n{table}\n{levels_tool.MARKS[1]}\n\nmore\n"
        assert (entry["upper"], entry["lower"], entry["players"], entry["games"]) == ("high", "low", 2, 8)
        assert entry["upper_share"] > entry["lower_share"] and set(entry["ms_per_move"]) == {"high", "low"}
        assert levels_tool.main(["drags_2_riches", "--upper", "low"]) == 2  # not a level above another
        low, high = difficulty.levels("drags_2_riches")
        other = difficulty.Level("high", "mcts:10", "a search")
        assert levels_tool.journal_name("drags_2_riches", high, low) != levels_tool.journal_name("drags_2_riches", other, low)
        assert levels_tool.journal_name("drags_2_riches", high, low).startswith("drags_2_riches-high-low-")
    finally:
        difficulty.reload()
