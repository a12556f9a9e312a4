"""A tournament's journal: every finished deal written to a file as it ends, so a long evaluation that
stops (a killed job, a lost session, a machine going down) resumes where it was.

The file is JSON lines: a header naming what the tournament is (game, options, players, lineup, seed,
decision cap, game version), then one line per finished deal with its game records and timing. Deal d is
seeded by (seed, d) alone, so the deals read back are the games a fresh run would play, and the result
of a resumed tournament equals an uninterrupted one's. A header that does not match the tournament asked
for is refused, naming the field, before any game is played; a last line cut off mid-write is dropped
(that deal is played again).
"""

from __future__ import annotations

import json
import os

try:
    import fcntl
except ImportError:  # not POSIX: no lock (two runs on one journal are then the user's to avoid)
    fcntl = None  # type: ignore[assignment]
from pathlib import Path
from typing import Any

FORMAT = 1
KEYS = ("game", "game_version", "options", "num_players", "lineup", "seed", "max_decisions", "trace")


class Journal:
    """Finished deals (`done`: deal -> (records, timing)) and an open file to add more to."""

    def __init__(self, path: str | Path, header: dict[str, Any]) -> None:
        self.path = Path(path)
        self.header = {"journal": FORMAT, **{k: header[k] for k in KEYS}}
        self.done: dict[int, tuple[list[dict[str, Any]], dict[str, list[float]]]] = {}
        if self.path.is_dir():
            raise ValueError(f"journal {str(self.path)!r} is a folder; give a file path")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = open(self.path, "a", encoding="utf-8")
        try:
            if fcntl is not None:
                try:
                    fcntl.flock(self._file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    raise ValueError(f"journal {str(self.path)!r} is in use by another run; wait for it to "
                                     "finish or give another file") from None
            keep = self._read()
            self._file.truncate(keep)  # drop a torn last line
            if keep == 0:
                self._write(self.header)
        except BaseException:
            self._file.close()
            raise

    def _read(self) -> int:
        """Load the finished deals; returns the byte length of the whole lines kept."""
        raw = self.path.read_bytes()  # (opened for appending above: it exists)
        if not raw:
            return 0
        keep = 0
        for number, line in enumerate(raw.splitlines(keepends=True), 1):
            if not line.endswith(b"\n"):
                break  # cut off mid-write: that deal is played again
            try:
                entry = json.loads(line)
            except ValueError:
                raise ValueError(f"journal {str(self.path)!r} line {number} is not JSON; it is not a tournament "
                                 "journal, or it was edited: use another file") from None
            if number == 1:
                self._check(entry)
            else:
                try:
                    deal, records, timing = int(entry["deal"]), entry["records"], entry["timing"]
                except (KeyError, TypeError, ValueError):
                    raise ValueError(f"journal {str(self.path)!r} line {number}: not a deal entry "
                                     "(deal, records, timing)") from None
                self.done[deal] = (records, timing)
            keep += len(line)
        return keep

    def _check(self, found: Any) -> None:
        if not isinstance(found, dict) or found.get("journal") != FORMAT:
            raise ValueError(f"journal {str(self.path)!r} has no tournament header (format {FORMAT}); use another file")
        for key in KEYS:
            if found.get(key) != self.header[key]:
                raise ValueError(
                    f"journal {str(self.path)!r} is of another tournament: its {key} is {found.get(key)!r}, this one's "
                    f"is {self.header[key]!r}; give the same settings to resume it, or another file"
                )

    def _write(self, entry: dict[str, Any]) -> None:
        self._file.write(json.dumps(entry, allow_nan=False) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def add(self, deal: int, records: list[dict[str, Any]], timing: dict[str, list[float]]) -> None:
        if deal in self.done:
            raise RuntimeError(f"deal {deal} finished twice in journal {str(self.path)!r}")
        self.done[deal] = (records, timing)
        self._write({"deal": deal, "records": records, "timing": timing})

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
