"""Opponents by name: "random", "heuristic", "heuristic:<variant>" (one of the game's heuristic.VARIANTS,
such as Rap Godz's "heuristic:tuned"), "mcts" or "mcts:<simulations>", "rollouts" or
"rollouts:<samples>" (flat Monte Carlo over the heuristic; "rollouts:<samples>:<guard>" keeps the heuristic's
move unless another is better by more than <guard> standard errors; "rollouts:<samples>[:<guard>]:<model>"
plays out with a model instead of the heuristic), "shipped" (the game's newest shipped
model), an exported model (a path, or an id such as "draco_and_co/ppo-v2"), or "search:<model>:<simulations>"
with an optional ":<play-out>" (random, policy or heuristic): ISMCTS guided by a model, "shipped" or an id
or path (agents/search.py)."""

from __future__ import annotations

import difflib
from pathlib import Path

from d2r_envs.agents.base import Agent, PolicyAgent, RandomAgent
from d2r_envs.core.game import Game
from d2r_envs import registry

__all__ = ["Agent", "PolicyAgent", "RandomAgent", "make_agent", "BUILT_IN"]

BUILT_IN = ("random", "heuristic", "heuristic:V", "mcts", "mcts:N", "rollouts", "rollouts:N", "rollouts:N:G",
            "rollouts:N:G:M", "shipped",
            "search:M:N", "search:M:N:P")


def make_agent(spec: str, game: "Game | str", engine: "Game | None" = None) -> Agent:
    """Build the opponent that `spec` names for `game`: the engine it will play (a Game), or a game's
    name, with its engine in `engine` if one is already made (else the default one is made here)."""
    if not isinstance(game, Game):
        registry.package(game)  # refuses an unknown game
        engine = engine if engine is not None else registry.make_game(game)
    else:
        engine = game
    name = engine.spec.name
    if spec == "random":
        return RandomAgent()
    if spec == "heuristic":
        return registry.of(engine).heuristic.Heuristic()
    if spec.startswith("heuristic:"):
        variants = registry.of(engine).variants
        variant = spec.partition(":")[2]
        if variant not in variants:
            allowed = ", ".join(f"heuristic:{v}" for v in variants) or f"none ({name} has only the heuristic)"
            raise ValueError(f"opponent {spec!r}: no such variant of {name}'s heuristic; allowed: {allowed}")
        return variants[variant]()
    if spec == "mcts" or spec.startswith("mcts:"):
        return _mcts(spec, engine)
    if spec == "rollouts" or spec.startswith("rollouts:"):
        return _rollouts(spec, engine)
    if spec.startswith("search:"):
        return _search(spec, engine)
    from d2r_envs.opponents import load_opponent, shipped_model

    if spec == "shipped":
        folder = shipped_model(name)
        policy = load_opponent(folder, game=engine)
        return PolicyAgent(policy, engine.make_observer(**policy.observation), name=f"{name}/{Path(folder).name}")
    return _model(spec, engine)


def _model(spec: str, engine: Game) -> PolicyAgent:
    """The exported model that `spec` names (an id or a folder), as an agent."""
    from d2r_envs.opponents import OpponentError, available_models, load_opponent, resolve_model

    name = engine.spec.name
    if "/" not in spec and "\\" not in spec and not Path(spec).exists():
        raise ValueError(_unknown(spec, name, available_models(name)))
    try:
        resolve_model(spec)
    except OpponentError as err:
        hint = _unknown(spec, name, available_models(name)).partition("; did you mean ")[2]
        raise OpponentError(f"{err}" + (f"; did you mean {hint}" if hint else "")) from None
    policy = load_opponent(spec, game=engine)
    return PolicyAgent(policy, engine.make_observer(**policy.observation), name=spec)


def _named_model(spec: str, model: str, engine: Game, where: str, needs: str) -> PolicyAgent:
    """The exported model that `model`, a part of `spec`, names; refused, naming `spec`, when it names
    nothing (`where`: what the spec expects there) or an agent that is not a model (`needs`: why one is)."""
    try:
        base = make_agent(model, engine)
    except ValueError as err:  # OpponentError included
        raise ValueError(f"opponent {spec!r}: {where}: {err}") from None
    if not isinstance(base, PolicyAgent):
        raise ValueError(f"opponent {spec!r}: {model!r} is not a model; {needs} "
                         "(shipped, an id such as rap_godz/ppo-v1, or a model folder)")
    return base


