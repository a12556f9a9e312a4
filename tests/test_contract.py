"""Every registered game has each piece d2r_envs/games/README.md names."""

from __future__ import annotations

import dataclasses
import importlib
from pathlib import Path

import pytest

import d2r_envs
from d2r_envs.core.actions import ActionSpace
from d2r_envs.core.game import Game
from d2r_envs.core.obs import ObsLayout, Observer
from d2r_envs.core.package import GamePackage
from d2r_envs.registry import package

ROOT = Path(d2r_envs.__file__).resolve().parent.parent
EXPORTS = ("Config", "Game", "Observer", "ACTIONS", "LAYOUT", "VERSION", "DEFAULT_PLAYERS", "invariants", "env", "raw_env")
MODULES = ("config", "cards", "state", "rules", "rulebook", "actions", "encode", "narrate", "draw", "guide", "invariants",
           "heuristic")
SECTIONS = ("## Hidden information", "## Event log", "## Action and observation tables",
            "## Deviations and reconstructions", "## The heuristic and the shipped opponent")


def test_the_contract_is_written() -> None:
    text = (ROOT / "d2r_envs" / "games" / "README.md").read_text(encoding="utf-8")
    for name in MODULES + ("__init__",):
        assert f"`{name}.py`" in text, f"games/README.md does not describe {name}.py"


@pytest.mark.parametrize("name", d2r_envs.names())
def test_the_package_has_every_piece(name: str) -> None:
    face = importlib.import_module(f"d2r_envs.games.{name}")
    missing = [e for e in EXPORTS + ("PACKAGE",) if not hasattr(face, e)]
    assert not missing, f"{name}/__init__.py does not export {missing}"
    pkg = package(name)
    assert isinstance(pkg, GamePackage) and pkg is face.PACKAGE and pkg.name == name
    folder = Path(face.__file__).parent
    assert not (folder / "env.py").exists(), "env()/raw_env() come from core/package.py, not a copied module"
    mods = {m: importlib.import_module(f"{face.__name__}.{m}") for m in MODULES}
    for export in ("Config", "Game", "Observer", "ACTIONS", "LAYOUT", "VERSION", "DEFAULT_PLAYERS", "invariants"):
        assert getattr(pkg, export) is getattr(face, export), f"{name}: the record's {export} is not the package's"
    for piece in ("encode", "narrate", "draw", "heuristic", "invariants"):  # declared, each the game's own module
        assert getattr(pkg, piece) is mods[piece], f"{name}: the record's {piece} is not {name}/{piece}.py"
    assert pkg.Game.observer_class is pkg.Observer, "the record gives the engine its Observer"
    assert dataclasses.is_dataclass(pkg.Config) and dataclasses.fields(pkg.Config)[0].name == "num_players"
    assert issubclass(pkg.Game, Game) and issubclass(pkg.Observer, Observer)
    assert isinstance(pkg.ACTIONS, ActionSpace) and isinstance(pkg.LAYOUT, ObsLayout)
    assert mods["rules"].NAME == name and mods["rules"].VERSION == pkg.VERSION
    assert isinstance(mods["rulebook"].RULES, dict) and mods["rulebook"].RULES
    assert callable(mods["encode"].encode) and callable(mods["encode"].string_from), "encode.py is the plain spec"
    fast = (folder / "encode_fast.py").exists()  # the Observer is the fast one where there is one
    assert pkg.Observer.__module__ == f"{face.__name__}.{'encode_fast' if fast else 'encode'}"
    assert callable(mods["narrate"].events) and callable(mods["narrate"].explain)
    assert callable(mods["draw"].svg) and callable(mods["draw"].size)
    assert callable(mods["invariants"].violations)
    assert callable(mods["heuristic"].Heuristic().act)
    assert dataclasses.is_dataclass(mods["state"].State)
    assert pkg.doc == face.__doc__ and pkg.doc.strip()


@pytest.mark.parametrize("name", d2r_envs.names())
def test_the_readme_config_model_and_goldens_are_there(name: str) -> None:
    folder = ROOT / "d2r_envs" / "games" / name
    readme = (folder / "README.md").read_text(encoding="utf-8")
    missing = [s for s in SECTIONS if s not in readme]
    assert not missing, f"{name}/README.md lacks {missing}"
    assert (ROOT / "configs" / name / "ppo.yaml").is_file()
    if (ROOT / "models" / name).is_dir():
        assert d2r_envs.load_opponent(f"{name}/ppo-v1").game == name
    else:  # a game whose opponent is still training says so, in its README and in the table of games
        assert "no shipped opponent yet" in readme.lower(), f"{name}: no models/{name}/ppo-v1 and its README does not say why"
        row = next(line for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines() if line.startswith(f"| `{name}`"))
        assert "no shipped opponent yet" in row
    assert list((ROOT / "tests" / name / "playthroughs").glob("*.txt"))
    assert f"`{name}`" in (ROOT / "README.md").read_text(encoding="utf-8"), "a row in the top README's table"


@pytest.mark.parametrize("name", d2r_envs.names())
def test_the_rule_change_walk_holds_for_the_game(name: str) -> None:
    """games/README.md's "Changing a rule" uses, in every game: rule IDs with one prefix, each cited in the
    package's code and marked on a test under tests/<game>/; the facts the rules tell; the narration record
    that `python tests/<game>/test_narrate.py` writes anew; the goldens `--update` re-renders; VERSION."""
    folder, tests = ROOT / "d2r_envs" / "games" / name, ROOT / "tests" / name
    rules = importlib.import_module(f"d2r_envs.games.{name}.rulebook").RULES
    assert len({rule.split("-")[0] for rule in rules}) == 1, f"{name}: the rule IDs share one prefix"
    code = "".join(p.read_text(encoding="utf-8") for p in folder.glob("*.py") if p.name != "rulebook.py")
    marked = "".join(p.read_text(encoding="utf-8") for p in tests.glob("test_*.py"))
    some = sorted(rules)[:: max(1, len(rules) // 5)]
    assert all(rule in code for rule in some), f"{name}: rule IDs are cited where they are implemented"
    assert all(f'"{rule}"' in marked for rule in some), f"{name}: each rule ID marks a test in tests/{name}/"
    assert (folder / "facts.py").is_file() and "s.tell(" in (folder / "rules.py").read_text(encoding="utf-8")
    narrate = (tests / "test_narrate.py").read_text(encoding="utf-8")
    assert (tests / "narration.txt").is_file() and 'if __name__ == "__main__"' in narrate and "NARRATION.write_text" in narrate
    assert list((tests / "playthroughs").glob("*.txt"))
    assert isinstance(importlib.import_module(f"d2r_envs.games.{name}.rules").VERSION, int)
    guide = (ROOT / "d2r_envs" / "games" / "README.md").read_text(encoding="utf-8")
    assert f"`{next(iter(rules)).split('-')[0]}-*`" in guide, f"games/README.md names {name}'s rule prefix"
