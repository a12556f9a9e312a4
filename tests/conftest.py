"""Shared test set-up: the `rules` marker, a numpy-made exported model, and `d2r` commands run in a
process group of their own (as a shell runs them) to be stopped with Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "rules(*ids): the rulebook rule IDs this test checks")
    # A run started in the background of a script inherits SIGINT ignored, and so would every command the
    # tests start: the Ctrl-C tests need it delivered, as at a terminal.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def _write_numpy_model(folder: Path, game: str = "draco_and_co") -> Path:
    """A small model in the exported format, made with numpy alone (no torch, no training)."""
    from d2r_envs import opponents, registry

    layout, n = registry.obs_layout(game), registry.action_space(game).size
    rng = np.random.default_rng(0)
    sizes = [layout.size, 8, n]
    tensors = {"obs_scale": (1.0 / np.sqrt(np.maximum(layout.box.high, 1.0))).astype(np.float32)}
    for i in range(len(sizes) - 1):
        tensors[f"layers.{i}.weight"] = (rng.standard_normal((sizes[i + 1], sizes[i])) / np.sqrt(sizes[i])).astype(np.float32)
        tensors[f"layers.{i}.bias"] = np.zeros(sizes[i + 1], np.float32)
    manifest = {
        "format": opponents.FORMAT,
        "game": game,
        **opponents.installed_game_facts(game),
        "architecture": {"type": "mlp", "hidden": [8], "activation": "relu", "input": layout.size, "output": n},
        "files": {},
        "training": {"config": {"note": "numpy-made test model"}, "seed": 0, "total_timesteps": 0},
        "library_versions": {"numpy": np.__version__},
        "evaluation": {"earlier": {"kept": True}},
        "created": "2026-01-01T00:00:00+00:00",
    }
    return opponents.save_policy(folder, tensors, manifest)


@pytest.fixture
def write_numpy_model():
    return _write_numpy_model


@pytest.fixture(scope="session")
def ray_local():
    """A local Ray instance for the session's Ray tests (2 CPUs, no dashboard), shut down at the end.
    Code under test that connects (training.ray_cluster.connected) uses it and leaves it running."""
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


class D2rGroup:
    """`d2r ARGV` commands, each in a process group of its own as a shell runs a command, so that a Ctrl-C
    (`ctrl_c`) reaches every process of the group; whatever of a group is left at the end is killed."""

    def __init__(self) -> None:
        self.started: list[subprocess.Popen] = []

    def start(self, *argv: str) -> subprocess.Popen:
        proc = subprocess.Popen([sys.executable, "-m", "d2r_envs.cli", *argv], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True)
        self.started.append(proc)
        return proc

    @staticmethod
    def ctrl_c(proc: subprocess.Popen, timeout: float = 60) -> tuple[str, str]:
        """Ctrl-C to the whole group; (stdout, stderr) once the command has ended (a test failure if it
        does not end within `timeout` seconds)."""
        os.killpg(proc.pid, signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{' '.join(map(str, proc.args[3:5]))} did not stop on Ctrl-C")
        return out.decode(), err.decode()

    @staticmethod
    def assert_group_ended(proc: subprocess.Popen, seconds: float = 10) -> None:
        """Every process of the command's group (its workers) ended with it."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                os.killpg(proc.pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.1)
        pytest.fail(f"worker processes outlived {' '.join(map(str, proc.args[3:5]))}")

    def close(self) -> None:
        for proc in self.started:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.communicate()


@pytest.fixture
def d2r_group():
    group = D2rGroup()
    yield group
    group.close()


def _random_nodes(game, rng, games: int = 1):
    """Every node of `games` random games, chance nodes and the end included: the same state, yielded
    before each action and once at the end."""
    from d2r_envs.core.game import CHANCE

    for _ in range(games):
        s = game.new_initial_state()
        while True:
            yield s
            if game.is_terminal(s):
                break
            if game.current_player(s) == CHANCE:
                game.apply_action(s, game.sample_chance(s, rng))
            else:
                legal = game.legal_actions(s)
                game.apply_action(s, legal[int(rng.integers(len(legal)))])


@pytest.fixture
def random_nodes():
    """`random_nodes(game, rng, games=1)`: the nodes of seeded random games, for checks at every node."""
    return _random_nodes


class NarrationFixture:
    """A file of narrated games, each headed by a line starting "# ", recorded word for word."""

    @staticmethod
    def games(path: Path) -> list[list[str]]:
        games: list[list[str]] = []
        for line in path.read_text().splitlines():
            if line.startswith("# "):
                games.append([])
            games[-1].append(line)
        return games

    @staticmethod
    def move(game, s, log, rng, todo) -> list[str]:
        """Play the next action (the next of `todo`, else a random one from `rng`) through `log`: its line
        and the lines of every event told of it, public and private."""
        from d2r_envs.core.game import CHANCE

        if todo is not None:
            a = next(todo)
        elif game.current_player(s) == CHANCE:
            a = game.sample_chance(s, rng)
        else:
            legal = game.legal_actions(s)
            a = legal[rng.integers(len(legal))]
        lines = [f"> {a}"]
        for e in log.apply(s, a):
            lines.append(f"= {e.public}")
            lines += [f"  {seat}: {text}" for seat, text in sorted(e.private.items())]
        return lines

    @classmethod
    def retell(cls, path: Path, games: list[tuple], narrate_game) -> None:
        """Every game recorded in `path` played again from its recorded actions and told anew by
        `narrate_game(fixture, *game, actions)` (`games`: each recorded game's arguments, in order), word
        for word as recorded."""
        recorded = cls.games(path)
        assert len(recorded) == len(games)
        for game, expected in zip(games, recorded):
            actions = [int(line[2:]) for line in expected if line.startswith("> ")]
            cls.check(expected, narrate_game(cls, *game, actions))

    @staticmethod
    def check(expected: list[str], told: list[str]) -> None:
        import difflib

        if told != expected:
            diff = "\n".join(list(difflib.unified_diff(expected, told, lineterm="", n=2))[:60])
            raise AssertionError(f"{expected[0]}: the narration changed\n{diff}")


@pytest.fixture
def narration_fixture():
    return NarrationFixture
