"""d2r-bench's training track: `d2r benchmark run` (training/benchmark/track.py), its entrants
(algorithm.py) and its cells (cells.py). The smoke run here is the one CI runs: one task, a tiny
budget, 2 seeds; long runs never run in the tests."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

from d2r_envs import cli  # noqa: E402
from training.benchmark import cells, track  # noqa: E402
from training.benchmark.algorithm import cell_config, load_algorithm  # noqa: E402
from training.benchmark.tasks import load  # noqa: E402

BENCH = load()
TASK = "drags_2_riches-2p"
SMOKE = ["benchmark", "run", "sb3-ppo", "--tasks", TASK, "--budget", "4096", "--seeds", "2", "--checkpoint-deals", "4",
         "--deals", "6", "--workers", "2"]


@pytest.fixture(scope="module")
def smoke(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("bench") / "smoke"
    assert cli.main([*SMOKE, "--out", str(out)]) == 0
    return out


def test_the_smoke_run_writes_a_valid_cell_per_seed(smoke) -> None:
    run, found, problems = cells.read_run(smoke)
    assert problems == [] and sorted(found) == [("sb3-ppo", TASK, 0), ("sb3-ppo", TASK, 1)]
    task = BENCH.tasks[TASK]
    for cell in found.values():
        assert [p["fraction"] for p in cell["curve"]] == list(cells.FRACTIONS)
        assert [p["decisions"] for p in cell["curve"]] == sorted(p["decisions"] for p in cell["curve"])
        assert cell["curve"][-1]["decisions"] == cell["compute"]["decisions"] >= 4096
        assert cell["final"]["deals"] == 6 and cell["subset"] == 6 and len(cell["curve"][0]["per_deal_wins"]) == 4
        # the final model's curve point is its first deals against the heuristic lineup
        assert cell["curve"][-1]["per_deal_wins"] == cell["final"]["vs"]["heuristic"]["per_deal_wins"][:4]
        compute = cell["compute"]
        assert compute["gradient_steps"] > 0 and compute["reference_throughput"] > 0 and compute["train_seconds"] > 0
        assert compute["train_cpu_seconds"] > 0 and compute["eval_cpu_seconds"] > 0
        model = smoke / cell["model"]["folder"]
        manifest = json.loads((model / "manifest.json").read_text())
        assert manifest["training"]["player_counts"] == [task.num_players]
        assert manifest["training"]["seed"] == cell["seed"]
    assert run["budget"] == {"name": "custom", "decisions": 4096} and run["subset"] == 6


def test_the_same_command_resumes_and_skips_the_cells_done(smoke, capsys) -> None:
    before = {p: p.read_bytes() for p in smoke.rglob("cell.json")}
    assert cli.main([*SMOKE, "--out", str(smoke)]) == 0
    assert "2 of 2 cells done; 0 to run" in capsys.readouterr().out
    assert {p: p.read_bytes() for p in smoke.rglob("cell.json")} == before


def test_another_run_in_the_same_folder_is_refused(smoke, capsys) -> None:
    other = [*SMOKE, "--out", str(smoke)]
    other[other.index("--seeds") + 1] = "3"
    assert cli.main(other) == 2
    err = capsys.readouterr().err
    assert "holds another run" in err and "seeds" in err and err.count("\n") == 1


def test_a_cell_stopped_while_training_resumes_from_its_last_checkpoint(smoke, tmp_path) -> None:
    out = tmp_path / "copy"
    shutil.copytree(smoke, out)
    folder = cells.cell_path(out, "sb3-ppo", TASK, 1).parent
    (folder / "cell.json").unlink()
    (folder / "train" / "final.zip").unlink()  # as if stopped after its last checkpoint
    assert cli.main([*SMOKE, "--out", str(out)]) == 0
    cell = json.loads((folder / "cell.json").read_text())
    assert cell["compute"]["resumed_from"].endswith(".zip") and "step_" in cell["compute"]["resumed_from"]
    assert cells.read_run(out)[2] == []
    from sb3_contrib import MaskablePPO

    before = MaskablePPO.load(cell["compute"]["resumed_from"], device="cpu").training_cpu_seconds
    assert cell["compute"]["train_cpu_seconds"] >= round(before, 1) > 0  # the training before the stop counts too


def test_the_validator_names_a_missing_cell_and_an_edited_figure(smoke, tmp_path) -> None:
    out = tmp_path / "copy"
    shutil.copytree(smoke, out)
    cells.cell_path(out, "sb3-ppo", TASK, 0).unlink()
    file = cells.cell_path(out, "sb3-ppo", TASK, 1)
    cell = json.loads(file.read_text())
    cell["curve"][1]["score"] += 0.5
    cell["final"]["score"] += 0.1
    file.write_text(json.dumps(cell))
    _, found, problems = cells.read_run(out)
    assert found == {}
    text = "\n".join(problems)
    assert f"cell sb3-ppo/{TASK}/seed0 is missing" in text
    assert "at fraction 0.5, score" in text and "the score was edited" in text


def test_a_cell_of_another_budget_or_without_compute_is_refused(smoke) -> None:
    run, found, _ = cells.read_run(smoke)
    cell = dict(found[("sb3-ppo", TASK, 0)])
    assert cells.validate_cell(cell, run) == []
    assert any("budget" in p for p in cells.validate_cell({**cell, "budget": {"name": "short", "decisions": 200000}}, run))
    assert any("compute must record" in p for p in cells.validate_cell({**cell, "compute": {}}, run))
    assert any("schema" in p for p in cells.validate_cell({**cell, "schema": "d2r-bench-cell/0"}, run))


def test_a_cell_trains_on_the_tasks_count_and_options_only(tmp_path) -> None:
    """The task replaces the config's player counts, options and variants; `set` lays the entrant over it."""
    task = BENCH.tasks["extravaganza-4p-basic"]
    for name, teacher in (("sb3-ppo", ""), ("sb3-ppo-imitation", "heuristic:plan"), ("rllib-ppo", "")):
        c, raw = cell_config(load_algorithm(name), task, 7, 200_000, list(cells.FRACTIONS), tmp_path / "r")
        assert c.player_counts() == [4] and c.variants() == [{"level": "basic"}] and c.seed == 7
        assert c.train.total_timesteps == 200_000 and c.train.checkpoint_every == 50_000 and c.train.eval_every == 0
        assert c.imitate.teacher == teacher and c.export.name == "" and c.train.run_dir == str(tmp_path / "r")
        if teacher:  # the game's teacher, with the benchmark's short warm start laid over its games and rounds
            assert (c.imitate.games, c.imitate.rounds, c.imitate.workers) == (500, 1, 1)
    assert c.backend == "rllib" and c.rllib.num_env_runners == 0


