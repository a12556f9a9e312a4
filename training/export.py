"""Export a trained policy to `models/<game>/<name>/` (policy.safetensors + manifest.json), the
format d2r_envs.opponents loads with numpy alone: a MaskablePPO (SB3) or RLlib's module
(`export_rllib`), from a run or from a checkpoint (an SB3 zip, an RLlib run's checkpoint folder).

    python -m training.export --checkpoint runs/ppo.zip --game draco_and_co --name ppo-v1 [--config YAML]
    d2r export --checkpoint runs/ppo.zip --game draco_and_co --name ppo-v1 [--config YAML]

Only the actor is exported: features extractor (ScaledFlatten's `scale` -> `obs_scale`), then
`policy.mlp_extractor.policy_net` (Linear/activation pairs -> `layers.{i}`), then `policy.action_net`
(-> the last `layers.{L}`). After writing, the folder is loaded back through load_opponent and its
logits are compared with torch's; a mismatch removes the files and raises.

torch and stable-baselines3 (and Ray, for an RLlib checkpoint) are imported only when needed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import zipfile
import zlib
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

import d2r_envs
from d2r_envs import opponents
from d2r_envs.opponents import INSTALL_TRAIN, MANIFEST_FILE, WEIGHTS_FILE, NumpyPolicy
from training import commands
from training import config as cfg
from training.config import check_model_name

__all__ = [
    "MissingTrainingLibraries",
    "checkpoint_facts",
    "export_target",
    "export",
    "export_rllib",
    "export_checkpoint",
    "export_openspiel",
    "write_model",
    "tensors_from_sb3",
    "architecture_from_sb3",
    "snapshot",
    "torch_logits",
    "run",
    "main",
]

# numpy vs torch logits after export, both float32: they may differ by rounding, about 1e-6 of the
# logits' size, so the bound grows with it (1e-4 up to logits of size 1, 1e-4 x size beyond)
CHECK_TOL = 1e-4


class MissingTrainingLibraries(ImportError):
    """torch / stable-baselines3 / sb3-contrib are not installed."""


def _training_libs():
    try:
        import sb3_contrib  # noqa: F401
        import stable_baselines3  # noqa: F401
        import torch
    except ImportError as e:
        raise MissingTrainingLibraries(
            f"exporting needs torch, stable-baselines3 and sb3-contrib ({e.name or e} is missing); install them with: {INSTALL_TRAIN}"
        ) from e
    return torch


def export_target(
    game: str, name: str, out_root: str | Path = "models", overwrite: bool = False,
    how: str = "overwrite it with --force, or pick another --name",
) -> Path:
    """The folder an export of `game`/`name` writes, after every check that needs no model: the name,
    the game, a model already there (refused unless `overwrite`; `how` says what to do instead) and a
    place that cannot be written.
    `d2r train` calls it before its first step, `export()` again before writing."""
    check_model_name(name)
    opponents.installed_game_facts(game)  # refuses an unknown game
    folder = Path(out_root) / game / name
    if folder.exists() and not folder.is_dir():
        raise FileExistsError(f"{folder} exists and is not a folder; pick another name")
    if (folder / MANIFEST_FILE).exists() and not overwrite:
        created = ""
        try:
            created = f" (exported {opponents.read_manifest(folder).get('created', 'at an unknown time')})"
        except opponents.OpponentError:
            pass
        raise FileExistsError(f"{folder} already holds a model{created}; {how}")
    existing = folder
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
        raise PermissionError(f"cannot write the model folder {folder}: {existing} is not a writable folder")
    return folder


def _policy_of(model_or_policy: Any) -> Any:
    """The ActorCriticPolicy of a MaskablePPO (or the policy itself)."""
    if hasattr(model_or_policy, "mlp_extractor") and hasattr(model_or_policy, "action_net"):
        return model_or_policy
    policy = getattr(model_or_policy, "policy", None)
    if policy is None or not hasattr(policy, "mlp_extractor") or not hasattr(policy, "action_net"):
        raise TypeError(
            f"expected a MaskablePPO (or its policy) with mlp_extractor and action_net, got {type(model_or_policy).__name__}"
        )
    return policy


def _features_extractor(policy: Any) -> Any:
    return getattr(policy, "pi_features_extractor", None) or policy.features_extractor


def _obs_scale(policy: Any) -> np.ndarray:
    from stable_baselines3.common.torch_layers import FlattenExtractor

    fe = _features_extractor(policy)
    shape = policy.observation_space.shape
    if shape is None or len(shape) != 1:
        raise ValueError(f"the policy's observation space has shape {shape}; export needs a flat Box")
    scale = getattr(fe, "scale", None)
    if scale is not None:
        out = scale.detach().cpu().numpy().astype(np.float32).reshape(-1).copy()
    elif isinstance(fe, FlattenExtractor):
        out = np.ones(shape[0], np.float32)
    else:
        raise ValueError(
            f"features extractor {type(fe).__name__} cannot be exported: use training.networks.ScaledFlatten "
            "(or SB3's FlattenExtractor)"
        )
    if out.shape != (shape[0],):
        raise ValueError(f"features extractor scale has shape {list(out.shape)}; expected [{shape[0]}]")
    return out


def _actor_layers(policy: Any) -> tuple[list[Any], str | None]:
    """The actor's Linear layers (hidden ones, then action_net) and the activation's name."""
    torch = _training_libs()
    nn = torch.nn
    names = {nn.Tanh: "tanh", nn.ReLU: "relu"}
    linears: list[Any] = []
    activation: str | None = None
    expect_linear = True
    for module in policy.mlp_extractor.policy_net:
        if isinstance(module, nn.Linear) and expect_linear:
            linears.append(module)
            expect_linear = False
        elif type(module) in names and not expect_linear:
            name = names[type(module)]
            if activation not in (None, name):
                raise ValueError(f"the actor mixes activations {activation} and {name}; the format has one")
            activation = name
            expect_linear = True
        else:
            raise ValueError(
                f"cannot export the actor layer {module!r}: the format is Linear then Tanh or ReLU, repeated "
                f"(policy_net is {policy.mlp_extractor.policy_net})"
            )
    if not expect_linear:
        raise ValueError("the actor's last hidden Linear has no activation after it")
    if not isinstance(policy.action_net, nn.Linear):
        raise ValueError(f"action_net is {type(policy.action_net).__name__}, expected Linear")
    return linears + [policy.action_net], activation


def architecture_from_sb3(model_or_policy: Any) -> dict[str, Any]:
    """{"type": "mlp", "hidden": [...], "activation": ..., "input": ..., "output": ...} of the actor."""
    policy = _policy_of(model_or_policy)
    layers, activation = _actor_layers(policy)
    if activation is None:  # no hidden layer: the activation is never applied; record the configured one
        fn = getattr(policy, "activation_fn", None)
        activation = {"ReLU": "relu", "Tanh": "tanh"}.get(getattr(fn, "__name__", ""), "tanh")
    return {
        "type": "mlp",
        "hidden": [int(layer.out_features) for layer in layers[:-1]],
        "activation": activation,
        "input": int(layers[0].in_features),
        "output": int(layers[-1].out_features),
    }


def tensors_from_sb3(model_or_policy: Any) -> dict[str, np.ndarray]:
    """The actor's weights in the exported layout: float32 copies (never views of the live weights),
    so the result stays frozen while the learner trains on."""
    policy = _policy_of(model_or_policy)
    layers, _ = _actor_layers(policy)
    out = {"obs_scale": _obs_scale(policy)}
    for i, layer in enumerate(layers):
        out[f"layers.{i}.weight"] = layer.weight.detach().cpu().numpy().astype(np.float32, copy=True)
        out[f"layers.{i}.bias"] = layer.bias.detach().cpu().numpy().astype(np.float32, copy=True)
    return out


def load_actor(model_or_policy: Any, tensors: dict[str, np.ndarray], label: str) -> None:
    """Copy an exported actor (`tensors_from_sb3`'s layout) into the policy's actor: the inverse of the
    export, for fine-tuning a model. The shapes and the observation scale must match the policy's."""
    torch = _training_libs()
    policy = _policy_of(model_or_policy)
    layers, _ = _actor_layers(policy)
    scale = _obs_scale(policy)
    if not np.array_equal(np.asarray(tensors["obs_scale"], np.float32), scale):
        raise ValueError(f"{label}: its obs_scale differs from this policy's observation scale")
    if len(tensors) != 1 + 2 * len(layers):
        raise ValueError(f"{label}: {(len(tensors) - 1) // 2} layers; this policy has {len(layers)}")
    with torch.no_grad():
        for i, layer in enumerate(layers):
            weight, bias = tensors[f"layers.{i}.weight"], tensors[f"layers.{i}.bias"]
            if tuple(weight.shape) != tuple(layer.weight.shape) or tuple(bias.shape) != tuple(layer.bias.shape):
                raise ValueError(f"{label}: layers.{i} has weight {list(weight.shape)}; this policy's is "
                                 f"{list(layer.weight.shape)}")
            layer.weight.copy_(torch.as_tensor(weight))
            layer.bias.copy_(torch.as_tensor(bias))


def snapshot(model_or_policy: Any, name: str, game: str | None = None) -> NumpyPolicy:
    """A frozen in-memory NumpyPolicy of a learner's current actor (e.g. for an opponent pool)."""
    arch = architecture_from_sb3(model_or_policy)
    return opponents.numpy_policy(tensors_from_sb3(model_or_policy), arch["activation"], name, game=game)


def torch_logits(model_or_policy: Any, obs: np.ndarray) -> np.ndarray:
    """The actor's raw action logits computed by torch, [B, num_actions] for obs [B, obs_size]."""
    torch = _training_libs()
    policy = _policy_of(model_or_policy)
    with torch.no_grad():
        x = torch.as_tensor(np.asarray(obs, np.float32), device=policy.device)
        latent = policy.mlp_extractor.forward_actor(_features_extractor(policy)(x))
        return policy.action_net(latent).cpu().numpy()


def _library_versions() -> dict[str, str]:
    import sb3_contrib
    import stable_baselines3
    import torch

    return {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "torch": torch.__version__,
        "stable_baselines3": stable_baselines3.__version__,
        "sb3_contrib": sb3_contrib.__version__,
        "d2r_envs": d2r_envs.__version__,
    }


def _jsonable(value: Any) -> Any:
    """`value` as plain JSON (tuples -> lists, numpy scalars -> numbers, anything else -> str)."""

    def default(x: Any) -> Any:
        if isinstance(x, np.generic):
            return x.item()
        if isinstance(x, np.ndarray):
            return x.tolist()
        if isinstance(x, (set, frozenset)):
            return sorted(x, key=str)
        return str(x)

    return json.loads(json.dumps(value, default=default))


def _trained_counts(game: str, config: dict[str, Any] | None, counts: list[int] | None,
                    weights: list[float] | None) -> dict[str, Any]:
    """{"player_counts": [...], "player_weights": [...]} for the manifest's training section: the counts
    given, else those the config's env.num_players names (a count, a list or "all"); {} if neither
    says (an export without a config). Weights only with several counts."""
    if counts is None:
        env = (config or {}).get("env") if isinstance(config, dict) else None
        if not isinstance(env, dict):
            return {}
        try:
            counts = cfg.player_counts(game, env.get("num_players", cfg.EnvConfig.num_players),
                                       env.get("options") or {})
        except (ValueError, TypeError):
            return {}
        weights = env.get("player_weights") or None
    try:
        out: dict[str, Any] = {"player_counts": [int(n) for n in counts]}
        if len(counts) > 1:
            out["player_weights"] = [float(w) for w in weights] if weights else [1.0] * len(counts)
    except (ValueError, TypeError):  # a config that was never checked (d2r export --config)
        return {}
    env = (config or {}).get("env") if isinstance(config, dict) else None
    variants = env.get("variants") if isinstance(env, dict) else None
    if isinstance(variants, list) and len(variants) > 1:  # one network for several option sets
        out["variants"] = _jsonable(variants)
        out["variant_weights"] = _jsonable(env.get("variant_weights") or [1.0] * len(variants))
    return out


CHECKPOINT_MEMBERS = ("data", "policy.pth")  # what every SB3 checkpoint zip holds


def checkpoint_facts(path: str | Path) -> dict[str, Any]:
    """What an SB3 checkpoint zip says of itself, read without unpickling: {"obs_size", "num_actions",
    "timesteps"}. A file that is missing, not a zip, truncated, damaged (a member failing its CRC) or
    not an SB3 checkpoint is refused with a ValueError saying which, in one line."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"no checkpoint at {path}")
    other = "use another checkpoint of the run (checkpoints/step_N.zip or final.zip)"
    try:
        with zipfile.ZipFile(path) as archive:
            if not all(m in archive.namelist() for m in CHECKPOINT_MEMBERS):
                raise ValueError(f"{path}: not a whole SB3 checkpoint (it lacks {' or '.join(CHECKPOINT_MEMBERS)}: "
                                 f"truncated, or another kind of zip); {other}")
            try:
                damaged = archive.testzip()
            except (zipfile.BadZipFile, zlib.error, OSError, EOFError) as err:
                damaged = f"a member ({err})"
            if damaged is not None:
                raise ValueError(f"{path}: the checkpoint is damaged ({damaged} fails its check): truncated or "
                                 f"corrupted; {other}")
            data = archive.read("data")
    except zipfile.BadZipFile:
        raise ValueError(f"{path}: not a checkpoint: not a zip file, or one cut off before its end; {other}") from None
    try:
        data = json.loads(data)
        obs, actions = data["observation_space"], data["action_space"]
        return {"obs_size": int(obs["_shape"][0]), "num_actions": int(actions["n"]),
                "timesteps": int(data["num_timesteps"])}
    except (KeyError, IndexError, TypeError, ValueError) as err:
        raise ValueError(f"{path}: not an SB3 checkpoint of a policy with discrete actions (its data: "
                         f"{type(err).__name__} {err}); {other}") from None


def _load_checkpoint(path: str | Path) -> Any:
    """The MaskablePPO in an SB3 checkpoint zip (checked first with `checkpoint_facts`); ValueError when it
    cannot be loaded."""
    _training_libs()
    from sb3_contrib import MaskablePPO

    path = Path(path)
    if not path.exists() and path.with_suffix(".zip").exists():
        path = path.with_suffix(".zip")
    checkpoint_facts(path)
    try:
        return MaskablePPO.load(path, device="cpu")
    except Exception as err:  # SB3 raises what its parts raise (AssertionError, pickle, torch errors)
        raise ValueError(f"{path}: cannot load the checkpoint: {type(err).__name__}: {err}") from None


def observation_of(config: dict[str, Any] | None) -> dict[str, Any]:
    """The observation options of a training config (as a mapping: its `env.observation`; none: {})."""
    env = config.get("env") if isinstance(config, dict) else None
    observation = env.get("observation", {}) if isinstance(env, dict) else {}
    if not isinstance(observation, dict):
        raise ValueError(f"the config's env.observation is {observation!r}; expected a mapping of observation options")
    return observation


def export(
    model_or_path: Any,
    game: str,
    name: str,
    config: dict[str, Any] | None,
    seed: int | None,
    out_root: str | Path = "models",
    evaluation: dict[str, Any] | None = None,
    overwrite: bool = False,
    player_counts: list[int] | None = None,
    player_weights: list[float] | None = None,
) -> Path:
    """Write `out_root/<game>/<name>/` for a MaskablePPO (or the path of its SB3 .zip checkpoint) and
    return the folder. Refuses a model whose spaces do not fit the installed game, an existing model
    folder unless `overwrite`, and an export whose numpy logits differ from torch's.

    The manifest's `training.player_counts` records the counts trained on (`player_counts`, else the
    config's `env.num_players` when it names them), and `training.player_weights` their weights when
    there are several."""
    _training_libs()
    folder = export_target(game, name, out_root, overwrite)
    observation = observation_of(config)
    facts = opponents.installed_game_facts(game, observation)
    model = _load_checkpoint(model_or_path) if isinstance(model_or_path, (str, Path)) else model_or_path
    policy = _policy_of(model)
    obs_shape = tuple(policy.observation_space.shape or ())
    n = getattr(policy.action_space, "n", None)
    if obs_shape != (facts["obs_size"],) or n != facts["num_actions"]:
        raise ValueError(
            f"the model's spaces (observation {list(obs_shape)}, {n} actions) do not fit {game} "
            f"(observation [{facts['obs_size']}] with the observation options {observation or {}}, "
            f"{facts['num_actions']} actions); a model trained with observation options needs its config "
            "(--config), whose env.observation names them"
        )
    arch = architecture_from_sb3(policy)
    tensors = tensors_from_sb3(policy)
    if hasattr(_features_extractor(policy), "scale"):
        from training.networks import observation_scale  # torch, loaded here for an SB3 model only

        expected = observation_scale(d2r_envs.make_game(game).make_observer(**observation).layout.box)
        if not np.allclose(tensors["obs_scale"], expected, rtol=1e-6, atol=0):
            raise ValueError(
                f"the model's input scale differs from {game}'s observation bounds: it was trained on another observation layout"
            )
    return write_model(
        folder, game, arch, tensors, config=config, seed=seed, timesteps=getattr(model, "num_timesteps", None),
        evaluation=evaluation, player_counts=player_counts, player_weights=player_weights,
        library_versions=_library_versions(), reference_logits=lambda obs: torch_logits(policy, obs),
        reference="torch",
    )


def write_model(
    folder: Path,
    game: str,
    arch: dict[str, Any],
    tensors: dict[str, np.ndarray],
    *,
    config: dict[str, Any] | None,
    seed: int | None,
    timesteps: int | None,
    library_versions: dict[str, str],
    reference_logits: Any,
    reference: str,
    evaluation: dict[str, Any] | None = None,
    player_counts: list[int] | None = None,
    player_weights: list[float] | None = None,
    training: dict[str, Any] | None = None,
) -> Path:
    """Write the manifest and weights of an actor already in the exported layout (`tensors`, `arch`) to
    `folder` (checked with `export_target`), load it back through `load_opponent`, and compare its numpy
    logits with `reference_logits(obs)` (the trainer's own, `reference` names it) on 32 observations; a
    mismatch removes the files and raises. Every backend exports through here (SB3's `export`, RLlib's
    `export_rllib`); `training` adds keys to the manifest's training section, and
    the config's `env.observation` becomes the manifest's `observation` (the options the model reads
    its observations with: every one, defaults included)."""
    observer = d2r_envs.make_game(game).make_observer(**observation_of(config))
    facts = opponents.installed_game_facts(game, observer.options)
    manifest: dict[str, Any] = {
        "format": opponents.FORMAT,
        "game": game,
        "game_version": facts["game_version"],
        "observation": dict(observer.options),
        "num_actions": facts["num_actions"],
        "obs_size": facts["obs_size"],
        "action_fingerprint": facts["action_fingerprint"],
        "obs_fingerprint": facts["obs_fingerprint"],
        "architecture": arch,
        "files": {},
        "training": {
            "config": _jsonable(config if config is not None else {}),
            "seed": None if seed is None else int(seed),
            "total_timesteps": None if timesteps is None else int(timesteps),
            **_trained_counts(game, config, player_counts, player_weights),
            **_jsonable(training or {}),
        },
        "library_versions": library_versions,
        "evaluation": _jsonable(evaluation or {}),
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    opponents.save_policy(folder, tensors, manifest)
    try:
        loaded = opponents.load_opponent(folder, game=game)
        box = observer.layout.box
        rng = np.random.default_rng(0)
        obs = (rng.random((32, facts["obs_size"])) * np.minimum(box.high, 50.0)).astype(np.float32)
        expected = reference_logits(obs)
        diff = float(np.max(np.abs(loaded.logits(obs) - expected)))
        bound = CHECK_TOL * max(1.0, float(np.max(np.abs(expected))))
        if not diff <= bound:
            raise RuntimeError(f"exported logits differ from {reference}'s by {diff:.3g} (> {bound:.3g}, {CHECK_TOL} of "
                               "their size); the export is wrong")
    except Exception:
        for fname in (MANIFEST_FILE, WEIGHTS_FILE):
            (folder / fname).unlink(missing_ok=True)
        try:
            folder.rmdir()  # only if nothing else is there
        except OSError:
            pass
        raise
    return folder


# RLlib's policies --------------------------------------------------------------------------------

RLLIB_PROGRESS = "d2r_progress.json"  # in an RLlib checkpoint folder: the steps, progress rows and training seconds


def is_rllib_checkpoint(folder: str | Path) -> bool:
    """Whether `folder` is a checkpoint the RLlib backend wrote (a run's final/ or checkpoints/step_N/)."""
    return (Path(folder) / "rllib_checkpoint.json").is_file()


def _rllib_library_versions() -> dict[str, str]:
    import ray
    import torch

    return {"python": platform.python_version(), "numpy": np.__version__, "torch": torch.__version__,
            "ray": ray.__version__, "d2r_envs": d2r_envs.__version__}


def export_rllib(module: Any, c: cfg.Config, name: str, raw_config: dict | None, timesteps: int,
                 overwrite: bool = False, out_root: str | Path | None = None) -> Path:
    """Export the actor of RLlib's module (`training.rllib.module.MaskedMLP`) to <out_root, else
    export.out_root>/<game>/<name>/; the check compares the loaded model's numpy logits with the
    module's own (`forward_inference`, every action legal)."""
    from training.rllib.module import architecture, logits, tensors  # Ray: the rllib extra

    folder = export_target(c.game, name, c.export.out_root if out_root is None else out_root, overwrite)
    return write_model(
        folder, c.game, architecture(module), tensors(module), config=raw_config or cfg.to_dict(c), seed=c.seed,
        timesteps=timesteps, library_versions=_rllib_library_versions(),
        reference_logits=lambda obs: logits(module, obs), reference="RLlib", player_counts=c.player_counts(),
        player_weights=c.player_weights(), training={"backend": "rllib", "rllib": cfg.to_dict(c)["rllib"]},
    )


def export_checkpoint(folder: str | Path, c: cfg.Config, name: str, raw_config: dict | None,
                      overwrite: bool = False, out_root: str | Path = "models") -> Path:
    """`d2r export` of an RLlib checkpoint folder, with the config it was trained with: the learner's
    module read back from the folder (no Ray instance needed), then `export_rllib`."""
    from training.rllib.module import MaskedMLP, module_id  # Ray: the rllib extra

    folder = Path(folder)
    module_dir = folder / "learner_group" / "learner" / "rl_module" / module_id(c)
    if not is_rllib_checkpoint(folder) or not module_dir.is_dir():
        raise ValueError(f"{folder}: not an RLlib checkpoint of this config (no {module_dir.relative_to(folder)}); "
                         "give a run's final/ or checkpoints/step_N/ folder and the config it was trained with")
    module = MaskedMLP.from_checkpoint(str(module_dir))
    module.eval()
    progress = folder / RLLIB_PROGRESS
    steps = json.loads(progress.read_text(encoding="utf-8"))["steps"] if progress.is_file() else 0
    return export_rllib(module, c, name, raw_config, steps, overwrite=overwrite, out_root=out_root)


# OpenSpiel's networks ----------------------------------------------------------------------------


def export_openspiel(checkpoint: str | Path, c: cfg.Config, name: str, raw_config: dict | None,
                     overwrite: bool = False, out_root: str | Path | None = None) -> Path:
    """Export a `backend: openspiel` checkpoint (its seat 0 network, training/openspiel/train.py) to
    <out_root, else export.out_root>/<game>/<name>/; the check compares the loaded model's numpy logits with
    OpenSpiel's network's own."""
    from training.networks import observation_scale
    from training.openspiel.checkpoint import exported, load_checkpoint  # torch, OpenSpiel: the extras

    data = load_checkpoint(checkpoint)
    layout = d2r_envs.make_game(c.game).make_observer().layout
    arch, tensors, logits = exported(data, observation_scale(layout.box))
    folder = export_target(c.game, name, c.export.out_root if out_root is None else out_root, overwrite)
    return write_model(
        folder, c.game, arch, tensors, config=raw_config or cfg.to_dict(c), seed=c.seed, timesteps=data["steps"],
        library_versions=_openspiel_library_versions(), reference_logits=logits, reference="OpenSpiel's network",
        player_counts=c.player_counts(), player_weights=c.player_weights(),
        training={"backend": "openspiel", "openspiel": cfg.to_dict(c)["openspiel"]},
    )


def _openspiel_library_versions() -> dict[str, str]:
    from importlib import metadata

    import torch

    return {"python": platform.python_version(), "numpy": np.__version__, "torch": torch.__version__,
            "open_spiel": metadata.version("open-spiel"), "d2r_envs": d2r_envs.__version__}


# Command line -------------------------------------------------------------------------------------


def run(args: argparse.Namespace) -> int:
    """`d2r export`: returns the exit status."""
    try:
        _training_libs()
    except MissingTrainingLibraries as e:
        print(f"d2r export: {e}", file=sys.stderr)
        return 2
    config: dict[str, Any] = {}
    if args.config:
        try:
            import yaml
        except ImportError:
            print(f"d2r export: reading --config needs pyyaml; install it with: {INSTALL_TRAIN}", file=sys.stderr)
            return 2
        try:
            loaded = yaml.safe_load(Path(args.config).read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as e:
            print(f"d2r export: cannot read --config {args.config}: {e}", file=sys.stderr)
            return 2
        config = loaded if isinstance(loaded, dict) else {"config": loaded}
    if is_rllib_checkpoint(args.checkpoint):
        return _run_with_config(args, config, "rllib")
    if str(args.checkpoint).endswith(".pt"):
        return _run_with_config(args, config, "openspiel")
    try:
        model = _load_checkpoint(args.checkpoint)
        seed = args.seed if args.seed is not None else config.get("seed", getattr(model, "seed", None))
        folder = export(model, args.game, args.name, config, seed, out_root=args.out_root, overwrite=args.force)
    except (ValueError, OSError, TypeError, RuntimeError) as e:
        print(f"d2r export: error: {e}", file=sys.stderr)
        return 2
    manifest = opponents.read_manifest(folder)
    arch = manifest["architecture"]
    print(
        f"exported {args.game}/{args.name} to {folder}: mlp {arch['input']}->{arch['hidden']}->{arch['output']} "
        f"({arch['activation']}), {manifest['training']['total_timesteps']} timesteps, seed {manifest['training']['seed']}, "
        f"sha256 {manifest['files'][WEIGHTS_FILE]['sha256'][:16]}"
    )
    return 0


BACKEND_WORDS = {"rllib": ("an RLlib checkpoint", "rllib"), "openspiel": ("a backend: openspiel checkpoint", "openspiel")}


def _run_with_config(args: argparse.Namespace, config: dict[str, Any], backend: str) -> int:
    """`d2r export` of an RLlib checkpoint folder or an OpenSpiel one (.pt): it needs the config it was
    trained with (--config)."""
    what, extra = BACKEND_WORDS[backend]
    if not config:
        print(f"d2r export: {args.checkpoint} is {what}; give the config it was trained with "
              f"(--config PATH, backend: {backend})", file=sys.stderr)
        return 2
    try:
        c = cfg.from_dict(config)
    except cfg.ConfigError as e:
        print(f"d2r export: --config {args.config}: {e}", file=sys.stderr)
        return 2
    if c.backend != backend or c.game != args.game or args.seed is not None:
        print(f"d2r export: --config {args.config} trains {c.game} with backend {c.backend}; {what} of "
              f"{args.game} needs its own config (backend: {backend}, game: {args.game}), and its seed is the "
              "config's (no --seed)", file=sys.stderr)
        return 2
    try:
        if backend == "rllib":
            folder = export_checkpoint(args.checkpoint, c, args.name, config, overwrite=args.force,
                                       out_root=args.out_root)
        else:
            folder = export_openspiel(args.checkpoint, c, args.name, config, overwrite=args.force,
                                      out_root=args.out_root)
    except ImportError as e:
        print(f"d2r export: {what} needs the {extra} extra ({e}); install with: pip install torch==2.13.0 "
              f"&& pip install -e '.[{extra}]'", file=sys.stderr)
        return 2
    except (ValueError, OSError, TypeError, RuntimeError) as e:
        print(f"d2r export: error: {e}", file=sys.stderr)
        return 2
    manifest = opponents.read_manifest(folder)
    print(f"exported {args.game}/{args.name} to {folder} from {args.checkpoint}: "
          f"{manifest['training']['total_timesteps']} timesteps, sha256 {manifest['files'][WEIGHTS_FILE]['sha256'][:16]}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """`python -m training.export ARGS`, the same command as `d2r export ARGS`."""
    p = argparse.ArgumentParser(prog="python -m training.export", description=__doc__.split("\n\n")[0])
    commands.add_export_arguments(p, d2r_envs.names())
    return run(p.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
