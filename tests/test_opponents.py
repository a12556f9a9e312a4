"""Exported opponents: export a MaskablePPO, load it with numpy alone, and refuse anything that does not
fit the installed game or was changed since export.

The refusal tests build their model folder with numpy (save_policy + a manifest), so they run without
torch; the export and torch-agreement tests skip cleanly when torch / sb3-contrib are missing.
"""

from __future__ import annotations

import ast
import json
import os
import pickle
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import numpy as np
import pytest

import d2r_envs
from d2r_envs import opponents, registry
from d2r_envs.opponents import MANIFEST_FIELDS, MANIFEST_FILE, WEIGHTS_FILE, OpponentError, load_opponent

GAME = "draco_and_co"
ACTIONS = registry.action_space(GAME)
LAYOUT = registry.obs_layout(GAME)
N, OBS = ACTIONS.size, LAYOUT.size
ROOT = Path(d2r_envs.__file__).resolve().parent.parent
SOURCE = Path(opponents.__file__)


# Helpers ------------------------------------------------------------------------------------------


def real_observations(count: int, seed: int = 0) -> list[dict[str, np.ndarray]]:
    """AEC observations of the agent to move, from random legal play over a few games."""
    rng = np.random.default_rng(seed)
    out: list[dict[str, np.ndarray]] = []
    game = 0
    while len(out) < count:
        env = d2r_envs.raw_env(GAME, 3 + game % 4)
        env.reset(seed=seed + game)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            if rng.random() < 0.3:
                out.append(obs)
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            if len(out) >= count:
                break
        game += 1
    return out[:count]


