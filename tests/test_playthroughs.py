"""Replays every recorded playthrough; a golden that no longer matches shows the behaviour change."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

import d2r_envs
from d2r_envs import playthrough

GOLDENS = sorted(Path(__file__).parent.glob("*/playthroughs/*.txt"))


@pytest.mark.parametrize("path", GOLDENS, ids=lambda p: f"{p.parts[-3]}/{p.stem}")
def test_playthrough_reproduces(path: Path) -> None:
    expected = path.read_text(encoding="utf-8")
    actual = playthrough.replay(expected)
    if actual != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), "golden", "now", n=2))
        pytest.fail(
            f"{path} changed. If intended, bump the game version and run\n"
            f"  python -m d2r_envs.playthrough --update {path}\n{diff[:4000]}"
        )


def test_every_game_has_a_playthrough() -> None:
    assert {p.parts[-3] for p in GOLDENS} == set(d2r_envs.names())


def test_a_changed_action_is_caught() -> None:
    text = GOLDENS[0].read_text(encoding="utf-8")
    first = text.index("action: ")
    end = text.index("\n", first)
    action = int(text[first + len("action: ") : end])
    tampered = text[:first] + f"action: {action + 1}" + text[end:]  # another first player
    try:
        replayed = playthrough.replay(tampered)
    except ValueError:  # a later recorded action became illegal: caught too
        return
    assert replayed != tampered
