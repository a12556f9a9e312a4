"""Which build is loaded: the compiled one, where the engine modules setup.py lists are mypyc's C
extensions, or pure Python. Both come from the same source and behave the same.

With D2R_ENVS_PURE=1 in the environment the build installs as pure Python, and an installed compiled
build loads its Python source instead of its extensions (`prefer_source`, which d2r_envs calls first).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import sys
from types import ModuleType
from typing import Any, Sequence

ENV = "D2R_ENVS_PURE"
PROBE = "d2r_envs.core.game"  # compiled in every compiled build (setup.py's COMPILED)


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


def prefer_source() -> None:
    """Under D2R_ENVS_PURE, load d2r_envs's modules from source even where extensions are installed."""
    if pure_requested() and not any(isinstance(f, _SourceFirst) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFirst())
