"""`d2r benchmark report`: the report of synthetic run folders (valid cells of random per-deal wins) and of a
reference result file, its refusals and its byte-for-byte determinism."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("rliable")

from rliable import metrics  # noqa: E402

from training.benchmark import cells, report, results  # noqa: E402
from training.benchmark.tasks import BENCHMARK, VERSION, load  # noqa: E402

BENCH = load()
TASKS = ["draco_and_co-3p", "draco_and_co-4p"]  # core tasks of one game: one model's reference covers both
SEEDS = [0, 1, 2]
BUDGET = {"name": "tiny", "decisions": 1000}
SKILL = {"strong": 1.0, "weak": 0.4}  # the share of the way from random's win share to the heuristic's
CURVE_DEALS = 40


def _wins(rng: np.random.Generator, task, skill: float, deals: int) -> list[int]:
    w_random, w_heuristic = task.score_anchors()
    p = w_random + skill * (w_heuristic - w_random)
    return [int(w) for w in rng.binomial(task.num_players, p, size=deals)]


def make_cell(entrant: str, task_id: str, seed: int, skill: float, budget: dict = BUDGET,
              subset: int | None = None) -> dict:
    task = BENCH.tasks[task_id]
    rng = np.random.default_rng([seed, TASKS.index(task_id), int(skill * 100)])
    deals = subset or task.deals
    final = results.task_entry(task, "x/y", count=deals,
                               per_deal={"heuristic": _wins(rng, task, skill, deals),
                                         "random": _wins(rng, task, skill + 1, deals)})
    curve = [cells.curve_point(task, f, int(f * budget["decisions"]), _wins(rng, task, skill * f, CURVE_DEALS))
             for f in cells.FRACTIONS]
    compute = {"decisions": budget["decisions"], "gradient_steps": 40, "train_seconds": 1800.0 + seed,
               "eval_seconds": 360.0, "train_cpu_seconds": 1700.0, "eval_cpu_seconds": 340.0 + seed,
               "machine": "test machine", "reference_throughput": 5000.0 + 10 * seed}
    return {"schema": cells.CELL_SCHEMA, "benchmark": BENCHMARK, "version": VERSION, "entrant": entrant,
            "task": task_id, "seed": seed, "budget": budget, "curve": curve, "final": final, "compute": compute,
            "model": {"sha256": "0" * 64}, "run": {"command": "test", "date": "2025-01-01", "versions": {}},
            "subset": subset}


def make_run(folder: Path, entrants: dict[str, float], budget: dict = BUDGET, subset: int | None = None) -> Path:
    run = {"schema": cells.RUN_SCHEMA, "benchmark": BENCHMARK, "version": VERSION, "suite": "core", "tasks": TASKS,
           "entrants": {name: {"algorithm": "test", "config": f"{name}.yaml", "set": None} for name in entrants},
           "budget": budget, "seeds": SEEDS, "fractions": list(cells.FRACTIONS), "checkpoint_deals": CURVE_DEALS,
           "subset": subset, "command": f"d2r benchmark run {folder}"}
    cells.write_json(run, folder / "run.json")
    for name, skill in entrants.items():
        for task in TASKS:
            for seed in SEEDS:
                cells.write_json(make_cell(name, task, seed, skill, budget, subset),
                                 cells.cell_path(folder, name, task, seed))
    return folder


def make_reference(file: Path) -> Path:
    """A valid result of one draco_and_co model on the core suite: its two tasks scored, the rest not played."""
    record = {"model": "draco_and_co/frozen", "game": "draco_and_co", "weights_sha256": "1" * 64, "observation": {},
              "architecture": {}, "player_counts": [3, 4], "variants": None}
    rng = np.random.default_rng(7)
    entries = {}
    for task in BENCH.suite("core"):
        if task.id in TASKS:
            entries[task.id] = results.task_entry(task, record["model"], count=task.deals, per_deal={
                "heuristic": _wins(rng, task, 0.7, task.deals), "random": _wins(rng, task, 1.7, task.deals)})
        else:
            entries[task.id] = results.task_entry(task, None, reason=f"no model for {task.game} given")
    result = {"schema": results.SCHEMA, "benchmark": BENCHMARK, "version": VERSION, "suite": "core", "subset": None,
              "entrants": [record], "tasks": entries, "run": {"command": "d2r benchmark eval draco_and_co/frozen"}}
    assert results.validate(result) == []
    return results.write(result, file)


@pytest.fixture(scope="module", autouse=True)
def no_shipped_ladder():
    """The synthetic runs are rated on no ladder; the tests that want one give their own."""
    from training.benchmark import ladder

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ladder, "load_ladder", lambda: {"deals": None, "tasks": {}})
        yield


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    return make_run(tmp_path_factory.mktemp("run"), SKILL)


@pytest.fixture(scope="module")
def built(run, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("report") / "out"
    report.build_report([run], out)
    return out


def _matrix(run: Path, entrant: str) -> np.ndarray:
    return np.array([[json.loads(cells.cell_path(run, entrant, t, s).read_text())["final"]["score"] for t in TASKS]
                     for s in SEEDS])


def test_the_report_writes_every_file(built) -> None:
    assert sorted(p.name for p in built.iterdir()) == sorted(report.FILES)
    md = (built / "results.md").read_text()
    assert "A score of 1 is the heuristic, 0 is random play" in md and "Not a benchmark result" not in md
    assert "- strong: test; config `strong.yaml` (3 seeds, run `" in md
    for part in ("## Final score per task", "## Aggregate score", "## Probability of improvement", "## Compute",
                 "| strong | weak |", "rliable 1.2.0", f"{report.REPS} replications", "d2r benchmark report "):
        assert part in md, part
    for name in ("aggregate", "profiles", "improvement", "curves"):
        svg = (built / f"{name}.svg").read_text()
        assert svg.startswith("<?xml") and "<svg" in svg and f"({name}.svg)" in md
    data = json.loads((built / "results.json").read_text())
    assert data["tasks"] == TASKS and list(data["entrants"]) == ["strong", "weak"]
    assert [(p["x"], p["y"]) for p in data["improvement"]] == [("strong", "weak"), ("weak", "strong")]
    assert data["compute"]["strong"] == {"cells": 6, "decisions": 6000, "gradient_steps": 240,
                                         "train_hours": round((6 * 1800 + 2 * 3) / 3600, 3), "eval_hours": 0.6,
                                         "cpu_hours": round((6 * 2040 + 2 * 3) / 3600, 3),
                                         "machines": ["test machine"], "reference_throughput": [5000.0, 5020.0]}


def test_cpu_hours_are_left_blank_unless_every_cell_recorded_them(tmp_path) -> None:
    from training.benchmark.report import _compute

    cell = make_cell("strong", TASKS[0], 0, 1.0)
    older = {**cell, "compute": {k: v for k, v in cell["compute"].items() if "cpu" not in k}}
    assert _compute([cell, cell])["cpu_hours"] == round(2 * 2040 / 3600, 3)
    assert _compute([cell, older])["cpu_hours"] is None


def test_the_numbers_are_rliables(built, run) -> None:
    data = json.loads((built / "results.json").read_text())
    strong, weak = _matrix(run, "strong"), _matrix(run, "weak")
    agg = data["aggregate"]["strong"]
    assert agg["iqm"]["value"] == round(metrics.aggregate_iqm(strong), 3)
    assert agg["median"]["value"] == round(metrics.aggregate_median(strong), 3)
    assert agg["optimality_gap"]["value"] == round(metrics.aggregate_optimality_gap(strong, 1), 3)
    assert agg["iqm"]["ci"][0] <= agg["iqm"]["value"] <= agg["iqm"]["ci"][1]
    assert agg["iqm"]["ci"][0] < agg["iqm"]["ci"][1]  # three seeds: an interval of some width
    assert data["per_task"]["weak"][TASKS[1]]["mean"] == round(weak[:, 1].mean(), 3)
    assert data["improvement"][0]["value"] == round(metrics.probability_of_improvement(strong, weak), 3)
    assert data["improvement"][0]["value"] > 0.9  # the strong entrant beats the weak one
    tau = data["profiles"]["tau"]
    assert data["profiles"]["entrants"]["weak"]["fraction"] == [round(np.mean(weak > t), 3) for t in tau]
    curves = np.array([[[p["score"] for p in json.loads(cells.cell_path(run, "weak", t, s).read_text())["curve"]]
                        for t in TASKS] for s in SEEDS])
    assert data["curves"]["entrants"]["weak"]["iqm"] == [round(metrics.aggregate_iqm(curves[..., j]), 3)
                                                        for j in range(len(cells.FRACTIONS))]


def test_the_counted_probability_of_improvement_is_rliables() -> None:
    rng = np.random.default_rng(3)
    for runs_x, runs_y in ((3, 3), (5, 2), (1, 4)):
        x = rng.integers(0, 4, size=(runs_x, 6)) / 4  # few values: ties
        y = rng.integers(0, 4, size=(runs_y, 6)) / 4
        assert report.improvement(x, y) == pytest.approx(metrics.probability_of_improvement(x, y), abs=1e-12)
    same = rng.random((3, 2))
    assert report.improvement(same, same) == 0.5


def test_the_bootstraps_iqm_is_rliables() -> None:
    rng = np.random.default_rng(4)
    for shape in ((3, 2), (5, 10), (1, 2), (7, 3)):
        scores = rng.normal(0.5, 0.4, size=shape)
        assert report.iqm(scores) == metrics.aggregate_iqm(scores)
    curves = rng.normal(0.5, 0.4, size=(3, 5, 4))
    columns = report.iqm(curves.reshape(-1, 4), axis=0)
    assert columns == pytest.approx([metrics.aggregate_iqm(curves[..., j]) for j in range(4)], abs=1e-15)


def test_two_builds_are_byte_identical_and_draw_nothing_from_numpys_global_generator(run, built) -> None:
    first = {p.name: p.read_bytes() for p in built.iterdir()}
    shutil.rmtree(built)
    state = np.random.get_state()
    report.build_report([run], built)  # the same command again
    assert {p.name: p.read_bytes() for p in built.iterdir()} == first
    after = np.random.get_state()
    assert after[0] == state[0] and np.array_equal(after[1], state[1]) and after[2:] == state[2:]


def test_many_missing_cells_are_one_problem_with_the_command_that_plays_them(run, tmp_path) -> None:
    bad = tmp_path / "run"
    shutil.copytree(run, bad)
    for seed in SEEDS:
        cells.cell_path(bad, "weak", TASKS[1], seed).unlink()
    plan, found, problems = cells.read_run(bad)
    assert len(found) == 2 * len(TASKS) * len(SEEDS) - 3 and len(problems) == 1
    assert problems[0].startswith(f"cell weak/{TASKS[1]}/seed0 is missing (")
    assert problems[0].endswith(f"and 2 more of the run's 12 cells; its command plays them, keeping the cells "
                                f"done: {plan['command']}")


def test_an_incomplete_run_and_an_edited_score_are_refused_each_named(run, tmp_path) -> None:
    bad = tmp_path / "run"
    shutil.copytree(run, bad)
    cells.cell_path(bad, "weak", TASKS[0], 1).unlink()
    edited = cells.cell_path(bad, "strong", TASKS[1], 2)
    cell = json.loads(edited.read_text())
    cell["final"]["score"] += 0.1
    cells.write_json(cell, edited)
    with pytest.raises(report.Refused) as e:
        report.build_report([bad], tmp_path / "out")
    edit, missing = e.value.problems
    assert edit.startswith(f"{edited}: task {TASKS[1]}: score ") and edit.endswith("the score was edited")
    assert missing.startswith(f"cell weak/{TASKS[0]}/seed1 is missing")
    assert not (tmp_path / "out").exists()  # nothing written


def test_a_reference_shows_up_in_the_tables(run, tmp_path) -> None:
    ref = make_reference(tmp_path / "frozen-core.json")
    out = tmp_path / "out"
    report.build_report([run], out, [ref])
    md = (out / "results.md").read_text()
    assert "| task | strong | weak | frozen-core (reference) |" in md
    data = json.loads((out / "results.json").read_text())
    entry = data["entrants"]["frozen-core"]
    assert entry["kind"] == "reference" and entry["models"] == ["draco_and_co/frozen"]
    score = results.read(ref)["tasks"][TASKS[0]]["score"]
    assert data["per_task"]["frozen-core"][TASKS[0]] == {"mean": round(score, 3), "min": round(score, 3),
                                                         "max": round(score, 3), "runs": 1}
    assert f"| {TASKS[0]} | " in md and f" | {round(score, 3):.3f} |" in md
    assert len(data["improvement"]) == 6 and "frozen-core" not in data["curves"]["entrants"]
    assert f"--reference {ref}" in data["made"]["command"]


def test_a_reference_that_is_not_valid_or_misses_a_task_is_refused(run, tmp_path) -> None:
    ref = make_reference(tmp_path / "frozen.json")
    result = results.read(ref)
    result["tasks"][TASKS[0]]["score"] = 2.0
    results.write(result, tmp_path / "edited.json")
    with pytest.raises(report.Refused, match=r"edited.json: task draco_and_co-3p: score 2.0 is not what"):
        report.build_report([run], tmp_path / "out", [tmp_path / "edited.json"])


def test_merged_runs_give_each_entrant_the_numbers_of_its_own(run, built, tmp_path) -> None:
    """Runs of the same plan merge; an entrant's intervals do not depend on which others are in the report."""
    other = make_run(tmp_path / "other", {"third": 0.7})
    report.build_report([run, other], tmp_path / "out")
    merged = json.loads((tmp_path / "out" / "results.json").read_text())
    alone = json.loads((built / "results.json").read_text())
    assert list(merged["entrants"]) == ["strong", "weak", "third"]
    for name in ("strong", "weak"):
        assert merged["aggregate"][name] == alone["aggregate"][name]
        assert merged["curves"]["entrants"][name] == alone["curves"]["entrants"][name]


