"""`d2r eval --ray` and training.ray_eval: deals as Ray tasks on a local instance give the local pool's
result exactly; a worker killed mid-tournament is retried and the counts come back complete; deals
lost past the retries are an error naming them, never a smaller tournament; Ctrl-C cancels the tasks; an
address with no cluster is one line. About 20 s."""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("ray")
pytest.importorskip("openskill")

import d2r_envs  # noqa: E402
from d2r_envs.agents import make_agent  # noqa: E402
from d2r_envs.cli import main  # noqa: E402
from training import tournament  # noqa: E402
from training.deals import Setup  # noqa: E402
from training import ray_eval  # noqa: E402

GAME = "drags_2_riches"


class KillsItsWorker:
    """Plays as `inner`, but the first time it acts in a process other than the one that built it, and no
    other copy has done so yet (`marker` is created atomically), it kills that process with SIGKILL."""

    def __init__(self, inner: Any, marker: str, times: int = 1) -> None:
        self.inner, self.marker, self.times = inner, marker, times
        self.home = os.getpid()
        self.name = "killer"

    def act(self, game: Any, state: Any, seat: int, rng: np.random.Generator) -> int:
        if os.getpid() != self.home:
            for k in range(self.times):
                try:
                    os.close(os.open(f"{self.marker}.{k}", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
                except FileExistsError:
                    continue
                os.kill(os.getpid(), signal.SIGKILL)
        return self.inner.act(game, state, seat, rng)


def killer_factory(marker: str, times: int = 1):
    def factory(spec: str, game: str, engine: Any) -> Any:
        if spec == "killer":
            return KillsItsWorker(make_agent("random", game, engine), marker, times)
        return make_agent(spec, game, engine)

    return factory


@pytest.fixture
def ray(ray_local):
    # this module's classes travel to the workers by value (tests are not importable there)
    ray_local.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    return ray_local


def local(agents: list[str], players: int, games: int, seed: int, **kw: Any) -> dict:
    return tournament.evaluate(GAME, agents, players, games, seed, **kw)


def test_ray_tasks_give_the_local_pools_result(ray) -> None:
    agents, kw = ["heuristic", "random"], dict(players=3, games=30, seed=7)
    pool = local(agents, workers=2, **kw)
    on_ray = local(agents, ray_address="", **kw)
    assert on_ray["ray"] == "local" and on_ray["deals"] == 10
    assert tournament.deterministic_part(on_ray) == tournament.deterministic_part(pool)
    assert [(r["deal"], r["rotation"]) for r in on_ray["records"]] == [(d, r) for d in range(10) for r in range(3)]
    other = local(agents, ray_address="", players=3, games=30, seed=8)
    assert other["records"] != on_ray["records"]


def test_a_worker_killed_mid_tournament_is_retried_and_the_counts_are_complete(ray, tmp_path: Path) -> None:
    kw = dict(players=2, games=40, seed=3)
    expected = local(["killer", "heuristic"], factory=killer_factory(str(tmp_path / "never")), **kw)  # kills nobody here
    marker = tmp_path / "killed"
    result = local(["killer", "heuristic"], factory=killer_factory(str(marker)), ray_address="", **kw)
    assert (tmp_path / "killed.0").exists(), "no worker was killed: the test did not test anything"
    assert result["games"] == 40 and sum(e["seats"] for e in result["agents"].values()) == 80
    assert tournament.deterministic_part(result) == tournament.deterministic_part(expected)


def test_deals_lost_past_the_retries_are_an_error_naming_them(ray, tmp_path: Path) -> None:
    with pytest.raises(ray_eval.LostDeals) as caught:
        local(["killer", "heuristic"], factory=killer_factory(str(tmp_path / "killed")), ray_address="",
              ray_retries=0, players=2, games=40, seed=3)
    lost = caught.value.lost
    assert lost and set(lost) < set(range(20)), lost
    assert "deals " + ", ".join(map(str, lost[:3])) in str(caught.value)
    assert "WorkerCrashedError" in str(caught.value) or "Error" in str(caught.value)


def test_a_journal_keeps_the_deals_ray_finished_and_the_rerun_plays_the_lost_ones(ray, tmp_path: Path) -> None:
    kw = dict(players=2, games=40, seed=3)
    expected = local(["killer", "heuristic"], factory=killer_factory(str(tmp_path / "never")), **kw)
    journal = tmp_path / "t.jsonl"
    with pytest.raises(ray_eval.LostDeals) as caught:
        local(["killer", "heuristic"], factory=killer_factory(str(tmp_path / "killed")), ray_address="",
              ray_retries=0, journal=journal, **kw)
    kept = {json.loads(line)["deal"] for line in journal.read_text().splitlines()[1:]}
    assert kept == set(range(20)) - set(caught.value.lost) and kept
    resumed = local(["killer", "heuristic"], factory=killer_factory(str(tmp_path / "never")), ray_address="",
                    journal=journal, **kw)
    assert tournament.deterministic_part(resumed) == tournament.deterministic_part(expected)


def test_an_agents_own_error_is_raised_as_itself_not_retried(ray) -> None:
    class Broken:
        name = "broken"

        def act(self, game: Any, state: Any, seat: int, rng: Any) -> int:
            raise ZeroDivisionError("the agent's own bug")

    def factory(spec: str, game: str, engine: Any) -> Any:
        return Broken() if spec == "broken" else make_agent(spec, game, engine)

    with pytest.raises(ZeroDivisionError, match="the agent's own bug"):
        local(["broken", "random"], factory=factory, ray_address="", players=2, games=8, seed=0)


def test_cli_eval_with_ray(ray, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "eval"
    assert main(["eval", GAME, "--agents", "heuristic,random", "--players", "2", "--games", "8", "--ray",
                 "--out", str(out)]) == 0
    import json

    result = json.loads((out / "result.json").read_text())
    assert result["ray"] == "local" and result["games"] == 8 and "--ray" in result["command"]


def test_bars_with_ray(ray, tmp_path: Path, write_numpy_model, capsys: pytest.CaptureFixture[str]) -> None:
    from training import bars

    model = write_numpy_model(tmp_path / "m")
    code = bars.main([str(model), "--players", "3", "--games", "6", "--ray"])
    assert code in (0, 1)
    out = capsys.readouterr().out
    assert "## Bars" in out and "| 3 |" in out


def test_ctrl_c_cancels_the_tasks_still_running(ray, monkeypatch: pytest.MonkeyPatch) -> None:
    cancel, cancelled = ray.cancel, []

    def recorded(ref, force=False):
        cancelled.append(force)
        cancel(ref, force=force)

    def ctrl_c(refs, num_returns=1):
        raise KeyboardInterrupt

    monkeypatch.setattr(ray, "cancel", recorded)
    monkeypatch.setattr(ray, "wait", ctrl_c)
    engine = d2r_envs.make_game(GAME, 2)
    setup = Setup(GAME, {}, 2, ["random", "random"], 0, engine.spec.max_game_length, None)
    with pytest.raises(KeyboardInterrupt):
        ray_eval.play_deals(setup, engine, {"random": make_agent("random", GAME, engine)}, 40)
    chunks = ray_eval.chunks(40, int(ray.cluster_resources().get("CPU", 1)))
    assert len(cancelled) == len(chunks) > 1 and all(cancelled)


def _closed_port() -> int:
    """A local port nothing listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_address_with_no_cluster_is_one_line_saying_how_to_start_one(tmp_path: Path, capsys) -> None:
    address = f"127.0.0.1:{_closed_port()}"
    out = tmp_path / "out"
    assert main(["eval", GAME, "--agents", "random", "--games", "4", "--ray", address, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"d2r: error: cannot reach a Ray cluster at {address} (") and err.count("\n") == 1
    assert "`ray start --head`" in err and "Traceback" not in err and not out.exists()
    assert main(["eval", GAME, "--agents", "random", "--ray", "head-without-port", "--out", str(out)]) == 2
    assert "Ray address 'head-without-port': expected auto, HOST:PORT" in capsys.readouterr().err


def test_auto_with_no_cluster_on_this_node_is_unreachable(monkeypatch: pytest.MonkeyPatch) -> None:
    import ray as ray_module

    from training.ray_cluster import Unreachable, connected

    def no_cluster(**kwargs):  # what ray.init(address="auto") raises on a node that joined none
        raise ConnectionError("Could not find any running Ray instance. Please specify the one to connect to.")

    monkeypatch.setattr(ray_module, "is_initialized", lambda: False)
    monkeypatch.setattr(ray_module, "init", no_cluster)
    with pytest.raises(Unreachable, match="cannot reach a Ray cluster at auto \\(no cluster was started on this node\\)"):
        with connected("auto"):
            pass
