"""The build: the modules in COMPILED become C extensions made by mypyc (as black and mypy ship themselves)
where mypyc and a C compiler are at hand; elsewhere, or with D2R_ENVS_PURE=1 in the environment, the
same source installs as pure Python and the build says so in one line. Both builds behave the same:
the tests run on both (README.md, "The compiled build"). Everything else is in pyproject.toml.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig

from setuptools import setup
from setuptools.command.build_ext import build_ext

# The modules mypyc compiles: the engine a step runs through. Each must type-check cleanly under mypy;
# a module left out here runs as Python and may still import the compiled ones.
COMPILED = [
    # The core: the engine protocol, the events, the card containers and the action space.
    "d2r_envs/core/game.py",
    "d2r_envs/core/events.py",
    "d2r_envs/core/zones.py",
    "d2r_envs/core/actions.py",
    # Draco & Co: rules, state, cards, facts the rules tell, and the observation encoder.
    "d2r_envs/games/draco_and_co/rules.py",
    "d2r_envs/games/draco_and_co/state.py",
    "d2r_envs/games/draco_and_co/cards.py",
    "d2r_envs/games/draco_and_co/actions.py",
    "d2r_envs/games/draco_and_co/facts.py",
    "d2r_envs/games/draco_and_co/encode_fast.py",
    # Filthy Rich: the same parts.
    "d2r_envs/games/filthy_rich/rules.py",
    "d2r_envs/games/filthy_rich/state.py",
    "d2r_envs/games/filthy_rich/cards.py",
    "d2r_envs/games/filthy_rich/actions.py",
    "d2r_envs/games/filthy_rich/facts.py",
    "d2r_envs/games/filthy_rich/encode_fast.py",
    # Drags 2 Riches: the same parts.
    "d2r_envs/games/drags_2_riches/rules.py",
    "d2r_envs/games/drags_2_riches/state.py",
    "d2r_envs/games/drags_2_riches/cards.py",
    "d2r_envs/games/drags_2_riches/actions.py",
    "d2r_envs/games/drags_2_riches/facts.py",
    "d2r_envs/games/drags_2_riches/encode_fast.py",
    # Extravaganza: the same parts.
    "d2r_envs/games/extravaganza/rules.py",
    "d2r_envs/games/extravaganza/state.py",
    "d2r_envs/games/extravaganza/cards.py",
    "d2r_envs/games/extravaganza/actions.py",
    "d2r_envs/games/extravaganza/facts.py",
    "d2r_envs/games/extravaganza/encode_fast.py",
    # Rap Godz: the same parts.
    "d2r_envs/games/rap_godz/rules.py",
    "d2r_envs/games/rap_godz/state.py",
    "d2r_envs/games/rap_godz/cards.py",
    "d2r_envs/games/rap_godz/actions.py",
    "d2r_envs/games/rap_godz/facts.py",
    "d2r_envs/games/rap_godz/encode_fast.py",
    "d2r_envs/games/rap_godz/standing.py",  # the majorities the encoder's view reads
    # The heuristics: every game's rule-of-thumb player, the benchmark's anchor and most opponents' seats.
    "d2r_envs/games/draco_and_co/heuristic.py",
    "d2r_envs/games/filthy_rich/heuristic.py",
    "d2r_envs/games/drags_2_riches/heuristic.py",
    "d2r_envs/games/extravaganza/heuristic.py",
    "d2r_envs/games/rap_godz/heuristic.py",
    # The search every game can play: information-set MCTS and its play-outs (the references' and the
    # hardest levels' opponent, and a teacher).
    "d2r_envs/agents/mcts.py",
    "d2r_envs/agents/playout.py",
]

# The shared library mypyc puts every compiled module's code in: inside the package, so that an editable
# install finds it where it finds the package.
GROUP = "d2r_envs.engine"


def _pure(why: str) -> list:
    print(f"d2r_envs: building pure Python ({why})", file=sys.stderr)
    return []


def ext_modules() -> list:
    """mypyc's extensions for COMPILED, or none (the pure-Python build)."""
    if os.environ.get("D2R_ENVS_PURE", "") not in ("", "0"):
        return _pure("D2R_ENVS_PURE is set")
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return _pure(f"no C compiler: {compiler} not found")
    try:
        from mypyc.build import mypycify
    except ImportError:
        return _pure("mypyc is not installed")
    return mypycify(["--follow-imports=silent", "--ignore-missing-imports", *COMPILED], opt_level="3",
                    group_name=GROUP)


class BuildExt(build_ext):
    """build_ext that falls back to the pure-Python build when compiling fails (no Python headers, say),
    and, when it compiled, writes the SHA-256 of each compiled source beside the package, from which
    d2r_envs/compiled.py tells an extension built from older source (and loads the source instead)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as err:  # a compiler's or a linker's error: the Python source still works
            self.extensions = []
            _pure(f"compiling failed: {type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}")
            return
        if self.extensions:
            self._write_sources()

    def _write_sources(self) -> None:
        import hashlib
        import json

        digests = {f: hashlib.sha256(open(f, "rb").read()).hexdigest() for f in COMPILED}
        folders = [os.path.join(self.build_lib, "d2r_envs")]
        if self.inplace:  # an editable install: the extensions sit beside the source
            folders.append(self.get_finalized_command("build_py").get_package_dir("d2r_envs"))
        for folder in folders:
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, "compiled_sources.json"), "w", encoding="utf-8") as out:
                json.dump(digests, out, indent=1, sort_keys=True)
                out.write("\n")


setup(ext_modules=ext_modules(), cmdclass={"build_ext": BuildExt})
