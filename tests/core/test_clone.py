"""core/clone.py: States are cloned from their declared field types."""

from __future__ import annotations

import copy
import dataclasses
import enum
import typing
from dataclasses import dataclass, field
from typing import NamedTuple

import pytest

import d2r_envs
from d2r_envs.core.clone import clone, copier, declared, shared_mutables
from d2r_envs.core.events import sink


class Colour(enum.IntEnum):
    RED = 0


@dataclass(slots=True)
class Toy:
    n: int
    hands: list[bytearray]
    grid: list[list[int]]
    queue: list[tuple[int, int]]
    bag: dict[str, list[int]]
    seen: set[int]
    colour: Colour = Colour.RED
    cache: list | None = field(default=None, compare=False)


def _toy() -> Toy:
    return Toy(2, [bytearray(b"\x01\x02"), bytearray(2)], [[1, 2], [3]], [(1, 2)], {"a": [1]}, {1}, cache=[0])


def test_every_mutable_level_is_copied_and_caches_are_shared() -> None:
    a = _toy()
    b = clone(a)
    assert a == b and not shared_mutables(a, b)
    assert b.cache is a.cache and b.queue[0] is a.queue[0]  # caches and tuples are shared on purpose
    b.hands[0][0] = 9
    b.grid[0].append(7)
    b.bag["a"].append(2)
    b.seen.add(5)
    assert a == _toy()


def test_a_shallow_copy_is_caught() -> None:
    a = _toy()
    assert set(shared_mutables(a, copy.copy(a))) == {"hands", "grid", "queue", "bag", "seen"}


def test_an_undeclared_shape_is_refused_naming_the_field() -> None:
    @dataclass
    class Bad:
        thing: object

    with pytest.raises(TypeError, match=r"Bad.thing: cannot clone a field of type"):
        copier(Bad)


class Pair(NamedTuple):
    kind: Colour
    arg: int = 0


class Holder(NamedTuple):
    items: list[int]


def test_a_named_tuple_of_immutable_fields_is_shared_and_one_holding_a_list_is_refused() -> None:
    @dataclass(slots=True)
    class Queue:
        steps: list[Pair]

    a = Queue([Pair(Colour.RED, 3)])
    b = clone(a)
    assert a == b and b.steps is not a.steps and b.steps[0] is a.steps[0]

    @dataclass
    class Bad:
        held: list[Holder]

    with pytest.raises(TypeError, match=r"Bad.held: cannot clone a field of type"):
        copier(Bad)


@dataclass(slots=True)
class Told:
    n: int
    tell: object = sink()


def test_a_sink_is_no_part_of_the_state_and_a_clone_starts_without_one() -> None:
    told: list = []
    a = Told(1, told.append)
    b = clone(a)
    assert b.tell is None and a.tell is not None
    assert a == b and a == Told(1) and "tell" not in repr(a)


@pytest.mark.parametrize("name", d2r_envs.names())
def test_every_state_field_type_is_read_from_the_source_as_declared(name: str) -> None:
    """A State compiled by mypyc keeps only its fields' classes; the clone reads their declared types from
    the source instead, for every field (none left to the slower copy by what it holds)."""
    cls = type(d2r_envs.make_game(name).new_initial_state())
    found = declared(cls)
    assert {f.name for f in dataclasses.fields(cls) if f.compare} <= set(found)
    if "__mypyc_attrs__" not in vars(cls):  # interpreted: the same types the interpreter resolves
        hints = typing.get_type_hints(cls)
        assert {k: found[k] for k in hints} == hints
