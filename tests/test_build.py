"""Which build is loaded (`d2r_envs.build()`, d2r_envs/compiled.py) matches the environment: under
D2R_ENVS_PURE no compiled module is loaded; otherwise the engine is compiled exactly where setup.py's
extensions are installed and were built from the source beside them."""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
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
        current = _extensions_installed() and not compiled.changed_sources()
        assert (d2r_envs.build() == "compiled") == current
        assert ("d2r_envs.core.game" in compiled.compiled_modules()) == current


def test_a_compiled_build_records_the_source_it_was_built_from() -> None:
    if _extensions_installed():
        built = json.loads(compiled.SOURCES.read_text(encoding="utf-8"))
        assert "d2r_envs/core/game.py" in built and all(len(d) == 64 for d in built.values())


def _package(tmp_path: pathlib.Path, text: str) -> pathlib.Path:
    (tmp_path / "d2r_envs" / "core").mkdir(parents=True)
    (tmp_path / "d2r_envs" / "core" / "game.py").write_text(text)
    sources = tmp_path / "d2r_envs" / "compiled_sources.json"
    sources.write_text(json.dumps(compiled.source_digests(tmp_path, ["d2r_envs/core/game.py"])))
    return sources


def test_a_source_changed_since_the_build_is_named(tmp_path: pathlib.Path) -> None:
    sources = _package(tmp_path, "X = 1\n")
    assert json.loads(sources.read_text()) == {"d2r_envs/core/game.py": hashlib.sha256(b"X = 1\n").hexdigest()}
    assert compiled.changed_sources(sources) == []
    (tmp_path / "d2r_envs" / "core" / "game.py").write_text("X = 2\n")
    assert compiled.changed_sources(sources) == ["d2r_envs/core/game.py"]
    (tmp_path / "d2r_envs" / "core" / "game.py").unlink()
    assert compiled.changed_sources(sources) == ["d2r_envs/core/game.py"]
    assert compiled.changed_sources(tmp_path / "none.json") == []  # no compiled build: nothing to compare


def test_an_extension_older_than_its_source_is_passed_over_for_the_source(tmp_path, capsys, monkeypatch) -> None:
    sources = _package(tmp_path, "X = 1\n")
    (tmp_path / "d2r_envs" / "core" / "game.py").write_text("X = 2\n")
    monkeypatch.delenv(compiled.ENV, raising=False)
    monkeypatch.setattr(sys, "meta_path", [f for f in sys.meta_path if not isinstance(f, compiled._SourceFirst)])
    compiled.prefer_source(sources)
    assert isinstance(sys.meta_path[0], compiled._SourceFirst)
    assert "d2r_envs/core/game.py changed" in capsys.readouterr().err
    compiled.prefer_source(sources)  # once is enough: no second finder, no second notice
    assert sum(isinstance(f, compiled._SourceFirst) for f in sys.meta_path) == 1
    assert capsys.readouterr().err == ""


def test_d2r_envs_pure_loads_the_source_even_where_extensions_are_installed() -> None:
    code = ("import d2r_envs; d2r_envs.make_game('filthy_rich'); from d2r_envs.compiled import compiled_modules; "
            "print(d2r_envs.build(), compiled_modules())")
    env = {**os.environ, "D2R_ENVS_PURE": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "pure Python []"
