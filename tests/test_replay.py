"""Replays: `d2r simulate --record DIR` writes one JSON file per game; `d2r replay` plays each back through
the engine, and a file whose version, actions or outcome do not match is refused with what differs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import d2r_envs
from d2r_envs import replay
from d2r_envs.cli import main as d2r


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> dict[str, list[Path]]:
    out = tmp_path_factory.mktemp("replays")
    files = {}
    for game in d2r_envs.registry.names():
        assert d2r(["simulate", game, "--games", "2", "--seed", "7", "--record", str(out)]) == 0
        files[game] = sorted(out.glob(f"{game}_*.json"))
    return files


@pytest.mark.parametrize("game", d2r_envs.registry.names())
def test_every_recorded_game_plays_back_step_by_step(recorded, game: str, capsys) -> None:
    files = recorded[game]
    assert [f.name for f in files] == [f"{game}_000007.json", f"{game}_000008.json"]
    data = replay.load(files[0])
    assert data["game"] == game and data["version"] == replay.version(game) and data["seed"] == 7
    assert len(data["agents"]) == data["num_players"] and len(data["actions"]) > 10
    seen = []
    assert replay.play_back(data, on_step=lambda game, state, player, action: seen.append(action)) == data["returns"]
    assert seen == data["actions"] and data["chance"] == "env"
    assert sorted(data["returns"])[-1] == 1.0
    assert d2r(["replay", *map(str, files)]) == 0
    assert capsys.readouterr().out.count("as recorded") == 2


def _tampered(path: Path, tmp_path: Path, change) -> str:
    data = json.loads(path.read_text())
    change(data)
    out = tmp_path / "tampered.json"
    out.write_text(json.dumps(data))
    return str(out)


def _first_illegal(data: dict) -> None:
    env = d2r_envs.make(data["game"], data["num_players"], **data["options"])
    env.reset(seed=data["seed"])
    mask = env.last()[0]["action_mask"]
    data["actions"][0] = int(next(a for a in range(len(mask)) if not mask[a]))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(version=d["version"] + 1), "version"),
        (_first_illegal, "replay action 0 .* is not legal here; legal:"),
        (lambda d: d["actions"].pop(), "replay ends after .* but the game goes on"),
        (lambda d: d["actions"].append(0), "more recorded"),
        (lambda d: d["returns"].reverse(), "outcome differs"),
        (lambda d: d.update(seed=d["seed"] + 1), "not legal here|outcome differs|goes on|more recorded"),
        (lambda d: d.update(options={"colour": "mauve"}), "replay options"),
        (lambda d: d.update(game="chess"), "unknown; registered"),
        (lambda d: d.pop("agents"), "missing \\['agents'\\]"),
        (lambda d: d.update(extra=1), "unknown \\['extra'\\]"),
        (lambda d: d.update(actions="1,2"), "'actions': expected list"),
        (lambda d: d.update(actions=[1.5]), "every entry must be int"),
        (lambda d: d.update(format="other/9"), "format"),
        (lambda d: d.update(chance="dice"), "expected one of env, recorded"),
    ],
)
def test_a_replay_that_does_not_match_is_refused_with_what_differs(recorded, tmp_path: Path, capsys, change,
                                                                  message: str) -> None:
    path = _tampered(recorded["rap_godz"][0], tmp_path, change)
    with pytest.raises(replay.ReplayError, match=message):
        replay.play_back(replay.load(path))
    assert d2r(["replay", path]) == 2
    assert "tampered.json" in capsys.readouterr().err


def test_what_is_not_a_replay_is_refused_before_anything_runs(tmp_path: Path) -> None:
    for text, message in ((b"{not json", "not a JSON replay"), (b"[1, 2]", "a JSON object"),
                          (b" " * (replay.MAX_BYTES + 1), "too large")):
        path = tmp_path / "bad.json"
        path.write_bytes(text)
        with pytest.raises(replay.ReplayError, match=message):
            replay.load(path)


def test_eval_records_every_game_and_each_plays_back_with_its_chance(tmp_path: Path, capsys) -> None:
    """`d2r eval --record DIR`: one replay per game (deal x rotation), chance outcomes among the actions;
    each plays back through the engine to its returns, a game cut off by the cap too; the result's
    records stay as they were without it."""
    from training import tournament as ev

    out = tmp_path / "replays"
    assert d2r(["eval", "filthy_rich", "--agents", "heuristic,random", "--players", "3", "--games", "6",
                "--workers", "1", "--out", str(tmp_path / "eval"), "--record", str(out)]) == 0
    files = sorted(out.glob("*.json"))
    assert [f.name for f in files][:2] == ["filthy_rich_0_deal00000_rot0.json", "filthy_rich_0_deal00000_rot1.json"]
    assert len(files) == 6 and "wrote 6 replays" in capsys.readouterr().err
    for f in files:
        data = replay.load(f)
        assert data["chance"] == "recorded" and data["agents"][0] in ("heuristic", "random")
        assert replay.play_back(data) == data["returns"]
    plain = ev.evaluate("filthy_rich", ["heuristic", "random"], 3, 6, 0)
    traced = ev.evaluate("filthy_rich", ["heuristic", "random"], 3, 6, 0, trace=True)
    named = ev.replays(traced)
    assert ev.deterministic_part(traced) == ev.deterministic_part(plain) and len(named) == 6

    cut = ev.evaluate("filthy_rich", ["random"], 3, 3, 0, max_decisions=5, trace=True)
    name, data = ev.replays(cut)[0]
    assert data["truncated"] and replay.play_back(data) == [-1.0] * 3
    data["truncated"] = False
    with pytest.raises(replay.ReplayError, match="goes on"):
        replay.play_back(data)


def test_eval_refuses_a_record_path_that_is_a_file(tmp_path: Path, capsys) -> None:
    taken = tmp_path / "file.txt"
    taken.write_text("x")
    assert d2r(["eval", "filthy_rich", "--agents", "random", "--games", "2", "--record", str(taken)]) == 2
    assert "not a folder" in capsys.readouterr().err


def test_hostile_json_is_refused_as_a_bad_replay_not_a_crash(recorded) -> None:
    for text, message in (('{"seed": ' + "9" * 5000 + "}", "a number of over"),
                          ("[" * 5000 + "]" * 5000, "nested too deeply")):
        with pytest.raises(replay.ReplayError, match=message):
            replay.parse(text)
    data = json.loads(recorded["draco_and_co"][0].read_text())
    for seed in (-1, 2**63):
        with pytest.raises(replay.ReplayError, match="replay seed: expected a whole number"):
            replay.parse(json.dumps({**data, "seed": seed}))


def test_a_save_stopped_part_way_leaves_no_partial_file(recorded, tmp_path: Path, monkeypatch) -> None:
    data = replay.load(recorded["draco_and_co"][0])
    target = tmp_path / "game.json"

    def stopped(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(replay.os, "replace", stopped)
    with pytest.raises(KeyboardInterrupt):
        replay.save(data, target)
    assert list(tmp_path.iterdir()) == []  # neither the replay nor its temporary file
    monkeypatch.undo()
    assert replay.load(replay.save(data, target)) == data and list(tmp_path.iterdir()) == [target]
