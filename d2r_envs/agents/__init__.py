"""Opponents by name: "random", "heuristic", "mcts" or "mcts:<simulations>", or an exported model
(a path, or an id such as "draco_and_co/ppo-v1")."""

from __future__ import annotations

import importlib

from d2r_envs.agents.base import Agent, PolicyAgent, RandomAgent
from d2r_envs.registry import game_package

__all__ = ["Agent", "PolicyAgent", "RandomAgent", "make_agent"]


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
    from d2r_envs.opponents import load_opponent  # an exported model

    policy = load_opponent(spec, game=game)
    if engine is None:
        import d2r_envs

        engine = d2r_envs.make_game(game)
    return PolicyAgent(policy, game_package(game).Observer(engine), name=spec)
