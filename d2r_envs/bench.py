"""`d2r bench`: random legal play through the AEC loop, ours beside PettingZoo's classic envs.

Every env runs the same loop, the one a user writes (see `aec_loop`: reset, then agent_iter() / last() /
step() with a seeded random legal action), for the same wall time.
The time is cut into rounds that visit the envs in turn, so that machine noise hits them all
alike; an env's rate is its best round. The bare engine (`engine_loop`: legal_actions +
apply_legal, chance by sample_chance, no PettingZoo) is measured the same way.

Every bar is a ratio measured in the same run, so a slower or busier machine moves both sides alike:
every game's AEC rate is at least AEC_RATIO_BARS[build] times connect_four_v3's (the compiled build
3x, pure Python 2x), and its bare engine's decisions per second at least ENGINE_RATIO_BAR times
connect_four_v3's AEC steps. On the compiled build the bare engine also runs on pure Python in the same
rounds (a worker process with D2R_ENVS_PURE=1, `PureEngine`), and the compiled one must be at least
COMPILED_RATIO_BAR times as fast. The absolute rates are printed as information only.

With `search`, information-set MCTS at that many simulations plays whole games against itself
(`SearchPlay`), timed the same way; on the compiled build its pure-Python twin runs in a worker beside it,
and the two must choose the same moves.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import subprocess
import sys
import time
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, TextIO

import numpy as np

import d2r_envs
from d2r_envs.core.game import CHANCE, TERMINAL, Game
from d2r_envs.registry import package

AEC_RATIO_BARS = {"compiled": 3.0, "pure Python": 2.0}  # our AEC steps/s over connect_four_v3's, by build
COMPILED_RATIO_BAR = 1.5  # the compiled bare engine's decisions/s over its own pure-Python build's
# Bare engine decisions/s over connect_four_v3's AEC steps/s: the ratio of the absolute bar this
# project first set (50,000 decisions/s) to connect_four_v3's 21,600 steps/s on the 2-core machine then.
ENGINE_RATIO_BAR = 2.3
BASELINE = "connect_four_v3"
SPIEL_BASELINE = "connect_four (OpenSpiel, C++)"
REFERENCES = ("connect_four_v3", "leduc_holdem_v4")
INSTALL_HINT = "the reference envs need PettingZoo's classic games: pip install -e '.[bench]'"


def aec_loop(env: Any, rng: np.random.Generator, seed: int, deadline: float) -> tuple[int, int]:
    """Play whole games of random legal moves until `deadline`; (env.step calls, games).

    Every env, ours and PettingZoo's, runs this same loop: reset(seed), then for each agent of
    agent_iter() one last() (the observation and its action mask) and one step(), None for an agent
    that is done, else a legal action drawn uniformly from the mask: its legal indices
    (`mask.nonzero()[0]`) picked by one `rng.random()`, the draw engine_loop makes. The draw is
    seeded (`rng`, `seed`) and so deterministic, and light (`rng.choice` over `np.flatnonzero` costs
    several microseconds more), so that the loop times the env rather than the sampler.
    """
    clock = time.perf_counter
    random = rng.random
    steps = games = 0
    while True:
        env.reset(seed=seed + games)
        for agent in env.agent_iter():
            obs, rew, term, trunc, info = env.last()
            if term or trunc:
                action = None
            else:
                legal = obs["action_mask"].nonzero()[0]
                action = legal[int(random() * len(legal))]
            env.step(action)
            steps += 1
        games += 1
        if clock() >= deadline:
            return steps, games


def engine_loop(game: Game, rng: np.random.Generator, deadline: float) -> tuple[int, int]:
    """Whole games on the bare engine until `deadline`; (player decisions, games).

    A game stops at TERMINAL or after spec.max_game_length decisions (where the env truncates).
    """
    clock = time.perf_counter
    current, legal, apply, sample = game.current_player, game.legal_actions, game.apply_legal, game.sample_chance
    cap = game.spec.max_game_length
    random = rng.random
    decisions = games = 0
    while True:
        state = game.new_initial_state()
        made = 0
        while made < cap:
            player = current(state)
            if player == CHANCE:
                apply(state, sample(state, rng))
            elif player == TERMINAL:
                break
            else:
                actions = legal(state)
                apply(state, actions[int(random() * len(actions))])
                made += 1
        decisions += made
        games += 1
        if clock() >= deadline:
            return decisions, games


class SearchPlay:
    """Whole games in which information-set MCTS makes every decision, played on across rounds: `moves` is
    every searched decision's action, in order (a decision with one legal action is not searched)."""

    def __init__(self, game: Game, simulations: int, seed: int) -> None:
        from d2r_envs.agents.mcts import ISMCTS

        self.game, self.agent = game, ISMCTS(simulations)
        self.rng = np.random.default_rng([seed, 1])
        self.state = game.new_initial_state()
        self.moves: list[int] = []

    def run(self, deadline: float) -> tuple[int, int]:
        """Search and play until `deadline` (a move started before it is finished); (moves, games ended)."""
        game, state = self.game, self.state
        moves = games = 0
        while time.perf_counter() < deadline:
            player = game.current_player(state)
            if player == TERMINAL:
                state = game.new_initial_state()
                games += 1
            elif player == CHANCE:
                game.apply_legal(state, game.sample_chance(state, self.rng))
            else:
                legal = game.legal_actions(state)
                if len(legal) == 1:
                    game.apply_legal(state, legal[0])
                    continue
                action = self.agent.act(game, state, player, self.rng)
                game.apply_legal(state, action)
                self.moves.append(action)
                moves += 1
        self.state = state
        return moves, games


