"""Tournaments (training/tournament.py, deals.py, stats.py, report.py, manifest.py) and `d2r eval`:
duplicate deals with seat rotation, reproducibility, statistics, outputs, refusals, recording into a
model manifest, and Ctrl-C. A few seconds in all."""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("openskill")
pytest.importorskip("matplotlib")

from d2r_envs import opponents  # noqa: E402
from d2r_envs.agents import make_agent  # noqa: E402
from d2r_envs.cli import main  # noqa: E402
from training import manifest, report, tournament  # noqa: E402
from training.deals import chance_rng, make_lineup  # noqa: E402
from training.stats import wilson  # noqa: E402

GAME = "draco_and_co"
PNG = b"\x89PNG\r\n\x1a\n"


class FirstLegal:
    """Always the lowest legal action."""

    name = "first"

    def act(self, game: Any, state: Any, seat: int, rng: np.random.Generator) -> int:
        return game.legal_actions(state)[0]


def factory(spec: str, game: str, engine: Any) -> Any:
    return FirstLegal() if spec == "first" else make_agent(spec, game, engine)


def run(agents: list[str], players: int = 4, games: int = 16, seed: int = 3, **kw: Any) -> dict[str, Any]:
    return tournament.evaluate(GAME, agents, players, games, seed, factory=factory, **kw)


PROGRESS_CSV = """time/total_timesteps,rollout/ep_rew_mean,train/loss,eval/win_share,time/fps
2048,-0.80,0.5,,900
4096,-0.60,0.4,0.30,910
6144,-0.40,0.3,,905
8192,-0.20,0.2,0.45,912
"""


# Lineup and rotation -----------------------------------------------------------------------------


def test_lineup_rule() -> None:
    assert make_lineup(["model", "random"], 4) == ["model", "random", "random", "random"]
    assert make_lineup(["a", "b", "c"], 5) == ["a", "b", "c", "b", "c"]
    assert make_lineup(["a", "b", "c", "d"], 4) == ["a", "b", "c", "d"]
    assert make_lineup(["random"], 3) == ["random"] * 3
    with pytest.raises(ValueError):
        make_lineup(["a", "b", "c", "d"], 3)


@pytest.mark.parametrize("players", [3, 5])
def test_rotation_puts_every_agent_in_every_seat_equally(players: int) -> None:
    deals = 3
    result = run(["first", "random"], players=players, games=deals * players - 1)  # rounded up to whole deals
    assert result["deals"] == deals and result["games"] == deals * players
    assert result["agents"]["first"]["seat_games"] == [deals] * players
    assert result["agents"]["random"]["seat_games"] == [deals * (players - 1)] * players
    for d in range(deals):
        recs = [r for r in result["records"] if r["deal"] == d]
        assert [r["rotation"] for r in recs] == list(range(players))
        # lineup slot j sits in seat (j + r) % n: every slot takes every seat of the deal once
        for slot, agent in enumerate(result["lineup"]):
            assert sorted((slot + r["rotation"]) % players for r in recs) == list(range(players))
            assert all(r["seats"][(slot + r["rotation"]) % players] == agent for r in recs)


def test_rotations_of_a_deal_share_its_deal() -> None:
    """Every rotation of a deal draws the same first chance outcomes (the same deal)."""
    from d2r_envs import make_game
    from d2r_envs.core.game import CHANCE

    engine = make_game(GAME, 4)
    firsts = []
    for _ in range(2):
        rng, state, drawn = chance_rng(5, 2), engine.new_initial_state(), []
        while engine.current_player(state) == CHANCE:
            drawn.append(engine.sample_chance(state, rng))
            engine.apply_legal(state, drawn[-1])
        firsts.append(drawn)
    assert firsts[0] == firsts[1] and len(firsts[0]) > 4


# Reproducibility ---------------------------------------------------------------------------------


def test_same_seed_same_result_and_other_seed_differs() -> None:
    a, b = run(["first", "random"]), run(["first", "random"])
    assert tournament.deterministic_part(a) == tournament.deterministic_part(b)
    c = run(["first", "random"], seed=4)
    assert c["records"] != a["records"]


