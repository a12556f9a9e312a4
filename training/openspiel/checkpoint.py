"""A `backend: openspiel` checkpoint (training/openspiel/train.py writes them): seat 0's network, the one
exported, read back, and its weights in the exported layout (training/export.py `export_openspiel`)."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import numpy as np
import torch

CHECKPOINT_SUFFIX = ".pt"


def network(agent: Any) -> torch.nn.Module:
    """The network an agent is exported by: NFSP's average policy, DQN's Q-network."""
    return agent._avg_network if hasattr(agent, "_avg_network") else agent._q_network


def load_checkpoint(path: str | Path) -> dict[str, Any]:
    """A checkpoint written by `save_checkpoint` (ValueError naming the file when it is not one)."""
    path = Path(path)
    try:
        data = torch.load(path, map_location="cpu", weights_only=True)
    except (OSError, RuntimeError, ValueError, EOFError, pickle.UnpicklingError) as err:
        raise ValueError(f"{path}: not a backend: openspiel checkpoint ({type(err).__name__}: {err})") from None
    if not isinstance(data, dict) or not {"state_dict", "hidden", "algorithm", "steps"} <= set(data):
        raise ValueError(f"{path}: not a backend: openspiel checkpoint (no state_dict, hidden, algorithm, steps)")
    return data


def exported(data: dict[str, Any], scale: np.ndarray) -> tuple[dict[str, Any], dict[str, np.ndarray], Any]:
    """(architecture, tensors in the exported layout, logits of a batch of raw observations by OpenSpiel's
    own network with the checkpoint's weights, which the export is checked against) of a checkpoint's
    network: OpenSpiel's MLP, ReLU between its Linear layers."""
    from open_spiel.python.pytorch import dqn

    state = data["state_dict"]
    keys = sorted({k.rsplit(".", 1)[0] for k in state}, key=lambda k: [int(x) if x.isdigit() else x for x in k.split(".")])
    tensors: dict[str, np.ndarray] = {"obs_scale": scale.astype(np.float32)}
    for i, key in enumerate(keys):
        tensors[f"layers.{i}.weight"] = state[f"{key}.weight"].numpy().astype(np.float32, copy=True)
        tensors[f"layers.{i}.bias"] = state[f"{key}.bias"].numpy().astype(np.float32, copy=True)
    first, last = tensors["layers.0.weight"], tensors[f"layers.{len(keys) - 1}.weight"]
    arch = {"type": "mlp", "hidden": list(data["hidden"]), "activation": "relu", "input": int(first.shape[1]),
            "output": int(last.shape[0])}

    generators = np.random.get_state(), torch.get_rng_state()
    net = dqn.MLP(arch["input"], arch["hidden"], arch["output"])  # it seeds numpy's and torch's generators:
    np.random.set_state(generators[0])  # put them back
    torch.set_rng_state(generators[1])
    net.load_state_dict(state)
    net.eval()

    def logits(obs: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            return net(torch.as_tensor(np.asarray(obs, np.float32) * scale)).numpy()

    return arch, tensors, logits

