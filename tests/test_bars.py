"""`python -m training.bars`: the bars for shipped opponents at every player count, checked and recorded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("openskill")

from training import bars  # noqa: E402
from training import report, tournament  # noqa: E402


def verdict_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith(("- PASS", "- FAIL"))]


def test_bars_report_pass_or_fail_and_record(tmp_path: Path, capsys, write_numpy_model) -> None:
    folder = write_numpy_model(tmp_path / "draco_and_co" / "tiny")
    code = bars.main([str(folder), "--players", "4", "--games", "8", "--workers", "1", "--mcts-games", "4", "--mcts-simulations", "10", "--record"])
    out = capsys.readouterr().out
    assert code in (0, 1)
    assert len(verdict_lines(out)) == 2
    assert any("FAIL" in line for line in verdict_lines(out)) == (code == 1)
    assert "vs random: win share" in out and "vs heuristic: win share" in out and "MCTS(10)" in out
    assert "| players | vs random | vs heuristic | vs MCTS (measured) | bars |" in out
    evaluation = json.loads((folder / "manifest.json").read_text())["evaluation"]
    keys = [k for k in evaluation if k not in ("earlier", "bars")]
    assert len(keys) == 3 and any("mcts:10," in k for k in keys)
    assert list(evaluation["bars"]) == ["4"] and evaluation["bars"]["4"]["passed"] == (code == 0)


def test_several_counts_make_a_table_and_record_each_keeping_earlier_ones(tmp_path: Path, capsys, write_numpy_model) -> None:
    from d2r_envs import load_opponent

    folder = write_numpy_model(tmp_path / "draco_and_co" / "tiny")
    code = bars.main([str(folder), "--players", "3,5", "--games", "3", "--workers", "1", "--record"])
    out = capsys.readouterr().out
    assert code in (0, 1) and len(verdict_lines(out)) == 4
    assert "## draco_and_co, 3 players" in out and "## draco_and_co, 5 players" in out
    table = out[out.index("| players |"):].splitlines()
    assert table[0] == "| players | vs random | vs heuristic | bars |"
    assert [row.split("|")[1].strip() for row in table[2:4]] == ["3", "5"]
    manifest = json.loads((folder / "manifest.json").read_text())
    evaluation = manifest["evaluation"]
    assert {f"{n}p:{folder},{','.join([opponent] * (n - 1))}" for n in (3, 5) for opponent in ("random", "heuristic")} \
        <= set(evaluation)
    assert list(evaluation["bars"]) == ["3", "5"]
    entry = evaluation["bars"]["5"]
    assert [b["bar"] for b in entry["bars"]] == ["vs random", "vs heuristic"] and entry["seed"] == 2026
    assert entry["command"].startswith("python -m training.bars") and "--players 3,5" in entry["command"]
    assert evaluation["earlier"] == {"kept": True}

    assert bars.main([str(folder), "--players", "4", "--games", "4", "--workers", "1", "--record"]) in (0, 1)
    capsys.readouterr()
    after = json.loads((folder / "manifest.json").read_text())["evaluation"]["bars"]
    assert list(after) == ["3", "4", "5"] and after["3"] == evaluation["bars"]["3"]
    load_opponent(folder)  # the manifest still passes its checks


class Scripted:
    """Stands in for `training.tournament.evaluate`: the model's and the opponent's win shares by player
    count, with the calls noted."""

    def __init__(self, shares: dict[tuple[int, str], tuple[float, float]]) -> None:
        self.shares, self.calls = shares, []

    def __call__(self, game, agents, players, games, seed, **kw):
        model, opponent = agents
        self.calls.append((players, opponent, seed))
        m, o = self.shares[(players, opponent)]
        return {"agents": {model: {"win_share": m}, opponent: {"win_share": o}}, "games": games,
                "num_players": players, "lineup": list(agents)}


def scripted(monkeypatch, shares) -> Scripted:
    fake = Scripted(shares)
    monkeypatch.setattr(tournament, "evaluate", fake)
    monkeypatch.setattr(report, "to_markdown", lambda result: "")
    return fake


def test_every_count_the_game_allows_by_default_and_one_failing_count_fails(tmp_path: Path, capsys, monkeypatch, write_numpy_model) -> None:
    """Filthy Rich allows 2 to 5 players: all four are checked, each with its own bars; exactly at a
    bar passes, below it fails."""
    folder = write_numpy_model(tmp_path / "filthy_rich" / "tiny", game="filthy_rich")
    shares = {(2, "random"): (0.90, 0.10), (2, "heuristic"): (0.55, 0.45),
              (3, "random"): (0.40, 0.20), (3, "heuristic"): (0.34, 0.33),
              (4, "random"): (0.50, 0.10), (4, "heuristic"): (0.30, 0.20),
              (5, "random"): (0.40, 0.10), (5, "heuristic"): (0.25, 0.15)}
    fake = scripted(monkeypatch, shares)
    assert bars.main([str(folder), "--games", "2"]) == 0
    assert [(n, o) for n, o, _ in fake.calls] == [(n, o) for n in (2, 3, 4, 5) for o in ("random", "heuristic")]
    assert {seed for n, o, seed in fake.calls if o == "random"} == {2026}  # 4 players: the games played before
    out = capsys.readouterr().out
    assert "| 2 | PASS 90.0% (bar 90%) | PASS 55.0% (bar 55%) | pass |" in out
    assert "| 3 | PASS 40.0%, random's 20.0% (bar 40.0%) | PASS 34.0%, the heuristic's 33.0% (bar > 33.0%) | pass |" in out
    assert out.rstrip().endswith("every bar passes at every count checked")

    fake = scripted(monkeypatch, {**shares, (2, "heuristic"): (0.549, 0.451), (5, "heuristic"): (0.15, 0.15)})
    assert bars.main([str(folder), "--games", "2"]) == 1
    out = capsys.readouterr().out
    assert "| 2 | PASS 90.0% (bar 90%) | FAIL 54.9% (bar 55%) | **FAIL** |" in out
    assert "FAIL at 2 players (vs heuristic); 5 players (vs heuristic)" in out

    fake = scripted(monkeypatch, shares)
    assert bars.main([str(folder), "--games", "2", "--players", "3"]) == 0
    assert [n for n, _, _ in fake.calls] == [3, 3]


@pytest.mark.parametrize("players", ["7", "2,4"])
def test_a_count_the_game_does_not_allow_is_refused_before_any_game(players: str, tmp_path: Path, capsys, monkeypatch, write_numpy_model) -> None:
    folder = write_numpy_model(tmp_path / "draco_and_co" / "tiny")
    fake = scripted(monkeypatch, {})
    assert bars.main([str(folder), "--players", players, "--record"]) == 2
    err = capsys.readouterr().err
    assert fake.calls == [] and "num_players" in err and "3..6" in err
    assert "bars" not in json.loads((folder / "manifest.json").read_text())["evaluation"]
    with pytest.raises(SystemExit) as exit:  # not a count at all: argparse's usage error
        bars.main([str(folder), "--players", "many"])
    assert exit.value.code == 2 and "--players" in capsys.readouterr().err


def test_the_bars_by_count() -> None:
    two, more = bars.bars_for(2), bars.bars_for(4)
    assert [(b.opponent, b.passes(0.90, 0.1), b.passes(0.899, 0.1)) for b in two] == [("random", True, False), ("heuristic", True, True)]
    assert two[1].passes(0.55, 0.45) and not two[1].passes(0.5499, 0.45)
    assert more[0].passes(0.2, 0.1) and not more[0].passes(0.199, 0.1)
    assert more[1].passes(0.21, 0.2) and not more[1].passes(0.2, 0.2)
    assert bars.bars_for(6) == more and bars.default_counts("draco_and_co") == [3, 4, 5, 6]


def test_a_missing_or_tampered_model_is_a_clear_error_with_its_own_exit_code(tmp_path: Path, capsys, write_numpy_model) -> None:
    assert bars.main([str(tmp_path / "draco_and_co" / "nothing")]) == 2
    err = capsys.readouterr().err
    assert "error:" in err and "no model found" in err and "Traceback" not in err
    folder = write_numpy_model(tmp_path / "draco_and_co" / "tiny")
    weights = folder / "policy.safetensors"
    weights.write_bytes(weights.read_bytes()[:-4] + b"\0\0\0\0")
    assert bars.main([str(folder), "--games", "4"]) == 2
    assert "SHA-256" in capsys.readouterr().err


def test_options_choose_the_variant_checked_and_are_kept_apart_in_the_manifest(tmp_path: Path, capsys, write_numpy_model) -> None:
    folder = write_numpy_model(tmp_path / "drags_2_riches" / "tiny", "drags_2_riches")
    base = [str(folder), "--players", "2", "--games", "2", "--workers", "1", "--record"]
    assert bars.main(base) in (0, 1)
    assert bars.main([*base, "--option", "characters=true"]) in (0, 1)
    out = capsys.readouterr().out
    assert "## drags_2_riches, 2 players [characters=true]" in out
    evaluation = json.loads((folder / "manifest.json").read_text())["evaluation"]
    assert list(evaluation["bars"]) == ["2", "2[characters=true]"]
    assert f"2p[characters=true]:{folder},random" in evaluation and f"2p:{folder},random" in evaluation
    assert evaluation[f"2p[characters=true]:{folder},random"]["options"] == {"characters": True}
    assert bars.main([*base, "--option", "charactrs=true"]) == 2
    assert "charactrs" in capsys.readouterr().err
