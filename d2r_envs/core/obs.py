"""Observation layouts: one flat float32 vector with named, reshaped views onto it; a `Frame` that
writes it piece by piece by name; the `Observer` and its observation options."""

from __future__ import annotations

import dataclasses
import hashlib
import math
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Sequence

import numpy as np
from gymnasium import spaces

from d2r_envs.core import config
from d2r_envs.core.words import quote


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
        # A Frame class of this layout, its offsets on the class (so a frame costs one copy).
        self._frame = type("Frame", (Frame,), {"__slots__": (), "at": self.offsets})
        self._frames: dict[int, list[type[Frame]]] = {}

    def frame(self, template: bytes | bytearray, me: int, n: int) -> "Frame":
        """A frame to write seat `me`'s observation into, starting from `template` (a byte per
        entry: what is fixed for the game, zeros elsewhere), at `n` players."""
        return self.frames(n)[me](template)

    def frames(self, n: int) -> list[type["Frame"]]:
        """Per seat at `n` players, the Frame class to call with a template (made once; an observer
        that is pickled, as env copies are, must not hold these classes itself)."""
        made = self._frames.get(n)
        if made is None:
            made = self._frames[n] = [type("Frame", (self._frame,), {"__slots__": (), "me": me, "n": n})
                                      for me in range(n)]
        return made

    def check_order(self, *names: str) -> None:
        """For an encoder that joins the observation from its pieces (one join, no writes at
        offsets): raises unless `names` are this layout's pieces, all of them, in order."""
        if list(names) != [p.name for p in self.pieces]:
            raise ValueError(f"the pieces are {[p.name for p in self.pieces]}, not {list(names)}")

    def blank(self) -> bytearray:
        return bytearray(self.size)

    def __reduce__(self) -> tuple:
        return ObsLayout, tuple(self.pieces)  # rebuilt from its pieces (its Frame classes are made anew)

    def views(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """Named views (no copies) onto a flat observation vector."""
        return {
            p.name: vector[self.offsets[p.name] : self.offsets[p.name] + p.size].reshape(p.shape)
            for p in self.pieces
        }

    def describe(self, names: Sequence[str] | None = None) -> str:
        """A Markdown table of the pieces (those in `names`, where given) and their index ranges."""
        rows = ["| indices | piece | shape | max | meaning |", "|---|---|---|---|---|"]
        for p in self.pieces:
            if names is not None and p.name not in names:
                continue
            start = self.offsets[p.name]
            rows.append(
                f"| {start}-{start + p.size - 1} | `{p.name}` | {list(p.shape)} | {p.high:g} | {p.doc} |"
            )
        return "\n".join(rows)

    def fingerprint(self) -> str:
        text = ";".join(f"{p.name}{list(p.shape)}<={p.high:g}" for p in self.pieces)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


class Frame(bytearray):
    """One observation being written, a byte per entry (each a whole number, 0-255), piece by piece
    by name (ObsLayout.frame makes one). Seats are the observer's view: a piece written per seat
    comes out with the observer first, then the players to its left, and the rows beyond the
    player count stay as the template has them (zero: the padding up to the maximum count).
    Writing a value above 255 raises ValueError (a game with bigger numbers clips them first)."""

    __slots__ = ()
    at: dict[str, int] = {}  # piece name -> offset (set per layout)
    me = 0  # the observer's seat and the player count (set per class: ObsLayout.frames)
    n = 1

    def put(self, name: str, values: Sequence[int] | bytes, start: int = 0) -> None:
        """`values` into piece `name` from its entry `start` on (a whole piece, or its start)."""
        at = self.at[name] + start
        self[at : at + len(values)] = values

    def one(self, name: str, index: int = 0, value: int = 1) -> None:
        """Entry `index` of piece `name` (a one-hot, or a count)."""
        self[self.at[name] + index] = value

    def seat(self, name: str, seat: int, row: int = 0, width: int = 1) -> None:
        """The one-hot of `seat` (absolute; -1: nobody, nothing written), as seen by the observer,
        in row `row` of piece `name` (rows of `width` entries)."""
        if seat >= 0:
            self[self.at[name] + row * width + (seat - self.me) % self.n] = 1

    def place(self, seat: int) -> int:
        """Where `seat` (absolute) sits from the observer: 0 the observer, 1 the next to its left..."""
        return (seat - self.me) % self.n

    def seats(self, name: str, values: Sequence[int]) -> None:
        """Piece `name`, one number per seat, `values` in seat order (rotated here)."""
        me = self.me
        at = self.at[name]
        self[at : at + self.n] = [*values[me:], *values[:me]]

    def seat_rows(self, name: str, rows: Sequence[bytes] | bytes, width: int = 0) -> None:
        """Piece `name`, a row of bytes per seat, in seat order (rotated here): a list of rows, or
        the rows already joined (`width` entries each)."""
        at = self.at[name]
        if isinstance(rows, (bytes, bytearray)):  # the rows joined, `width` entries each
            cut = self.me * width
            data = rows[cut : self.n * width] + rows[:cut]
        else:
            me = self.me
            data = b"".join([*rows[me:], *rows[:me]])
        self[at : at + len(data)] = data

    def vector(self) -> np.ndarray:
        """The observation as float32."""
        return np.frombuffer(self, np.uint8).astype(np.float32)


@dataclass(frozen=True)
class NoOptions:
    """The observation options of an observer that has none."""


class Observer:
    """Encodes a state for one seat. Games implement `string_from` and either `entries` or `encode`.

    `entries` returns the non-zero (index, value) pairs; the default `encode` scatters them into a
    fresh vector in one numpy call, which is much cheaper than filling piece by piece. A game that
    writes the vector directly overrides `encode` instead, and `entries` is derived from it.

    Observation options (OpenSpiel's observation parameters): what the vector holds beyond the
    state a seat sees, such as views for learning. `Options` is a frozen dataclass of
    `core.config.option` fields; `Game.make_observer(**options)` checks them and passes them to the
    observer's constructor by name, and `options` holds them all (defaults included). The rules
    never read them.
    """

    layout: ObsLayout
    game: Any  # the engine it encodes for
    Options: ClassVar[type] = NoOptions
    options: dict[str, Any] = {}

    def __reduce__(self) -> tuple:
        """A copy (pickle, deepcopy) is a fresh observer of the same game and options: what it keeps
        (tables remembered by stamp, kept vectors) is rebuilt as it is used."""
        return (_remake, (type(self), self.game, dict(self.options)))

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


def build_observer(cls: type[Observer], game: Any, options: dict[str, Any]) -> Observer:
    """An Observer `cls` of `game` with the observation `options` its `Options` allow (defaults for
    the rest); a ValueError names a bad key or value before anything is built."""
    name = game.spec.name
    if options and not dataclasses.fields(cls.Options):
        raise ValueError(f"{name} observation: unknown option(s) {', '.join(map(quote, sorted(options)[:5]))}"
                         f"{'' if len(options) <= 5 else f' and {len(options) - 5} more'}; "
                         "this game's observation takes none")
    checked = config.build(cls.Options, f"{name} observation", options)
    make: Callable[..., Observer] = cls  # a game's Observer takes the game and its options
    return make(game, **dataclasses.asdict(checked))


def _remake(cls: type, game: Any, options: dict[str, Any]) -> Observer:
    return cls(game, **options)
