"""training/journal.py: a tournament journaled deal by deal resumes after a stop with the uninterrupted
result, plays only the missing deals, and refuses a journal of another tournament before any game."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("openskill")

from d2r_envs.agents import make_agent  # noqa: E402
from d2r_envs.cli import main  # noqa: E402
from training import bars  # noqa: E402
from training import tournament  # noqa: E402

GAME = "draco_and_co"
KW: dict[str, Any] = dict(players=3, games=12, seed=5)  # 4 deals of 3 rotations


def run(**kw: Any) -> dict[str, Any]:
    args = {**KW, **kw}
    return tournament.evaluate(GAME, ["heuristic", "random"], args.pop("players"), args.pop("games"), args.pop("seed"),
                               **args)


@pytest.fixture
def played(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The deals this process plays from here on (workers=1)."""
    deals: list[int] = []
    inner = tournament.play_deal

    def spy(deal: int):
        deals.append(deal)
        return inner(deal)

    monkeypatch.setattr(tournament, "play_deal", spy)
    return deals


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_journaled_tournament_equals_a_plain_one_and_writes_every_deal(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    plain = run()
    journaled = run(journal=path)
    assert tournament.deterministic_part(journaled) == tournament.deterministic_part(plain)
    header, *deals = lines(path)
    assert header["journal"] == 1 and header["seed"] == 5 and header["lineup"] == ["heuristic", "random", "random"]
    assert sorted(d["deal"] for d in deals) == [0, 1, 2, 3]
    assert [r for d in sorted(deals, key=lambda d: d["deal"]) for r in d["records"]] == plain["records"]


def test_a_stopped_tournament_resumes_with_the_missing_deals_only(tmp_path: Path, played: list[int]) -> None:
    path = tmp_path / "t.jsonl"
    whole = run(journal=path)
    assert played == [0, 1, 2, 3]
    text = path.read_text().splitlines(keepends=True)
    kept = [text[0], text[1], text[3]]  # deals 0 and 2 finished
    path.write_text("".join(kept) + text[2][: len(text[2]) // 2])  # deal 1's line cut off mid-write
    played.clear()
    resumed = run(journal=path)
    assert played == [1, 3]
    assert tournament.deterministic_part(resumed) == tournament.deterministic_part(whole)
    assert sorted(d["deal"] for d in lines(path)[1:]) == [0, 1, 2, 3]  # the torn line is gone, nothing doubled
    played.clear()
    again = run(journal=path)  # everything is in the journal: nothing is played
    assert played == [] and tournament.deterministic_part(again) == tournament.deterministic_part(whole)


def test_a_process_pool_resumes_to_the_same_result(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    whole = run()
    run(games=6, journal=path)  # the first two deals, as a run stopped there would leave them
    resumed = run(journal=path, workers=2)
    assert tournament.deterministic_part(resumed) == tournament.deterministic_part(whole)


@pytest.mark.parametrize(
    "change, words",
    [
        (dict(seed=6), "its seed is 5, this one's is 6"),
        (dict(players=4), "its num_players is 3"),
        (dict(options={"variant": "x"}), None),  # refused by the game itself, before the journal is opened
        (dict(games=6), "holds deal 2, past this tournament's 2 deals"),
    ],
)
def test_a_journal_of_another_tournament_is_refused_before_any_game(
    tmp_path: Path, played: list[int], change: dict[str, Any], words: str | None
) -> None:
    path = tmp_path / "t.jsonl"
    run(journal=path)
    before = path.read_bytes()
    played.clear()
    with pytest.raises(ValueError) as caught:
        run(journal=path, **change)
    if words:
        assert words in str(caught.value) and str(path) in str(caught.value)
    assert played == [] and path.read_bytes() == before


@pytest.mark.parametrize(
    "content, words",
    [
        ("not json\n", "line 1 is not JSON"),
        ('{"a": 1}\n', "no tournament header"),
        (None, "not a deal entry"),
    ],
)
def test_a_file_that_is_not_a_journal_is_refused(tmp_path: Path, content: str | None, words: str) -> None:
    path = tmp_path / "t.jsonl"
    if content is None:
        run(games=3, journal=path)
        path.write_text(path.read_text() + '{"deal": 1}\n')
    else:
        path.write_text(content)
    with pytest.raises(ValueError, match=words):
        run(journal=path)
    with pytest.raises(ValueError, match="is a folder"):
        run(journal=tmp_path)


def test_cli_eval_resumes_from_its_journal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["eval", GAME, "--agents", "heuristic,random", "--players", "3", "--games", "6", "--seed", "1",
            "--journal", str(tmp_path / "j.jsonl")]
    assert main([*argv, "--out", str(tmp_path / "a")]) == 0
    assert main([*argv, "--out", str(tmp_path / "b")]) == 0
    first, second = (json.loads((tmp_path / d / "result.json").read_text()) for d in "ab")
    assert tournament.deterministic_part(first) == tournament.deterministic_part(second)
    assert "--journal" in second["command"]
    assert main([*argv[:-4], "--seed", "2", "--journal", str(tmp_path / "j.jsonl"), "--out", str(tmp_path / "c")]) == 2
    assert "its seed is 1, this one's is 2" in capsys.readouterr().err


def test_bars_names_one_journal_per_tournament(tmp_path: Path) -> None:
    assert bars.journal_path(None, 4, {}, "random") is None
    assert bars.journal_path(tmp_path, 4, {}, "mcts:1000") == tmp_path / "4p-mcts-1000.jsonl"
    names = {bars.journal_path(tmp_path, n, o, a).name
             for n in (2, 4) for o in ({}, {"level": "legendary"}) for a in ("random", "heuristic", "mcts:1000")}
    assert len(names) == 12


def test_a_journal_in_use_by_another_run_is_refused(tmp_path: Path) -> None:
    from training.journal import Journal

    path = tmp_path / "t.jsonl"
    header = {"game": GAME, "game_version": 1, "options": {}, "num_players": 3, "lineup": ["a", "b", "b"],
              "seed": 1, "max_decisions": 10, "trace": False}
    with Journal(path, header):
        with pytest.raises(ValueError, match="in use by another run"):
            Journal(path, header)
    with Journal(path, header) as again:  # free once the first is closed
        assert again.done == {}


class FailsInAWorker:
    """Raises on its first move in a worker (a process other than the test's, $D2R_TEST_HOME), leaving a
    marker file (in $D2R_TEST_MARKERS) for each deal it was asked to play there."""

    name = "fails"

    def act(self, game: Any, state: Any, seat: int, rng: Any) -> int:
        if os.getpid() != int(os.environ["D2R_TEST_HOME"]):
            Path(os.environ["D2R_TEST_MARKERS"], f"{os.getpid()}-{time.monotonic_ns()}").touch()
            raise ValueError("this agent fails in a worker")
        return game.legal_actions(state)[0]


def failing_factory(spec: str, game: str, engine: Any) -> Any:
    """Module level, so that the spawned workers import it."""
    return FailsInAWorker() if spec == "fails" else make_agent(spec, game, engine)


def test_an_error_in_a_journaled_pool_stops_it_without_playing_the_other_deals(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    markers = tmp_path / "markers"
    markers.mkdir()
    monkeypatch.setenv("D2R_TEST_MARKERS", str(markers))
    monkeypatch.setenv("D2R_TEST_HOME", str(os.getpid()))
    path = tmp_path / "t.jsonl"
    with pytest.raises(ValueError, match="fails in a worker"):
        tournament.evaluate(GAME, ["fails", "random"], 3, 60, 1, workers=2, factory=failing_factory, journal=path)
    assert len(lines(path)) == 1  # the header: no deal finished
    assert 1 <= len(list(markers.iterdir())) <= 8  # of 20 deals, only those already handed to the workers
