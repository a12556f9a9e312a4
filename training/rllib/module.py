"""`MaskedMLP`: an RLModule for RLlib's PPO whose actor is the exported format itself.

RLlib's default encoder has no config for the `{"observation", "action_mask"}` Dict space of our envs,
so the module is our own (the pattern of Ray's `examples/rl_modules/classes/action_masking_rlm.py`):

- actor: x = observation * obs_scale (`training.networks.observation_scale` of the game's layout, a
  buffer that never trains), then Linear + activation per hidden layer, then a Linear to the logits:
  the tensors `obs_scale`, `layers.{i}.weight`, `layers.{i}.bias` that `d2r_envs.load_opponent` reads;
- critic: the same scaled input through a separate MLP of the same sizes to one value (not exported);
- the mask: every illegal action's logit is replaced by the float32 minimum before RLlib builds its
  Categorical, in exploration, inference and training alike, so an illegal action has probability 0
  (exp underflows) and is never sampled.

RLlib knows the learner's module by an id (`module_id`): its default one with rllib.mode pool, the
shared policy's with self_play; a checkpoint folder keeps the module under that name.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from torch import nn

from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.torch import TorchRLModule

from training import config as cfg
from training.networks import observation_scale

ACTIVATIONS = {"tanh": nn.Tanh, "relu": nn.ReLU}
MASKED = float(torch.finfo(torch.float32).min)
MODULE_ID = "default_policy"  # RLlib's id of the one module of a single-agent set-up
SHARED_POLICY = "shared"  # the policy every seat plays with in self-play


def module_id(c: cfg.Config) -> str:
    """The id of the learner's module in the config's set-up."""
    return SHARED_POLICY if c.rllib.mode == "self_play" else MODULE_ID


def _mlp(sizes: list[int], activation: str) -> nn.Sequential:
    layers: list[nn.Module] = []
    for i in range(len(sizes) - 1):
        layers.append(nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            layers.append(ACTIVATIONS[activation]())
    return nn.Sequential(*layers)


class MaskedMLP(TorchRLModule, ValueFunctionAPI):
    """model_config: {"hidden": [128, 128], "activation": "tanh"}. The observation space is a Dict with
    "observation" (a Box) and "action_mask"; the action space Discrete(N)."""

    def setup(self) -> None:
        config = self.model_config or {}
        hidden = list(config.get("hidden", [128, 128]))
        activation = config.get("activation", "tanh")
        if activation not in ACTIVATIONS:
            raise ValueError(f"activation {activation!r} is not allowed; allowed: {', '.join(ACTIVATIONS)}")
        box = self.observation_space["observation"]
        sizes = [int(box.shape[0]), *hidden]
        self.activation = activation
        self.register_buffer("obs_scale", torch.as_tensor(observation_scale(box)))
        self.pi = _mlp([*sizes, int(self.action_space.n)], activation)
        self.vf = _mlp([*sizes, 1], activation)

    def _inputs(self, batch: dict[str, Any]) -> tuple[torch.Tensor, torch.Tensor]:
        obs = batch[Columns.OBS]
        return obs["observation"].float() * self.obs_scale, obs["action_mask"]

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        x, mask = self._inputs(batch)
        logits = self.pi(x).masked_fill(mask == 0, MASKED)
        return {Columns.ACTION_DIST_INPUTS: logits}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        x, _ = self._inputs(batch)
        return self.vf(x).squeeze(-1)


def linears(module: MaskedMLP) -> list[nn.Linear]:
    return [layer for layer in module.pi if isinstance(layer, nn.Linear)]


def architecture(module: MaskedMLP) -> dict[str, Any]:
    """The manifest's {"type": "mlp", "hidden", "activation", "input", "output"} of the actor."""
    layers = linears(module)
    return {"type": "mlp", "hidden": [int(layer.out_features) for layer in layers[:-1]],
            "activation": module.activation, "input": int(layers[0].in_features), "output": int(layers[-1].out_features)}


def tensors(module: MaskedMLP) -> dict[str, np.ndarray]:
    """The actor in the exported layout: float32 copies, frozen while the learner trains on."""
    out = {"obs_scale": module.obs_scale.detach().cpu().numpy().astype(np.float32, copy=True)}
    for i, layer in enumerate(linears(module)):
        out[f"layers.{i}.weight"] = layer.weight.detach().cpu().numpy().astype(np.float32, copy=True)
        out[f"layers.{i}.bias"] = layer.bias.detach().cpu().numpy().astype(np.float32, copy=True)
    return out


def logits(module: MaskedMLP, obs: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """RLlib's own action-distribution inputs for a batch of observations (`forward_inference`), [B, N];
    with no mask every action is legal, so the raw logits."""
    obs = np.asarray(obs, np.float32)
    if mask is None:
        mask = np.ones((obs.shape[0], int(module.action_space.n)), np.int8)
    batch = {Columns.OBS: {"observation": torch.as_tensor(obs), "action_mask": torch.as_tensor(np.asarray(mask))}}
    with torch.no_grad():
        return module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS].cpu().numpy()
