"""Cloning a game state from its declared field types, so that no game lists its fields by hand.

A State is a dataclass (slots or not) whose fields are annotated with their shapes: `int`, `bool`,
an enum, `str`, `tuple[...]` or a NamedTuple of those (shared: they cannot change), or `list[...]`,
`bytearray`, `dict[...]` and `set[...]` of them, nested (copied to every mutable level), or a type that copies
itself with `__copy__` (core.zones.Deck). A field declared with
`compare=False` is a cache outside the game's state: clones share it, so the code that keeps one must
replace it, never change it in place. A field made by `core.events.sink()` (where the rules tell what
happens while a state is narrated) is left None in a clone. `copier(cls)` writes one flat function per
State class, as fast as a clone written out field by field. A State compiled by mypyc (setup.py) keeps
only the classes of its field types (`list`, not `list[list[int]]`): its field types are read from the
source beside the extension instead (`declared`), and a field whose type cannot be read there is copied
by what it holds (`copied`), to the same result.
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import inspect
import types
import typing
from pathlib import Path
from typing import Any, Callable

from d2r_envs.core.events import SINK

_IMMUTABLE = (int, float, bool, str, bytes, type(None))
_copiers: dict[type, Callable[[Any], Any]] = {}


def _is_immutable(kind: Any) -> bool:
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        return all(_is_immutable(k) for k in typing.get_args(kind))
    if origin is tuple:
        return all(k is Ellipsis or _is_immutable(k) for k in typing.get_args(kind))
    if origin is typing.Literal:
        return True
    if isinstance(kind, type) and issubclass(kind, tuple) and hasattr(kind, "_fields"):  # a NamedTuple
        return all(_is_immutable(k) for k in typing.get_type_hints(kind).values())
    return kind in _IMMUTABLE or (isinstance(kind, type) and issubclass(kind, (enum.Enum, *_IMMUTABLE)))


def copy_expr(kind: Any, value: str, depth: int = 0) -> str:
    """Python that copies `value` (an expression) of type `kind` down to its immutable leaves."""
    if _is_immutable(kind):
        return value
    origin = typing.get_origin(kind) or kind
    args = typing.get_args(kind)
    x = f"x{depth}"
    if origin is bytearray:
        return f"{value}[:]"
    if isinstance(origin, type) and hasattr(origin, "__copy__"):
        return f"{value}.__copy__()"  # a kit type that copies itself (core.zones.Deck)
    if origin is list:
        (item,) = args or (Any,)
        if _is_immutable(item):
            return f"{value}[:]"
        return f"[{copy_expr(item, x, depth + 1)} for {x} in {value}]"
    if origin is dict:
        key, item = args or (Any, Any)
        if not _is_immutable(key):
            raise TypeError(f"dict keys of type {key} cannot be copied")
        if _is_immutable(item):
            return f"dict({value})"
        return f"{{k{depth}: {copy_expr(item, x, depth + 1)} for k{depth}, {x} in {value}.items()}}"
    if origin is set:
        (item,) = args or (Any,)
        if not _is_immutable(item):
            raise TypeError(f"set items of type {item} cannot be copied")
        return f"set({value})"
    raise TypeError(f"cannot clone a field of type {kind!r}: declare it as int, bool, an enum, str, a tuple, "
                    "or a list, bytearray, dict or set of those (or mark a cache with compare=False)")


def copier(cls: type) -> Callable[[Any], Any]:
    """The clone function of the dataclass `cls`, written from its field types (cached)."""
    made = _copiers.get(cls)
    if made is not None:
        return made
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"{cls.__name__} is not a dataclass: the core clones States from their declared fields")
    erased = "__mypyc_attrs__" in vars(cls)  # compiled by mypyc, which erases its fields' item types
    hints = {**typing.get_type_hints(cls), **declared(cls)} if erased else typing.get_type_hints(cls)
    lines = ["def clone(s):", "    t = new(cls)"]
    for f in dataclasses.fields(cls):
        if f.metadata.get(SINK):
            expr = "None"  # a clone never inherits a sink: it stays with the state it was set on
        elif f.compare and erased and hints[f.name] in _ERASED:  # not read from the source
            expr = f"copied(s.{f.name})"
        elif f.compare:
            try:
                expr = copy_expr(hints[f.name], f"s.{f.name}")
            except TypeError as err:
                raise TypeError(f"{cls.__name__}.{f.name}: {err}") from None
        else:
            expr = f"s.{f.name}"  # a cache: shared, replaced rather than changed by whoever keeps it
        lines.append(f"    t.{f.name} = {expr}")
    lines.append("    return t")
    scope: dict[str, Any] = {"new": cls.__new__, "cls": cls, "copied": copied}  # (a compiled class has its own __new__)
    exec("\n".join(lines), scope)  # noqa: S102 - code written from the class's own annotations
    made = _copiers[cls] = scope["clone"]
    return made


_ERASED = (list, dict, set, object, type)  # what mypyc keeps of list[...], dict[...], set[...] and unions


def declared(cls: type) -> dict[str, Any]:
    """The field types of a class compiled by mypyc as its source declares them: its annotations read from
    the .py file beside the extension, resolved as `typing.get_type_hints` resolves them (in the class's
    module); a field whose type cannot be resolved there is left out ({} without the source)."""
    try:
        source = Path(inspect.getfile(cls)).parent / (cls.__module__.rpartition(".")[2] + ".py")
        tree = ast.parse(source.read_text(encoding="utf-8"))
    except (TypeError, OSError, SyntaxError, ValueError):
        return {}
    body = next((node.body for node in tree.body if isinstance(node, ast.ClassDef) and node.name == cls.__name__), [])
    found: dict[str, Any] = {}
    for item in body:
        if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            name = item.target.id
            stand_in = type(cls.__name__, (), {"__annotations__": {name: ast.unparse(item.annotation)},
                                               "__module__": cls.__module__})
            try:
                found[name] = typing.get_type_hints(stand_in)[name]
            except Exception:  # a name only a type checker sees: copied by what it holds
                continue
    return found


def copied(x: Any) -> Any:
    """A copy of `x` down to its immutable leaves, found from what it holds: for the fields of a compiled
    State, whose declared item types are not known at run time."""
    if isinstance(x, (*_IMMUTABLE, tuple, enum.Enum)):
        return x
    kind = type(x)
    if kind is list:
        return [copied(v) for v in x]
    if kind is bytearray:
        return x[:]
    if kind is dict:
        return {k: copied(v) for k, v in x.items()}
    if kind is set:
        return set(x)
    if hasattr(kind, "__copy__"):
        return x.__copy__()
    raise TypeError(f"cannot clone a value of type {kind.__name__}")


def clone(state: Any) -> Any:
    """A copy of `state` that shares no mutable object with it (caches excepted)."""
    return copier(type(state))(state)


def _copies_itself(x: Any) -> bool:
    """A mutable kit object (core.zones.Deck): its class defines __copy__ (enums are immutable)."""
    return hasattr(type(x), "__copy__") and not isinstance(x, enum.Enum)


def _slots(cls: type) -> list[str]:
    """The __slots__ of `cls` and of the classes it derives from (a compiled class lists its attributes
    in __mypyc_attrs__ instead)."""
    return [name for c in cls.__mro__ for name in c.__dict__.get("__slots__", c.__dict__.get("__mypyc_attrs__", ()))
            if not name.startswith("__")]


def shared_mutables(a: Any, b: Any) -> list[str]:
    """The places where `a` and `b` hold the very same mutable object (lists, bytearrays, dicts, sets),
    caches (compare=False fields) excepted: empty for a proper clone."""
    out: list[str] = []

    def walk(x: Any, y: Any, where: str) -> None:
        if isinstance(x, (list, bytearray, dict, set)) or _copies_itself(x):
            if x is y:
                out.append(where)
                return
        if isinstance(x, (list, tuple)) and isinstance(y, (list, tuple)):
            for i, (u, v) in enumerate(zip(x, y)):
                walk(u, v, f"{where}[{i}]")
        elif isinstance(x, dict) and isinstance(y, dict):
            for k in x.keys() & y.keys():
                walk(x[k], y[k], f"{where}[{k!r}]")
        if _copies_itself(x) and type(x) is type(y):  # (a kit list also keeps copies in its slots)
            for name in _slots(type(x)):
                walk(getattr(x, name), getattr(y, name), f"{where}.{name}")

    for f in dataclasses.fields(a):
        if f.compare:
            walk(getattr(a, f.name), getattr(b, f.name), f.name)
    return out
