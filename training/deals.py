"""Playing a tournament's deals: who sits where, the random streams, one game, and a whole deal.

Lineup. The seats are filled from the list of agent specs (see `make_agent`: "random",
"heuristic", "mcts:<n>", a model id or path). A list as long as the seats is the lineup itself,
seat by seat (`--lineup model,random,random,random`). A shorter list puts its first agent in one
seat and cycles the others (the opponents) over the remaining seats: `["model", "random"]` at 4
players is model, random, random, random (the model against three random players);
`["a", "b", "c"]` at 5 players is a, b, c, b, c; `["random"]` fills every seat.

Duplicate deals and rotation. Deal d (d = 0, 1, ...) resolves chance with a numpy Generator
seeded by `np.random.SeedSequence([seed, d])`, through `game.sample_chance`; the deal is played
n times (n = players), once per rotation r of the lineup round the table (seat s holds
`lineup[(s - r) % n]`), and the chance stream restarts from the same seed each time. So every
lineup slot sits in every seat of every deal once, and the luck of the deal cancels. Each seat gets
its own agent stream per game, `SeedSequence([seed, d], spawn_key=(r, seat))`, independent of the
chance stream: the same seed gives the same games, with any number of workers.

A game still running after `max_decisions` player decisions is cut off and counts as a no-winner
game: every seat gets the game's `min_return`.

`init_worker` then `play_deal` play every rotation of one deal in a process: the tournament's own
process, a worker of its pool (training/tournament.py) or a Ray task (training/ray_eval.py). A deal is
played with one BLAS thread: a model agent's forward pass is one small matrix-vector product, which
threads only slow down (several times over where the cores are busy, as when every core plays deals),
and which gives the same numbers with any number of threads.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

import d2r_envs
from d2r_envs.agents import make_agent
from d2r_envs.core.game import CHANCE, TERMINAL, IllegalActionError

AgentFactory = Callable[[str, str, Any], Any]  # (spec, game name, engine) -> Agent


def make_lineup(agents: Sequence[str], num_players: int) -> list[str]:
    """The agent in each seat at rotation 0 (see the module docstring for the rule)."""
    agents = list(agents)
    if not agents:
        raise ValueError("no agents given")
    if len(agents) > num_players:
        raise ValueError(f"{len(agents)} agents given for {num_players} seats; give at most one per seat")
    if len(agents) == num_players or len(agents) == 1:
        return [agents[i % len(agents)] for i in range(num_players)]
    first, others = agents[0], agents[1:]
    return [first] + [others[i % len(others)] for i in range(num_players - 1)]


def distinct(items: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(items))


def seat_agents(lineup: Sequence[str], rotation: int) -> list[str]:
    """The agent in each seat at this rotation: seat s holds lineup[(s - r) % n]."""
    n = len(lineup)
    return [lineup[(s - rotation) % n] for s in range(n)]


def chance_rng(seed: int, deal: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence([seed, deal]))


def agent_rng(seed: int, deal: int, rotation: int, seat: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence([seed, deal], spawn_key=(rotation, seat)))


def build_agents(specs: Sequence[str], game_name: str, engine: Any, factory: AgentFactory | None) -> dict[str, Any]:
    """{spec: agent} for each spec, by `factory` or `make_agent`; ValueError, one line, for a bad spec."""
    build = factory or make_agent
    out: dict[str, Any] = {}
    for spec in specs:
        try:
            out[spec] = build(spec, game_name, engine)
        except Exception as e:  # noqa: BLE001 - any failure to build an agent is a bad spec, one line
            detail = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise ValueError(f"agent {spec!r}: {detail}") from e
    return out


def play_game(
    engine: Any,
    seated: Sequence[Any],
    chance: np.random.Generator,
    rngs: Sequence[np.random.Generator],
    max_decisions: int,
    clock: list[list[float]] | None = None,
    trace: list[int] | None = None,
) -> tuple[list[float], int, bool]:
    """One game: (returns per seat, player decisions, truncated). `clock[seat]` += [moves, seconds];
    `trace` += every action applied, chance outcomes included (a replay's actions)."""
    spec = engine.spec
    state = engine.new_initial_state()
    decisions = 0
    while True:
        player = engine.current_player(state)
        if player == TERMINAL:
            return [float(x) for x in engine.returns(state)], decisions, False
        if player == CHANCE:
            outcome = engine.sample_chance(state, chance)
            if trace is not None:
                trace.append(int(outcome))
            engine.apply_legal(state, outcome)
            continue
        if decisions >= max_decisions:
            return [float(spec.min_return)] * spec.num_players, decisions, True
        agent = seated[player]
        start = time.perf_counter()
        action = agent.act(engine, state, player, rngs[player])
        elapsed = time.perf_counter() - start
        if clock is not None:
            clock[player][0] += 1
            clock[player][1] += elapsed
        try:
            engine.apply_action(state, action)
        except IllegalActionError as e:
            raise IllegalActionError(f"agent {getattr(agent, 'name', agent)!r} in seat {player}: {e}") from e
        if trace is not None:
            trace.append(int(action))
        decisions += 1


@dataclasses.dataclass
class Setup:
    """What a process needs to play any deal of a tournament."""

    game: str
    options: dict[str, Any]
    num_players: int
    lineup: list[str]
    seed: int
    max_decisions: int
    factory: AgentFactory | None
    trace: bool = False  # each record holds its game's actions (replays)


WORKER: dict[str, Any] = {}  # this process's set-up, engine and agents, for `play_deal`


def init_worker(setup: Setup, engine: Any = None, agents: dict[str, Any] | None = None) -> None:
    """Make this process ready to play deals: the engine and the agents given, else built here."""
    engine = engine if engine is not None else d2r_envs.make_game(setup.game, setup.num_players, **setup.options)
    WORKER["setup"] = setup
    WORKER["engine"] = engine
    WORKER["agents"] = agents if agents is not None else build_agents(
        distinct(setup.lineup), setup.game, engine, setup.factory
    )


def play_deal(deal: int) -> tuple[list[dict[str, Any]], dict[str, list[float]]]:
    """All rotations of one deal: the game records and {agent: [moves, seconds]}."""
    setup: Setup = WORKER["setup"]
    engine, agents = WORKER["engine"], WORKER["agents"]
    n = setup.num_players
    records: list[dict[str, Any]] = []
    timing = {a: [0.0, 0.0] for a in distinct(setup.lineup)}
    with threadpool_limits(limits=1, user_api="blas"):
        for rotation in range(n):
            names = seat_agents(setup.lineup, rotation)
            clock = [[0.0, 0.0] for _ in range(n)]
            trace: list[int] | None = [] if setup.trace else None
            returns, decisions, truncated = play_game(
                engine,
                [agents[a] for a in names],
                chance_rng(setup.seed, deal),
                [agent_rng(setup.seed, deal, rotation, s) for s in range(n)],
                setup.max_decisions,
                clock,
                trace,
            )
            for s, a in enumerate(names):
                timing[a][0] += clock[s][0]
                timing[a][1] += clock[s][1]
            records.append(
                {"deal": deal, "rotation": rotation, "seats": names, "returns": returns,
                 "decisions": decisions, "truncated": truncated}
            )
            if trace is not None:
                records[-1]["actions"] = trace
    return records, timing