def spiel_loop(game: Any, rng: np.random.Generator, deadline: float, observe: bool = True) -> tuple[int, int]:
    """Whole games through pyspiel states until `deadline`; (player decisions, games): at a decision the
    mover's `observation_tensor` (unless `observe` is False), `legal_actions` and `apply_action` with the
    light random draw, at a chance node an outcome drawn from `chance_outcomes`; the loop an OpenSpiel
    algorithm makes, the same for our games (d2r_envs.openspiel) and OpenSpiel's own."""
    from d2r_envs.openspiel import resolve_chance

    clock = time.perf_counter
    random = rng.random
    decisions = games = 0
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                resolve_chance(state, rng)
            else:
                if observe:
                    state.observation_tensor(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[int(random() * len(legal))])
                decisions += 1
        games += 1
        if clock() >= deadline:
            return decisions, games


@dataclass
class Subject:
    """One row of the table: something to run for a while, again and again."""

    label: str
    players: int | None
    kind: str  # "aec", "engine", "search", their pure-Python twins "pure engine", "pure search", "openspiel"...
    game: str | None  # our registry id, None for a reference env
    run: Callable[[float], tuple[int, int]]  # deadline -> (steps, games)
    close: Callable[[], None] = lambda: None  # frees what `run` holds (a worker process)
    rates: list[float] = field(default_factory=list)
    moves: list[int] = field(default_factory=list)  # a search's moves, in order
    steps: int = 0
    games: int = 0
    seconds: float = 0.0

    def round(self, seconds: float) -> None:
        start = time.perf_counter()
        steps, games = self.run(start + seconds)
        elapsed = time.perf_counter() - start
        self.rates.append(steps / elapsed)
        self.steps += steps
        self.games += games
        self.seconds += elapsed

    @property
    def best(self) -> float:
        return max(self.rates)


def _aec_subject(label: str, game: str | None, players: int | None, make: Callable[[], Any], seed: int) -> Subject:
    env = make()
    rng = np.random.default_rng(seed)
    state = {"seed": seed}

    def run(deadline: float) -> tuple[int, int]:
        steps, games = aec_loop(env, rng, state["seed"], deadline)
        state["seed"] += games  # a new seed for every game, across rounds too
        return steps, games

    return Subject(label, players, "aec", game, run)


def _engine_subject(label: str, name: str, players: int, options: dict[str, Any], seed: int) -> Subject:
    game = d2r_envs.make_game(name, players, **options)
    rng = np.random.default_rng(seed)
    return Subject(label, players, "engine", name, lambda deadline: engine_loop(game, rng, deadline))


def _search_subject(label: str, name: str, players: int, options: dict[str, Any], seed: int,
                    simulations: int) -> Subject:
    play = SearchPlay(d2r_envs.make_game(name, players, **options), simulations, seed)
    subject = Subject(label, players, "search", name, play.run)
    subject.moves = play.moves
    return subject


