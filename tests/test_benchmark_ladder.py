"""d2r-bench's frozen reference ladder (training/benchmark/ladder.py): the batch fit, its intervals, an
entrant rated against frozen references, and the references of each task."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from training.benchmark import ladder
from training.benchmark.tasks import load

BENCH = load()


def synthetic(strengths: dict[str, float], n: int, deals: int, seed: int = 0) -> list[dict]:
    """Every pair's match drawn from the model itself: the focal seat wins a game with probability
    sigmoid(theta_focal - theta_other - ln(n-1)), one game per rotation of each deal."""
    rng = np.random.default_rng(seed)
    names = list(strengths)
    out = []
    for focal, lineup in ladder.pairs(names):
        x = (strengths[focal] - strengths[lineup]) / ladder.ELO - math.log(n - 1)
        wins = rng.binomial(n, 1 / (1 + math.exp(-x)), deals)
        out.append({"focal": focal, "lineup": lineup, "num_players": n, "per_deal_wins": "".join(map(str, wins))})
    return out


@pytest.mark.parametrize("n", [2, 4])
def test_the_fit_recovers_the_strengths_that_made_the_games(n) -> None:
    truth = {"random": 400.0, "heuristic": 1000.0, "model": 1200.0, "mcts": 1100.0}
    fitted = ladder.fit(synthetic(truth, n, 3000), n)
    assert fitted["heuristic"] == 1000.0
    for name, elo in truth.items():
        assert abs(fitted[name] - elo) < 30, (name, fitted[name], elo)


def test_a_reference_that_never_wins_keeps_a_finite_rating() -> None:
    matches = [{"focal": "heuristic", "lineup": "random", "num_players": 2, "per_deal_wins": "2" * 50}]
    fitted = ladder.fit(matches, 2)
    assert math.isfinite(fitted["random"]) and fitted["random"] < 500


def test_an_entrant_is_rated_without_moving_the_references() -> None:
    truth = {"random": 500.0, "heuristic": 1000.0, "model": 1150.0}
    task = BENCH.tasks["rap_godz-4p"]
    frozen_ladder = {"ratings": {k: {"elo": v} for k, v in truth.items()}}
    rng = np.random.default_rng(1)
    matches = {}
    for ref, elo in truth.items():  # an entrant of 1100
        p = 1 / (1 + math.exp(-((1100 - elo) / ladder.ELO - math.log(3))))
        matches[ref] = list(rng.binomial(4, p, 2000))
    rated = ladder.rate(task, frozen_ladder, matches)
    assert abs(rated["elo"] - 1100) < 30 and rated["elo_ci"][0] < rated["elo"] < rated["elo_ci"][1]
    assert rated["against"] == sorted(truth)
    assert {k: v["elo"] for k, v in frozen_ladder["ratings"].items()} == truth
    with pytest.raises(ValueError, match="mcts:5 is not a reference of task rap_godz-4p's ladder"):
        ladder.rate(task, frozen_ladder, {"mcts:5": [1, 0]})


def test_intervals_are_seeded_and_cover_the_fit() -> None:
    matches = synthetic({"random": 500.0, "heuristic": 1000.0, "model": 1100.0}, 3, 60)
    spans = ladder.intervals(matches, 3, seed=7)
    assert spans == ladder.intervals(matches, 3, seed=7)
    fitted = ladder.fit(matches, 3)
    for name in ("random", "model"):
        assert spans[name][0] < fitted[name] < spans[name][1]
    assert spans["heuristic"] == [1000.0, 1000.0]


def test_a_new_ladder_takes_random_the_heuristics_the_models_and_ismcts() -> None:
    for task in BENCH.suite("core"):
        refs = ladder.candidates(task)
        assert refs[:2] == ["random", "heuristic"] and refs[-1] == "mcts:100", task.id
        cheap = len(refs) - 1  # every pair of the references without ISMCTS; ISMCTS against random and
        assert len(ladder.pairs(refs)) == cheap * (cheap - 1) // 2 + 2  # the heuristic only
        assert ("mcts:100", "heuristic") in ladder.pairs(refs) and ("mcts:100", "random") in ladder.pairs(refs)
        assert not [p for p in ladder.pairs(refs) if p[0] in ladder.MCTS and p[1] not in ("random", "heuristic")]
        assert all(ref.startswith(f"{task.game}/") for ref in refs[2:-1] if "/" in ref)
    assert "heuristic:tuned" in ladder.candidates(BENCH.tasks["rap_godz-2p"])
    assert "draco_and_co/ppo-v1" not in ladder.candidates(BENCH.tasks["draco_and_co-3p"])  # trained at 4 only


def test_a_model_shipped_after_the_ladder_is_no_reference_of_it() -> None:
    task = BENCH.tasks["extravaganza-2p-basic"]
    assert "extravaganza/ppo-v2" in ladder.candidates(task)
    assert "extravaganza/ppo-v2" not in ladder.references(task)
    assert ladder.references(task) == ladder.task_ladder(task.id)["references"]


def test_write_refuses_a_ladder_with_matches_missing(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(ladder, "load_ladder", lambda: {"deals": None, "tasks": {}})
    journal = tmp_path / "j.jsonl"
    journal.write_text(json.dumps({"task": "rap_godz-2p", "focal": "heuristic", "lineup": "random",
                                   "num_players": 2, "per_deal_wins": "22"}) + "\n")
    with pytest.raises(ValueError, match=r"task rap_godz-2p: \d+ of its \d+ matches are not in"):
        ladder.write([BENCH.tasks["rap_godz-2p"]], [2, 2], journal)


def test_the_shipped_ladder_covers_the_core_suite_and_refits_to_its_ratings() -> None:
    shipped = ladder.load_ladder()
    assert sorted(shipped["tasks"]) == sorted(t.id for t in BENCH.suite("core"))
    for task_id, entry in shipped["tasks"].items():
        task = BENCH.tasks[task_id]
        assert entry["references"] == ladder.references(task)
        assert set(entry["references"]) <= set(ladder.candidates(task)), task_id  # each still plays the task
        played = {(m["focal"], m["lineup"]) for m in entry["matches"]}
        assert played == set(ladder.pairs(entry["references"])), task_id
        rows = [{**m, "num_players": task.num_players} for m in entry["matches"]]
        assert ladder.ladder_of(task, rows) == entry, task_id
