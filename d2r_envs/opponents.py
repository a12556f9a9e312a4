"""Exported policies as opponents: load a model folder, check it against the installed game, play it
with numpy alone.

A model folder is `models/<game>/<name>/` with two files:

- `policy.safetensors`: float32 tensors `obs_scale` [obs_size], then `layers.{i}.weight` [out, in] and
  `layers.{i}.bias` [out] for each hidden layer, and a last pair whose output is the action logits;
- `manifest.json`: what the weights mean and where they came from (format "d2r-policy/1"): game and
  version, the observation options it reads (`observation`), observation and action layout
  fingerprints, architecture, SHA-256 and size of each file, training config, library versions,
  measured results, creation date.

Forward pass: x = obs * obs_scale; x = act(W x + b) for each hidden layer; logits = W_L x + b_L;
masked-out actions get -inf. `load_opponent` checks everything in the manifest before it builds a
policy and refuses with an `OpponentError` that names what differs. Nothing here imports torch or
stable-baselines3, and nothing is ever unpickled: safetensors is plain bytes and JSON.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
from pathlib import Path
from typing import Any, Mapping

import numpy as np
import safetensors.numpy

from d2r_envs import registry
from d2r_envs.core.game import Game

FORMAT = "d2r-policy/1"
WEIGHTS_FILE = "policy.safetensors"
MANIFEST_FILE = "manifest.json"
ACTIVATIONS = ("tanh", "relu")
MANIFEST_FIELDS = (
    "format",
    "game",
    "game_version",
    "num_actions",
    "obs_size",
    "action_fingerprint",
    "obs_fingerprint",
    "architecture",
    "files",
    "training",
    "library_versions",
    "evaluation",
    "created",
)
INSTALL_TRAIN = "pip install torch==2.13.0 && pip install -e '.[train]'"

__all__ = [
    "FORMAT",
    "OpponentError",
    "NumpyPolicy",
    "load_opponent",
    "resolve_model",
    "read_manifest",
    "save_policy",
    "numpy_policy",
    "installed_game_facts",
    "observation_options",
    "default_models_roots",
    "available_models",
    "SharedModels",
]


class OpponentError(ValueError):
    """A model that cannot be loaded, or cannot be trusted to mean what it meant when exported."""


# The policy ---------------------------------------------------------------------------------------


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0.0, out=x)


def _tanh(x: np.ndarray) -> np.ndarray:
    return np.tanh(x, out=x)


_ACT_FN = {"tanh": _tanh, "relu": _relu}


class NumpyPolicy:
    """An MLP policy over AEC observations ({"observation": float32[obs_size], "action_mask": int8[N]})."""

    def __init__(
        self,
        obs_scale: np.ndarray,
        weights: list[np.ndarray],
        biases: list[np.ndarray],
        activation: str,
        name: str = "policy",
        game: str | None = None,
        manifest: dict[str, Any] | None = None,
    ) -> None:
        if activation not in _ACT_FN:
            raise OpponentError(f"{name}: activation {activation!r} is not one of {', '.join(ACTIVATIONS)}")
        if not weights or len(weights) != len(biases):
            raise OpponentError(f"{name}: {len(weights)} weight matrices and {len(biases)} bias vectors; need the same number, at least 1")
        self.obs_scale = np.ascontiguousarray(obs_scale, dtype=np.float32)
        if self.obs_scale.ndim != 1:
            raise OpponentError(f"{name}: obs_scale has shape {list(self.obs_scale.shape)}, expected a vector")
        width = self.obs_scale.shape[0]
        ws, bs = [], []
        for i, (w, b) in enumerate(zip(weights, biases)):
            w = np.array(w, dtype=np.float32)  # copies: the policy never aliases a learner's live weights
            b = np.array(b, dtype=np.float32)
            if w.ndim != 2 or w.shape[1] != width or b.shape != (w.shape[0],):
                raise OpponentError(
                    f"{name}: layers.{i} has weight {list(w.shape)} and bias {list(b.shape)}; "
                    f"expected weight [out, {width}] and bias [out]"
                )
            ws.append(np.ascontiguousarray(w.T))  # x @ W.T: rows of a batch stay contiguous
            bs.append(b)
            width = w.shape[0]
        self._weights_t = ws
        self._biases = bs
        self._act = _ACT_FN[activation]
        self.activation = activation
        self.hidden = [int(w.shape[1]) for w in ws[:-1]]
        self.obs_size = int(self.obs_scale.shape[0])
        self.num_actions = int(width)
        self.name = name
        self.game = game
        self.manifest = manifest if manifest is not None else {
            "architecture": self.architecture(),
        }
        # the observation options it reads (Game.make_observer; a PolicyAgent encodes with them)
        self.observation = observation_options(self.manifest, name)
        self._rng: np.random.Generator | None = None

    def architecture(self) -> dict[str, Any]:
        return {
            "type": "mlp",
            "hidden": list(self.hidden),
            "activation": self.activation,
            "input": self.obs_size,
            "output": self.num_actions,
        }

    def tensors(self) -> dict[str, np.ndarray]:
        """The tensors in the exported layout (copies)."""
        out = {"obs_scale": self.obs_scale.copy()}
        for i, (wt, b) in enumerate(zip(self._weights_t, self._biases)):
            out[f"layers.{i}.weight"] = np.ascontiguousarray(wt.T)
            out[f"layers.{i}.bias"] = b.copy()
        return out

    def logits(self, obs_batch: np.ndarray, masks: np.ndarray | None = None) -> np.ndarray:
        """Action logits, float32 [B, num_actions] for obs [B, obs_size] (or [num_actions] for one
        observation). With `masks` (same leading shape, nonzero = legal) masked-out actions get -inf."""
        x = np.asarray(obs_batch, dtype=np.float32)
        if x.shape[-1:] != (self.obs_size,) or x.ndim > 2:
            reads = (f" (it reads the observation with the options {self.observation}: make the env with "
                     "observation=policy.observation)") if self.observation else ""
            raise ValueError(
                f"{self.name}: observations of shape {list(x.shape)}; expected [{self.obs_size}] or [batch, {self.obs_size}]"
                + reads
            )
        x = x * self.obs_scale
        last = len(self._weights_t) - 1
        for i, (wt, b) in enumerate(zip(self._weights_t, self._biases)):
            x = x @ wt
            x += b
            if i < last:
                x = self._act(x)
        if masks is not None:
            m = np.asarray(masks)
            if m.shape != x.shape:
                raise ValueError(f"{self.name}: masks of shape {list(m.shape)}; expected {list(x.shape)}")
            x[m == 0] = -np.inf
        return x

    def act(self, observation: Mapping[str, np.ndarray], rng: np.random.Generator | None = None, deterministic: bool = True) -> int:
        """A legal action for one AEC observation: the best legal logit, or a sample from the
        masked softmax when `deterministic` is False (with `rng`, else the policy's own generator)."""
        try:
            obs, mask = observation["observation"], observation["action_mask"]
        except (KeyError, TypeError, IndexError):
            raise ValueError(
                f"{self.name}: act() takes an AEC observation dict with 'observation' and 'action_mask', "
                f"got {type(observation).__name__}"
            ) from None
        mask = np.asarray(mask)
        if mask.shape != (self.num_actions,):
            raise ValueError(f"{self.name}: action_mask of shape {list(mask.shape)}; expected [{self.num_actions}]")
        legal = mask != 0
        if not legal.any():
            raise ValueError(
                f"{self.name}: the action mask is all zeros, there is no legal action to pick "
                "(an agent that is not to move, or whose game ended, sees an all-zero mask: step it with None)"
            )
        logits = self.logits(obs)
        logits[~legal] = -np.inf
        if deterministic:
            return int(np.argmax(logits))
        if rng is None:
            if self._rng is None:
                self._rng = np.random.default_rng()
            rng = self._rng
        z = logits - logits.max()
        p = np.exp(z.astype(np.float64))
        p /= p.sum()
        action = int(rng.choice(self.num_actions, p=p))
        return action if legal[action] else int(np.argmax(logits))  # p is exactly 0 there; belt and braces

    def __repr__(self) -> str:
        return f"NumpyPolicy({self.name!r}, game={self.game!r}, {self.obs_size}->{self.hidden}->{self.num_actions}, {self.activation})"


def _split_tensors(tensors: Mapping[str, np.ndarray], name: str) -> tuple[np.ndarray, list[np.ndarray], list[np.ndarray]]:
    """obs_scale and the weight/bias lists of `tensors`; refuses any other or missing name."""
    count = 0
    while f"layers.{count}.weight" in tensors:
        count += 1
    expected = {"obs_scale"} | {f"layers.{i}.{p}" for i in range(count) for p in ("weight", "bias")}
    found = set(tensors)
    if count == 0 or found != expected:
        missing, extra = sorted(expected - found), sorted(found - expected)
        raise OpponentError(
            f"{name}: tensor names do not follow obs_scale, layers.0.weight, layers.0.bias, ...: "
            f"missing {missing or 'none'}, unexpected {extra or 'none'}"
        )
    return (
        tensors["obs_scale"],
        [tensors[f"layers.{i}.weight"] for i in range(count)],
        [tensors[f"layers.{i}.bias"] for i in range(count)],
    )


def numpy_policy(tensors: Mapping[str, np.ndarray], activation: str, name: str, game: str | None = None,
                 observation: Mapping[str, Any] | None = None) -> NumpyPolicy:
    """A NumpyPolicy from tensors in the exported layout (e.g. training.export.tensors_from_sb3 of a
    learner: a frozen snapshot for the opponent pool), reading observations with the `observation`
    options; copies them."""
    obs_scale, weights, biases = _split_tensors(tensors, name)
    policy = NumpyPolicy(obs_scale, weights, biases, activation, name=name, game=game)
    policy.observation = policy.manifest["observation"] = dict(observation or {})
    return policy


# Files ---------------------------------------------------------------------------------------------


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def save_policy(folder: str | os.PathLike, tensors: Mapping[str, np.ndarray], manifest: dict[str, Any]) -> Path:
    """Write `policy.safetensors` and `manifest.json` into `folder` (created if missing). Fills
    manifest["files"] with each file's SHA-256 and size; the manifest is written last."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    arrays = {k: np.ascontiguousarray(v, dtype=np.float32) for k, v in tensors.items()}
    data = safetensors.numpy.save(arrays, metadata={"format": FORMAT})
    _write_atomic(folder / WEIGHTS_FILE, data)
    manifest["files"] = {WEIGHTS_FILE: {"sha256": _sha256(data), "bytes": len(data)}}
    text = json.dumps(manifest, indent=2, sort_keys=False, allow_nan=False) + "\n"
    _write_atomic(folder / MANIFEST_FILE, text.encode("utf-8"))
    return folder


def read_manifest(path: str | os.PathLike) -> dict[str, Any]:
    """The parsed manifest.json of a model folder (or the manifest path itself); no checks beyond JSON."""
    path = Path(path)
    if path.is_dir():
        path = path / MANIFEST_FILE
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise OpponentError(f"{path}: cannot read the manifest: {e}") from None
    if not isinstance(manifest, dict):
        raise OpponentError(f"{path}: the manifest is a JSON {type(manifest).__name__}, expected an object")
    return manifest


# Finding a model -----------------------------------------------------------------------------------


def default_models_roots() -> list[Path]:
    """Where ids are looked up: ./models, then the models/ folder beside the d2r_envs package."""
    roots = [Path.cwd() / "models", Path(__file__).resolve().parent.parent / "models"]
    out: list[Path] = []
    for r in roots:
        if r.resolve() not in [o.resolve() for o in out]:
            out.append(r)
    return out


def available_models(game: str | None = None) -> list[str]:
    """The ids `<game>/<name>` of the model folders under default_models_roots() (for `game` only, if given)."""
    found: set[str] = set()
    for root in default_models_roots():
        for manifest in root.glob(f"{game or '*'}/*/{MANIFEST_FILE}"):
            found.add(f"{manifest.parent.parent.name}/{manifest.parent.name}")
    return sorted(found)


def shipped_model(game: str, models_root: str | os.PathLike | None = None) -> str:
    """The folder of `game`'s shipped opponent: the newest `ppo-vN` in the repository's own models/
    (or `models_root`); a model of the same name under ./models does not take its place."""
    root = Path(models_root or Path(__file__).resolve().parent.parent / "models") / game
    found = [(int(m.group(1)), p.name) for p in root.glob("ppo-v*")
             if (m := re.fullmatch(r"ppo-v(\d+)", p.name)) and (p / MANIFEST_FILE).is_file()]
    if not found:
        raise OpponentError(f"no shipped opponent for {game}: no models/{game}/ppo-vN/{MANIFEST_FILE} beside the package")
    return str(root / max(found)[1])


def resolve_model(ref: str | os.PathLike, models_root: str | os.PathLike | None = None) -> Path:
    """The model folder that `ref` names: a folder, its manifest.json, or an id `<game>/<name>`
    under `models_root` (default: default_models_roots())."""
    text = os.fspath(ref)
    path = Path(text)
    not_a_folder = (
        f"{text}: not a model folder: give a folder with {MANIFEST_FILE} and {WEIGHTS_FILE} (or its "
        f"{MANIFEST_FILE}), or an id such as draco_and_co/ppo-v1. Checkpoints (.zip) and pickles are never "
        "loaded here: export a checkpoint first with `d2r export --checkpoint PATH --game GAME --name NAME`"
    )
    if path.is_file():
        if path.name == MANIFEST_FILE:
            return path.parent
        raise OpponentError(not_a_folder)
    if path.is_dir():
        if not (path / MANIFEST_FILE).is_file():
            raise OpponentError(f"{text}: no {MANIFEST_FILE} in this folder; " + not_a_folder.split(": ", 1)[1])
        return path
    roots = [Path(models_root)] if models_root is not None else default_models_roots()
    if not path.is_absolute() and len(path.parts) == 2:
        for root in roots:
            folder = root / path
            if (folder / MANIFEST_FILE).is_file():
                return folder
    looked = ", ".join(str(r / path) for r in roots) if not path.is_absolute() else text
    raise OpponentError(
        f"{text}: no model found; looked for a folder with {MANIFEST_FILE} at {text} and at {looked}. "
        "An id is <game>/<name> under a models/ folder (the current directory's or the repository's); "
        f"models found: {', '.join(available_models()) or 'none'}"
    )


# Checking and loading -----------------------------------------------------------------------------


def observation_options(manifest: Mapping[str, Any], label: str) -> dict[str, Any]:
    """The observation options a model reads its observations with (the manifest's `observation`;
    none listed: the game's default observation)."""
    options = manifest.get("observation", {})
    if not isinstance(options, dict):
        raise OpponentError(f"{label}: the manifest's observation is a {type(options).__name__}, expected an object "
                            "(a dict) of observation options")
    return dict(options)


def installed_game_facts(game: "str | Game", observation: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """What a model must agree with: the installed game's version, sizes and layout fingerprints
    (`game`: its name, or an engine of it), for the observation with the `observation` options (a
    ValueError names a bad one)."""
    engine = game if isinstance(game, Game) else registry.make_game(game)
    actions, layout = registry.of(engine).ACTIONS, engine.make_observer(**(observation or {})).layout
    return {
        "game_version": engine.spec.version,
        "num_actions": actions.size,
        "obs_size": layout.size,
        "action_fingerprint": actions.fingerprint(),
        "obs_fingerprint": layout.fingerprint(),
    }


def _check_manifest(manifest: dict[str, Any], label: str, game: "str | Game | None") -> dict[str, Any]:
    missing = [f for f in MANIFEST_FIELDS if f not in manifest]
    if missing:
        raise OpponentError(f"{label}: the manifest lacks the field(s) {', '.join(missing)}")
    if manifest["format"] != FORMAT:
        raise OpponentError(f"{label}: manifest format {manifest['format']!r} != {FORMAT!r}, the format this version reads")
    name = manifest["game"]
    if name not in registry.names():
        raise OpponentError(f"{label}: model for game {name!r}, which is not installed; installed: {', '.join(registry.names())}")
    wanted = game.spec.name if isinstance(game, Game) else game
    if wanted is not None and name != wanted:
        raise OpponentError(f"{label}: model for game {name!r}, wanted one for {wanted!r}")
    observation = observation_options(manifest, label)
    try:
        facts = installed_game_facts(game if isinstance(game, Game) else name, observation)
    except ValueError as e:
        raise OpponentError(f"{label}: the manifest's observation options: {e}") from None
    why = {
        "game_version": "the game's rules, actions or observations changed since this model was exported",
        "action_fingerprint": "the action table changed since this model was exported",
        "obs_fingerprint": "the encoder changed since this model was exported",
        "num_actions": "the action table changed since this model was exported",
        "obs_size": "the encoder changed since this model was exported",
    }
    words = {
        "game_version": "game version",
        "action_fingerprint": "action space fingerprint",
        "obs_fingerprint": "observation layout fingerprint",
        "num_actions": "number of actions",
        "obs_size": "observation size",
    }
    for key in ("game_version", "obs_fingerprint", "action_fingerprint", "obs_size", "num_actions"):
        if manifest[key] != facts[key]:
            raise OpponentError(f"{label}: {words[key]} {manifest[key]} != installed {facts[key]}: {why[key]}")
    arch = manifest["architecture"]
    if not isinstance(arch, dict):
        raise OpponentError(f"{label}: architecture is a {type(arch).__name__}, expected an object")
    hidden = arch.get("hidden")
    problems = []
    if arch.get("type") != "mlp":
        problems.append(f"type {arch.get('type')!r} != 'mlp'")
    if arch.get("activation") not in ACTIVATIONS:
        problems.append(f"activation {arch.get('activation')!r} is not one of {', '.join(ACTIVATIONS)}")
    if not isinstance(hidden, list) or not all(isinstance(h, int) and not isinstance(h, bool) and h > 0 for h in hidden):
        problems.append(f"hidden {hidden!r} is not a list of positive whole numbers")
    if arch.get("input") != facts["obs_size"]:
        problems.append(f"input {arch.get('input')!r} != obs_size {facts['obs_size']}")
    if arch.get("output") != facts["num_actions"]:
        problems.append(f"output {arch.get('output')!r} != num_actions {facts['num_actions']}")
    if problems:
        raise OpponentError(f"{label}: architecture: {'; '.join(problems)}")
    files = manifest["files"]
    if not isinstance(files, dict) or WEIGHTS_FILE not in files:
        raise OpponentError(f"{label}: manifest 'files' does not list {WEIGHTS_FILE}")
    return facts


def _check_files(folder: Path, files: dict[str, Any], label: str) -> dict[str, bytes]:
    """Every listed file exists, has the listed size and SHA-256; returns the bytes read."""
    out: dict[str, bytes] = {}
    for fname, entry in files.items():
        if not isinstance(fname, str) or fname in ("", ".", "..") or "/" in fname or "\\" in fname:
            raise OpponentError(f"{label}: manifest lists the file {fname!r}; only plain names inside the folder are allowed")
        if not isinstance(entry, dict) or not isinstance(entry.get("sha256"), str) or not isinstance(entry.get("bytes"), int):
            raise OpponentError(f"{label}: manifest entry for {fname} must be {{\"sha256\": str, \"bytes\": int}}, got {entry!r}")
        path = folder / fname
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise OpponentError(f"{label}: {fname} is missing from {folder}") from None
        except OSError as e:
            raise OpponentError(f"{label}: cannot read {fname}: {e}") from None
        if len(data) != entry["bytes"]:
            raise OpponentError(
                f"{label}: {fname} is {len(data)} bytes, the manifest says {entry['bytes']}: the file is truncated or was changed"
            )
        digest = _sha256(data)
        if digest != entry["sha256"].lower():
            raise OpponentError(
                f"{label}: {fname} SHA-256 {digest} != manifest {entry['sha256']}: the file was changed or corrupted"
            )
        out[fname] = data
    return out


def _check_tensors(tensors: dict[str, np.ndarray], arch: dict[str, Any], label: str) -> None:
    sizes = [arch["input"], *arch["hidden"], arch["output"]]
    expected = {"obs_scale": (arch["input"],)}
    for i in range(len(sizes) - 1):
        expected[f"layers.{i}.weight"] = (sizes[i + 1], sizes[i])
        expected[f"layers.{i}.bias"] = (sizes[i + 1],)
    missing, extra = sorted(set(expected) - set(tensors)), sorted(set(tensors) - set(expected))
    if missing or extra:
        raise OpponentError(
            f"{label}: tensors do not match the architecture {sizes}: missing {missing or 'none'}, unexpected {extra or 'none'}"
        )
    for key, shape in expected.items():
        t = tensors[key]
        if t.shape != shape:
            raise OpponentError(f"{label}: tensor {key} has shape {list(t.shape)}, the architecture {sizes} needs {list(shape)}")
        if t.dtype != np.float32:
            raise OpponentError(f"{label}: tensor {key} is {t.dtype}, expected float32")
        if not np.isfinite(t).all():
            raise OpponentError(f"{label}: tensor {key} has non-finite values")


def load_opponent(
    ref: str | os.PathLike, game: "str | Game | None" = None, models_root: str | os.PathLike | None = None
) -> NumpyPolicy:
    """Load an exported policy after checking it against the installed game.

    `ref`: a model folder, its manifest.json, or an id `<game>/<name>` looked up under `models_root`
    (default: ./models, then the models/ folder beside the package). `game`: the game it must be for
    (its name, or the engine it will play).
    Raises OpponentError naming what differs; builds nothing until every check has passed."""
    folder = resolve_model(ref, models_root)
    label = f"{folder.parent.name}/{folder.name}"
    manifest = read_manifest(folder / MANIFEST_FILE)
    _check_manifest(manifest, label, game)
    data = _check_files(folder, manifest["files"], label)
    try:
        tensors = safetensors.numpy.load(data[WEIGHTS_FILE])
    except Exception as e:  # safetensors raises its own error types for a malformed header
        raise OpponentError(f"{label}: {WEIGHTS_FILE} is not a readable safetensors file: {e}") from None
    _check_tensors(tensors, manifest["architecture"], label)
    obs_scale, weights, biases = _split_tensors(tensors, label)
    return NumpyPolicy(
        obs_scale,
        weights,
        biases,
        manifest["architecture"]["activation"],
        name=label,
        game=manifest["game"],
        manifest=manifest,
    )


class SharedModels:
    """Loaded policies shared read-only by every agent that plays one model: one loaded copy per model
    folder, kept while its manifest and weights files are the same files (same inode, size and
    modification time), loaded again when either changed. A shared policy's tensors are read-only, and
    its forward pass writes only arrays of its own, so agents in several threads may think with it at
    once; each agent keeps its own observer and generator."""

    def __init__(self) -> None:
        self._loaded: dict[Path, tuple[tuple, NumpyPolicy]] = {}
        self._lock = threading.Lock()

    @staticmethod
    def _files(folder: Path) -> tuple:
        out = []
        for name in (MANIFEST_FILE, WEIGHTS_FILE):
            try:
                st = os.stat(folder / name)
                out.append((st.st_ino, st.st_size, st.st_mtime_ns))
            except OSError:
                out.append(None)  # load_opponent says what is missing
        return tuple(out)

    def load(self, ref: str | os.PathLike, game: "str | Game | None" = None,
             models_root: str | os.PathLike | None = None) -> NumpyPolicy:
        """The policy `ref` names, as load_opponent loads and checks it, shared with every earlier load of
        the same unchanged files; checked against `game` on every call."""
        folder = resolve_model(ref, models_root).resolve()
        with self._lock:  # one load per model at a time: concurrent requests for it get one copy
            files = self._files(folder)
            held = self._loaded.get(folder)
            if held is None or held[0] != files:
                policy = load_opponent(folder, game)
                for array in (policy.obs_scale, *policy._weights_t, *policy._biases):
                    array.setflags(write=False)
                self._loaded[folder] = (files, policy)
                return policy
            policy = held[1]
        _check_manifest(policy.manifest, policy.name, game)  # this game's player count and options may differ
        return policy

    def __len__(self) -> int:
        return len(self._loaded)