class PureEngine:
    """The bare engine of one game on pure Python, in a worker process (D2R_ENVS_PURE=1) that runs
    `engine_loop` (or with `simulations`, `SearchPlay`) for as long as it is asked, so that the compiled
    build's run measures both side by side."""

    def __init__(self, name: str, players: int, options: dict[str, Any], seed: int, simulations: int = 0) -> None:
        spec = json.dumps([name, players, options, seed, simulations])
        code = f"from d2r_envs.bench import serve_engine; serve_engine({spec!r})"
        self.proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, env={**os.environ, "D2R_ENVS_PURE": "1"})
        self.moves: list[int] = []  # the searched moves, where it runs SearchPlay
        self.run(time.perf_counter())  # started and warmed up before any round is timed

    def run(self, deadline: float) -> tuple[int, int]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{max(0.0, deadline - time.perf_counter())}\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("d2r bench: the pure-Python engine's worker stopped")
        decisions, games, *moves = map(int, line.split())
        self.moves += moves
        return decisions, games

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


def serve_engine(spec: str) -> None:
    """The worker of `PureEngine`: for each line of seconds on stdin, run the engine (or the search) that long
    and print "decisions games", then the searched moves made."""
    name, players, options, seed, simulations = json.loads(spec)
    game = d2r_envs.make_game(name, players, **options)
    rng = np.random.default_rng(seed)
    play = SearchPlay(game, simulations, seed) if simulations else None
    for line in sys.stdin:
        deadline = time.perf_counter() + float(line)
        if play is None:
            print(*engine_loop(game, rng, deadline), flush=True)
        else:
            done = len(play.moves)
            print(*play.run(deadline), *play.moves[done:], flush=True)


def _spiel_subject(label: str, name: str | None, players: int | None, game: Any, seed: int, observe: bool) -> Subject:
    rng = np.random.default_rng(seed)
    kind = "openspiel" if observe else "openspiel bare"
    return Subject(label, players, kind, name, lambda deadline: spiel_loop(game, rng, deadline, observe))


def _spiel_subjects(games: list[str], players: int | None, options: dict[str, Any], suffix: str,
                    seed: int) -> list[Subject]:
    """Our games through d2r_envs.openspiel, with and without observations, and OpenSpiel's C++
    connect_four in the same loop."""
    from d2r_envs import openspiel

    out = []
    for name in games:
        n = players if players is not None else package(name).DEFAULT_PLAYERS
        game = openspiel.pyspiel.load_game(openspiel.short_name(name), {openspiel.PLAYERS: n, **options})
        out.append(_spiel_subject(name + suffix, name, n, game, seed, observe=True))
        out.append(_spiel_subject(name + suffix, name, n, game, seed, observe=False))
    out.append(_spiel_subject(SPIEL_BASELINE, None, 2, openspiel.pyspiel.load_game("connect_four"), seed, observe=True))
    return out


def _pure_engine_subject(label: str, name: str, players: int, options: dict[str, Any], seed: int,
                         simulations: int = 0) -> Subject:
    worker = PureEngine(name, players, options, seed, simulations)
    subject = Subject(label, players, "pure search" if simulations else "pure engine", name, worker.run, worker.close)
    subject.moves = worker.moves
    return subject


def _references() -> dict[str, Callable[[], Any]] | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # PettingZoo's note on its old env API
            from pettingzoo.classic import connect_four_v3, leduc_holdem_v4
    except ImportError:  # pettingzoo without its classic games' dependencies (pygame, rlcard)
        return None
    return {"connect_four_v3": connect_four_v3.env, "leduc_holdem_v4": leduc_holdem_v4.env}


def machine_note(seconds: float, rounds: int) -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    import pettingzoo

    return (
        f"_{datetime.datetime.now():%Y-%m-%d %H:%M}, d2r_envs {d2r_envs.build()} build, "
        f"{platform.system()} {platform.machine()}, {cpu} "
        f"({os.cpu_count()} CPUs), Python {platform.python_version()}, numpy {np.__version__}, "
        f"pettingzoo {pettingzoo.__version__}; {rounds} rounds of {seconds / rounds:.2g} s per env, "
        f"rate = best round_"
    )


