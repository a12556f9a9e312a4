"""Observation layouts: one flat float32 vector with named, reshaped views onto it."""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass

import numpy as np
from gymnasium import spaces


@dataclass(frozen=True)
class Piece:
    name: str
    shape: tuple[int, ...]
    high: float = 1.0  # upper bound of every entry (lower bound is 0)
    doc: str = ""

    @property
    def size(self) -> int:
        return math.prod(self.shape)


class ObsLayout:
    def __init__(self, *pieces: Piece) -> None:
        names = [p.name for p in pieces]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate piece names in {names}")
        self.pieces = pieces
        self.offsets: dict[str, int] = {}
        self.size = 0
        for p in pieces:
            self.offsets[p.name] = self.size
            self.size += p.size
        high = np.concatenate([np.full(p.size, p.high, np.float32) for p in pieces])
        self.box = spaces.Box(low=0.0, high=high, dtype=np.float32)

    def views(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """Named views (no copies) onto a flat observation vector."""
        return {
            p.name: vector[self.offsets[p.name] : self.offsets[p.name] + p.size].reshape(p.shape)
            for p in self.pieces
        }

    def describe(self) -> str:
        """A Markdown table of the pieces and their index ranges."""
        rows = ["| indices | piece | shape | max | meaning |", "|---|---|---|---|---|"]
        for p in self.pieces:
            start = self.offsets[p.name]
            rows.append(
                f"| {start}-{start + p.size - 1} | `{p.name}` | {list(p.shape)} | {p.high:g} | {p.doc} |"
            )
        return "\n".join(rows)

    def fingerprint(self) -> str:
        text = ";".join(f"{p.name}{list(p.shape)}<={p.high:g}" for p in self.pieces)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


class Observer:
    """Encodes a state for one seat. Games implement `string_from` and either `entries` or `encode`.

    `entries` returns the non-zero (index, value) pairs; the default `encode` scatters them into a
    fresh vector in one numpy call, which is much cheaper than filling piece by piece. A game that
    writes the vector directly overrides `encode` instead, and `entries` is derived from it.
    """

    layout: ObsLayout

    def entries(self, state, player: int) -> tuple[list[int], list[float]]:
        """The non-zero (index, value) pairs; derived from `encode` for a game that writes the
        vector directly (a game overrides one of the two)."""
        vec = self.encode(state, player)
        index = np.flatnonzero(vec)
        return index.tolist(), vec[index].tolist()

    def string_from(self, state, player: int) -> str:
        raise NotImplementedError

    def encode(self, state, player: int) -> np.ndarray:
        index, values = self.entries(state, player)
        out = np.zeros(self.layout.size, np.float32)
        out[index] = values
        return out