def test_workers_do_not_change_the_result() -> None:
    kw = dict(games=24, seed=11)
    one = tournament.evaluate(GAME, ["random"], 3, workers=1, **kw)
    two = tournament.evaluate(GAME, ["random"], 3, workers=2, **kw)
    assert tournament.deterministic_part(one) == tournament.deterministic_part(two)
    assert two["workers"] == 2 and one["deals"] == 8


# Statistics --------------------------------------------------------------------------------------


def test_first_legal_vs_random_with_cut_off_games() -> None:
    result = run(["first", "random"], games=40, max_decisions=105)
    games = result["games"]
    truncated = [r for r in result["records"] if r["truncated"]]
    assert 0 < len(truncated) < games and result["truncated_games"] == len(truncated)
    assert all(r["returns"] == [-1.0] * 4 for r in truncated)  # a cut-off game has no winner
    assert result["no_winner_games"] >= len(truncated)
    assert sum(result["outcome_shares"].values()) == pytest.approx(1.0)
    assert result["outcome_shares"]["nobody"] == pytest.approx(result["no_winner_games"] / games)
    wins = sum(e["wins"] for e in result["agents"].values())
    multi = sum(max(0, sum(x == 1.0 for x in r["returns"]) - 1) for r in result["records"])
    assert wins + result["no_winner_games"] - multi == games
    seats = {a: e["seats"] for a, e in result["agents"].items()}
    assert seats == {"first": games, "random": 3 * games}
    for e in result["agents"].values():
        assert e["chance_win_share"] == 0.25
        assert e["timing"]["moves"] > 0 and e["timing"]["ms_per_move"] >= 0
        assert set(e["rating"]) == {"mu", "sigma", "low", "high", "ordinal"}


def width(interval: list[float]) -> float:
    return interval[1] - interval[0]


def test_intervals_contain_the_estimate_and_shrink() -> None:
    small = run(["first", "random"], players=3, games=4 * 3, seed=1)
    large = run(["first", "random"], players=3, games=40 * 3, seed=1)
    for result in (small, large):
        for e in result["agents"].values():
            lo, hi = e["win_share_ci"]
            assert lo <= e["win_share"] <= hi
            lo, hi = e["mean_return_ci"]
            assert -1.0 <= lo <= e["mean_return"] <= hi <= 1.0
            r = e["rating"]
            assert r["low"] < r["mu"] < r["high"]
    for a in small["agents"]:
        s, g = small["agents"][a], large["agents"][a]
        assert width(g["win_share_ci"]) < width(s["win_share_ci"])
        assert width(g["mean_return_ci"]) < width(s["mean_return_ci"])
        assert g["rating"]["sigma"] < s["rating"]["sigma"]
    # the rating orders the agents as their win shares do
    first, rand = large["agents"]["first"], large["agents"]["random"]
    assert (first["rating"]["mu"] > rand["rating"]["mu"]) == (first["win_share"] > rand["win_share"])


def test_wilson_and_single_deal() -> None:
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and 0 < hi < 0.35
    lo, hi = wilson(10, 10)
    assert 0.65 < lo < 1.0 and hi == 1.0
    one_deal = run(["random"], players=3, games=3)
    assert one_deal["deals"] == 1 and one_deal["agents"]["random"]["mean_return_ci"] is None


def test_a_repeated_agent_against_itself_keeps_its_rating_centred() -> None:
    """Seats of one agent beating each other cancel: all-random self-play leaves mu at the start."""
    result = run(["random"], players=4, games=20)
    assert result["agents"]["random"]["rating"]["mu"] == pytest.approx(25.0, abs=1e-6)


# Outputs -----------------------------------------------------------------------------------------


def test_outputs_are_written(tmp_path: Path) -> None:
    result = run(["first", "random"], games=8)
    (tmp_path / "log").mkdir()
    (tmp_path / "log" / "progress.csv").write_text(PROGRESS_CSV)
    paths = report.write_outputs(result, tmp_path / "out", tmp_path / "log")
    data = json.loads(paths["json"].read_text())
    assert data["records"] and data["game_version"] == result["game_version"]
    for key in ("command", "date", "seed", "chance_seeds", "lineup", "agents", "rating_method"):
        assert key in data
    md = paths["md"].read_text()
    assert "| agent | seats |" in md and "| first |" in md and "| random |" in md
    assert paths["ratings"].read_bytes()[:8] == PNG
    assert paths["learning_curve"].read_bytes()[:8] == PNG
    assert data["learning_curve_columns"] == ["rollout/ep_rew_mean", "eval/win_share"]


