"""`python -m training.bars`: the bars for shipped opponents, checked and recorded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("openskill")

from training import bars  # noqa: E402


def test_bars_report_pass_or_fail_and_record(tmp_path: Path, capsys, write_numpy_model) -> None:
    folder = write_numpy_model(tmp_path / "draco_and_co" / "tiny")
    code = bars.main([str(folder), "--players", "4", "--games", "8", "--workers", "1", "--mcts-games", "4", "--mcts-simulations", "10", "--record"])
    out = capsys.readouterr().out
    assert code in (0, 1)
    assert out.count("PASS") + out.count("FAIL") == 2
    assert ("FAIL" in out) == (code == 1)
    assert "vs random: win share" in out and "vs heuristic: win share" in out and "MCTS(10)" in out
    evaluation = json.loads((folder / "manifest.json").read_text())["evaluation"]
    keys = [k for k in evaluation if k != "earlier"]
    assert len(keys) == 3 and any("mcts:10," in k for k in keys)


def test_a_missing_or_tampered_model_is_a_clear_error_with_its_own_exit_code(tmp_path: Path, capsys, write_numpy_model) -> None:
    assert bars.main([str(tmp_path / "draco_and_co" / "nothing")]) == 2
    err = capsys.readouterr().err
    assert "error:" in err and "no model found" in err and "Traceback" not in err
    folder = write_numpy_model(tmp_path / "draco_and_co" / "tiny")
    weights = folder / "policy.safetensors"
    weights.write_bytes(weights.read_bytes()[:-4] + b"\0\0\0\0")
    assert bars.main([str(folder), "--games", "4"]) == 2
    assert "SHA-256" in capsys.readouterr().err
