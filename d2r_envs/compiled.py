"""Which build is loaded: the compiled one, where the engine modules setup.py lists are mypyc's C
extensions, or pure Python. Both come from the same source and behave the same.

With D2R_ENVS_PURE=1 in the environment the build installs as pure Python, and an installed compiled
build loads its Python source instead of its extensions (`prefer_source`, which d2r_envs calls first).

A compiled build never runs older code than its source: the build writes SOURCES, the SHA-256 of every
module it compiled, beside the package, and where a module's source no longer matches (a rule changed in
an editable install, not built again) `prefer_source` loads the Python source instead, saying so once.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import json
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Sequence

ENV = "D2R_ENVS_PURE"
PROBE = "d2r_envs.core.game"  # compiled in every compiled build (setup.py's COMPILED)
SOURCES = Path(__file__).with_name("compiled_sources.json")  # written by the compiled build (setup.py)


def pure_requested() -> bool:
    """D2R_ENVS_PURE is set to something other than "" or "0"."""
    return os.environ.get(ENV, "") not in ("", "0")


def is_compiled(module: ModuleType) -> bool:
    """The module was loaded from a C extension."""
    return str(getattr(module, "__file__", "") or "").endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def compiled_modules() -> list[str]:
    """The names of the loaded d2r_envs modules that are C extensions."""
    return sorted(name for name, m in list(sys.modules.items())
                  if name.startswith("d2r_envs.") and m is not None and is_compiled(m))


def build() -> str:
    """"compiled" when the engine runs as mypyc's C extensions, else "pure Python"."""
    import importlib

    return "compiled" if is_compiled(importlib.import_module(PROBE)) else "pure Python"


class _SourceFirst(importlib.abc.MetaPathFinder):
    """Finds d2r_envs's modules from their .py files only, passing over the compiled extensions."""

    def find_spec(self, name: str, path: Sequence[str] | None, target: Any = None) -> Any:
        if not name.startswith("d2r_envs.") or not path:
            return None
        loaders = [(importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)]
        for entry in path:
            spec = importlib.machinery.FileFinder(entry, *loaders).find_spec(name, target)
            if spec is not None:
                return spec
        return None


def source_digests(root: Path, files: Sequence[str]) -> dict[str, str]:
    """The SHA-256 of each file (a path relative to `root`, the folder holding the package)."""
    return {f: hashlib.sha256((root / f).read_bytes()).hexdigest() for f in files}


def changed_sources(sources: Path = SOURCES) -> list[str]:
    """The compiled modules whose source differs from the one they were built from (or is gone); none
    where no compiled build wrote `sources`."""
    try:
        built = json.loads(sources.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    root = sources.parent.parent
    return sorted(f for f, digest in built.items()
                  if not (root / f).is_file() or source_digests(root, [f])[f] != digest)


def prefer_source(sources: Path = SOURCES) -> None:
    """Load d2r_envs's modules from source even where extensions are installed: under D2R_ENVS_PURE, and
    where the compiled build is older than its source (with a one-line notice naming what changed)."""
    if any(isinstance(f, _SourceFirst) for f in sys.meta_path):
        return
    if pure_requested():
        sys.meta_path.insert(0, _SourceFirst())
        return
    changed = changed_sources(sources)
    if changed:
        more = f" and {len(changed) - 1} more" if len(changed) > 1 else ""
        print(f"d2r_envs: the compiled engine is older than its source ({changed[0]}{more} changed): running "
              "the Python source; `pip install -e .` compiles it again", file=sys.stderr)
        sys.meta_path.insert(0, _SourceFirst())