def test_progress_csv_reading(tmp_path: Path) -> None:
    path = tmp_path / "progress.csv"
    path.write_text(PROGRESS_CSV)
    series = report.read_progress(path)
    assert series["eval/win_share"] == [(4096.0, 0.30), (8192.0, 0.45)]  # empty cells skipped
    assert len(series["rollout/ep_rew_mean"]) == 4
    nested = tmp_path / "run" / "sub"
    nested.mkdir(parents=True)
    shutil.copy(path, nested / "progress.csv")
    assert report.find_progress_csv(tmp_path / "run") == nested / "progress.csv"
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="no progress.csv"):
        report.find_progress_csv(tmp_path / "empty")
    with pytest.raises(ValueError, match="no such directory"):
        report.find_progress_csv(tmp_path / "missing")


def test_cli_eval_writes_everything(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "log").mkdir()
    (tmp_path / "log" / "progress.csv").write_text(PROGRESS_CSV)
    out = tmp_path / "out"
    code = main(["eval", GAME, "--lineup", "random,random,random", "--games", "5", "--seed", "2",
                 "--out", str(out), "--training-log", str(tmp_path / "log")])
    assert code == 0
    stdout = capsys.readouterr().out
    assert "| random | 18 |" in stdout
    for name in ("result.json", "result.md", "ratings.png", "learning_curve.png"):
        assert (out / name).is_file(), name
    data = json.loads((out / "result.json").read_text())
    assert data["num_players"] == 3 and data["games"] == 6 and data["lineup"] == ["random"] * 3
    assert data["command"].startswith("d2r eval draco_and_co --lineup random,random,random")


# Refusals ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--agents", "no-such-agent"], "no-such-agent"),
        (["--agents", "random,mcts:lots"], "mcts:lots"),
        (["--agents", "random", "--players", "2"], "num_players"),
        (["--agents", "random", "--players", "7"], "num_players"),
        (["--agents", "a,b,c,d,e", "--players", "4"], "--players"),
        (["--lineup", "random,random,random", "--players", "4"], "--lineup"),
        (["--agents", "random", "--games", "0"], "games"),
        (["--agents", "random", "--manifest", "draco_and_co/nope"], "--manifest"),
        (["--agents", "random", "--training-log", "/no/such/dir"], "training log"),
    ],
)
def test_cli_refuses_bad_input(argv: list[str], words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", GAME, "--out", str(tmp_path / "out"), *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and err.strip().count("\n") == 0
    assert not (tmp_path / "out").exists()


def test_evaluate_refuses_bad_specs() -> None:
    with pytest.raises(ValueError, match="agent 'bogus'"):
        tournament.evaluate(GAME, ["random", "bogus"], 4, 4, 0)
    with pytest.raises(ValueError, match="num_players"):
        tournament.evaluate(GAME, ["random"], 9, 4, 0)
    with pytest.raises(ValueError):
        tournament.evaluate(GAME, [], 4, 4, 0)
    with pytest.raises(ValueError):
        tournament.evaluate(GAME, ["random"], 4, 4, -1)


# Recording into a manifest -----------------------------------------------------------------------


def test_record_evaluation_keeps_the_model_loadable(tmp_path: Path, write_numpy_model) -> None:
    model = write_numpy_model(tmp_path / "models" / GAME / "np-test")
    before = json.loads((model / "manifest.json").read_text())
    result = run([str(model), "random"], games=8)
    key = manifest.evaluation_key(result)
    assert key == f"4p:{model},random,random,random"
    manifest.record_evaluation(model, key, manifest.evaluation_summary(result))
    after = json.loads((model / "manifest.json").read_text())
    assert after["evaluation"]["earlier"] == {"kept": True}
    assert after["evaluation"][key]["agents"][str(model)]["seats"] == 8
    assert {k: v for k, v in after.items() if k != "evaluation"} == {k: v for k, v in before.items() if k != "evaluation"}
    assert list(after) == list(before)
    opponents.load_opponent(model, game=GAME)  # the integrity check still passes


def test_record_refuses_a_manifest_that_hashes_itself(tmp_path: Path) -> None:
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "manifest.json").write_text(json.dumps({"files": {"manifest.json": {"sha256": "0", "bytes": 1}}}))
    with pytest.raises(ValueError, match="manifest itself"):
        manifest.record_evaluation(folder, "k", {})


