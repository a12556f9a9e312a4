"""Containers that keep their own copies in the observation's shapes in step, and say when they change.

A game writes to one only through its methods. Each write keeps the container's copies in step (an
owner's one-hot rows, a grid's one-hot cells, per-seat totals of a weight) and replaces its `stamp`
with a fresh `object()`. An observer that keeps what it worked out from some containers remembers the
stamps it built from and compares them with `is`: the same stamp means the same contents, so a cache
is checked in one comparison per container and is never stale. A clone shares its source's stamps
(the contents are equal) until either is written; an unpickled copy gets new ones (a miss, never a
stale hit).

Like `core.zones.Deck`, each holds plain lists and bytearrays that fast code reads directly
(`owners.of[item]`, `grid.rows[r][place]`, `counts.counts[seat][kind]`) and must never write. The
containers also index, iterate and compare like those lists, for tests and people, at Python speed.
They hold lists rather than being lists: CPython indexes a list subclass through a slot call, 2x
slower a read (a first version built that way cost Filthy Rich's engine about 8% a decision).

"""

from __future__ import annotations

from operator import mul
from typing import Any, Iterable, Iterator, Sequence

from mypy_extensions import mypyc_attr


@mypyc_attr(allow_interpreted_subclasses=True)  # (compiled, its __new__ still skips __init__, for __copy__)
class _Listlike:
    """Reads through `_items()`: indexing, iteration, length, membership, equality with a list."""

    __slots__ = ()

    def _items(self) -> list:
        raise NotImplementedError

    def __getitem__(self, i: int | slice) -> Any:
        return self._items()[i]

    def __iter__(self) -> Iterator:
        return iter(self._items())

    def __len__(self) -> int:
        return len(self._items())

    def __contains__(self, x: Any) -> bool:
        return x in self._items()

    def __eq__(self, other: object) -> bool:
        if type(other) is type(self):
            return self._items() == other._items()  # type: ignore[attr-defined]
        if isinstance(other, list):
            return self._items() == other
        return NotImplemented

    def __hash__(self) -> int:  # (mutable and compared by value, as a list; a method, not None, so that
        # a compiled class does not take __hash__ for an attribute to pickle)
        raise TypeError(f"unhashable type: {type(self).__name__!r}")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._items()!r})"


@mypyc_attr(allow_interpreted_subclasses=True)  # (compiled, its __new__ still skips __init__, for __copy__)
class Owners(_Listlike):
    """Per item, who holds it: `of[item]`, a seat (0 to seats-1), -1 for nobody (`free[item]`: 1 for
    each such item) or another negative number of the game's own (out of play); per seat, a one-hot
    row of the items it holds, `held[seat][item]`; and, where the items have `weights` (tax symbols,
    points), per seat the sum of the weights of what it holds, `totals[seat]`. Written by `set`."""

    __slots__ = ("of", "held", "free", "weights", "totals", "stamp")

    def __init__(self, owners: Iterable[int], seats: int, weights: Sequence[int] | None = None) -> None:
        self.of = list(owners)
        self.weights = tuple(weights) if weights is not None else (0,) * len(self.of)
        self.held = [bytearray(len(self.of)) for _ in range(seats)]
        self.free = bytearray([o == -1 for o in self.of])
        self.totals = [0] * seats
        for i, o in enumerate(self.of):
            if o >= 0:
                self.held[o][i] = 1
                self.totals[o] += self.weights[i]
        self.stamp = object()

    def set(self, item: int, owner: int) -> None:
        """`owner` (a seat, or a negative number) now holds `item`."""
        held = self.held
        row = held[owner] if owner >= 0 else None  # (an unknown seat fails before any change)
        old = self.of[item]
        if old >= 0:
            held[old][item] = 0
            self.totals[old] -= self.weights[item]
        if row is not None:
            row[item] = 1
            self.totals[owner] += self.weights[item]
        self.free[item] = owner == -1
        self.of[item] = owner
        self.stamp = object()

    def in_step(self) -> bool:
        """Whether the rows and totals agree with the owners (the invariants check it)."""
        fresh = Owners(self.of, len(self.held), self.weights)
        return (self.held, self.free, self.totals) == (fresh.held, fresh.free, fresh.totals)

    def _items(self) -> list:
        return self.of

    def count(self, owner: int) -> int:
        return self.of.count(owner)

    def __copy__(self) -> "Owners":
        new = Owners.__new__(Owners)  # (not object.__new__: a compiled class has its own)
        new.of = self.of[:]
        new.held = [row[:] for row in self.held]
        new.free = self.free[:]
        new.weights = self.weights
        new.totals = self.totals[:]
        new.stamp = self.stamp
        return new


