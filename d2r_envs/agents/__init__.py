"""Opponents by name: "random", "heuristic", "mcts" or "mcts:<simulations>", or an exported model
(a path, or an id such as "draco_and_co/ppo-v1")."""

from __future__ import annotations

import difflib
import importlib
from pathlib import Path

from d2r_envs.agents.base import Agent, PolicyAgent, RandomAgent
from d2r_envs import registry
from d2r_envs.registry import game_package

__all__ = ["Agent", "PolicyAgent", "RandomAgent", "make_agent", "BUILT_IN"]

BUILT_IN = ("random", "heuristic", "mcts", "mcts:N")


def make_agent(spec: str, game: str, engine=None) -> Agent:
    """Build the opponent that `spec` names for the game `game` (`engine`: its Game, for models)."""
    if spec == "random":
        return RandomAgent()
    if spec == "heuristic":
        game_package(game)  # refuses an unknown game
        return importlib.import_module(f"d2r_envs.games.{game}.heuristic").Heuristic()
    if spec == "mcts" or spec.startswith("mcts:"):
        from d2r_envs.agents.mcts import ISMCTS

        budget = spec.partition(":")[2]
        if budget and not budget.isdigit():
            raise ValueError(f"opponent {spec!r}: the MCTS budget must be a whole number of simulations, e.g. mcts:1000")
        return ISMCTS(simulations=int(budget or 1000))
    from d2r_envs.opponents import OpponentError, available_models, load_opponent, resolve_model  # an exported model

    if "/" not in spec and "\\" not in spec and not Path(spec).exists():
        raise ValueError(_unknown(spec, game, available_models(game)))
    try:
        resolve_model(spec)
    except OpponentError as err:
        hint = _unknown(spec, game, available_models(game)).partition("; did you mean ")[2]
        raise OpponentError(f"{err}" + (f"; did you mean {hint}" if hint else "")) from None
    policy = load_opponent(spec, game=game)
    if engine is None:
        engine = registry.make_game(game)
    return PolicyAgent(policy, game_package(game).Observer(engine), name=spec)


def _unknown(spec: str, game: str, models: list[str]) -> str:
    """Names the built-in agents, the models found for `game` and the closest match to `spec`."""
    base, colon, budget = spec.partition(":")
    candidates = {"random": "random", "heuristic": "heuristic", "mcts": "mcts" + colon + budget}
    for model in models:
        candidates[model] = candidates[model.rpartition("/")[2]] = model
    close = difflib.get_close_matches(spec if spec in candidates or "/" in spec else base, list(candidates), n=1, cutoff=0.6)
    text = (f"unknown agent {spec!r}; the built-in agents are random, heuristic and mcts:N (N simulations a move), "
            f"and an exported model is named by its id or folder (models found for {game}: {', '.join(models) or 'none'})")
    return text + (f"; did you mean {candidates[close[0]]!r}?" if close else "")