def spiel_table(subjects: list[Subject]) -> list[str]:
    """The OpenSpiel rows: decisions/s with and without observations, beside OpenSpiel's C++ connect_four
    in the same loop, and what a decision costs through pyspiel and through our AEC env, each over the
    bare engine."""
    def find(kind: str, label: str) -> Subject | None:
        return next((s for s in subjects if s.kind == kind and s.label == label), None)

    base = next(s for s in subjects if s.label == SPIEL_BASELINE)
    lines = ["", "## OpenSpiel: random legal play through pyspiel states (d2r_envs.openspiel)", "",
             "A decision: the mover's observation_tensor, legal_actions and apply_action; chance from chance_outcomes. "
             "Cost over the bare engine: microseconds a decision beyond the engine's own.", "",
             "| game | players | decisions/s | vs connect_four (OpenSpiel, C++) | without observations | "
             "cost over the bare engine: pyspiel | without observations | our AEC env |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for s in subjects:
        if s.kind != "openspiel" or s.game is None:
            continue
        bare, engine, aec = find("openspiel bare", s.label), find("engine", s.label), find("aec", s.label)
        assert bare is not None and engine is not None and aec is not None
        over = [1e6 / x.best - 1e6 / engine.best for x in (s, bare, aec)]
        lines.append(f"| {s.label} | {s.players} | {s.best:,.0f} | {s.best / base.best:.3f}x | {bare.best:,.0f} | "
                     f"{over[0]:.1f} | {over[1]:.1f} | {over[2]:.1f} |")
    lines.append(f"| {base.label} | 2 | {base.best:,.0f} | 1.000x | | | | |")
    return lines


def search_table(subjects: list[Subject], simulations: int) -> list[str]:
    """The search rows: information-set MCTS's moves a second, and on the compiled build its pure-Python
    build's beside it."""
    lines = ["", f"## Information-set MCTS: mcts:{simulations} playing every seat (agents/mcts.py)", "",
             "| game | players | moves/s | seconds a move | moves | games ended |", "|---|---:|---:|---:|---:|---:|"]
    for s in subjects:
        if s.kind in ("search", "pure search"):
            lines.append(f"| {s.label} | {s.players} | {s.best:.2f} | {1 / s.best:.3f} | {s.steps:,} | {s.games:,} |")
    return lines


def judge(subjects: list[Subject], build: str = "pure Python") -> list[tuple[bool, str]]:
    """(passed, what) for every bar: each of our games' AEC rate (against the `build`'s bar) and
    bare-engine rate as a ratio to connect_four_v3's AEC rate in the same run, and where the pure-Python
    engine ran beside the compiled one, their ratio; nothing absolute."""
    base = next(s for s in subjects if s.kind == "aec" and s.label == BASELINE).best
    bar = AEC_RATIO_BARS[build]
    out = []
    for s in subjects:
        if s.kind == "aec" and s.game:
            out.append((s.best >= bar * base,
                        f"{s.label} AEC loop {s.best / base:.2f}x connect_four_v3 (bar {bar:.1f}x, {build} build)"))
    pure = {s.label: s for s in subjects if s.kind == "pure engine"}
    for s in subjects:
        if s.kind == "engine":
            out.append((s.best >= ENGINE_RATIO_BAR * base,
                        f"{s.label} bare engine {s.best / base:.2f}x connect_four_v3's AEC steps/s "
                        f"({s.best:,.0f} decisions/s; bar {ENGINE_RATIO_BAR:.1f}x)"))
            other = pure.get(f"{s.label} (pure Python)")
            if other is not None:
                out.append((s.best >= COMPILED_RATIO_BAR * other.best,
                            f"{s.label} bare engine {s.best / other.best:.2f}x its pure-Python build in the same "
                            f"run (bar {COMPILED_RATIO_BAR:.1f}x)"))
    pure_search = {s.label: s for s in subjects if s.kind == "pure search"}
    for s in subjects:
        other = pure_search.get(f"{s.label} (pure Python)") if s.kind == "search" else None
        if other is not None:
            common = min(len(s.moves), len(other.moves))
            out.append((s.moves[:common] == other.moves[:common],
                        f"{s.label} search: the compiled and pure-Python builds chose the same {common} moves"))
            out.append((s.best >= COMPILED_RATIO_BAR * other.best,
                        f"{s.label} search {s.best / other.best:.2f}x its pure-Python build's moves/s in the same "
                        f"run (bar {COMPILED_RATIO_BAR:.1f}x)"))
    return out


def run(
    games: list[str] | None = None,
    seconds: float = 3.0,
    players: int | None = None,
    rounds: int = 3,
    seed: int = 0,
    check: bool = True,
    out: TextIO | None = None,
    err: TextIO | None = None,
    options: dict[str, Any] | None = None,
    openspiel: bool = False,
    search: int = 0,
) -> int:
    """Run the benchmark and print the Markdown report; the exit code (1 if a bar fails). `options`:
    game options for every game run (Extravaganza's level=legendary, say), named in its label.
    `openspiel`: also our games through d2r_envs.openspiel (the openspiel extra) beside OpenSpiel's C++
    connect_four, the loop an OpenSpiel algorithm makes. `search`: also information-set MCTS at that many
    simulations a move (on the compiled build beside its pure-Python build)."""
    out = out or sys.stdout
    err = err or sys.stderr
    games = list(games or d2r_envs.names())
    rounds = max(1, int(rounds))
    refs = _references()
    if refs is None:
        print(f"d2r bench: {INSTALL_HINT}", file=err)
        return 2

    options = dict(options or {})
    suffix = f" [{','.join(f'{k}={v}' for k, v in options.items())}]" if options else ""
    subjects: list[Subject] = []
    for name in games:
        n = players if players is not None else package(name).DEFAULT_PLAYERS
        d2r_envs.make_game(name, n, **options)  # a bad name, player count or option fails here, before any timing
        subjects.append(_aec_subject(name + suffix, name, n,
                                     lambda name=name, n=n: d2r_envs.make(name, n, **options), seed))
    for label in REFERENCES:
        subjects.append(_aec_subject(label, None, None, refs[label], seed))
    build = d2r_envs.build()
    for name in games:
        n = players if players is not None else package(name).DEFAULT_PLAYERS
        subjects.append(_engine_subject(name + suffix, name, n, options, seed))
        if build == "compiled":  # its own pure-Python build, side by side
            subjects.append(_pure_engine_subject(f"{name}{suffix} (pure Python)", name, n, options, seed))
    if search < 0:
        raise ValueError(f"search: the simulations a move must be at least 1 (0 for none), got {search}")
    for name in games if search else []:
        n = players if players is not None else package(name).DEFAULT_PLAYERS
        subjects.append(_search_subject(name + suffix, name, n, options, seed, search))
        if build == "compiled":
            subjects.append(_pure_engine_subject(f"{name}{suffix} (pure Python)", name, n, options, seed, search))
    if openspiel:
        subjects += _spiel_subjects(games, players, options, suffix, seed)

    per_round = seconds / rounds
    print(
        f"d2r bench: the {build} build, {len(subjects)} envs x {rounds} rounds x {per_round:.2g} s "
        f"(~{len(subjects) * seconds:.0f} s)",
        file=err,
    )
    for subject in subjects:  # warm-up: imports, caches, first reset
        subject.run(time.perf_counter())
    try:
        for _ in range(rounds):
            for subject in subjects:
                subject.round(per_round)
    finally:
        for subject in subjects:
            subject.close()

    aec = [s for s in subjects if s.kind == "aec"]
    engine = [s for s in subjects if s.kind in ("engine", "pure engine")]
    base = next(s for s in aec if s.label == BASELINE).best
    lines = [
        "## AEC loop: random legal play through env.agent_iter() / last() / step()",
        "",
        "| env | players | steps/s | vs connect_four_v3 | games |",
        "|---|---:|---:|---:|---:|",
    ]
    for s in aec:
        who = "ours" if s.game else "PettingZoo"
        lines.append(
            f"| {s.label} ({who}) | {s.players if s.players is not None else '-'} | {s.best:,.0f} | "
            f"{s.best / base:.2f}x | {s.games:,} |"
        )
    lines += [
        "",
        "## Bare engine: legal_actions + apply_legal, chance by sample_chance",
        "",
        "| game | players | decisions/s | vs connect_four_v3 | games |",
        "|---|---:|---:|---:|---:|",
    ]
    for s in engine:
        lines.append(f"| {s.label} | {s.players} | {s.best:,.0f} | {s.best / base:.2f}x | {s.games:,} |")
    if search:
        lines += search_table(subjects, search)
    if openspiel:
        lines += spiel_table(subjects)
    lines += ["", machine_note(seconds, rounds), ""]

    verdicts = judge(subjects, build)
    failed = not all(ok for ok, _ in verdicts)
    bars = [f"- {'PASS' if ok else 'FAIL'}: {text}" for ok, text in verdicts]
    if not check:
        bars.append("(--no-check: a failed bar does not change the exit code)")
    lines += bars
    print("\n".join(lines), file=out)
    return 1 if (check and failed) else 0
