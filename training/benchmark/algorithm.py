"""A training-track entrant: an algorithm and the config it trains with.

An entrant is a YAML file (the shipped ones in configs/benchmark/, named by their name alone):

    name: sb3-ppo                               # letters, digits, '-', '_', '.'
    algorithm: MaskablePPO (sb3-contrib), ...   # what it is, in words, for the results table
    config: configs/{game}/ppo.yaml             # a training config, {game} replaced by the task's game (a
                                                # config for every game, configs/openspiel/nfsp.yaml, has none)
    set: {imitate: null}                        # laid over the config: a mapping merges into its section,
                                                # null removes the key (its default), anything else replaces it

For one cell (entrant, task, seed), `cell_config` lays the task over that: the task's player count and
options (one count, no variants), the seed, the budget of learner decisions with a checkpoint at each
fraction of it, no quick evaluations and no export (the track exports and scores the checkpoints
itself), and the cell's run folder.
"""

from __future__ import annotations

import copy
import dataclasses
import re
from pathlib import Path
from typing import Any

from training import config as cfg
from training.benchmark.tasks import Task

SHIPPED = Path("configs") / "benchmark"  # relative to the repository root, where training runs from
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
KEYS = {"name", "algorithm", "config", "set"}


@dataclasses.dataclass(frozen=True)
class Algorithm:
    name: str
    algorithm: str
    config: str
    set: dict[str, Any]
    source: str  # the file it was read from

    def record(self) -> dict[str, Any]:
        return {"algorithm": self.algorithm, "config": self.config, "set": self.set, "file": self.source}


def shipped() -> list[str]:
    return sorted(p.stem for p in SHIPPED.glob("*.yaml"))


def load_algorithm(ref: str) -> Algorithm:
    """The entrant `ref` names: a shipped entrant's name or a YAML file. ValueError (one line) when it is not one."""
    import yaml

    path = Path(ref)
    if not path.suffix:
        path = SHIPPED / f"{ref}.yaml"
        if not path.is_file():
            raise ValueError(f"no entrant {ref!r}; shipped: {', '.join(shipped()) or 'none'} (run from the "
                             f"repository root), or give an entrant's YAML file")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise ValueError(f"entrant {ref}: {e.strerror or e}") from None
    except yaml.YAMLError as e:
        raise ValueError(f"entrant {ref}: not valid YAML: {e}") from None
    if not isinstance(data, dict) or set(data) - KEYS or not {"name", "algorithm", "config"} <= set(data):
        raise ValueError(f"entrant {ref}: expected a mapping with name, algorithm, config and optionally set; "
                         f"got {sorted(data) if isinstance(data, dict) else type(data).__name__}")
    name, config, overrides = data["name"], data["config"], data.get("set") or {}
    if not isinstance(name, str) or not NAME.match(name):
        raise ValueError(f"entrant {ref}: name {name!r} must be 1-64 letters, digits, '.', '-' or '_'")
    if not isinstance(config, str) or not config.strip():
        raise ValueError(f"entrant {ref}: config must be a training config's path ({{game}} in it where each game "
                         f"has its own), got {config!r}")
    if not isinstance(overrides, dict):
        raise ValueError(f"entrant {ref}: set must be a mapping, got {overrides!r}")
    return Algorithm(name, str(data["algorithm"]), config, overrides, str(path))


def _lay(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(base)
    for key, value in over.items():
        if value is None:
            out.pop(key, None)
        elif isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _lay(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def cell_config(alg: Algorithm, task: Task, seed: int, decisions: int, fractions: list[float],
                run_dir: Path) -> tuple[cfg.Config, dict[str, Any]]:
    """The checked training config of one cell and its raw mapping (what the exported models record)."""
    import yaml

    path = Path(alg.config.format(game=task.game))
    try:
        base = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except OSError as e:
        raise ValueError(f"entrant {alg.name}: its config for {task.game}, {path}: {e.strerror or e}") from None
    raw = _lay(base, alg.set)
    every = max(1, int(decisions * fractions[0]))
    raw = _lay(raw, {
        "game": task.game,
        "seed": seed,
        "env": {"num_players": task.num_players, "player_weights": None, "options": None, "variants": None,
                "variant_weights": None},
        "train": {"total_timesteps": decisions, "checkpoint_every": every, "eval_every": 0,
                  "run_dir": str(run_dir), "torch_threads": 1},
        "export": {"name": ""},
    })
    raw["env"]["options"] = dict(task.options)  # the task's options alone, none of the config's
    try:
        return cfg.from_dict(raw), raw
    except cfg.ConfigError as e:
        raise ValueError(f"entrant {alg.name} on task {task.id}: {e}") from None