def test_runs_that_differ_or_share_an_entrant_are_not_merged(run, tmp_path) -> None:
    other = make_run(tmp_path / "other", {"weak": 0.5}, budget={"name": "small", "decisions": 2000})
    with pytest.raises(report.Refused) as e:
        report.build_report([run, other], tmp_path / "out")
    assert e.value.problems == [
        f"{other}: budget {{'name': 'small', 'decisions': 2000}} differs from {run}'s {BUDGET!r}: runs are merged "
        "only when they share benchmark version, suite, tasks, budget, fractions and subset",
        f"entrant weak is in both {run} and {other}: give each entrant once"]


def test_without_rliable_the_report_names_the_extra(run, tmp_path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "rliable", None)
    with pytest.raises(ImportError, match=r"needs the benchmark extra .*pip install 'd2r_envs\[benchmark\]'"):
        report.build_report([run], tmp_path / "out")


def test_the_command_line(run, tmp_path, capsys) -> None:
    with pytest.raises(SystemExit) as e:
        report.main(["--help"])
    assert e.value.code == 0 and "--reference FILE" in capsys.readouterr().out
    assert report.main([str(tmp_path / "nowhere"), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: cannot report: ") and "nowhere" in err and err.count("\n") == 1


def test_a_run_scored_on_the_first_deals_is_labelled_not_a_benchmark_result(run, tmp_path) -> None:
    smoke = make_run(tmp_path / "smoke", {"quick": 0.5}, subset=30)
    report.build_report([smoke], tmp_path / "out")
    assert "**Not a benchmark result: the final checkpoints were scored on the first 30 deals of a task only" in (
        tmp_path / "out" / "results.md").read_text()
    assert json.loads((tmp_path / "out" / "results.json").read_text())["subset"] == [30]
    with pytest.raises(report.Refused, match=r"subset 30 differs from .*'s None"):
        report.build_report([run, smoke], tmp_path / "merged")


def test_ratings_on_a_shipped_ladder_are_worked_out_from_the_cells(run, tmp_path, monkeypatch) -> None:
    from training.benchmark import ladder

    shipped = {"references": ["random", "heuristic"],
               "ratings": {"random": {"elo": 400.0, "elo_ci": [350.0, 450.0]},
                           "heuristic": {"elo": 1000.0, "elo_ci": [1000.0, 1000.0]}}, "matches": []}
    monkeypatch.setattr(ladder, "load_ladder", lambda: {"deals": [10, 4], "tasks": {TASKS[0]: shipped}})
    report.build_report([run], tmp_path / "out")
    data = json.loads((tmp_path / "out" / "results.json").read_text())
    task = BENCH.tasks[TASKS[0]]
    for name in SKILL:
        elos = [ladder.elo(task, shipped, {ref: m["per_deal_wins"] for ref, m in json.loads(
            cells.cell_path(run, name, TASKS[0], s).read_text())["final"]["vs"].items()}) for s in SEEDS]
        assert data["ladder"][name][TASKS[0]]["mean"] == round(float(np.mean(elos)), 1)
        assert TASKS[1] not in data["ladder"][name]  # no ladder shipped for it
    assert data["ladder"]["strong"][TASKS[0]]["mean"] > data["ladder"]["weak"][TASKS[0]]["mean"]
    text = (tmp_path / "out" / "results.md").read_text()
    assert "## Ratings on the frozen reference ladder" in text and f"| {TASKS[0]} | " in text


def test_the_frozen_references_are_shown_with_their_ratings_and_scores(run, tmp_path, monkeypatch) -> None:
    from training.benchmark import ladder
    from training.benchmark.score import task_score

    task = BENCH.tasks[TASKS[0]]
    wins = "2103012201"  # mcts:100 against the heuristic lineup, on the ladder's first 10 deals
    shipped = {"references": ["random", "heuristic", "mcts:100"],
               "ratings": {"random": {"elo": 400.0, "elo_ci": [350.0, 450.0]},
                           "heuristic": {"elo": 1000.0, "elo_ci": [1000.0, 1000.0]},
                           "mcts:100": {"elo": 900.0, "elo_ci": [800.0, 990.0]}},
               "matches": [{"focal": "heuristic", "lineup": "random", "deals": 2, "per_deal_wins": "33"},
                           {"focal": "mcts:100", "lineup": "heuristic", "deals": 10, "per_deal_wins": wins}]}
    monkeypatch.setattr(ladder, "load_ladder", lambda: {"deals": [10, 10], "tasks": {TASKS[0]: shipped}})
    report.build_report([run], tmp_path / "out")
    refs = json.loads((tmp_path / "out" / "results.json").read_text())["references"]
    assert list(refs) == [TASKS[0]] and list(refs[TASKS[0]]) == ["random", "heuristic", "mcts:100"]
    figures = task_score([int(c) for c in wins], task.num_players, *task.score_anchors())
    assert refs[TASKS[0]]["mcts:100"] == {"elo": 900.0, "elo_ci": [800.0, 990.0], "deals": 10,
                                          "score": round(figures["score"], 3),
                                          "score_ci": [round(x, 3) for x in figures["score_ci"]]}
    assert "score" not in refs[TASKS[0]]["heuristic"]  # 1 by definition: it never meets its own lineup
    text = (tmp_path / "out" / "results.md").read_text()
    assert "## The frozen references" in text and f"| {TASKS[0]} | mcts:100 | 900 (800 to 990) | " in text
