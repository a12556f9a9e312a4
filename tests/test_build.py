"""Which build is loaded (`d2r_envs.build()`, d2r_envs/compiled.py) matches the environment: under
D2R_ENVS_PURE no compiled module is loaded; otherwise the engine is compiled exactly where setup.py's
extensions are installed."""

from __future__ import annotations

import importlib.machinery
import os
import pathlib
import subprocess
import sys

import d2r_envs
from d2r_envs import compiled


def _extensions_installed() -> bool:
    core = pathlib.Path(compiled.__file__).parent / "core"
    return any((core / f"game{suffix}").exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def test_the_loaded_build_matches_the_environment() -> None:
    d2r_envs.make_game("draco_and_co")
    if compiled.pure_requested():
        assert d2r_envs.build() == "pure Python" and compiled.compiled_modules() == []
    else:
        assert (d2r_envs.build() == "compiled") == _extensions_installed()
        assert ("d2r_envs.core.game" in compiled.compiled_modules()) == _extensions_installed()


def test_d2r_envs_pure_loads_the_source_even_where_extensions_are_installed() -> None:
    code = ("import d2r_envs; d2r_envs.make_game('filthy_rich'); from d2r_envs.compiled import compiled_modules; "
            "print(d2r_envs.build(), compiled_modules())")
    env = {**os.environ, "D2R_ENVS_PURE": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "pure Python []"
