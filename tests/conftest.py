"""Shared test set-up: the `rules` marker and a numpy-made exported model."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "rules(*ids): the rulebook rule IDs this test checks")


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
