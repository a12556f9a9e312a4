"""`d2r play`: a person takes one seat at the terminal, against chosen opponents.

The person sees only their seat: the game's event log as it happens (what was rolled, drawn, paid,
moved and won, as that seat may see it), their view of the table, and the legal moves with what each
does. They answer with a move's number, its name or part of it (a card's name as shown in the
hand), or a command: `help`, `log`, `view`, `quit`.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

import d2r_envs
from d2r_envs import registry
from d2r_envs.agents import make_agent
from d2r_envs.core.game import CHANCE, TERMINAL

COMMANDS = (
    ("help", "the legal moves with what each does, and these commands"),
    ("log", "everything you have seen happen so far"),
    ("view", "the table as you see it"),
    ("quit", "abandon the game"),
)


class Quit(Exception):
    """The person typed quit."""


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def match(answer: str, names: list[str]) -> list[int]:
    """The indices of `names` that `answer` picks: an exact name, else names it begins, else names
    that contain it (so a card's name picks the move that plays it); case and spacing ignored."""
    a = _norm(answer)
    if not a:
        return []
    lowered = [_norm(n) for n in names]
    for fits in (lambda n: n == a, lambda n: n.startswith(a), lambda n: a in n):
        found = [i for i, n in enumerate(lowered) if fits(n)]
        if found:
            return found
    return []


def moves(game, state, legal: list[int], full: bool = False) -> list[str]:
    """The numbered legal moves, each with what it does (cut to one line unless `full`)."""
    out = []
    for i, a in enumerate(legal, 1):
        line = f"  {i:2d}. {game.action_to_string(state, a)}"
        text = " ".join(registry.of(game).explain(game, state, a).split())
        if text:
            if not full and len(text) > 100:
                text = text[:99] + "…"
            line += f"  ({text})"
        out.append(line)
    return out


def choose(
    game,
    state,
    ask: Callable[[str], str],
    say: Callable[[str], None],
    show: dict[str, Callable[[], list[str]]] | None = None,
) -> int:
    """List the legal moves and ask until the answer names one of them; return it.

    `show` maps the commands `log` and `view` to what they print; `help` lists the moves in full,
    and `quit` raises Quit.
    """
    legal = game.legal_actions(state)
    names = [game.action_to_string(state, a) for a in legal]
    show = show or {}
    for line in moves(game, state, legal):
        say(line)
    while True:
        answer = ask(f"your move (1-{len(legal)}, a name, or help): ").strip()
        command = answer.lower()
        if command in ("help", "?", "h"):
            say(f"{game.decision_name(state)}: the legal moves, and what each does")
            for line in moves(game, state, legal, full=True):
                say(line)
            say("type a move's number, its name or part of it (a card's name picks the move that plays it), or:")
            for name, what in COMMANDS:
                say(f"  {name:5s} {what}")
            continue
        if command in show:
            for line in show[command]():
                say(line)
            continue
        if command in ("quit", "exit"):
            raise Quit
        if answer.isdigit():
            if 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            say(f"'{answer}' is not one of the legal actions; type a number from 1 to {len(legal)}, a name above, or help.")
            continue
        found = match(answer, names)
        if len(found) == 1:
            return legal[found[0]]
        if found:
            say(f"'{answer}' fits several moves: " + "; ".join(f"{i + 1}. {names[i]}" for i in found)
                + ". Type its number.")
        else:
            say(f"'{answer}' is not one of the legal actions; type a number from 1 to {len(legal)}, a name above, or help.")


def play(
    name: str,
    opponents: list[str],
    num_players: int | None = None,
    seat: int = 0,
    seed: int | None = None,
    ask: Callable[[str], str] | None = None,
    say: Callable[[str], None] | None = None,
    **options,
) -> list[float] | None:
    """Play one game; returns the returns per seat, or None if the person quit. `ask` and `say`
    default to input() and print()."""
    ask, say = ask or input, say or print
    game = d2r_envs.make_game(name, num_players, **options)
    n = game.spec.num_players
    if seat not in range(n):
        raise ValueError(f"seat {seat} is not allowed; allowed: 0..{n - 1}")
    if not opponents:
        raise ValueError("give at least one opponent, e.g. heuristic")
    others = [q for q in range(n) if q != seat]
    agents = {q: make_agent(opponents[i % len(opponents)], game) for i, q in enumerate(others)}
    observer = game.make_observer()
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    log = registry.of(game).log(game)
    shown = 0  # events already printed

    def news() -> None:
        nonlocal shown
        for text in log.seen_by(seat, shown):
            say(f"  * {text}")
        shown = len(log)

    say(f"{name}: you are player_{seat}; " + ", ".join(f"player_{q} is {a.name}" for q, a in agents.items()))
    say("type help at any choice for the legal moves, what each does, and the commands")
    commands = {
        "log": lambda: [f"  * {t}" for t in log.seen_by(seat)] or ["  (nothing yet)"],
        "view": lambda: [observer.string_from(state, seat)],
    }
    while True:
        player = game.current_player(state)
        if player == TERMINAL:
            break
        if player == CHANCE:
            log.apply(state, game.sample_chance(state, rng))
        elif player == seat:
            news()
            say("")
            say(observer.string_from(state, seat))
            try:
                action = choose(game, state, ask, say, commands)
            except Quit:
                say("game abandoned")
                return None
            log.apply(state, action)
        else:
            log.apply(state, agents[player].act(game, state, player, rng))
    news()
    returns = game.returns(state)
    say("")
    say(game.state_to_string(state))
    say("you " + ("win" if returns[seat] == game.spec.max_return else "lose") + f" (return {returns[seat]:g})")
    return returns