def test_cli_record(tmp_path: Path, capsys: pytest.CaptureFixture[str], write_numpy_model) -> None:
    model = write_numpy_model(tmp_path / "models" / GAME / "np-test")
    code = main(["eval", GAME, "--agents", f"{model},random", "--players", "3", "--games", "3",
                 "--out", str(tmp_path / "out"), "--manifest", str(model)])
    assert code == 0
    capsys.readouterr()
    manifest = json.loads((model / "manifest.json").read_text())
    summary = manifest["evaluation"][f"3p:{model},random,random"]
    assert summary["games"] == 3 and summary["seed"] == 0 and "records" not in summary
    opponents.load_opponent(model, game=GAME)


# Ctrl-C ------------------------------------------------------------------------------------------


class CtrlCAt(FirstLegal):
    """Plays as FirstLegal; Ctrl-C is pressed as it is about to make its `at`-th move."""

    def __init__(self, at: int) -> None:
        self.moves, self.at = 0, at

    def act(self, game: Any, state: Any, seat: int, rng: np.random.Generator) -> int:
        self.moves += 1
        if self.moves == self.at:
            raise KeyboardInterrupt
        return super().act(game, state, seat, rng)


def test_ctrl_c_stops_the_tournament_with_the_whole_deals_played_so_far() -> None:
    def factory(spec: str, game: str, engine: Any) -> Any:
        return CtrlCAt(300) if spec == "first" else make_agent(spec, game, engine)

    full = run(["first", "random"], games=40)
    with pytest.raises(tournament.Stopped) as caught:
        tournament.evaluate(GAME, ["first", "random"], 4, 40, 3, factory=factory)
    partial = caught.value.result
    deals = partial["deals"]
    assert 0 < deals < 10 and partial["games"] == 4 * deals  # the deal in play when stopped is left out
    assert partial["records"] == full["records"][: 4 * deals]
    assert partial["stopped"] == str(caught.value) == f"stopped after {4 * deals} of 40 games ({deals} of 10 deals)"
    assert f"**Partial: stopped after {4 * deals} of 40 games" in report.to_markdown(partial)
    with pytest.raises(tournament.Stopped) as caught:  # stopped in the first deal: nothing to summarise
        tournament.evaluate(GAME, ["first", "random"], 4, 40, 3, factory=lambda spec, game, engine: CtrlCAt(5))
    assert caught.value.result is None and str(caught.value) == "stopped after 0 of 40 games (0 of 10 deals)"


