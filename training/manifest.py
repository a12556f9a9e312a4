"""A tournament's summary in an exported model's manifest.json, under evaluation["<n>p:<lineup>"]
(`d2r eval --manifest MODEL`, `python -m training.bars --record`)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from d2r_envs.core import config as game_config
from d2r_envs.opponents import resolve_model


def evaluation_key(result: dict[str, Any]) -> str:
    """The manifest key for this lineup, player count and options, e.g.
    '4p:draco_and_co/ppo-v1,random,random,random' or '2p[level=legendary]:extravaganza/ppo-v1,random'."""
    return f"{result['num_players']}p{game_config.label(result.get('options') or {})}:{','.join(result['lineup'])}"


def evaluation_summary(result: dict[str, Any]) -> dict[str, Any]:
    """What `d2r eval --manifest` writes: the per-agent figures, without the game records."""
    return {
        "date": result["date"],
        "command": result["command"],
        "game": result["game"],
        "game_version": result["game_version"],
        "options": result["options"],
        "num_players": result["num_players"],
        "lineup": result["lineup"],
        "seed": result["seed"],
        "games": result["games"],
        "deals": result["deals"],
        "no_winner_games": result["no_winner_games"],
        "agents": {
            a: {k: e[k] for k in ("seats", "wins", "win_share", "win_share_ci", "chance_win_share",
                                  "mean_return", "mean_return_ci", "rating")}
            for a, e in result["agents"].items()
        },
    }


def resolve_model_dir(ref: str) -> Path:
    """The folder of an exported model: a folder, its manifest.json, or an id such as
    'draco_and_co/ppo-v1' under ./models or the repository's models/ (d2r_envs.opponents.resolve_model)."""
    return resolve_model(ref)


def record_evaluation(model_dir: str | Path, key: str, summary: dict[str, Any]) -> Path:
    """Write `summary` into the model's manifest.json under evaluation[key]; returns the manifest path.

    The manifest's `files` hashes cover the weight files only, never the manifest, so this leaves
    the integrity check intact; it refuses a manifest that lists itself among the hashed files.
    Other keys and their order are kept; the file is replaced atomically.
    """
    path = Path(model_dir)
    if path.is_dir():
        path = path / "manifest.json"
    if not path.is_file():
        raise ValueError(f"{path}: no such manifest")
    manifest = json.loads(path.read_text())
    if not isinstance(manifest, dict):
        raise ValueError(f"{path}: the manifest is not a JSON object")
    files = manifest.get("files") or {}
    listed = files.keys() if isinstance(files, dict) else [f.get("path", f.get("name")) if isinstance(f, dict) else f
                                                           for f in files]
    if any(str(name).endswith("manifest.json") for name in listed):
        raise ValueError(f"{path}: its 'files' hashes cover the manifest itself; editing it would break them")
    evaluation = manifest.get("evaluation")
    if not isinstance(evaluation, dict):
        evaluation = manifest["evaluation"] = {}
    evaluation[key] = summary
    fd, tmp = tempfile.mkstemp(prefix=".manifest.", suffix=".json", dir=path.parent)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(json.dumps(manifest, indent=2, allow_nan=False) + "\n")
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path
