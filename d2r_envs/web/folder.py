"""The replay folder: the only place the server reads replays from and writes them to.

A replay is named by its file name alone (letters, digits, `.`, `_`, `-`, ending `.json`), directly in
the folder: no sub-folders, no absolute paths, no `..`, and no symbolic links, so nothing outside the
folder can be read. Files are opened without following links, size-checked and parsed as JSON by
`d2r_envs.replay.parse`; nothing is unpickled.
"""

from __future__ import annotations

import os
import re
import stat
import threading
from pathlib import Path
from typing import Any

from d2r_envs import replay
from d2r_envs.web.errors import Refused, clip, shorten

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,120}\.json")
RULE = "a replay is named by its file name in the replay folder: letters, digits, '.', '_' and '-', ending in .json"
MAX_LISTED = 500


class Folder:
    def __init__(self, root: str | Path) -> None:
        self.root = Path(root).resolve()
        self.root.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()

    def names(self) -> list[dict[str, Any]]:
        """The replays in the folder, newest first (at most MAX_LISTED): name, bytes, modified (s)."""
        found = []
        with os.scandir(self.root) as entries:
            for e in entries:
                try:
                    if NAME.fullmatch(e.name) and e.is_file(follow_symlinks=False):
                        st = e.stat(follow_symlinks=False)
                        found.append({"name": e.name, "bytes": st.st_size, "modified": st.st_mtime})
                except OSError:  # gone while listed
                    continue
        found.sort(key=lambda f: (-f["modified"], f["name"]))
        return found[:MAX_LISTED]

    def _path(self, name: Any) -> Path:
        if not isinstance(name, str) or not name:
            raise Refused(400, f"give the replay's name; {RULE}")
        if not NAME.fullmatch(name):
            raise Refused(400, f"replay name {clip(name)} is not allowed: {RULE}; no folders, '..' or absolute paths")
        return self.root / name

    def key(self, name: Any) -> tuple[str, int, int]:
        """(name, modification time, size) of a plain file in the folder: what a cached view is keyed on."""
        path = self._path(name)
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            raise Refused(404, f"no replay {clip(name)} in the replay folder") from None
        if stat.S_ISLNK(st.st_mode):
            raise Refused(400, f"replay {clip(name)} is a symbolic link; only plain files in the replay folder are opened")
        if not stat.S_ISREG(st.st_mode):
            raise Refused(400, f"replay {clip(name)} is not a plain file")
        return name, st.st_mtime_ns, st.st_size

    def read(self, name: Any) -> dict[str, Any]:
        """The parsed replay `name` (Refused: 400 for a bad name or link, 404 missing, 413 too large,
        422 not a replay)."""
        path = self._path(name)
        self.key(name)
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except FileNotFoundError:
            raise Refused(404, f"no replay {clip(name)} in the replay folder") from None
        except OSError as err:  # ELOOP: it became a link in between
            raise Refused(400, f"replay {clip(name)} cannot be opened as a plain file: {err.strerror}") from None
        with os.fdopen(fd, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise Refused(400, f"replay {clip(name)} is not a plain file")
            if size > replay.MAX_BYTES:
                raise Refused(413, f"replay {clip(name)} is {size:,} bytes; a replay is at most {replay.MAX_BYTES:,}")
            data = f.read(replay.MAX_BYTES + 1)
        try:
            return replay.parse(data)
        except replay.ReplayError as err:
            raise Refused(422, f"{name}: {shorten(str(err))}") from None

    def save(self, record: dict[str, Any]) -> str:
        """Write a new replay under a name of its own (`<game>_<seed>_web[-k].json`); return the name."""
        base = f"{record['game']}_{record['seed']}_web"
        with self._lock:
            for k in range(1, 10_000):
                name = base + (f"-{k}" if k > 1 else "") + ".json"
                try:  # claim the name: never overwrite a replay
                    os.close(os.open(self.root / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
                except FileExistsError:
                    continue
                replay.save(record, self.root / name)
                return name
        raise OSError(f"no free replay name for {base} in {self.root}")