@mypyc_attr(allow_interpreted_subclasses=True)  # (compiled, its __new__ still skips __init__, for __copy__)
class SeatCounts(_Listlike):
    """Per seat, counts per card kind, `counts[seat][kind]` (a bytearray each, like a per-seat Pile of
    core.zones), and, where the kinds have `weights`, per seat the sum of count times weight,
    `totals[seat]`. Written by `add` and `empty`."""

    __slots__ = ("counts", "weights", "totals", "stamp")

    def __init__(self, seats: int, kinds: int, weights: Sequence[int] | None = None) -> None:
        self.counts = [bytearray(kinds) for _ in range(seats)]
        self.weights = tuple(weights) if weights is not None else (0,) * kinds
        self.totals = [0] * seats
        self.stamp = object()

    def add(self, seat: int, kind: int, copies: int = 1) -> None:
        """`copies` more cards of `kind` for `seat` (fewer where negative)."""
        self.counts[seat][kind] += copies
        self.totals[seat] += copies * self.weights[kind]
        self.stamp = object()

    def empty(self, seat: int) -> None:
        """`seat` holds nothing any more."""
        self.counts[seat] = bytearray(len(self.weights))
        self.totals[seat] = 0
        self.stamp = object()

    def in_step(self) -> bool:
        """Whether the totals agree with the counts (the invariants check it)."""
        return self.totals == [sum(map(mul, c, self.weights)) for c in self.counts]

    def _items(self) -> list:
        return self.counts

    def __copy__(self) -> "SeatCounts":
        new = SeatCounts.__new__(SeatCounts)  # (not object.__new__: a compiled class has its own)
        new.counts = [c[:] for c in self.counts]
        new.weights = self.weights
        new.totals = self.totals[:]
        new.stamp = self.stamp
        return new


@mypyc_attr(allow_interpreted_subclasses=True)  # (compiled, its __new__ still skips __init__, for __copy__)
class Grid(_Listlike):
    """Rows of places (a book's pages of pockets), each holding one item or -1 (empty), `rows[r][place]`,
    and the same as one-hot cells, `cells[(r * width + place) * items + item]`. Written by `put` and
    `remove`."""

    __slots__ = ("rows", "cells", "items", "stamp")

    def __init__(self, rows: int, width: int, items: int) -> None:
        self.rows = [[-1] * width for _ in range(rows)]
        self.items = items
        self.cells = bytearray(rows * width * items)
        self.stamp = object()

    def put(self, row: int, place: int, item: int) -> None:
        """`item` in that place (-1: empty it)."""
        line = self.rows[row]
        at = (row * len(line) + place) * self.items
        old = line[place]
        if old >= 0:
            self.cells[at + old] = 0
        if item >= 0:
            self.cells[at + item] = 1
        line[place] = item
        self.stamp = object()

    def remove(self, item: int) -> None:
        """Empty every place holding `item`."""
        for r, line in enumerate(self.rows):
            while item in line:
                place = line.index(item)
                line[place] = -1
                self.cells[(r * len(line) + place) * self.items + item] = 0
        self.stamp = object()

    def in_step(self) -> bool:
        """Whether the cells agree with the places (the invariants check it)."""
        width, items = (len(self.rows[0]) if self.rows else 0), self.items
        cells = bytearray(len(self.rows) * width * items)
        for r, line in enumerate(self.rows):
            for place, item in enumerate(line):
                if item >= 0:
                    cells[(r * width + place) * items + item] = 1
        return cells == self.cells

    def _items(self) -> list:
        return self.rows

    def __copy__(self) -> "Grid":
        new = Grid.__new__(Grid)  # (not object.__new__: a compiled class has its own)
        new.rows = [line[:] for line in self.rows]
        new.cells = self.cells[:]
        new.items = self.items
        new.stamp = self.stamp
        return new