def test_gradient_steps_follow_the_config(tmp_path) -> None:
    c, _ = cell_config(load_algorithm("sb3-ppo"), BENCH.tasks[TASK], 0, 200_000, list(cells.FRACTIONS), tmp_path)
    batch = c.algo.n_envs * c.algo.n_steps
    rollouts = -(-200_000 // batch)
    assert track.gradient_steps(c, 200_000) == rollouts * c.algo.n_epochs * -(-batch // c.algo.batch_size)


@pytest.mark.parametrize("args, words", [
    (["no-such-entrant"], "no entrant 'no-such-entrant'; shipped: openspiel-dqn, openspiel-nfsp, rllib-ppo"),
    (["sb3-ppo", "--budget", "huge"], "--budget 'huge': short (200,000), standard (5,000,000) or a number"),
    (["sb3-ppo", "--tasks", "drags_2_riches-3p"], "task drags_2_riches-3p is not in suite core"),
    (["sb3-ppo", "--seeds", "0"], "--seeds must be at least 1"),
    (["sb3-ppo", "--suite", "all"], "no suite 'all'"),
    (["sb3-ppo", "sb3-ppo"], "entrant sb3-ppo given twice"),
])
def test_bad_run_arguments_are_refused_in_one_line_before_anything_runs(args, words, tmp_path, capsys) -> None:
    out = tmp_path / "out"
    assert cli.main(["benchmark", "run", *args, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1
    assert not out.exists()


def test_an_entrant_file_that_is_not_one_is_refused(tmp_path) -> None:
    bad = tmp_path / "bad.yaml"
    for text, words in (("name: x\n", "expected a mapping with name, algorithm, config"),
                        ("name: x\nalgorithm: a\nconfig: ''\n", "config must be a training config's path"),
                        ("name: 'a b'\nalgorithm: a\nconfig: '{game}.yaml'\n", "name 'a b' must be"),
                        ("[1, 2", "not valid YAML")):
        bad.write_text(text)
        with pytest.raises(ValueError, match=words.replace("{", r"\{").replace("}", r"\}").replace("(", r"\(")):
            load_algorithm(str(bad))


@pytest.mark.parametrize("entrant", ["openspiel-nfsp", "openspiel-dqn"])
def test_an_openspiel_entrant_runs_a_cell(entrant: str, tmp_path) -> None:
    pytest.importorskip("pyspiel")
    out = tmp_path / entrant
    assert cli.main(["benchmark", "run", entrant, "--tasks", TASK, "--budget", "2000", "--seeds", "1",
                     "--checkpoint-deals", "4", "--deals", "4", "--out", str(out)]) == 0
    run, found, problems = cells.read_run(out)
    cell = found[(entrant, TASK, 0)]
    assert problems == [] and cell["compute"]["decisions"] >= 2000 and cell["compute"]["gradient_steps"] > 0
    manifest = json.loads((out / cell["model"]["folder"] / "manifest.json").read_text())
    assert manifest["training"]["backend"] == "openspiel" and manifest["architecture"]["activation"] == "relu"


def test_an_rllib_entrant_runs_a_cell(tmp_path) -> None:
    pytest.importorskip("ray")
    out = tmp_path / "rllib"
    assert cli.main(["benchmark", "run", "rllib-ppo", "--tasks", TASK, "--budget", "4096", "--seeds", "1",
                     "--checkpoint-deals", "4", "--deals", "4", "--out", str(out)]) == 0
    run, found, problems = cells.read_run(out)
    assert problems == [] and found[("rllib-ppo", TASK, 0)]["compute"]["decisions"] >= 4096


def test_cells_run_as_ray_tasks(ray_local, smoke, tmp_path) -> None:
    """On Ray, the cells train the same weights and score the same as in the pool: only what a run
    cannot repeat differs (seconds, the throughput measured, dates)."""
    out = tmp_path / "ray"
    assert cli.main([*SMOKE, "--out", str(out), "--ray"]) == 0
    _, found, problems = cells.read_run(out)
    assert problems == [] and sorted(found) == [("sb3-ppo", TASK, 0), ("sb3-ppo", TASK, 1)]
    for key, cell in found.items():
        here = cells.read_json(cells.cell_path(smoke, *key))
        assert cell["compute"]["decisions"] == here["compute"]["decisions"]
        assert [p["decisions"] for p in cell["curve"]] == [p["decisions"] for p in here["curve"]]
        assert cell["model"]["weights_sha256"] == here["model"]["weights_sha256"]
        assert cell["final"] == here["final"] and cell["curve"] == here["curve"]


def test_ctrl_c_stops_a_run_with_a_checkpoint_and_the_command_that_resumes_it(tmp_path, d2r_group) -> None:
    import time

    out = tmp_path / "stopped"
    proc = d2r_group.start("benchmark", "run", "sb3-ppo", "--tasks", TASK, "--budget", "5000000", "--seeds", "1",
                           "--deals", "4", "--checkpoint-deals", "4", "--out", str(out))  # hours: only Ctrl-C ends it
    log = cells.cell_path(out, "sb3-ppo", TASK, 0).parent / "cell.log"
    deadline = time.monotonic() + 120
    while "step/s" not in (log.read_text(errors="replace") if log.is_file() else ""):  # the cell is training
        assert proc.poll() is None and time.monotonic() < deadline, "the cell did not start training"
        time.sleep(0.2)
    _, err = d2r_group.ctrl_c(proc)
    assert proc.returncode == 130, err
    assert "stopped: the cells done are kept; the same command resumes (d2r benchmark run sb3-ppo" in err
    assert "Traceback" not in err
    d2r_group.assert_group_ended(proc)
    assert list((log.parent / "train" / "checkpoints").glob("step_*.zip"))  # where the same command resumes


def test_the_run_help_names_every_shipped_entrant(capsys) -> None:
    from training.benchmark.algorithm import shipped

    with pytest.raises(SystemExit):
        cli.main(["benchmark", "run", "--help"])
    words = " ".join(capsys.readouterr().out.split())
    assert shipped() and all(f" {name}," in words or f" {name})" in words for name in shipped())
