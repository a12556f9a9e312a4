"""The policy network's input layer, shared by training and export."""

from __future__ import annotations

import numpy as np
import torch
from gymnasium import spaces
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor


def observation_scale(space: spaces.Box) -> np.ndarray:
    """Fixed per-entry input scale, 1 / sqrt(max(1, high)): counts and fortunes land near [0, 1]
    without statistics that would have to travel with the model."""
    return (1.0 / np.sqrt(np.maximum(space.high.astype(np.float64), 1.0))).astype(np.float32)


class ScaledFlatten(BaseFeaturesExtractor):
    """obs * observation_scale(space); the exported model carries the same vector as `obs_scale`."""

    def __init__(self, observation_space: spaces.Box) -> None:
        super().__init__(observation_space, features_dim=int(np.prod(observation_space.shape)))
        self.register_buffer("scale", torch.as_tensor(observation_scale(observation_space)))

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        return observations.flatten(1) * self.scale