def _mcts(spec: str, engine: Game) -> Agent:
    """"mcts[:<N>]": information-set MCTS (agents/mcts.py); "mcts:<N>:<G>:<model>": the model's move unless
    that search's most visited move beats it by G standard errors (agents/guarded.py)."""
    from d2r_envs.agents.mcts import ISMCTS

    budget, _, rest = spec.partition(":")[2].partition(":")
    if budget and not (budget.isdigit() and int(budget) >= 1):
        raise ValueError(f"opponent {spec!r}: the MCTS budget must be a whole number of simulations, e.g. mcts:1000")
    search = ISMCTS(simulations=int(budget or 1000))
    if not rest:
        return search
    from d2r_envs.agents.guarded import Guarded

    guard, _, model = rest.partition(":")
    if not (_number(guard) and 0 <= float(guard) < float("inf")) or not model:
        raise ValueError(f"opponent {spec!r}: after the MCTS budget come a guard (standard errors, 0 or more) and a "
                         "model, e.g. mcts:1000:2:shipped")
    base = _named_model(spec, model, engine, "after the guard comes a model",
                        "a guarded search keeps an exported model's move")
    return Guarded(base, search, float(guard), name=f"mcts:{search.simulations}:{float(guard):g}:{base.name}")


def _rollouts(spec: str, engine: Game) -> Agent:
    """"rollouts[:<N>[:<G>][:<model>]]": flat Monte Carlo over the heuristic, or over a model (agents/rollouts.py)."""
    from d2r_envs.agents.rollouts import Rollouts

    parts = spec.split(":")[1:]
    numbers = []
    while parts and len(numbers) < 2 and not (numbers and not _number(parts[0])):
        numbers.append(parts.pop(0))
    model = ":".join(parts)
    if model and (_number(model) or not numbers):
        raise ValueError(f"opponent {spec!r}: rollouts takes at most two numbers and then a model, e.g. rollouts:32, "
                         "rollouts:16:1 or rollouts:8:1:shipped")
    samples = numbers[0] if numbers else ""
    if samples and not (samples.isdigit() and int(samples) >= 1):
        raise ValueError(f"opponent {spec!r}: the rollouts per move must be a whole number from 1, e.g. rollouts:32")
    n, g = int(samples or 32), None
    if len(numbers) == 2:
        g = float(numbers[1]) if _number(numbers[1]) else -1.0
        if not 0 <= g < float("inf") or n < 2:
            raise ValueError(f"opponent {spec!r}: a guard is a number of standard errors, 0 or more, after at least "
                             "2 rollouts, e.g. rollouts:16:1")
    if not model:
        return Rollouts(make_agent("heuristic", engine), samples=n, guard=g)
    base = _named_model(spec, model, engine, "after the rollouts comes a guard (a number) or a model",
                        "rollouts play out with the heuristic, or with an exported model")
    return Rollouts(base, samples=n, guard=g, over=base.name)


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _search(spec: str, engine: Game) -> Agent:
    """"search:<model>:<simulations>[:<play-out>][:temperature=T][:exploration=C]": the model's policy guiding
    ISMCTS (agents/search.py)."""
    from d2r_envs.agents.search import PolicySearch, parse

    try:
        settings = parse(spec)
    except ValueError as err:
        raise ValueError(f"opponent {err}") from None
    model = settings.model
    guide = _named_model(spec, model, engine, "the model that guides the search",
                         "search needs an exported model to guide it")
    heuristic = make_agent("heuristic", engine) if settings.playout == "heuristic" else None
    return PolicySearch(guide.policy, guide.observer, settings.simulations, settings.playout, heuristic,
                        settings.exploration, guide.name, settings.temperature)


def _unknown(spec: str, game: str, models: list[str]) -> str:
    """Names the built-in agents, the models found for `game` and the closest match to `spec`."""
    base, colon, budget = spec.partition(":")
    candidates = {"random": "random", "heuristic": "heuristic", "mcts": "mcts" + colon + budget,
                  "rollouts": "rollouts" + colon + budget, "shipped": "shipped"}
    for model in models:
        candidates[model] = candidates[model.rpartition("/")[2]] = model
    close = difflib.get_close_matches(spec if spec in candidates or "/" in spec else base, list(candidates), n=1, cutoff=0.6)
    text = (f"unknown agent {spec!r}; the built-in agents are random, heuristic (and heuristic:V, a game's variant of it), mcts:N (N simulations a move; mcts:N:G:M keeps the model M's move unless the search's beats it by G standard errors), "
            f"rollouts:N (N heuristic play-outs a legal move; rollouts:N:G keeps the heuristic's move unless another beats it by G standard errors; rollouts:N:G:M plays out with the model M), shipped (the game's newest shipped model) and search:M:N (ISMCTS guided by the model M, N simulations a move; search:M:N:policy plays out with the model, :temperature=T flattens its prior), and an exported model is named by its id or folder (models found for {game}: {', '.join(models) or 'none'})")
    return text + (f"; did you mean {candidates[close[0]]!r}?" if close else "")
