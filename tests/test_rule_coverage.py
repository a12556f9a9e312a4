"""Every rule ID a game lists in its rulebook.py is checked by at least one test."""

from __future__ import annotations

import ast
import re
import importlib
from pathlib import Path

import pytest

import d2r_envs

TESTS = Path(__file__).parent


def _marked_ids(path: Path) -> set[str]:
    """IDs named in @pytest.mark.rules(...) decorators of the test functions in a file."""
    ids: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            continue
        for deco in node.decorator_list:
            if isinstance(deco, ast.Call) and getattr(deco.func, "attr", None) == "rules":
                ids.update(a.value for a in deco.args if isinstance(a, ast.Constant))
    return ids


def _covered(game: str) -> set[str]:
    return set().union(*(_marked_ids(p) for p in (TESTS / game).glob("test_*.py")))


@pytest.mark.parametrize("game", d2r_envs.names())
def test_every_rule_id_has_a_test(game: str) -> None:
    rules = importlib.import_module(f"d2r_envs.games.{game}.rulebook").RULES
    missing = sorted(set(rules) - _covered(game))
    assert not missing, f"{game}: rule IDs with no test: {missing}"


@pytest.mark.parametrize("game", d2r_envs.names())
def test_tests_name_only_known_rule_ids(game: str) -> None:
    rules = importlib.import_module(f"d2r_envs.games.{game}.rulebook").RULES
    unknown = sorted(_covered(game) - set(rules))
    assert not unknown, f"{game}: tests name rule IDs that rulebook.py does not list: {unknown}"


def _cited(game: str) -> dict[str, list[str]]:
    """Rule IDs named in the game's code (every module but rulebook.py), with where."""
    folder = Path(d2r_envs.__file__).parent / "games" / game
    prefix = next(iter(importlib.import_module(f"d2r_envs.games.{game}.rulebook").RULES)).split("-")[0]
    pattern = re.compile(rf"(?<![\w-]){prefix}(?:-[A-Z0-9]+)+(?![\w-])")
    found: dict[str, list[str]] = {}
    for path in sorted(folder.glob("*.py")):
        if path.name == "rulebook.py":
            continue
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for rule in pattern.findall(line):
                found.setdefault(rule, []).append(f"{path.name}:{i}")
    return found


@pytest.mark.parametrize("game", d2r_envs.names())
def test_every_rule_id_is_cited_at_the_code_that_implements_it(game: str) -> None:
    """A rule is one search away in both directions: rulebook.py -> the code, the code -> rulebook.py."""
    rules = importlib.import_module(f"d2r_envs.games.{game}.rulebook").RULES
    cited = _cited(game)
    missing = sorted(set(rules) - set(cited))
    unknown = {rule: where for rule, where in cited.items() if rule not in rules}
    assert not missing, f"{game}: rule IDs cited nowhere in the game's code: {missing}"
    assert not unknown, f"{game}: the code cites rule IDs that rulebook.py does not list: {unknown}"
