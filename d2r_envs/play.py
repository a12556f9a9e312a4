"""`d2r play`: a person takes one seat at the terminal, against chosen opponents.

The person sees only their seat's view and picks a legal action by number or by its name.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

import d2r_envs
from d2r_envs.agents import make_agent
from d2r_envs.core.game import CHANCE, TERMINAL
from d2r_envs.registry import game_package


def choose(game, state, ask: Callable[[str], str], say: Callable[[str], None]) -> int:
    """Ask until the answer names a legal action; return it."""
    legal = game.legal_actions(state)
    names = [game.action_to_string(state, a) for a in legal]
    for i, name in enumerate(names, 1):
        say(f"  {i:2d}. {name}")
    while True:
        answer = ask(f"your choice (1-{len(legal)} or a name): ").strip()
        if answer.isdigit() and 1 <= int(answer) <= len(legal):
            return legal[int(answer) - 1]
        matches = [a for a, name in zip(legal, names) if name.lower() == answer.lower()]
        if not matches:
            matches = [a for a, name in zip(legal, names) if answer and name.lower().startswith(answer.lower())]
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            say(f"'{answer}' fits several actions; type its number (1-{len(legal)}).")
        else:
            say(f"'{answer}' is not one of the legal actions; type a number from 1 to {len(legal)} or a name above.")


def play(
    name: str,
    opponents: list[str],
    num_players: int | None = None,
    seat: int = 0,
    seed: int | None = None,
    ask: Callable[[str], str] = input,
    say: Callable[[str], None] = print,
    **options,
) -> list[float]:
    """Play one game; returns the returns per seat."""
    game = d2r_envs.make_game(name, num_players, **options)
    n = game.spec.num_players
    if seat not in range(n):
        raise ValueError(f"seat {seat} is not allowed; allowed: 0..{n - 1}")
    if not opponents:
        raise ValueError("give at least one opponent, e.g. heuristic")
    others = [q for q in range(n) if q != seat]
    agents = {q: make_agent(opponents[i % len(opponents)], name, game) for i, q in enumerate(others)}
    observer = game_package(name).Observer(game)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    say(f"{name}: you are player_{seat}; " + ", ".join(f"player_{q} is {a.name}" for q, a in agents.items()))
    while True:
        player = game.current_player(state)
        if player == TERMINAL:
            break
        if player == CHANCE:
            game.apply_action(state, game.sample_chance(state, rng))
        elif player == seat:
            say("")
            say(observer.string_from(state, seat))
            game.apply_action(state, choose(game, state, ask, say))
        else:
            action = agents[player].act(game, state, player, rng)
            say(f"player_{player} ({agents[player].name}): {game.action_to_string(state, action)}")
            game.apply_action(state, action)
    returns = game.returns(state)
    say("")
    say(game.state_to_string(state))
    say("you " + ("win" if returns[seat] == game.spec.max_return else "lose") + f" (return {returns[seat]:g})")
    return returns
