"""The `d2r` command line: every subcommand through main([...]), Ctrl-C and pipes through a real `d2r`
process, a few seconds in all.

Nothing here asserts on speed; `d2r bench` itself is the speed check.
"""

from __future__ import annotations

import importlib.util
import itertools
import re
import sys
import time
from pathlib import Path

import pytest

import d2r_envs
from d2r_envs import bench, registry, replay
from d2r_envs.cli import main

NAMES = d2r_envs.names()


def test_list_shows_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for name in NAMES:
        spec = d2r_envs.make_game(name).spec
        row = next(line for line in out.splitlines() if line.startswith(f"| {name} |"))
        assert f"{spec.min_players}-{spec.max_players}" in row
        assert f"| {spec.num_actions} |" in row
        assert f"| {registry.obs_layout(name).size} |" in row
        assert f"{name}_v{spec.version}" in row


@pytest.mark.parametrize("name", NAMES)
def test_describe_prints_options_actions_and_observation(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    pkg = registry.package(name)
    spec = d2r_envs.make_game(name).spec
    assert main(["describe", name, "--players", str(spec.max_players)]) == 0
    out = capsys.readouterr().out
    assert "## Options" in out and "## Actions" in out and "## Observation" in out
    for key, *_ in d2r_envs.core.config.describe(pkg.Config):
        assert f"`{key}`" in out
    assert registry.action_space(name).describe() in out
    assert registry.obs_layout(name).describe() in out
    assert f"players: {spec.max_players}" in out


def test_describe_refuses_a_bad_player_count(capsys: pytest.CaptureFixture[str]) -> None:
    name = NAMES[0]
    bad = d2r_envs.make_game(name).spec.max_players + 1
    assert main(["describe", name, "--players", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "num_players" in err and err.strip().count("\n") == 0


@pytest.mark.parametrize("name", NAMES)
def test_simulate_a_few_games(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", name, "--games", "3", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    for agent in d2r_envs.raw_env(name).possible_agents:
        assert f"| {agent} |" in out
    assert "| nobody |" in out and "truncated:" in out and "steps/s" in out
    assert "| decisions |" in out


def test_simulate_reads_option_values_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "draco_and_co", "--players", "3", "--games", "2", "--option", "short_game=10", "-o", "long_game=true"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "options: long_game=true, short_game=10" in out
    assert "3 players" in out


@pytest.mark.parametrize(
    ("option", "named"),
    [("short_game=11", "short_game"), ("colour=red", "colour"), ("long_game=maybe", "long_game"), ("long_game", "long_game"),
     ("num_players=3", "--players")],
)
def test_a_bad_option_is_one_line_and_exit_code_2(option: str, named: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "draco_and_co", "--games", "1", "--option", option]) == 2
    captured = capsys.readouterr()
    assert named in captured.err
    assert captured.err.strip().count("\n") == 0, captured.err
    assert "Traceback" not in captured.err and captured.out == ""


def test_an_unknown_game_is_an_argparse_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", "chess"])
    assert exit_info.value.code == 2
    assert "chess" in capsys.readouterr().err


def test_bench_smoke(capsys: pytest.CaptureFixture[str]) -> None:
    if bench._references() is None:
        pytest.skip("pettingzoo.classic (connect_four_v3, leduc_holdem_v4) cannot be imported")
    assert main(["bench", "--seconds", "0.05", "--rounds", "1", "--no-check"]) == 0
    out = capsys.readouterr().out
    for label in (*NAMES, "connect_four_v3", "leduc_holdem_v4"):
        assert f"| {label} " in out
    assert "vs connect_four_v3" in out and "decisions/s" in out
    # one AEC bar and one engine bar each, and on the compiled build the engine against its pure-Python build
    assert out.count("PASS") + out.count("FAIL") == (3 if d2r_envs.build() == "compiled" else 2) * len(NAMES)
    if d2r_envs.build() == "compiled":
        assert f"| {NAMES[0]} (pure Python) |" in out and "its pure-Python build in the same run" in out


def test_bench_runs_a_game_with_its_options_and_refuses_an_unknown_one(capsys: pytest.CaptureFixture[str]) -> None:
    if bench._references() is None:
        pytest.skip("pettingzoo.classic (connect_four_v3, leduc_holdem_v4) cannot be imported")
    argv = ["bench", "--games", "extravaganza", "-o", "level=legendary", "--seconds", "0.05", "--rounds", "1", "--no-check"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "| extravaganza [level=legendary] (ours) | 2 |" in out and "| extravaganza [level=legendary] | 2 |" in out
    assert "extravaganza [level=legendary] bare engine" in out
    assert main(["bench", "--games", "filthy_rich", "-o", "level=legendary", "--seconds", "0.05"]) == 2
    err = capsys.readouterr().err
    assert "unknown option(s) 'level'" in err and "one_tax_per_turn" in err


def test_bench_runs_our_games_through_openspiel_beside_its_cpp_connect_four(capsys: pytest.CaptureFixture[str]) -> None:
    if bench._references() is None:
        pytest.skip("pettingzoo.classic (connect_four_v3, leduc_holdem_v4) cannot be imported")
    pytest.importorskip("pyspiel")
    argv = ["bench", "--games", "draco_and_co", "rap_godz", "--openspiel", "--seconds", "0.05", "--rounds", "1",
            "--no-check"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    table = out[out.index("## OpenSpiel"):]
    rows = [line for line in table.splitlines() if line.startswith("| draco_and_co |") or line.startswith("| rap_godz |")]
    assert len(rows) == 2 and all(len(row.split("|")) == 10 for row in rows)
    assert "| connect_four (OpenSpiel, C++) | 2 |" in table and "1.000x" in table


def test_bench_openspiel_without_the_extra_names_it(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    monkeypatch.delitem(sys.modules, "d2r_envs.openspiel", raising=False)
    monkeypatch.delattr(d2r_envs, "openspiel", raising=False)
    if bench._references() is None:
        pytest.skip("pettingzoo.classic (connect_four_v3, leduc_holdem_v4) cannot be imported")
    assert main(["bench", "--games", "draco_and_co", "--openspiel", "--seconds", "0.01"]) == 2
    assert "pip install -e '.[openspiel]'" in capsys.readouterr().err


def test_bench_without_references_says_how_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(bench, "_references", lambda: None)
    assert main(["bench", "--seconds", "0.01"]) == 2
    assert "pip install -e '.[bench]'" in capsys.readouterr().err


def _subject(label: str, kind: str, game: str | None, rate: float) -> bench.Subject:
    s = bench.Subject(label, 4, kind, game, run=lambda deadline: (0, 0))
    s.rates.append(rate)
    return s


def test_bench_bars_are_ratios_measured_in_the_same_run() -> None:
    """A machine ten times slower (every rate scaled alike) gets the same verdicts; a game slower
    relative to connect_four_v3 fails in the AEC loop and in the bare engine alike."""

    def subjects(scale: float, ours: float, engine: float) -> list[bench.Subject]:
        return [
            _subject("draco_and_co", "aec", "draco_and_co", ours * scale),
            _subject("connect_four_v3", "aec", None, 20_000 * scale),
            _subject("leduc_holdem_v4", "aec", None, 12_000 * scale),
            _subject("draco_and_co", "engine", "draco_and_co", engine * scale),
        ]

    fast = bench.judge(subjects(1.0, 45_000, 150_000))
    assert [ok for ok, _ in fast] == [True, True]
    assert [ok for ok, _ in bench.judge(subjects(1.0, 45_000, 150_000), "compiled")] == [False, True]  # 2.25x < 3x
    assert bench.judge(subjects(0.1, 45_000, 150_000)) == [
        (ok, text.replace("150,000", "15,000")) for ok, text in fast
    ]
    assert [ok for ok, _ in bench.judge(subjects(0.1, 39_000, 150_000))] == [False, True]
    assert [ok for ok, _ in bench.judge(subjects(0.1, 45_000, 40_000))] == [True, False]


def test_the_compiled_engine_is_judged_against_its_own_pure_build_in_the_same_run() -> None:
    base = [_subject("connect_four_v3", "aec", None, 10_000), _subject("rap_godz", "aec", "rap_godz", 31_000)]
    for pure, ok in ((60_000, True), (70_000, False)):  # 100,000 compiled decisions/s: 1.67x, then 1.43x
        verdicts = bench.judge(base + [_subject("rap_godz", "engine", "rap_godz", 100_000),
                                       _subject("rap_godz (pure Python)", "pure engine", "rap_godz", pure)], "compiled")
        assert [v for v, _ in verdicts] == [True, True, ok]
        assert "rap_godz bare engine" in verdicts[-1][1] and "its pure-Python build in the same run (bar 1.5x)" in verdicts[-1][1]


def test_the_pure_engine_worker_plays_the_pure_build() -> None:
    worker = bench.PureEngine("draco_and_co", 3, {}, 0)
    try:
        decisions, games = worker.run(time.perf_counter() + 0.2)
        assert decisions > 0 and games > 0
    finally:
        worker.close()
    assert worker.proc.returncode == 0


def test_bench_times_the_search_and_holds_both_builds_to_the_same_moves(capsys: pytest.CaptureFixture[str]) -> None:
    if bench._references() is None:
        pytest.skip("pettingzoo.classic (connect_four_v3, leduc_holdem_v4) cannot be imported")
    argv = ["bench", "--games", "draco_and_co", "--players", "3", "--search", "4", "--seconds", "0.6", "--rounds", "1",
            "--no-check"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    table = out[out.index("## Information-set MCTS: mcts:4"):]
    assert "| draco_and_co | 3 |" in table
    if d2r_envs.build() == "compiled":
        assert "| draco_and_co (pure Python) | 3 |" in table
        assert "- PASS: draco_and_co search: the compiled and pure-Python builds chose the same" in out
    assert main(["bench", "--games", "draco_and_co", "--search", "-1", "--seconds", "0.01"]) == 2
    assert "the simulations a move must be at least 1 (0 for none), got -1" in capsys.readouterr().err


def test_a_search_that_moves_differently_on_the_pure_build_fails() -> None:
    base = [_subject("connect_four_v3", "aec", None, 10_000)]
    compiled, pure = _subject("rap_godz", "search", "rap_godz", 30.0), _subject("rap_godz (pure Python)", "pure search", "rap_godz", 10.0)
    compiled.moves, pure.moves = [3, 1, 4, 1], [3, 1, 4]
    assert [ok for ok, _ in bench.judge(base + [compiled, pure], "compiled")] == [True, True]
    pure.moves.append(5)
    verdicts = bench.judge(base + [compiled, pure], "compiled")
    assert [ok for ok, _ in verdicts] == [False, True] and "chose the same 4 moves" in verdicts[0][1]


def test_the_pure_search_worker_reports_its_moves() -> None:
    worker = bench.PureEngine("draco_and_co", 3, {}, 0, simulations=2)
    try:
        moves, _ = worker.run(time.perf_counter() + 0.3)
        assert moves > 0 and len(worker.moves) == moves
    finally:
        worker.close()
    assert worker.proc.returncode == 0


def test_describe_spells_defaults_and_allowed_values_alike(capsys) -> None:
    assert main(["describe", "drags_2_riches"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("| `characters`"))
    assert "| false | false, true |" in row and "False" not in out


# Ctrl-C, several files, broken pipes, extras -----------------------------------------------------


def _interrupting_make(after_games: int):
    """d2r_envs.make whose env raises KeyboardInterrupt when game `after_games` + 1 starts (Ctrl-C then)."""
    real = d2r_envs.make

    def make(*args, **kwargs):
        env = real(*args, **kwargs)
        resets = itertools.count()
        reset = env.reset

        def interrupted_reset(*a, **k):
            if next(resets) == after_games:
                raise KeyboardInterrupt
            return reset(*a, **k)

        env.reset = interrupted_reset
        return env

    return make


def _main_catching_ctrl_c(argv: list[str]) -> int:
    """main(argv), failing the test (not stopping pytest) if a KeyboardInterrupt comes out of it."""
    try:
        return main(argv)
    except KeyboardInterrupt:
        pytest.fail("a KeyboardInterrupt came out of main")


def test_ctrl_c_in_simulate_prints_the_games_finished_marked_partial_and_exits_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr(d2r_envs, "make", _interrupting_make(3))
    assert _main_catching_ctrl_c(["simulate", "draco_and_co", "--games", "10", "--record", str(tmp_path)]) == 130
    captured = capsys.readouterr()
    assert "stopped after 3 of 10 games (a partial summary)" in captured.out
    assert "| player_0 |" in captured.out and "truncated: 0 of 3" in captured.out
    assert "d2r simulate: stopped after 3 of 10 games" in captured.err and "Traceback" not in captured.err
    files = sorted(tmp_path.iterdir())  # the finished games' replays, each whole
    assert len(files) == 3 and all(replay.play_back(replay.load(f)) for f in files)
    monkeypatch.setattr(d2r_envs, "make", _interrupting_make(0))
    assert _main_catching_ctrl_c(["simulate", "draco_and_co", "--games", "10"]) == 130
    captured = capsys.readouterr()
    assert captured.out == "" and "stopped before the first of 10 games finished" in captured.err


def test_ctrl_c_anywhere_is_one_line_and_exit_130(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    def pressed(name):
        raise KeyboardInterrupt

    monkeypatch.setattr(registry, "package", pressed)
    assert _main_catching_ctrl_c(["list"]) == 130
    captured = capsys.readouterr()
    assert captured.err.strip() == "d2r: interrupted" and captured.out == ""


def test_sigint_stops_simulate_with_a_partial_summary_and_no_traceback(d2r_group) -> None:
    proc = d2r_group.start("simulate", "draco_and_co", "--games", "1000000")
    err = b""
    while not re.search(rb"\| *[1-9]\d*/1000000 ", err):  # a game has finished
        chunk = proc.stderr.read1(4096)
        assert chunk, err.decode()
        err += chunk
    out, rest = d2r_group.ctrl_c(proc)
    err_text = err.decode() + rest
    assert proc.returncode == 130, err_text
    assert re.search(r"stopped after \d+ of 1000000 games \(a partial summary\)", out)
    assert "Traceback" not in err_text and "KeyboardInterrupt" not in err_text


def test_replay_of_several_files_reports_each_and_counts_the_failures(tmp_path: Path, capsys) -> None:
    assert main(["simulate", "rap_godz", "--games", "2", "--record", str(tmp_path)]) == 0
    good = sorted(map(str, tmp_path.iterdir()))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    missing = tmp_path / "missing.json"
    capsys.readouterr()
    assert main(["replay", good[0], str(bad), str(missing), good[1]]) == 2
    captured = capsys.readouterr()
    for path in good:
        assert f"{path}: " in captured.out and "as recorded" in captured.out
    err = captured.err.splitlines()
    assert err[0].startswith(f"d2r: error: {bad}: not a JSON replay")
    assert err[1] == f"d2r: error: {missing}: No such file or directory"
    assert err[2] == f"d2r: error: 2 of 4 replays failed: {bad}, {missing}" and len(err) == 3
    assert main(["replay", *good]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "all 2 replays ok"


def test_output_piped_into_head_ends_quietly_with_141(tmp_path: Path, d2r_group) -> None:
    assert main(["simulate", "rap_godz", "--games", "1", "--record", str(tmp_path)]) == 0
    (path,) = tmp_path.iterdir()
    proc = d2r_group.start("replay", "--show", *[str(path)] * 40)  # far more than a pipe holds
    assert proc.stdout.readline().startswith(str(path).encode())
    proc.stdout.close()  # as `head -1` does
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 141, err
    assert err == ""


def test_eval_without_the_train_extra_says_so_before_playing(
    monkeypatch: pytest.MonkeyPatch, capsys, tmp_path: Path
) -> None:
    from training import evaluate

    def never(*args, **kwargs):
        raise AssertionError("a tournament was played")

    monkeypatch.setattr(evaluate, "evaluate", never)
    monkeypatch.setitem(sys.modules, "openskill", None)  # as if not installed
    argv = ["eval", "draco_and_co", "--agents", "random", "--games", "4", "--out", str(tmp_path / "out")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "d2r eval needs the train extra (openskill is missing)" in err and "pip install -e '.[train]'" in err
    assert err.count("\n") == 1 and not (tmp_path / "out").exists()
    monkeypatch.delitem(sys.modules, "openskill")
    monkeypatch.setitem(sys.modules, "ray", None)
    if importlib.util.find_spec("openskill") and importlib.util.find_spec("matplotlib"):
        assert main([*argv, "--ray"]) == 2
        err = capsys.readouterr().err
        assert "d2r eval --ray needs the rllib extra (ray is missing)" in err and "'.[rllib]'" in err


def test_bench_training_without_torch_says_so_before_timing(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    def never(**kwargs):
        raise AssertionError("the environments were timed")

    monkeypatch.setattr(bench, "run", never)
    monkeypatch.setitem(sys.modules, "torch", None)
    assert main(["bench", "--training", "--seconds", "0.01"]) == 2
    assert "bench --training needs the train extra (torch is missing)" in capsys.readouterr().err
