"""A refusal: an HTTP status and a message for the person, with what is allowed where that helps; and the
words a message uses for what the person sent (its JSON type, the value cut short)."""

from __future__ import annotations

from typing import Any

ECHO = 40  # characters of the person's input a message repeats
LONGEST = 400  # characters of a message from elsewhere about a file's contents (a replay's)


class Refused(Exception):
    """A request the server will not carry out; nothing was changed. `extra` goes into the JSON answer
    beside "error" (e.g. "allowed", or "step" for a stale move)."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"error": self.message, **self.extra}


def clip(value: Any) -> str:
    """`value` as a message repeats it: its repr; a longer string its first ECHO characters and "..."
    ('abc'...), anything else its repr cut to ECHO characters and "..."."""
    if isinstance(value, str) and len(value) > ECHO:
        return repr(value[:ECHO]) + "..."
    text = repr(value)
    return text if len(text) <= ECHO else text[:ECHO] + "..."


def shorten(message: str) -> str:
    """A message about what a file holds (which may repeat any of it), cut to LONGEST characters."""
    return message if len(message) <= LONGEST else message[:LONGEST] + "..."


def clip_echoes(message: str, values: Any) -> str:
    """`message` (from elsewhere, such as a game's option check) with each long repr of `values` (a
    dict's keys and values, or a list's items) cut as `clip` cuts it."""
    items = list(values.items()) if isinstance(values, dict) else [(v,) for v in values]
    for pair in items:
        for value in pair:
            text = repr(value)
            if len(text) > ECHO:
                message = message.replace(text, clip(value))
    return message


def json_type(value: Any) -> str:
    """What a parsed JSON value is, in JSON's words: an object, an array, a string, a number, true, false
    or null."""
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, (int, float)):
        return "a number"
    return {dict: "an object", list: "an array", str: "a string"}.get(type(value), type(value).__name__)
