"""Layering and determinism rules that a grep can check."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import d2r_envs

PACKAGE = Path(d2r_envs.__file__).parent
ENGINE_FILES = ["rules.py", "state.py", "cards.py", "config.py", "actions.py", "invariants.py", "narrate.py", "draw.py"]
NOT_IN_ENGINE = ("numpy", "gymnasium", "pettingzoo", "torch")


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("game", d2r_envs.names())
def test_engine_knows_nothing_of_numpy_or_pettingzoo(game: str) -> None:
    for name in ENGINE_FILES:
        path = PACKAGE / "games" / game / name
        if path.exists():
            bad = _imports(path) & set(NOT_IN_ENGINE)
            assert not bad, f"{path} imports {bad}"


def test_no_global_rng_anywhere_in_the_package() -> None:
    pattern = re.compile(r"^\s*import random\b|^\s*from random import|np\.random\.(?!Generator|default_rng)\w+\(|random\.seed\(")
    offenders = [
        f"{path.relative_to(PACKAGE)}:{i}: {line.strip()}"
        for path in PACKAGE.rglob("*.py")
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert not offenders, offenders


TRAINING_LIBRARIES = {"torch", "stable_baselines3", "sb3_contrib", "yaml", "ray"}


def test_environments_never_import_training_libraries() -> None:
    for path in PACKAGE.rglob("*.py"):
        bad = _imports(path) & TRAINING_LIBRARIES
        assert not bad, f"{path} imports {bad}"


def test_only_the_openspiel_adapter_imports_openspiel() -> None:
    importers = sorted(str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py")
                       if _imports(path) & {"pyspiel", "open_spiel"})
    assert importers == ["openspiel.py"]


def test_environments_and_load_opponent_run_without_ray_or_torch_loaded() -> None:
    """What the grep above cannot see (an import made by a dependency): a fresh interpreter that makes
    every game's env, plays a move and loads a shipped opponent has loaded neither Ray nor torch."""
    import subprocess
    import sys

    code = (
        "import sys, d2r_envs\n"
        "for name in d2r_envs.names():\n"
        "    env = d2r_envs.make(name); env.reset(seed=0)\n"
        "    obs = env.observe(env.agent_selection)\n"
        "    env.step(int(obs['action_mask'].nonzero()[0][0]))\n"
        "p = d2r_envs.load_opponent('drags_2_riches/ppo-v2')\n"
        "print(sorted(m for m in ('ray', 'torch', 'stable_baselines3', 'sb3_contrib', 'pyspiel') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=PACKAGE.parent)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_ci_runs_the_readme_test_command() -> None:
    root = PACKAGE.parent
    readme = (root / "README.md").read_text(encoding="utf-8")
    ci = (root / ".ci" / "run").read_text(encoding="utf-8")
    command = next(line for line in ci.splitlines() if "pytest" in line).strip()
    assert command in readme, f"README.md does not show CI's test command: {command}"
    steps = [line.strip() for line in ci.splitlines() if line.strip() and not line.startswith(("#", "set ", "cd "))]
    assert "apt-get update && apt-get install -y chromium" in steps  # the browser tests' Chromium
    for step in steps:  # every step of CI is a line of README's install section, in the same order
        assert "\n" + step + "\n" in readme, f"README.md does not show CI's step: {step}"
    at = [readme.index("\n" + step + "\n") for step in steps]
    assert at == sorted(at)


def _modules(path: Path) -> set[str]:
    """Every module `path` imports, by full dotted name (function-level imports included)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
    return names


def test_ray_stays_inside_the_training_modules_that_are_about_it() -> None:
    """Ray is an optional extra: only training/rllib/, ray_cluster.py and ray_eval.py import it, and the
    evaluation and SB3 training modules reach it only inside the functions that use it."""
    allowed = {"training/ray_cluster.py", "training/ray_eval.py"}
    for path in (PACKAGE.parent / "training").rglob("*.py"):
        rel = path.relative_to(PACKAGE.parent).as_posix()
        if rel.startswith("training/rllib/") or rel in allowed:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
        names = {a.name.split(".")[0] for n in top if isinstance(n, ast.Import) for a in n.names}
        names |= {n.module.split(".")[0] for n in top if isinstance(n, ast.ImportFrom) and n.module}
        names |= {n.module for n in top if isinstance(n, ast.ImportFrom) and n.module}
        assert "ray" not in names and not any(m.startswith("training.rllib") or m in ("training.ray_eval",
                                              "training.ray_cluster") for m in names), f"{rel} imports Ray at the top"


def test_training_never_reaches_back_up_to_the_command_line() -> None:
    """d2r_envs/cli.py calls into training; training builds its own parsers (training/commands.py)."""
    for path in (PACKAGE.parent / "training").rglob("*.py"):
        bad = {m for m in _modules(path) if m == "d2r_envs.cli" or m.startswith("d2r_envs.cli.")}
        assert not bad, f"{path} imports {bad}"
    assert "torch" not in _imports(PACKAGE.parent / "training" / "commands.py")


def training_graph(root: Path) -> dict[str, set[str]]:
    """The modules of the package at `root` (training/), by dotted name, each with the package's modules it
    imports, at the top or inside a function."""
    modules = {}
    for path in root.rglob("*.py"):
        rel = path.relative_to(root.parent).with_suffix("")
        modules[".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)] = path
    graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        used = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                used.update(a.name for a in node.names if a.name in modules)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # from . import x, from ..y import z
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(up + ([base] if base else []))
                for a in node.names:
                    if f"{base}.{a.name}" in modules:
                        used.add(f"{base}.{a.name}")
                    elif base in modules:
                        used.add(base)
        graph[name] = used - {name}
    return graph


def import_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of the import graph, its modules in order and the first again at the end; None if none."""
    done: set[str] = set()
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        path.append(module)
        for used in sorted(graph.get(module, ())):
            if used in path:
                return path[path.index(used):] + [used]
            if used not in done:
                found = visit(used)
                if found:
                    return found
        path.pop()
        done.add(module)
        return None

    for module in sorted(graph):
        if module not in done:
            found = visit(module)
            if found:
                return found
    return None


def test_training_modules_depend_downward_only() -> None:
    """No circle of imports between training's modules, counting those made inside functions: every
    module builds on modules below it."""
    graph = training_graph(PACKAGE.parent / "training")
    assert {"training.train", "training.evaluate", "training.rllib.train"} <= set(graph)
    cycle = import_cycle(graph)
    assert cycle is None, "training/ imports in a circle: " + " -> ".join(cycle)


def test_the_light_training_modules_load_without_torch_ray_or_yaml() -> None:
    """`d2r eval`, `d2r export`, `d2r balance` and the bars load no training library until one is needed:
    a fresh interpreter in which torch, SB3, Ray and YAML cannot be imported imports them all."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "for m in ('torch', 'stable_baselines3', 'sb3_contrib', 'ray', 'yaml'):\n"
        "    sys.modules[m] = None\n"
        "import training.evaluate, training.export, training.balance, training.bars, training.commands\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=PACKAGE.parent)
    assert out.stdout.strip() == "ok", out.stdout + out.stderr


def test_an_import_circle_through_a_function_is_found(tmp_path: Path) -> None:
    root = tmp_path / "training"
    (root / "sub").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "sub" / "__init__.py").write_text("")
    (root / "low.py").write_text("import numpy\n")
    (root / "a.py").write_text("from training import low\nfrom training.sub import b\n")
    (root / "sub" / "b.py").write_text("def f():\n    from ..a import low\n")
    graph = training_graph(root)
    assert graph == {"training": set(), "training.sub": set(), "training.low": set(),
                     "training.a": {"training.low", "training.sub.b"}, "training.sub.b": {"training.a"}}
    assert import_cycle(graph) == ["training.a", "training.sub.b", "training.a"]
    (root / "sub" / "b.py").write_text("from training import low\n")
    assert import_cycle(training_graph(root)) is None


# The layers of the package, lowest first: a module may import its own layer and those below, never one above.
# The face (d2r_envs/__init__.py, cli.py, play.py, bench.py) may import anything in d2r_envs; training anything
# but the CLI.
LAYERS = [
    ("core", ["d2r_envs.core"]),
    ("games", ["d2r_envs.games"]),
    ("registry and its description of a game", ["d2r_envs.registry", "d2r_envs.describe"]),
    ("pictures", ["d2r_envs.render"]),
    ("agents, opponents and difficulty levels", ["d2r_envs.agents", "d2r_envs.opponents", "d2r_envs.difficulty"]),
    ("the learner's env, OpenSpiel's games, goldens and replays",
     ["d2r_envs.single_agent", "d2r_envs.openspiel", "d2r_envs.playthrough", "d2r_envs.replay"]),
]
FACE = ["d2r_envs", "d2r_envs.cli", "d2r_envs.play", "d2r_envs.bench", "d2r_envs.compiled"]
FACE_PACKAGES = ["d2r_envs.web"]  # the browser table: the face too, every module of it, reached only by `d2r serve`


def _module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts[:-1] if rel.name == "__init__" else rel.parts)
    return ".".join(parts)


def _our_imports(path: Path) -> set[str]:
    """The d2r_envs modules `path` imports; `from d2r_envs import make_game` counts as the face."""
    import importlib.util

    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.split(".")[0] == "d2r_envs")
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "d2r_envs":
            for a in node.names:
                sub = f"{node.module}.{a.name}"
                try:
                    is_module = importlib.util.find_spec(sub) is not None
                except ModuleNotFoundError:  # node.module is a module, a.name a name in it
                    is_module = False
                out.add(sub if is_module else node.module)
    return out


def _layer(module: str) -> int | None:
    for i, (_, prefixes) in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return i
    return None


def test_each_layer_imports_only_itself_and_the_layers_below() -> None:
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        me = _module_name(path)
        mine = _layer(me)
        if mine is None:
            in_face = me in FACE or any(me == p or me.startswith(p + ".") for p in FACE_PACKAGES)
            assert in_face, f"{me} has no place in the layers of tests/test_purity.py"
            continue
        for used in _our_imports(path):
            theirs = _layer(used)
            if theirs is None or theirs > mine:
                offenders.append(f"{me} imports {used}")
            elif mine == 1 and used.split(".")[2] != me.split(".")[2] and theirs == 1:
                offenders.append(f"{me} imports another game: {used}")
    assert not offenders, "\n".join(sorted(offenders))


WEB_LIBRARIES = {"starlette", "uvicorn", "httpx", "httpx2", "playwright"}


def test_only_the_browser_table_imports_the_web_stack() -> None:
    for path in PACKAGE.rglob("*.py"):
        if _module_name(path).startswith("d2r_envs.web"):
            continue
        bad = _imports(path) & WEB_LIBRARIES
        assert not bad, f"{path} imports {bad}"
    for path in (PACKAGE.parent / "training").rglob("*.py"):
        assert not _imports(path) & WEB_LIBRARIES, path


def test_the_package_and_its_command_line_load_no_web_server() -> None:
    """`import d2r_envs`, every env and the `d2r` parser leave Starlette and uvicorn unloaded: only
    `d2r serve` imports them."""
    import subprocess
    import sys

    code = (
        "import sys, d2r_envs, d2r_envs.cli, d2r_envs.play\n"
        "d2r_envs.cli.build_parser().parse_args(['serve', '--port', '1'])\n"
        "for name in d2r_envs.names():\n"
        "    env = d2r_envs.make(name); env.reset(seed=0)\n"
        "print(sorted(m for m in ('starlette', 'uvicorn', 'd2r_envs.web.app') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=PACKAGE.parent)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_nothing_finds_a_games_modules_by_name() -> None:
    """A game's pieces are declared once, in its package record (core/package.py), and read from it through
    the registry: the core looks up no module at all, and nothing but the registry imports a game by name."""
    for path in (PACKAGE / "core").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "sys.modules" not in text and "import_module" not in text, f"{path} looks a module up"
    by_name = re.compile(r"import_module\(\s*f?[\"'][^\"']*(games|\.heuristic|\.narrate|\.draw|\.encode|\.invariants)")
    for root in (PACKAGE, PACKAGE.parent / "training"):
        for path in root.rglob("*.py"):
            if path == PACKAGE / "registry.py":
                continue
            text = path.read_text(encoding="utf-8")
            assert not by_name.search(text), f"{path} imports a game's module by name: ask registry.package()"
            assert not re.search(r"\.package\.(__name__|Observer|ACTIONS)", text), f"{path} asks an engine for its package"
