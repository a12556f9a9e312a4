"""Game options: a frozen dataclass per game, checked by name, type and allowed values."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from d2r_envs.core.words import quote

# Given apart from the options (`make_game(name, num_players, **options)`, the CLI's --players, the
# browser table's player count), so never listed among the options a caller may give.
PLAYER_COUNT = "num_players"


def option(default: Any, allowed: Any, doc: str) -> Any:
    """A config field. `allowed` is a collection of values or a (low, high) range for ints."""
    return dataclasses.field(default=default, metadata={"allowed": allowed, "doc": doc})


def _allows(allowed: Any, value: Any) -> bool:
    if isinstance(allowed, range):
        return value in allowed
    return value in allowed


def _describe_allowed(allowed: Any) -> str:
    """The allowed values as they are typed (JSON, as `--option` and YAML read them: true, not True)."""
    if isinstance(allowed, range):
        return f"{allowed.start}..{allowed.stop - 1}"
    return ", ".join(json.dumps(a) for a in allowed)


def _names(names: list[Any], most: int = 5) -> str:
    """Names as given, each quoted short, the first `most` of them and how many more."""
    shown = ", ".join(quote(n) for n in names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")


def build(cls: type, game: str, options: dict[str, Any]) -> Any:
    """Validate `options` against the dataclass `cls` and return an instance.

    Raises ValueError naming the key and what is allowed, before anything runs; what the caller gave
    is echoed cut short (core/words.py `quote`). The player count (`num_players`) is accepted but not
    listed among the allowed options: callers take it apart from the options.
    """
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(options) - set(fields), key=str)
    if unknown:
        listed = [name for name in fields if name != PLAYER_COUNT]
        raise ValueError(
            f"{game}: unknown option(s) {_names(unknown)}; "
            f"allowed options: {', '.join(sorted(listed)) or 'none'}"
        )
    for name, value in options.items():
        f = fields[name]
        kind = type(f.default)
        allowed = f.metadata["allowed"]
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise ValueError(
                f"{game}: option {name!r} must be an int ({_describe_allowed(allowed)}), "
                f"got {quote(value)} ({type(value).__name__})"
            )
        if kind is bool and not isinstance(value, bool):
            raise ValueError(f"{game}: option {name!r} must be true or false, got {quote(value)}")
        if kind is str and not isinstance(value, str):
            raise ValueError(f"{game}: option {name!r} must be a string, got {quote(value)}")
        if not _allows(allowed, value):
            raise ValueError(
                f"{game}: option {name!r} = {quote(value)} is not allowed; "
                f"allowed: {_describe_allowed(allowed)}"
            )
    return cls(**options)


def describe(cls: type) -> list[tuple[str, Any, str, str]]:
    """(name, default, allowed, doc) per option, for docs and the CLI."""
    return [
        (f.name, f.default, _describe_allowed(f.metadata["allowed"]), f.metadata["doc"])
        for f in dataclasses.fields(cls)
    ]


def parse_items(items: list[str] | None, flag: str = "--option") -> dict[str, Any]:
    """['short_game=10', 'long_game=true'] -> {'short_game': 10, 'long_game': True}: each value read as
    JSON when it parses, else as a plain string. A malformed item is a ValueError naming it, and so is
    num_players: every command that reads options takes the player count on its own (--players)."""
    options: dict[str, Any] = {}
    for item in items or []:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ValueError(f"{flag} {quote(item)}: expected key=value, e.g. short_game=10")
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            value = text  # a plain string
        if key == "num_players":
            raise ValueError(f"{flag} num_players: the player count is not a game option; give it with --players N")
        options[key] = value
    return options


def label(options: dict[str, Any]) -> str:
    """Options as a short tag for keys and titles: '' when none, else '[key=value,...]' (strings bare,
    other values as JSON)."""
    if not options:
        return ""
    return "[" + ",".join(f"{k}={v if isinstance(v, str) else json.dumps(v)}" for k, v in sorted(options.items())) + "]"