def test_cli_ctrl_c_prints_the_partial_summary_writes_nothing_and_exits_130(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    play_deal = tournament.play_deal

    def stopped_at_deal_3(deal: int):
        if deal == 3:
            raise KeyboardInterrupt
        return play_deal(deal)

    monkeypatch.setattr(tournament, "play_deal", stopped_at_deal_3)
    out = tmp_path / "out"
    argv = ["eval", GAME, "--agents", "random", "--games", "40", "--out", str(out)]
    try:
        code = main(argv)
    except KeyboardInterrupt:
        pytest.fail("a KeyboardInterrupt came out of main")
    assert code == 130
    captured = capsys.readouterr()
    assert "**Partial: stopped after 12 of 40 games (3 of 10 deals).**" in captured.out
    assert "3 deals x 4 rotations = 12 games" in captured.out and "| random | 48 |" in captured.out
    assert f"stopped after 12 of 40 games (3 of 10 deals); nothing written to {out}" in captured.err
    assert "Traceback" not in captured.err and not out.exists()
    assert main([*argv, "--journal", str(tmp_path / "j.jsonl")]) == 130
    assert f"the finished deals are in {tmp_path / 'j.jsonl'}: the same command resumes" in capsys.readouterr().err


def _children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (Linux /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:  # ended meanwhile
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the worker processes through Linux /proc")
def test_sigint_stops_the_worker_processes_too_without_a_traceback(tmp_path: Path, d2r_group) -> None:
    proc = d2r_group.start("eval", GAME, "--agents", "random", "--games", "1000000", "--workers", "2", "--out",
                           str(tmp_path / "out"))  # hours of play: it ends only by being stopped
    deadline = time.monotonic() + 120
    while len(_children(proc.pid)) < 3:  # the two workers and multiprocessing's resource tracker
        assert proc.poll() is None and time.monotonic() < deadline, "the workers did not start"
        time.sleep(0.05)
    _, err = d2r_group.ctrl_c(proc)  # not waiting for the deals in play
    assert proc.returncode == 130, err
    assert re.search(r"d2r eval: stopped after \d+ of 1000000 games", err)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    d2r_group.assert_group_ended(proc)


def test_a_worker_is_handed_a_few_deals_at_a_time_however_long_the_tournament() -> None:
    # A chunk of deals is one pipe message; a large one could leave the pool's feeder thread blocked on
    # the pipe of an ended worker, and the stop after Ctrl-C hung (seen with a million games).
    from training import pools

    assert pools.chunk_size(250_000, 2) == pools.MAX_CHUNK <= 16
    assert pools.chunk_size(10, 2) == 1 and pools.chunk_size(200, 2) == 16


def test_pool_results_come_in_order_and_a_ctrl_c_mid_wait_stops_the_pool_without_a_traceback(monkeypatch) -> None:
    # Ctrl-C lands while the main thread waits on a result; `pool.map` would cancel the tasks left from
    # here, and the pool's thread, marking them failed as `stop` ends the workers, raised InvalidStateError.
    import operator
    import os
    import signal
    import threading
    from concurrent.futures import ProcessPoolExecutor

    from training import pools

    pool = ProcessPoolExecutor(2)
    try:
        assert list(pools.in_order(pool, operator.neg, list(range(7)), chunksize=3)) == [0, -1, -2, -3, -4, -5, -6]
    finally:
        pool.shutdown()
    errors: list[BaseException] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: errors.append(args.exc_value))
    pool = ProcessPoolExecutor(2)
    threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
    with pytest.raises(KeyboardInterrupt):
        try:
            list(pools.in_order(pool, time.sleep, [0.3] * 12))
        except KeyboardInterrupt:
            pools.stop(pool)
            raise
    assert errors == []


class BlasThreads(FirstLegal):
    """The lowest legal action, noting how many threads BLAS may use as it chooses."""

    seen: list[int] = []

    def act(self, game: Any, state: Any, seat: int, rng: np.random.Generator) -> int:
        from threadpoolctl import threadpool_info

        BlasThreads.seen += [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]
        return super().act(game, state, seat, rng)


def test_deals_are_played_with_one_blas_thread_and_the_process_keeps_its_own() -> None:
    # A model's forward pass is one matrix-vector product: BLAS threads only slow it, badly on busy cores.
    from threadpoolctl import threadpool_info, threadpool_limits

    with threadpool_limits(limits=2, user_api="blas"):
        before = [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]
        BlasThreads.seen = []
        tournament.evaluate(GAME, ["blas", "random"], 3, 3, 0, factory=lambda s, g, e: BlasThreads()
                            if s == "blas" else make_agent(s, g, e))
        assert BlasThreads.seen and set(BlasThreads.seen) == {1}
        assert [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"] == before
        assert set(before) == {2}


def test_a_ctrl_c_taken_by_another_thread_waits_for_the_workers_to_start() -> None:
    """Python raises KeyboardInterrupt in the main thread whichever thread the kernel handed the signal to;
    while workers start (`ctrl_c_held_back`) it must wait, then come."""
    import os
    import signal
    import threading

    from training import pools

    ready, done = threading.Event(), threading.Event()
    other = threading.Thread(target=lambda: (ready.set(), done.wait(10)))  # started before the block: SIGINT unblocked
    other.start()
    ready.wait(5)
    reached = False
    try:
        with pytest.raises(KeyboardInterrupt):
            with pools.ctrl_c_held_back():
                os.kill(os.getpid(), signal.SIGINT)  # the main thread blocks it: the other thread takes it
                time.sleep(0.2)  # Python's handler would run in the main thread here
                reached = True
    finally:
        done.set()
        other.join()
    assert reached
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_stopped_tournament_crosses_processes_whole() -> None:
    import pickle

    from training.tournament import Stopped

    stopped = pickle.loads(pickle.dumps(Stopped("stopped after 3 of 8 games", {"deals": 1})))
    assert isinstance(stopped, Stopped) and str(stopped) == "stopped after 3 of 8 games"
    assert stopped.result == {"deals": 1}
