"""The documentation: the site builds with `mkdocs build --strict`, the examples run, and what the README
and the pages say about the games (how many, their sizes, their commands) is what the code says."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import d2r_envs
from d2r_envs import registry
from d2r_envs.cli import build_parser
from d2r_envs.single_agent import gym_id

ROOT = Path(d2r_envs.__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = (ROOT / "README.md").read_text(encoding="utf-8")
NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}


def _hooks():
    """docs/hooks.py, the generator of the site's tables and pictures, as a module (it needs no mkdocs)."""
    spec = importlib.util.spec_from_file_location("d2r_docs_hooks", DOCS / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _python_blocks(text: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", text, re.MULTILINE | re.DOTALL)


def _pages() -> list[Path]:
    return sorted(p for p in DOCS.rglob("*.md") if "data" not in p.relative_to(DOCS).parts)


def test_the_site_builds_with_strict(tmp_path: Path) -> None:
    for module in ("mkdocs", "material", "mkdocstrings_handlers.python"):
        if importlib.util.find_spec(module.split(".")[0]) is None or importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed (the docs extra: pip install -e '.[docs]')")
    site = tmp_path / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
                          cwd=ROOT, capture_output=True, text=True, timeout=240, env=env)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    for name in d2r_envs.names():
        page = (site / "games" / name / "index.html").read_text(encoding="utf-8")
        first = registry.action_space(name).segments[0].name
        assert f"<code>{first}</code>" in page, f"{name}'s page lacks its action table"
        assert "Deviations and reconstructions" in page and f"pictures/{name}.svg" in page
        assert (site / "pictures" / f"{name}.svg").read_text(encoding="utf-8").startswith("<svg")
    assert "d2r_envs.make" in (site / "api" / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("source", ["docs/getting-started.md", "docs/environments.md", "README.md"])
def test_every_python_example_runs(source: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocks = _python_blocks((ROOT / source).read_text(encoding="utf-8"))
    assert len(blocks) >= 2, f"{source}: expected its examples in ```python blocks"
    monkeypatch.chdir(tmp_path)
    for block in blocks:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(block, f"{source} example", "exec"), {"__name__": "__example__"})


def test_every_page_expands_and_says_nothing_of_how_it_was_made() -> None:
    """Each page with its generated parts (what `mkdocs build` renders), and the README: every directive
    is carried out, and no line narrates the work (issue numbers, sessions)."""
    hooks = _hooks()
    narration = re.compile(r"issue [0-9]|session", re.IGNORECASE)
    texts = {"README.md": README}
    for page in _pages():
        rel = page.relative_to(DOCS).as_posix()
        texts[f"docs/{rel}"] = hooks.expand(page.read_text(encoding="utf-8"), rel)
    for name, text in texts.items():
        assert "<!-- d2r " not in text, f"{name}: a directive was left as it was"
        bad = [line for line in text.splitlines() if narration.search(line)]
        assert not bad, f"{name} narrates the work: {bad[:3]}"


def test_the_readme_is_short_and_points_only_inside_the_repository() -> None:
    assert len(README.splitlines()) < 250
    for target in re.findall(r"\]\(([^)]+)\)", README):
        assert not re.match(r"^[a-z]+:", target) and not target.startswith(("/", "..")), target
        assert (ROOT / target.partition("#")[0]).exists(), f"README links to {target}, which is not there"


def test_the_readme_and_the_pages_count_the_games_as_the_code_does() -> None:
    games = d2r_envs.names()
    for name, text in [("README.md", README), ("docs/index.md", (DOCS / "index.md").read_text(encoding="utf-8"))]:
        said = re.search(r"\b(\w+) tabletop games", text)
        assert said and NUMBERS.get(said.group(1)) == len(games), f"{name}: says {said and said.group(1)!r} games"
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for name in games:
        assert (DOCS / "games" / f"{name}.md").is_file(), f"docs/games/{name}.md is missing"
        assert f"games/{name}.md" in nav, f"mkdocs.yml's nav lacks games/{name}.md"


def test_the_readme_table_of_games_is_the_codes() -> None:
    """Its row of each game: gymnasium id, player counts and default, actions, observation size."""
    rows = {}
    for line in README.splitlines():
        m = re.match(r"^\| `(\w+)` \| `([^`]+)` \| (\d+)-(\d+) \((\d+)\) \| (\d+) \| (\d+) \| (.*) \|$", line)
        if m:
            rows[m.group(1)] = m.groups()[1:]
    assert sorted(rows) == d2r_envs.names()
    for name, (gid, low, high, default, actions, obs, rest) in rows.items():
        spec = d2r_envs.make_game(name).spec
        assert gid == gym_id(name)
        assert (int(low), int(high)) == (spec.min_players, spec.max_players)
        assert int(default) == registry.package(name).DEFAULT_PLAYERS
        assert int(actions) == spec.num_actions == registry.action_space(name).size
        assert int(obs) == registry.obs_layout(name).size
        assert f"(docs/games/{name}.md)" in rest


def test_the_commands_the_readme_shows_exist() -> None:
    parser = build_parser()
    known = set(next(a for a in parser._actions if a.dest == "command").choices)
    shown = set(re.findall(r"^d2r ([a-z]\w*)", README, re.MULTILINE)) | set(re.findall(r"`d2r ([a-z]\w*)", README))
    assert shown and shown <= known, f"the README shows commands d2r does not have: {shown - known}"
    for name in ("play", "train", "eval", "benchmark", "serve"):
        assert re.search(rf"^d2r {name} ", README, re.MULTILINE), f"the README's command lines lack d2r {name}"


def test_the_readme_picture_is_what_its_command_draws(tmp_path: Path) -> None:
    command = re.search(r"`(python -m d2r_envs\.render [^`]+ --out docs/table\.svg)`", README.replace("\n", " "))
    assert command, "the README names the command that draws its picture"
    args = command.group(1).split()[3:]
    out = tmp_path / "table.svg"
    from d2r_envs import render

    with contextlib.redirect_stdout(io.StringIO()):
        render.main([*args[:-1], str(out)])
    assert out.read_text(encoding="utf-8") == (DOCS / "table.svg").read_text(encoding="utf-8"), (
        "docs/table.svg is out of date: draw it again with " + command.group(1))


def test_the_changelog_names_every_environment_version_and_model() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    for name in d2r_envs.names():
        version = registry.package(name).VERSION
        for v in range(version + 1):
            assert f"`{name}_v{v}`" in changelog, f"CHANGELOG.md lacks the environment version {name}_v{v}"
    for manifest in (ROOT / "models").glob("*/*/manifest.json"):
        ref = f"{manifest.parent.parent.name}/{manifest.parent.name}"
        assert f"`{ref}`" in changelog, f"CHANGELOG.md lacks the shipped model {ref}"


def test_the_numbers_the_pages_quote_are_the_codes() -> None:
    """The speed bars and d2r-bench's task count, as the pages state them."""
    from d2r_envs import bench
    from training.benchmark import tasks

    speed = (DOCS / "speed.md").read_text(encoding="utf-8")
    flat = " ".join(speed.split())
    assert f"on the compiled build every game's AEC loop at least {bench.AEC_RATIO_BARS['compiled']:g}x" in flat
    assert f"on pure Python every game's AEC loop at least {bench.AEC_RATIO_BARS['pure Python']:g}x" in flat
    assert f"at least {bench.COMPILED_RATIO_BAR:g}x its own pure-Python build" in flat
    assert f"every bare engine at least {bench.ENGINE_RATIO_BAR:g}x" in flat
    said = re.search(r"Version 1 \(`training/benchmark/data/v1/`\) is data shipped with the package: (\d+) tasks",
                     (DOCS / "benchmark.md").read_text(encoding="utf-8").replace("\n", " "))
    assert said and int(said.group(1)) == len(tasks.load(1).tasks)
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"d2r-bench v1: {len(tasks.load(1).tasks)} tasks" in changelog
