"""core/stamped.py: containers that keep their one-hot copies and totals in step and stamp every write."""

from __future__ import annotations

import copy
import pickle
from dataclasses import dataclass

import pytest

from d2r_envs.core.clone import clone, shared_mutables
from d2r_envs.core.stamped import Grid, Owners, SeatCounts


@dataclass(slots=True)
class Table:
    owner: Owners
    assets: SeatCounts
    book: Grid


def _table() -> Table:
    t = Table(Owners([-1, 0, 2, -3], 3, weights=[1, 2, 3, 4]), SeatCounts(3, 4, weights=[0, 1, 0, 2]), Grid(2, 3, 4))
    t.assets.add(1, 3, 3)
    t.book.put(1, 2, 3)
    return t


def _stamps(t: Table) -> list[object]:
    return [t.owner.stamp, t.assets.stamp, t.book.stamp]


def test_owners_keep_one_hot_rows_and_totals_per_seat() -> None:
    o = Owners([-1, 0, 2, -3], 3, weights=[1, 2, 3, 4])
    assert o.of == [-1, 0, 2, -3] and o.held == [bytearray([0, 1, 0, 0]), bytearray(4), bytearray([0, 0, 1, 0])]
    assert o.totals == [2, 0, 3]
    o.set(1, 2)
    o.set(0, 0)
    o.set(2, -2)  # a number of the game's own: in no seat's row
    assert o.of == [0, 2, -2, -3] and o.held == [bytearray([1, 0, 0, 0]), bytearray(4), bytearray([0, 1, 0, 0])]
    assert o.totals == [1, 0, 2] and o.in_step()
    with pytest.raises(IndexError):
        o.set(0, 3)  # no such seat: nothing changed
    assert o.of == [0, 2, -2, -3] and o.in_step()
    # Read like the list of owners.
    assert o == [0, 2, -2, -3] and [0, 2, -2, -3] == o and o[1] == 2 and list(o) == o.of and len(o) == 4
    assert 2 in o and 1 not in o and o.count(-3) == 1 and o != [0, 0, 0, 0]
    o.of[0] = 1  # a write past `set`: the invariants see it
    assert not o.in_step()


def test_seat_counts_add_empty_and_total() -> None:
    c = SeatCounts(2, 3, weights=[0, 1, 3])
    c.add(1, 2)
    c.add(1, 2, 2)
    c.add(1, 1, 1)
    c.add(1, 2, -1)
    assert c.counts == [bytearray(3), bytearray([0, 1, 2])] and c.totals == [0, 7] and c.in_step()
    assert c[1][2] == 2 and c == [bytearray(3), bytearray([0, 1, 2])]
    c.empty(1)
    assert c.counts == [bytearray(3)] * 2 and c.totals == [0, 0] and c.in_step()


def test_a_grid_keeps_one_hot_cells() -> None:
    g = Grid(2, 3, 4)
    assert g.rows == [[-1] * 3, [-1] * 3] and g.cells == bytearray(24)
    g.put(1, 2, 3)
    g.put(0, 0, 1)
    g.put(0, 0, 2)  # replaces
    g.put(0, 2, 2)
    assert g.rows == [[2, -1, 2], [-1, -1, 3]] and g.in_step() and sum(g.cells) == 3
    assert g.cells[(0 * 3 + 0) * 4 + 2] == 1 and g.cells[(1 * 3 + 2) * 4 + 3] == 1
    g.remove(2)
    assert g.rows == [[-1, -1, -1], [-1, -1, 3]] and sum(g.cells) == 1 and g.in_step()
    g.put(1, 2, -1)
    assert g == [[-1] * 3, [-1] * 3] and g[1] == [-1] * 3 and len(g) == 2 and not any(g.cells)
    g.rows[0][1] = 1  # a write past `put`: the invariants see it
    assert not g.in_step()


def test_every_write_changes_the_stamp_and_only_a_write() -> None:
    t = _table()
    writes = [
        (t.owner, lambda: t.owner.set(0, 1)),
        (t.owner, lambda: t.owner.set(0, 1)),  # the same value again: still a new stamp
        (t.assets, lambda: t.assets.add(0, 1)),
        (t.assets, lambda: t.assets.empty(2)),
        (t.book, lambda: t.book.put(0, 1, 2)),
        (t.book, lambda: t.book.put(0, 1, -1)),
        (t.book, lambda: t.book.remove(3)),
    ]
    for container, write in writes:
        before = _stamps(t)
        list(container), len(container), container[0], container == container  # reads change nothing
        assert t.owner.in_step() and t.assets.in_step() and t.book.in_step()
        assert _stamps(t) == before
        write()
        changed = [a is not b for a, b in zip(_stamps(t), before)]
        assert changed == [x is container for x in (t.owner, t.assets, t.book)]


def test_a_clone_is_independent_and_shares_stamps_until_written() -> None:
    a = _table()
    b = clone(a)
    assert b == a and not shared_mutables(a, b)
    assert [type(x) for x in (b.owner, b.assets, b.book)] == [Owners, SeatCounts, Grid]
    assert all(x is y for x, y in zip(_stamps(a), _stamps(b)))  # equal contents: the same stamps
    b.owner.set(0, 1)
    b.assets.add(0, 1)
    b.book.put(0, 0, 1)
    assert a == _table() and all(x.in_step() for x in (a.owner, a.assets, a.book, b.owner, b.assets, b.book))
    assert b.owner.totals == [2, 1, 3] and a.owner.totals == [2, 0, 3]
    assert all(x is not y for x, y in zip(_stamps(a), _stamps(b)))
    # A shallow copy, or a container's copies shared, is caught.
    assert set(shared_mutables(a, copy.copy(a))) == {"owner", "assets", "book"}
    c = clone(a)
    c.owner.held = a.owner.held
    c.assets.totals = a.assets.totals
    c.book.cells = a.book.cells
    assert set(shared_mutables(a, c)) == {"owner.held", "assets.totals", "book.cells"}


def test_a_pickle_round_trip_keeps_contents_and_gets_new_stamps() -> None:
    a = _table()
    for b in (pickle.loads(pickle.dumps(a)), copy.deepcopy(a)):
        assert b == a and not shared_mutables(a, b)
        assert (b.owner.held, b.owner.totals, b.assets.totals, b.book.cells) == (
            a.owner.held, a.owner.totals, a.assets.totals, a.book.cells)
        assert all(x is not y for x, y in zip(_stamps(a), _stamps(b)))
        b.owner.set(0, 2)
        b.assets.add(2, 3)
        b.book.put(0, 0, 0)
        assert b.owner.in_step() and b.assets.in_step() and b.book.in_step()
