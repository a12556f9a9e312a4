"""A refusal: an HTTP status and a message for the person, with what is allowed where that helps."""

from __future__ import annotations

from typing import Any


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
