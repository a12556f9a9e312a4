"""A refusal: an HTTP status and a message for the person, with what is allowed where that helps; and the
words a message uses for what the person sent (its JSON type, the value cut short)."""

from __future__ import annotations

from typing import Any

from d2r_envs.core.words import quote as clip  # the person's input as a message repeats it, cut short

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


def shorten(message: str) -> str:
    """A message about what a file holds (which may repeat any of it), cut to LONGEST characters."""
    return message if len(message) <= LONGEST else message[:LONGEST] + "..."


def json_type(value: Any) -> str:
    """What a parsed JSON value is, in JSON's words: an object, an array, a string, a number, true, false
    or null."""
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, (int, float)):
        return "a number"
    return {dict: "an object", list: "an array", str: "a string"}.get(type(value), type(value).__name__)
