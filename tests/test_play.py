"""`d2r play`: the person sees only their seat and its event log, picks by number, name or part of
a name, asks for help, and is asked again on bad input."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import d2r_envs
from d2r_envs import play
from d2r_envs.agents import make_agent, registry
from d2r_envs.cli import main

ROOT = Path(d2r_envs.__file__).resolve().parent.parent


def _answers(first: list[str]):
    answers = iter(first + ["1"] * 100_000)
    return lambda _prompt: next(answers)


def test_a_whole_game_by_numbers_with_bad_answers_in_between() -> None:
    said: list[str] = []
    returns = play.play("draco_and_co", ["random"], 4, seat=2, seed=3, ask=_answers(["", "banana", "0", "999"]),
                        say=said.append)
    text = "\n".join(said)
    assert "'banana' is not one of the legal actions" in text
    assert "'999' is not one of the legal actions" in text
    assert len(returns) == 4 and ("you win" in text or "you lose" in text)
    assert "  * game over" in text


@pytest.mark.parametrize("name", d2r_envs.names())
def test_every_game_plays_to_the_end_with_its_event_log(name: str) -> None:
    said: list[str] = []
    returns = play.play(name, ["random"], seat=1, seed=5, ask=_answers([]), say=said.append)
    events = [line for line in said if line.startswith("  * ")]
    assert len(returns) == d2r_envs.make_game(name).spec.num_players
    assert len(events) > 20 and any("game over" in e for e in events[-3:])
    assert any("player_0" in e for e in events) and any("player_1" in e for e in events)


def test_the_view_shows_only_the_persons_hand() -> None:
    said: list[str] = []
    play.play("draco_and_co", ["random"], 3, seat=0, seed=1, ask=_answers([]), say=said.append)
    end = len(said) - 1 - said[::-1].index("")  # the final reveal comes after the last blank line
    during = "\n".join(said[:end])
    assert "your hand:" in during
    assert "p1 hand:" not in during and "p2 hand:" not in during
    assert "p1 hand:" in "\n".join(said[end:])
    # The log tells the person what they drew, and only that others drew.
    assert "player_0 is dealt " in during and "player_1 is dealt 5 cards" in during


def _first_decision(name: str, n: int, seed: int = 0):
    game = d2r_envs.make_game(name, n)
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    while game.current_player(state) < 0:
        game.apply_action(state, game.sample_chance(state, rng))
    return game, state


def test_choose_by_name_prefix_and_by_the_card_name_in_the_hand() -> None:
    game, state = _first_decision("draco_and_co", 3)
    legal = game.legal_actions(state)
    said: list[str] = []
    name = game.action_to_string(state, legal[-1])
    assert play.choose(game, state, lambda _: name.upper(), said.append) == legal[-1]
    # "play Shove" is picked by "shove", the name the hand shows.
    card = name.partition(" ")[2]
    assert play.choose(game, state, lambda _: f"  {card.lower()} ", said.append) == legal[-1]


def test_an_ambiguous_name_lists_the_moves_it_fits() -> None:
    game, state = _first_decision("draco_and_co", 3)
    said: list[str] = []
    answers = iter(["play", "1"])
    assert play.choose(game, state, lambda _: next(answers), said.append) == game.legal_actions(state)[0]
    assert any("'play' fits several moves: 1. play" in line for line in said)


def test_moves_show_what_each_does_and_help_shows_it_whole() -> None:
    game, state = _first_decision("draco_and_co", 4)
    said: list[str] = []
    answers = iter(["help", "log", "1"])
    shown = {"log": lambda: ["  * the log"]}
    play.choose(game, state, lambda _: next(answers), said.append, shown)
    legal = game.legal_actions(state)
    texts = [registry.of(game).explain(game, state, a) for a in legal]
    assert all(texts), "every card played has a text"
    listing = said[: len(legal)]
    assert all(f"{i}. {game.action_to_string(state, a)}" in line for i, (a, line) in enumerate(zip(legal, listing), 1))
    help_at = said.index(next(line for line in said if "the legal moves, and what each does" in line))
    full = "\n".join(said[help_at:])
    assert all(" ".join(t.split()) in full for t in texts)
    assert "quit" in full and "log" in full and "  * the log" in said


def test_quit_abandons_the_game_and_exits_0(capsys, monkeypatch) -> None:
    said: list[str] = []
    assert play.play("filthy_rich", ["random"], seed=2, ask=lambda _: "quit", say=said.append) is None
    assert said[-1] == "game abandoned"
    monkeypatch.setattr("builtins.input", lambda _prompt: "quit")
    assert main(["play", "drags_2_riches", "--opponents", "random", "--seed", "1"]) == 0


@pytest.mark.parametrize(("pressed", "code", "said"), [(KeyboardInterrupt, 130, "game abandoned"),
                                                       (EOFError, 1, "no more input: game abandoned")])
def test_ctrl_c_exits_130_and_the_end_of_input_1(pressed, code: int, said: str, capsys, monkeypatch) -> None:
    def ask(_prompt):
        raise pressed

    monkeypatch.setattr("builtins.input", ask)
    assert main(["play", "drags_2_riches", "--opponents", "random", "--seed", "1"]) == code
    assert capsys.readouterr().out.splitlines()[-1] == said


def test_cli_refuses_a_bad_seat(capsys) -> None:
    assert main(["play", "draco_and_co", "--seat", "7"]) == 2
    assert "seat 7" in capsys.readouterr().err


def test_cli_names_the_built_in_agents_for_a_misspelled_opponent(capsys) -> None:
    assert main(["play", "draco_and_co", "--opponents", "heuristc"]) == 2
    err = capsys.readouterr().err
    assert "did you mean 'heuristic'?" in err and "random, heuristic (and heuristic:V, a game's variant of it), mcts:N (N simulations a move; mcts:N:G:M keeps the model M's move unless the search's beats it by G standard errors), rollouts:N (N heuristic play-outs a legal move;" in err \
        and "shipped (the game's newest shipped model) and search:M:N" in err


def test_cli_plays_against_a_difficulty_level(capsys, monkeypatch) -> None:
    from d2r_envs import difficulty

    monkeypatch.setattr("builtins.input", lambda _prompt: "quit")
    for level in difficulty.levels("rap_godz"):
        assert main(["play", "rap_godz", "--players", "3", "--level", level.name, "--seed", "3"]) == 0
        out = capsys.readouterr().out
        name = make_agent(level.agent, "rap_godz").name
        assert f"player_1 is {name}" in out and f"player_2 is {name}" in out


def test_cli_refuses_an_unknown_level_naming_the_levels(capsys) -> None:
    assert main(["play", "rap_godz", "--level", "godlike"]) == 2
    assert "unknown level 'godlike' for rap_godz; its levels, weakest first: easy, medium" in capsys.readouterr().err


def test_cli_plays_against_the_shipped_model_by_default(capsys, monkeypatch) -> None:
    monkeypatch.setattr("builtins.input", lambda _prompt: "quit")
    assert main(["play", "filthy_rich", "--players", "2", "--seed", "3"]) == 0
    newest = max(int(p.name.removeprefix("ppo-v")) for p in (ROOT / "models" / "filthy_rich").glob("ppo-v*"))
    assert f"player_1 is filthy_rich/ppo-v{newest}" in capsys.readouterr().out


def test_cli_plays_against_the_heuristic_when_a_game_has_no_shipped_model_yet(capsys, monkeypatch) -> None:
    from d2r_envs import opponents

    def none_yet(game, models_root=None):  # as for a game whose model is still training
        raise opponents.OpponentError(f"no shipped opponent for {game}")

    monkeypatch.setattr(opponents, "shipped_model", none_yet)
    monkeypatch.setattr("builtins.input", lambda _prompt: "quit")
    assert main(["play", "rap_godz", "--players", "2", "--seed", "3"]) == 0
    captured = capsys.readouterr()
    assert "rap_godz has no shipped opponent yet" in captured.err and "player_1 is heuristic" in captured.out


@pytest.mark.parametrize("name", d2r_envs.names())
def test_no_seat_below_0_is_named_to_the_person(name: str) -> None:
    """Set-up and chance are described ('turn of nobody (set-up)'), never shown as a seat like player_-1."""
    n = d2r_envs.make_game(name).spec.max_players
    for seed in (0, 1):
        said: list[str] = []
        play.play(name, ["random"], n, seat=0, seed=seed, ask=_answers([]), say=said.append)
        shown = [line for text in said for line in text.splitlines() if "player_-" in line]
        assert not shown, shown[:3]
