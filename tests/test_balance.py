"""`d2r balance`: self-play win shares by seat and by what each seat had, the same for any worker count."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from d2r_envs import cli
from training import balance


def test_the_report_is_the_same_for_any_worker_count_and_shares_add_up() -> None:
    one = balance.summarise(balance.run_games("extravaganza", 2, "heuristic", 6, 3, {"level": "fierce"}, workers=1), 2)
    two = balance.summarise(balance.run_games("extravaganza", 2, "heuristic", 6, 3, {"level": "fierce"}, workers=2), 2)
    assert one == two
    assert sum(one["by_seat"]) == pytest.approx(1.0) and one["unfinished"] == 0
    queens = one["texts"]["queen"]
    assert sum(x["seen"] for x in queens.values()) == 12  # each seat of each game has a queen
    assert sum(x["win_share"] * x["seen"] for x in queens.values()) == pytest.approx(6.0)
    assert {"final total", "final review", "lyrics claimed"} <= set(one["numbers"])


def test_a_game_without_facts_still_reports_its_seats(tmp_path: Path, capsys) -> None:
    out = tmp_path / "b.json"
    assert cli.main(["balance", "draco_and_co", "--players", "3", "--games", "4", "--agent", "random",
                     "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "## draco_and_co, 3 players: random in every seat" in text and "| 2 |" in text
    summary = json.loads(out.read_text())
    assert summary["games"] == 4 and summary["texts"] == {} and len(summary["by_seat"]) == 3


@pytest.mark.parametrize("argv, message", [
    (["--option", "level=epic"], "level"),
    (["--agent", "genius"], "genius"),
    (["--games", "0"], "--games"),
])
def test_bad_input_is_refused_before_any_game(argv, message, capsys) -> None:
    assert cli.main(["balance", "extravaganza", *argv]) == 2
    assert message in capsys.readouterr().err


def test_ctrl_c_stops_balance_and_its_workers_without_a_traceback(d2r_group) -> None:
    import time

    proc = d2r_group.start("balance", "draco_and_co", "--agent", "random", "--games", "1000000", "--workers", "2")
    time.sleep(4)  # the workers are playing (hours of play: it ends only by being stopped)
    _, err = d2r_group.ctrl_c(proc)
    assert proc.returncode == 130 and "Traceback" not in err, err[-2000:]
    d2r_group.assert_group_ended(proc)
