"""A fixed Discrete(N) action space built from named segments; O(1) encode and decode."""

from __future__ import annotations

import bisect
import hashlib
import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Segment:
    name: str
    shape: tuple[int, ...] = ()  # () is a single action
    doc: str = ""

    @property
    def size(self) -> int:
        return math.prod(self.shape)


class ActionSpace:
    def __init__(self, *segments: Segment) -> None:
        names = [s.name for s in segments]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate segment names in {names}")
        self.segments = segments
        self.starts: list[int] = []
        self.size = 0
        for seg in segments:
            self.starts.append(self.size)
            self.size += seg.size
        self._index = {seg.name: i for i, seg in enumerate(segments)}

    def start(self, name: str) -> int:
        return self.starts[self._index[name]]

    def encode(self, name: str, *index: int) -> int:
        i = self._index[name]
        shape = self.segments[i].shape
        if len(index) != len(shape) or any(not 0 <= x < n for x, n in zip(index, shape)):
            raise ValueError(f"index {index} out of range for segment {name}{list(shape)}")
        flat = 0
        for x, n in zip(index, shape):
            flat = flat * n + x
        return self.starts[i] + flat

    def decode(self, action: int) -> tuple[str, tuple[int, ...]]:
        if not 0 <= action < self.size:
            raise ValueError(f"action {action} out of range 0..{self.size - 1}")
        i = bisect.bisect_right(self.starts, action) - 1
        seg = self.segments[i]
        rest = action - self.starts[i]
        index: list[int] = []
        for n in reversed(seg.shape):
            index.append(rest % n)
            rest //= n
        return seg.name, tuple(reversed(index))

    def describe(self) -> str:
        """A Markdown table of the segments."""
        rows = ["| actions | segment | shape | meaning |", "|---|---|---|---|"]
        for start, seg in zip(self.starts, self.segments):
            span = f"{start}" if seg.size == 1 else f"{start}-{start + seg.size - 1}"
            rows.append(f"| {span} | `{seg.name}` | {list(seg.shape)} | {seg.doc} |")
        return "\n".join(rows)

    def fingerprint(self) -> str:
        text = ";".join(f"{s.name}{list(s.shape)}" for s in self.segments)
        return hashlib.sha256(text.encode()).hexdigest()[:16]