def numpy_tensors(hidden: list[int], seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    sizes = [OBS, *hidden, N]
    t = {"obs_scale": (1.0 / np.sqrt(np.maximum(LAYOUT.box.high, 1.0))).astype(np.float32)}
    for i in range(len(sizes) - 1):
        t[f"layers.{i}.weight"] = (rng.standard_normal((sizes[i + 1], sizes[i])) / np.sqrt(sizes[i])).astype(np.float32)
        t[f"layers.{i}.bias"] = (0.1 * rng.standard_normal(sizes[i + 1])).astype(np.float32)
    return t


def write_numpy_model(folder: Path, hidden: list[int] = [16, 8], activation: str = "relu") -> Path:
    """A model folder made without torch: same files and manifest fields as an export."""
    facts = opponents.installed_game_facts(GAME)
    manifest = {
        "format": opponents.FORMAT,
        "game": GAME,
        **facts,
        "architecture": {"type": "mlp", "hidden": hidden, "activation": activation, "input": OBS, "output": N},
        "files": {},
        "training": {"config": {"note": "numpy-made test model"}, "seed": 0, "total_timesteps": 0},
        "library_versions": {"numpy": np.__version__},
        "evaluation": {},
        "created": "2026-01-01T00:00:00+00:00",
    }
    return opponents.save_policy(folder, numpy_tensors(hidden), manifest)


def edit_manifest(folder: Path, **changes) -> None:
    path = folder / MANIFEST_FILE
    manifest = json.loads(path.read_text())
    manifest.update(changes)
    path.write_text(json.dumps(manifest))


@pytest.fixture
def model(tmp_path: Path) -> Path:
    return write_numpy_model(tmp_path / "models" / GAME / "np-test")


# Loading -------------------------------------------------------------------------------------------


def test_load_by_folder_manifest_and_id(model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    by_folder = load_opponent(model, game=GAME)
    by_manifest = load_opponent(model / MANIFEST_FILE)
    by_id = load_opponent(f"{GAME}/np-test", game=GAME, models_root=tmp_path / "models")
    monkeypatch.chdir(tmp_path)  # ./models is looked at by default
    by_cwd = load_opponent(f"{GAME}/np-test")
    obs = np.stack([o["observation"] for o in real_observations(5)])
    for p in (by_manifest, by_id, by_cwd):
        np.testing.assert_array_equal(p.logits(obs), by_folder.logits(obs))
    assert by_id.name == f"{GAME}/np-test" and by_id.game == GAME
    assert by_id.manifest["architecture"]["hidden"] == [16, 8]


def test_shared_models_keep_one_read_only_copy_until_a_file_changes(model: Path) -> None:
    shared = opponents.SharedModels()
    first = shared.load(model, game=GAME)
    assert shared.load(model / MANIFEST_FILE, game=d2r_envs.make_game(GAME, 4)) is first and len(shared) == 1
    assert all(not a.flags.writeable for a in (first.obs_scale, *first._weights_t, *first._biases))
    obs = np.stack([o["observation"] for o in real_observations(5)])
    np.testing.assert_array_equal(first.logits(obs), load_opponent(model, game=GAME).logits(obs))
    with pytest.raises(OpponentError, match="wanted one for 'filthy_rich'"):  # still checked against each game
        shared.load(model, game="filthy_rich")
    tensors = numpy_tensors([16, 8], seed=5)
    opponents.save_policy(model, tensors, json.loads((model / MANIFEST_FILE).read_text()))  # a new export in place
    second = shared.load(model, game=GAME)
    assert second is not first and len(shared) == 1
    np.testing.assert_array_equal(second.tensors()["layers.0.weight"], tensors["layers.0.weight"])
    assert shared.load(model, game=GAME) is second


def test_shared_models_load_once_and_think_alike_in_many_threads(model: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    shared = opponents.SharedModels()
    with ThreadPoolExecutor(8) as pool:
        loaded = list(pool.map(lambda _: shared.load(model, game=GAME), range(16)))
    assert all(p is loaded[0] for p in loaded)
    obs = np.stack([o["observation"] for o in real_observations(64)])
    alone = [loaded[0].logits(o) for o in obs]
    with ThreadPoolExecutor(8) as pool:
        together = list(pool.map(lambda i: loaded[0].logits(obs[i]), list(range(len(obs))) * 4))
    np.testing.assert_array_equal(np.stack(together), np.stack(alone * 4))
    np.testing.assert_array_equal(np.stack([loaded[0].logits(o) for o in obs]), np.stack(alone))  # nothing shared was written


def test_unknown_id_says_where_it_looked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(OpponentError) as e:
        load_opponent(f"{GAME}/no-such-model")
    msg = str(e.value)
    assert str(tmp_path / "models" / GAME / "no-such-model") in msg
    assert str(ROOT / "models" / GAME / "no-such-model") in msg


def test_act_is_the_best_legal_logit_and_never_masked(model: Path) -> None:
    policy = load_opponent(model)
    rng = np.random.default_rng(1)
    for obs in real_observations(100, seed=3):
        mask = obs["action_mask"]
        a = policy.act(obs)
        assert mask[a] == 1
        logits = policy.logits(obs["observation"])
        assert logits[a] == logits[mask == 1].max()
        assert mask[policy.act(obs, rng=rng, deterministic=False)] == 1
        # a mask allowing only the worst action: the policy takes it
        worst = int(np.argmin(logits))
        only = np.zeros(N, np.int8)
        only[worst] = 1
        assert policy.act({"observation": obs["observation"], "action_mask": only}) == worst
        assert policy.act({"observation": obs["observation"], "action_mask": only}, rng=rng, deterministic=False) == worst


def test_act_refuses_an_all_zero_mask(model: Path) -> None:
    policy = load_opponent(model)
    with pytest.raises(ValueError, match="all zeros"):
        policy.act({"observation": np.zeros(OBS, np.float32), "action_mask": np.zeros(N, np.int8)})


def test_logits_with_masks_put_minus_inf_on_illegal_actions(model: Path) -> None:
    policy = load_opponent(model)
    obs = real_observations(8)
    x = np.stack([o["observation"] for o in obs])
    m = np.stack([o["action_mask"] for o in obs])
    masked = policy.logits(x, masks=m)
    assert masked.shape == (8, N) and masked.dtype == np.float32
    assert np.all(np.isneginf(masked[m == 0])) and np.all(np.isfinite(masked[m == 1]))


def test_numpy_policy_from_tensors_copies_them() -> None:
    tensors = numpy_tensors([12], seed=4)
    policy = opponents.numpy_policy(tensors, "tanh", "snapshot-1", game=GAME)
    x = np.stack([o["observation"] for o in real_observations(4)])
    before = policy.logits(x)
    tensors["layers.0.weight"] += 1.0  # the learner trains on
    np.testing.assert_array_equal(policy.logits(x), before)
    assert policy.name == "snapshot-1" and policy.hidden == [12] and policy.num_actions == N
    with pytest.raises(OpponentError, match="missing"):
        opponents.numpy_policy({"obs_scale": tensors["obs_scale"], "layers.0.weight": tensors["layers.0.weight"]}, "tanh", "x")


def test_make_agent_plays_an_exported_model(model: Path) -> None:
    from d2r_envs.agents import make_agent

    game = d2r_envs.make_game(GAME)
    agent = make_agent(str(model), GAME, engine=game)
    rng = np.random.default_rng(0)
    state = game.new_initial_state()
    from d2r_envs.core.game import CHANCE

    for _ in range(50):
        seat = game.current_player(state)
        if seat < 0 and seat != CHANCE:
            break
        if seat == CHANCE:
            game.apply_legal(state, game.sample_chance(state, rng))
            continue
        a = agent.act(game, state, seat, rng)
        assert a in game.legal_actions(state)
        game.apply_legal(state, a)


# Refusals ------------------------------------------------------------------------------------------


def refused(ref, match: str, **kwargs) -> str:
    with pytest.raises(OpponentError, match=match) as e:
        load_opponent(ref, **kwargs)
    assert isinstance(e.value, ValueError)
    return str(e.value)


def test_refuses_the_wrong_game(model: Path) -> None:
    refused(model, "model for game 'draco_and_co', wanted one for 'other_game'", game="other_game")
    edit_manifest(model, game="chess")
    refused(model, "'chess', which is not installed")


def test_refuses_a_changed_game_version(model: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from d2r_envs.games.draco_and_co import rules

    monkeypatch.setattr(rules, "VERSION", rules.VERSION + 1)  # the installed game moved on
    msg = refused(model, "game version")
    assert f"game version {rules.VERSION - 1} != installed {rules.VERSION}" in msg
    monkeypatch.undo()
    edit_manifest(model, game_version=99)
    refused(model, "game version 99 != installed")


def test_refuses_a_changed_observation_fingerprint(model: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    edit_manifest(model, obs_fingerprint="1234")
    msg = refused(model, "observation layout fingerprint")
    assert msg == (
        f"{GAME}/np-test: observation layout fingerprint 1234 != installed {LAYOUT.fingerprint()}: "
        "the encoder changed since this model was exported"
    )
    edit_manifest(model, obs_fingerprint=LAYOUT.fingerprint())
    load_opponent(model)
    monkeypatch.setattr(type(LAYOUT), "fingerprint", lambda self: "feedfacefeedface")  # the encoder changed
    refused(model, "!= installed feedfacefeedface: the encoder changed")


def test_refuses_a_changed_action_fingerprint(model: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    edit_manifest(model, action_fingerprint="abcd")
    refused(model, f"action space fingerprint abcd != installed {ACTIONS.fingerprint()}: the action table changed")
    edit_manifest(model, action_fingerprint=ACTIONS.fingerprint())
    monkeypatch.setattr(type(ACTIONS), "fingerprint", lambda self: "0000")
    refused(model, "!= installed 0000")


def test_refuses_changed_sizes(model: Path) -> None:
    edit_manifest(model, num_actions=N + 1)
    refused(model, f"number of actions {N + 1} != installed {N}")


def test_refuses_tampered_weights(model: Path) -> None:
    path = model / WEIGHTS_FILE
    data = bytearray(path.read_bytes())
    data[-5] ^= 0xFF  # one weight changed, same size
    path.write_bytes(bytes(data))
    refused(model, "policy.safetensors SHA-256 .* != manifest .*: the file was changed or corrupted")


def test_refuses_a_truncated_file(model: Path) -> None:
    path = model / WEIGHTS_FILE
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    refused(model, f"is {len(data) // 2} bytes, the manifest says {len(data)}: the file is truncated")


def test_refuses_a_missing_file(model: Path) -> None:
    (model / WEIGHTS_FILE).unlink()
    refused(model, "policy.safetensors is missing")


@pytest.mark.parametrize("field", MANIFEST_FIELDS)
def test_refuses_a_missing_manifest_field(model: Path, field: str) -> None:
    manifest = json.loads((model / MANIFEST_FILE).read_text())
    del manifest[field]
    (model / MANIFEST_FILE).write_text(json.dumps(manifest))
    refused(model, f"lacks the field\\(s\\) {field}")


def test_refuses_malformed_json(model: Path) -> None:
    (model / MANIFEST_FILE).write_text('{"format": "d2r-policy/1", "game": ')
    refused(model, "cannot read the manifest")
    (model / MANIFEST_FILE).write_text("[1, 2]")
    refused(model, "expected an object")


def test_refuses_another_format(model: Path) -> None:
    edit_manifest(model, format="d2r-policy/2")
    refused(model, "format 'd2r-policy/2' != 'd2r-policy/1'")


def test_refuses_a_wrong_tensor_shape(model: Path) -> None:
    manifest = json.loads((model / MANIFEST_FILE).read_text())
    tensors = numpy_tensors([16, 8])
    tensors["layers.1.weight"] = tensors["layers.1.weight"][:, :7].copy()  # hashes are right, shapes are not
    opponents.save_policy(model, tensors, manifest)
    refused(model, r"tensor layers.1.weight has shape \[8, 7\], the architecture .* needs \[8, 16\]")
    edit_manifest(model, architecture={**manifest["architecture"], "hidden": [16, 8, 4]})
    refused(model, "missing .*layers.3.weight")


def test_refuses_a_bad_architecture(model: Path) -> None:
    arch = json.loads((model / MANIFEST_FILE).read_text())["architecture"]
    edit_manifest(model, architecture={**arch, "activation": "gelu"})
    refused(model, "activation 'gelu'")


def test_refuses_files_outside_the_folder(model: Path) -> None:
    files = json.loads((model / MANIFEST_FILE).read_text())["files"]
    edit_manifest(model, files={**files, "../secret": {"sha256": "0" * 64, "bytes": 1}})
    refused(model, "only plain names")


# Never unpickles; never needs torch ----------------------------------------------------------------


class _Boom:
    """Unpickling this creates a folder: proof that something unpickled."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.mkdir, (self.marker,))


def test_checkpoints_and_pickles_are_refused_unread(tmp_path: Path, model: Path) -> None:
    marker = tmp_path / "unpickled"
    payload = pickle.dumps(_Boom(str(marker)))
    for name in ("ppo.zip", "policy.pkl", "policy.pt"):
        (tmp_path / name).write_bytes(payload)
        refused(tmp_path / name, "not a model folder.*never loaded")
    refused(tmp_path, "no manifest.json in this folder")
    # a pickle in the weights' place, with a manifest that hashes it correctly
    manifest = json.loads((model / MANIFEST_FILE).read_text())
    (model / WEIGHTS_FILE).write_bytes(payload)
    manifest["files"][WEIGHTS_FILE] = {"sha256": opponents._sha256(payload), "bytes": len(payload)}
    (model / MANIFEST_FILE).write_text(json.dumps(manifest))
    refused(model, "is not a readable safetensors file")
    assert not marker.exists()


def _imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in ("import_module", "__import__"):
            names.update(a.value.split(".")[0] for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str))
    return names


def test_opponents_module_imports_no_pickle_torch_or_sb3() -> None:
    banned = {"pickle", "cloudpickle", "dill", "joblib", "torch", "stable_baselines3", "sb3_contrib", "shelve", "marshal"}
    assert not _imported_modules(SOURCE) & banned
    text = SOURCE.read_text(encoding="utf-8")
    assert "allow_pickle" not in text and "np.load(" not in text


def test_load_and_act_with_torch_blocked(model: Path) -> None:
    code = f"""
import sys
for name in ("torch", "stable_baselines3", "sb3_contrib"):
    sys.modules[name] = None  # any import of these now raises ImportError
import numpy as np
import d2r_envs
from d2r_envs.opponents import load_opponent
policy = load_opponent({str(model)!r}, game={GAME!r})
env = d2r_envs.make({GAME!r})
env.reset(seed=0)
for step, agent in enumerate(env.agent_iter()):
    obs, _, term, trunc, _ = env.last()
    action = None if term or trunc else policy.act(obs)
    assert action is None or obs["action_mask"][action] == 1
    env.step(action)
    if step > 200:
        break
assert not any(m and m.__name__.split(".")[0] in ("torch", "stable_baselines3", "sb3_contrib") for m in sys.modules.values())
print("ok", step)
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("ok")


def test_export_command_without_torch_says_how_to_install(tmp_path: Path) -> None:
    code = """
import sys
sys.modules["torch"] = None
from d2r_envs.cli import main
sys.exit(main(["export", "--checkpoint", "x.zip", "--game", "draco_and_co", "--name", "m"]))
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert r.returncode == 2
    assert "pip install torch==2.13.0 && pip install -e '.[train]'" in r.stderr


# Export from a MaskablePPO (torch) -------------------------------------------------------------------


def _tiny_model(activation: str, pi: list[int], seed: int):
    torch = pytest.importorskip("torch")
    pytest.importorskip("stable_baselines3")
    sb3c = pytest.importorskip("sb3_contrib")
    import gymnasium
    from gymnasium import spaces

    from training.networks import ScaledFlatten

    class SpacesOnly(gymnasium.Env):
        """Only the spaces of draco_and_co's AEC observation; the model is never trained."""

        observation_space = LAYOUT.box
        action_space = spaces.Discrete(N)

        def reset(self, *, seed=None, options=None):
            return np.zeros(OBS, np.float32), {}

        def step(self, action):
            return np.zeros(OBS, np.float32), 0.0, True, False, {}

        def action_masks(self):
            return np.ones(N, bool)

    fn = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[activation]
    model = sb3c.MaskablePPO(
        "MlpPolicy",
        SpacesOnly(),
        n_steps=16,
        batch_size=16,
        seed=seed,
        device="cpu",
        policy_kwargs=dict(features_extractor_class=ScaledFlatten, net_arch=dict(pi=pi, vf=[8]), activation_fn=fn),
    )
    torch.manual_seed(seed)
    with torch.no_grad():  # logits of order 1 (SB3's action_net init gives ~0.01, too easy to agree on)
        for layer in [*model.policy.mlp_extractor.policy_net, model.policy.action_net]:
            if isinstance(layer, torch.nn.Linear):
                layer.weight.normal_(0.0, 1.0 / np.sqrt(layer.in_features))
                layer.bias.normal_(0.0, 0.1)
    return model


@pytest.fixture(scope="module", params=[("tanh", [64, 64]), ("relu", [32]), ("tanh", [])], ids=["tanh-64-64", "relu-32", "linear"])
def exported(request, tmp_path_factory):
    activation, pi = request.param
    from training.export import export

    model = _tiny_model(activation, pi, seed=7)
    root = tmp_path_factory.mktemp("models")
    config = {"algo": "MaskablePPO", "net_arch": {"pi": pi, "vf": [8]}, "activation": activation}
    folder = export(model, GAME, f"ppo-{request.param_index}", config, seed=7, out_root=root)
    return model, folder, root


def test_export_writes_the_format(exported) -> None:
    model, folder, root = exported
    assert sorted(p.name for p in folder.iterdir()) == [MANIFEST_FILE, WEIGHTS_FILE]
    m = json.loads((folder / MANIFEST_FILE).read_text())
    assert set(MANIFEST_FIELDS) <= set(m)
    assert m["format"] == "d2r-policy/1" and m["game"] == GAME
    assert m["game_version"] == d2r_envs.make_game(GAME).spec.version
    assert (m["num_actions"], m["obs_size"]) == (N, OBS)
    assert (m["action_fingerprint"], m["obs_fingerprint"]) == (ACTIONS.fingerprint(), LAYOUT.fingerprint())
    pi = model.policy.net_arch["pi"] if isinstance(model.policy.net_arch, dict) else []
    assert m["architecture"]["hidden"] == pi and m["architecture"]["input"] == OBS and m["architecture"]["output"] == N
    assert m["training"]["seed"] == 7 and m["training"]["total_timesteps"] == 0
    assert m["training"]["config"]["algo"] == "MaskablePPO"
    assert set(m["library_versions"]) == {"python", "numpy", "torch", "stable_baselines3", "sb3_contrib", "d2r_envs"}
    assert m["evaluation"] == {}
    datetime.fromisoformat(m["created"])
    import safetensors.numpy

    tensors = safetensors.numpy.load_file(str(folder / WEIGHTS_FILE))
    layers = len(pi) + 1
    assert set(tensors) == {"obs_scale"} | {f"layers.{i}.{p}" for i in range(layers) for p in ("weight", "bias")}
    assert tensors[f"layers.{layers - 1}.weight"].shape == (N, pi[-1] if pi else OBS)
    assert all(t.dtype == np.float32 for t in tensors.values())


def test_numpy_logits_match_torch_on_real_observations(exported) -> None:
    from training.export import torch_logits

    model, folder, root = exported
    policy = load_opponent(f"{GAME}/{folder.name}", game=GAME, models_root=root)
    obs = real_observations(100, seed=11)
    x = np.stack([o["observation"] for o in obs])
    ours, theirs = policy.logits(x), torch_logits(model, x)
    assert np.abs(theirs).max() > 0.1  # not trivially near zero
    np.testing.assert_allclose(ours, theirs, atol=1e-5, rtol=0)
    masks = np.stack([o["action_mask"] for o in obs])
    expected, _ = model.predict(x, action_masks=masks.astype(bool), deterministic=True)
    got = [policy.act(o) for o in obs]
    assert all(masks[i, a] == 1 for i, a in enumerate(got))
    assert np.array_equal(got, expected)


def test_export_from_a_checkpoint_path_and_the_cli(exported, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from d2r_envs.cli import main as d2r
    from training import export as ex

    model, folder, root = exported
    ckpt = tmp_path / "ckpt.zip"
    model.save(ckpt)
    again = ex.export(str(ckpt), GAME, "from-path", {"x": 1}, seed=7, out_root=tmp_path / "m")
    a = (folder / WEIGHTS_FILE).read_bytes()
    assert (again / WEIGHTS_FILE).read_bytes() == a
    (tmp_path / "cfg.yaml").write_text("seed: 5\nlearning_rate: 0.0003\n")
    assert d2r(["export", "--checkpoint", str(ckpt), "--game", GAME, "--name", "cli", "--config", str(tmp_path / "cfg.yaml"),
                "--out-root", str(tmp_path / "m")]) == 0
    assert "exported draco_and_co/cli" in capsys.readouterr().out
    m = opponents.read_manifest(tmp_path / "m" / GAME / "cli")
    assert m["training"]["seed"] == 5 and m["training"]["config"]["learning_rate"] == 0.0003
    assert ex.main(["--checkpoint", str(ckpt), "--game", GAME, "--name", "cli", "--out-root", str(tmp_path / "m")]) == 2
    assert "already holds a model" in capsys.readouterr().err
    assert ex.main(["--checkpoint", str(ckpt), "--game", GAME, "--name", "cli", "--out-root", str(tmp_path / "m"), "--force"]) == 0
    assert ex.main(["--checkpoint", str(tmp_path / "nope.zip"), "--game", GAME, "--name", "z", "--out-root", str(tmp_path / "m")]) == 2
    assert "no checkpoint" in capsys.readouterr().err


def test_snapshot_is_frozen_in_memory(exported) -> None:
    torch = pytest.importorskip("torch")
    from training.export import snapshot, tensors_from_sb3

    model, folder, root = exported
    snap = snapshot(model, "learner@0", game=GAME)
    loaded = load_opponent(folder)
    x = np.stack([o["observation"] for o in real_observations(10, seed=5)])
    np.testing.assert_array_equal(snap.logits(x), loaded.logits(x))
    before = snap.logits(x)
    saved = {k: v.copy() for k, v in tensors_from_sb3(model).items()}
    with torch.no_grad():
        model.policy.action_net.weight.add_(1.0)  # the learner trains on
    np.testing.assert_array_equal(snap.logits(x), before)
    with torch.no_grad():
        model.policy.action_net.weight.sub_(1.0)
    for k, v in tensors_from_sb3(model).items():
        np.testing.assert_allclose(v, saved[k], atol=1e-6)


def test_the_export_check_scales_with_the_logits_and_refuses_a_wrong_export(tmp_path: Path, monkeypatch) -> None:
    """The numpy-vs-torch check allows float32 rounding in proportion to the logits' size (a model with
    logits in the thousands exports), and refuses an export whose logits are off, leaving nothing."""
    import torch

    from training import export as ex

    model = _tiny_model("relu", [32], seed=3)
    with torch.no_grad():
        model.policy.action_net.weight.mul_(1000.0)
    folder = ex.export(model, GAME, "big-logits", {}, seed=0, out_root=tmp_path)
    assert (folder / "manifest.json").exists()

    real = ex.torch_logits
    monkeypatch.setattr(ex, "torch_logits", lambda policy, obs: real(policy, obs) + 0.5)
    with pytest.raises(RuntimeError, match="the export is wrong"):
        ex.export(_tiny_model("relu", [32], seed=4), GAME, "off", {}, seed=0, out_root=tmp_path)
    assert not (tmp_path / GAME / "off" / "manifest.json").exists()


def test_export_refuses_a_model_for_other_spaces(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    import gymnasium
    from gymnasium import spaces
    from sb3_contrib import MaskablePPO

    from training.export import export

    class Small(gymnasium.Env):
        observation_space = spaces.Box(0.0, 1.0, (5,), np.float32)
        action_space = spaces.Discrete(3)

    model = MaskablePPO("MlpPolicy", Small(), n_steps=8, batch_size=8, device="cpu")
    with pytest.raises(ValueError, match=rf"do not fit {GAME} \(observation \[{OBS}\] with the observation options {{}}, {N} actions\)"):
        export(model, GAME, "small", {}, seed=0, out_root=tmp_path)
    assert not (tmp_path / GAME / "small").exists()


def test_policy_agent_fast_path_picks_what_act_picks(write_numpy_model, tmp_path) -> None:
    import d2r_envs
    from d2r_envs.agents import PolicyAgent
    from d2r_envs.core.game import CHANCE, TERMINAL
    from d2r_envs.registry import package

    policy = load_opponent(write_numpy_model(tmp_path / "draco_and_co" / "m"))
    game = d2r_envs.make_game("draco_and_co", 4)
    agent = PolicyAgent(policy, package("draco_and_co").Observer(game))
    rng = np.random.default_rng(0)
    state = game.new_initial_state()
    checked = 0
    while game.current_player(state) != TERMINAL and checked < 300:  # a random net may never toast
        p = game.current_player(state)
        if p == CHANCE:
            game.apply_action(state, game.sample_chance(state, rng))
            continue
        mask = np.zeros(game.spec.num_actions, np.int8)
        mask[game.legal_actions(state)] = 1
        expected = policy.act({"observation": agent.observer.encode(state, p), "action_mask": mask})
        assert agent.act(game, state, p, rng) == expected
        checked += 1
        game.apply_action(state, expected)
    assert checked > 20


def test_every_shipped_model_loads_plays_legally_and_records_its_results() -> None:
    import d2r_envs

    root = Path(__file__).resolve().parent.parent / "models"
    folders = sorted(p.parent for p in root.glob("*/*/manifest.json"))
    assert {f.parent.name for f in folders} >= set(d2r_envs.names()) - AWAITING, "every game ships an opponent"
    for folder in folders:
        policy = load_opponent(folder)
        assert policy.manifest["evaluation"], f"{folder}: no measured results in the manifest"
        env = d2r_envs.make(policy.game, observation=policy.observation)  # what it reads (the manifest's)
        env.reset(seed=0)
        for agent in env.agent_iter(300):
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else policy.act(obs))


@pytest.mark.parametrize(("spec", "suggestion"), [("heuristc", "'heuristic'"), ("randomm", "'random'"),
                                                  ("mcst:50", "'mcts:50'"), ("ppo-v11", "'draco_and_co/ppo-v1'"),
                                                  ("draco_and_co/ppo-v22", "'draco_and_co/ppo-v2'")])
def test_a_misspelled_agent_names_the_built_in_agents_and_the_closest(spec: str, suggestion: str) -> None:
    from d2r_envs.agents import make_agent

    with pytest.raises(ValueError) as err:
        make_agent(spec, "draco_and_co")
    text = str(err.value)
    assert f"did you mean {suggestion}?" in text
    if "/" not in spec:
        assert "random, heuristic (and heuristic:V, a game's variant of it), mcts:N (N simulations a move; mcts:N:G:M keeps the model M's move unless the search's beats it by G standard errors), rollouts:N (N heuristic play-outs a legal move; rollouts:N:G" in text and "shipped (the game's newest shipped model) and search:M:N" in text and "draco_and_co/ppo-v1" in text


def test_shipped_is_the_newest_ppo_version_with_a_manifest(tmp_path: Path) -> None:
    from d2r_envs.opponents import shipped_model

    for name in ("ppo-v2", "ppo-v10", "ppo-v3x", "ppo-v9"):
        (tmp_path / "g" / name).mkdir(parents=True)
        (tmp_path / "g" / name / "manifest.json").write_text("{}")
    (tmp_path / "g" / "ppo-v11").mkdir()  # no manifest: not a model
    assert Path(shipped_model("g", tmp_path)).name == "ppo-v10"
    with pytest.raises(OpponentError, match="no shipped opponent for h"):
        shipped_model("h", tmp_path)


def test_the_shipped_agent_of_every_game_is_its_newest_model() -> None:
    import d2r_envs
    from d2r_envs.agents import make_agent

    root = Path(__file__).resolve().parent.parent / "models"
    for name in sorted(set(d2r_envs.names()) - AWAITING):
        newest = max(int(p.name.removeprefix("ppo-v")) for p in (root / name).glob("ppo-v*"))
        agent = make_agent("shipped", name)
        assert agent.name == f"{name}/ppo-v{newest}"
        assert agent.policy.manifest["game"] == name


# Games whose shipped opponent is still training (their READMEs say so; test_contract checks it).
AWAITING = {p.name for p in (Path(__file__).resolve().parent.parent / "d2r_envs" / "games").iterdir()
            if p.is_dir() and (p / "README.md").is_file() and not (p.parent.parent.parent / "models" / p.name).is_dir()}


def test_a_game_awaiting_its_model_says_so_when_the_shipped_one_is_asked_for() -> None:
    from d2r_envs.agents import make_agent

    if not AWAITING:
        pytest.skip("every game ships a model")
    for name in AWAITING:
        with pytest.raises(OpponentError, match=f"no shipped opponent for {name}"):
            make_agent("shipped", name)

