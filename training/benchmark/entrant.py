"""An entrant: an exported model (a models/ id or a model folder), or a search it guides
("search:<model>:<simulations>[...]", d2r_envs/agents/search.py), and the tasks it can play.

The model is loaded and checked as every exported opponent is (d2r_envs.opponents.load_opponent: the
game's version, the observation and action fingerprints of the observation options it reads, the
weights' SHA-256). What it was trained for comes from its manifest: the game, the player counts
(`training.player_counts`, else the training config's `env.num_players`) and the options of each
trained variant (`training.variants` over the config's `env.options`, unset options at the game's
defaults). A task of another game, another player count or an option value it never trained on is one
it cannot play; the reason is reported. A manifest that records no player counts or options is taken to
play every count or option value.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import d2r_envs
from d2r_envs.agents.search import Settings as SearchSettings
from d2r_envs.agents.search import parse as parse_search
from d2r_envs.opponents import WEIGHTS_FILE, OpponentError, load_opponent, resolve_model
from training.benchmark.tasks import Task
from training.config import player_counts as config_player_counts


@dataclasses.dataclass(frozen=True)
class Entrant:
    ref: str  # as given: an id such as draco_and_co/ppo-v2, or a folder
    folder: Path
    name: str  # <game>/<folder name>
    game: str
    weights_sha256: str
    observation: dict[str, Any]
    architecture: dict[str, Any]
    player_counts: list[int] | None  # None: not recorded
    variants: list[dict[str, Any]] | None  # the trained options, each in full; None: not recorded
    search: SearchSettings | None = None  # a search the model guides (its model: the model's name)

    @property
    def agent(self) -> str:
        """The agent spec that plays the entrant's seat."""
        return str(self.folder) if self.search is None else dataclasses.replace(self.search, model=str(self.folder)).spec

    def cannot_play(self, task: Task) -> str | None:
        """Why this model cannot play `task`, or None when it can."""
        return cannot_play(self.record(), task)

    def record(self) -> dict[str, Any]:
        """What a result records of the model: enough to tell it apart and to find it again."""
        record = {
            "model": self.name,
            "game": self.game,
            "weights_sha256": self.weights_sha256,
            "observation": self.observation,
            "architecture": self.architecture,
            "player_counts": self.player_counts,
            "variants": self.variants,
        }
        if self.search is not None:
            record["search"] = {key: value for key, value in dataclasses.asdict(self.search).items() if key != "model"}
        return record


def cannot_play(record: dict[str, Any], task: Task) -> str | None:
    """Why the model a result records (`Entrant.record()`) cannot play `task`, or None when it can."""
    if task.game != record["game"]:
        return f"a model for {record['game']}, not {task.game}"
    counts, variants = record["player_counts"], record["variants"]
    if counts is not None and task.num_players not in counts:
        return f"trained for {', '.join(str(n) for n in counts)} players, not {task.num_players}"
    if variants is not None:
        for key, value in task.options.items():
            trained = list(dict.fromkeys(v.get(key) for v in variants))
            if value not in trained:
                return f"trained for {key} {', '.join(map(str, trained))}, not {value}"
    return None


def _trained_options(game: str, manifest: dict[str, Any]) -> list[dict[str, Any]] | None:
    training = manifest.get("training") or {}
    env = (training.get("config") or {}).get("env") or {}
    if "options" not in env and "variants" not in training:
        return None
    base = dict(env.get("options") or {})
    variants = training.get("variants") or env.get("variants") or [{}]
    out = []
    for variant in variants:
        config = d2r_envs.make_game(game, **{**base, **variant}).config
        out.append({f.name: getattr(config, f.name) for f in dataclasses.fields(config) if f.name != "num_players"})
    return out


def _player_counts(game: str, manifest: dict[str, Any]) -> list[int] | None:
    training = manifest.get("training") or {}
    if training.get("player_counts"):
        return [int(n) for n in training["player_counts"]]
    env = (training.get("config") or {}).get("env") or {}
    if "num_players" not in env:
        return None
    return [int(n) for n in config_player_counts(game, env["num_players"], env.get("options") or {})]


def load_entrant(ref: str) -> Entrant:
    """The model `ref` names, or the search it guides, checked against the installed game; ValueError
    (one line) when it cannot be loaded or trusted."""
    if ref.startswith("search:"):
        settings = parse_search(ref)
        if settings.model == "shipped":
            raise ValueError(f"{ref!r}: name the model (an id such as rap_godz/ppo-v1, or a folder): a benchmark "
                             "entrant is one model, not each game's shipped one")
        guide = load_entrant(settings.model)
        settings = dataclasses.replace(settings, model=guide.name)
        return dataclasses.replace(guide, ref=ref, name=settings.spec, search=settings)
    try:
        folder = resolve_model(ref).resolve()
        policy = load_opponent(folder)
    except OpponentError as e:
        raise ValueError(f"model {ref}: {e}") from None
    manifest = policy.manifest
    game = manifest["game"]
    try:
        counts, variants = _player_counts(game, manifest), _trained_options(game, manifest)
    except (TypeError, ValueError) as e:
        raise ValueError(f"model {ref}: its manifest's training section cannot be read: {e}") from None
    return Entrant(
        ref=str(ref),
        folder=folder,
        name=f"{folder.parent.name}/{folder.name}",
        game=game,
        weights_sha256=manifest["files"][WEIGHTS_FILE]["sha256"].lower(),
        observation=dict(policy.observation),
        architecture=dict(manifest["architecture"]),
        player_counts=counts,
        variants=variants,
    )
