"""`d2r play`: the person sees only their seat, picks by number or name, is asked again on bad input."""

from __future__ import annotations

import re


from d2r_envs import play
from d2r_envs.cli import main


def test_a_whole_game_by_numbers_with_bad_answers_in_between() -> None:
    said: list[str] = []
    answers = iter(["", "banana", "0", "999"] + ["1"] * 10_000)
    returns = play.play("draco_and_co", ["random"], 4, seat=2, seed=3, ask=lambda _: next(answers), say=said.append)
    text = "\n".join(said)
    assert "'banana' is not one of the legal actions" in text
    assert "'999' is not one of the legal actions" in text
    assert len(returns) == 4 and ("you win" in text or "you lose" in text)
    views = [line for line in said if line.startswith("player_")]
    assert all(line.startswith("player_2 (") or re.match(r"player_\d \(random\)", line) for line in views)


def test_the_view_shows_only_the_persons_hand() -> None:
    said: list[str] = []
    answers = iter(["1"] * 10_000)
    play.play("draco_and_co", ["random"], 3, seat=0, seed=1, ask=lambda _: next(answers), say=said.append)
    end = len(said) - 1 - said[::-1].index("")  # the final reveal comes after the last blank line
    during = "\n".join(said[:end])
    assert "your hand:" in during
    assert "p1 hand:" not in during and "p2 hand:" not in during
    assert "p1 hand:" in "\n".join(said[end:])


def test_choose_by_name_prefix() -> None:
    import d2r_envs

    game = d2r_envs.make_game("draco_and_co", 3)
    state = game.new_initial_state()
    import numpy as np

    rng = np.random.default_rng(0)
    while game.current_player(state) < 0:
        game.apply_action(state, game.sample_chance(state, rng))
    legal = game.legal_actions(state)
    name = game.action_to_string(state, legal[-1])
    said: list[str] = []
    assert play.choose(game, state, lambda _: name.upper(), said.append) == legal[-1]


def test_cli_refuses_a_bad_seat(capsys) -> None:
    assert main(["play", "draco_and_co", "--seat", "7"]) == 2
    assert "seat 7" in capsys.readouterr().err
