"""Single-observer information-set MCTS (SO-ISMCTS; Cowling, Powley & Whitehouse 2012).

One tree for the searching seat, whose nodes are information sets reached by sequences of
decisions. Each simulation:

1. determinise: `game.redeterminise(state, seat, rng)` deals out what the seat cannot see;
2. select: descend while every action legal in this determinisation has a child, taking the child
   with the best UCB1 score for the player who acts there. Only children legal here compete, and a
   child's "parent visits" is its availability count: the simulations in which it was legal.
   Chance nodes are not stored: `game.sample_chance` resolves them on the way down;
3. expand: add one child for an untried legal action (uniformly chosen);
4. roll out: uniformly random legal actions to the end of the game (or `rollout_cap` decisions,
   by default the game's `spec.max_game_length`, then the returns as they stand);
5. back-propagate the returns vector: each node adds the return of the player who chose it.

The move played is the root's most-visited child. It uses only the engine protocol
(d2r_envs.core.game.Game), so it plays any registered game, for any number of players.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from d2r_envs.agents.playout import play_out
from d2r_envs.core.game import CHANCE, TERMINAL, Game


class _Node:
    """The information set reached by a sequence of decisions from the root."""

    __slots__ = ("action", "player", "children", "visits", "total", "avail")

    def __init__(self, action: int, player: int) -> None:
        self.action = action  # the action that led here (-1 at the root)
        self.player = player  # the seat that chose it (scores are from its point of view)
        self.children: dict[int, _Node] = {}  # key: player * num_actions + action
        self.visits = 0
        self.total = 0.0  # sum of `player`'s returns over the simulations through here
        self.avail = 0  # simulations in which `action` was legal at the parent


class ISMCTS:
    """An agent: `act(game, state, seat, rng)` searches `simulations` determinisations."""

    def __init__(self, simulations: int = 1000, exploration: float = 0.7, rollout_cap: int | None = None) -> None:
        if simulations < 1:
            raise ValueError(f"simulations must be at least 1, got {simulations}")
        self.simulations = simulations
        self.exploration = exploration
        self.rollout_cap = rollout_cap
        self.name = f"mcts:{simulations}"

    def act(self, game: Game, state: Any, seat: int, rng: np.random.Generator) -> int:
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        root = self.search(game, state, seat, rng)
        best = max(root.children.values(), key=lambda c: (c.visits, -c.action))
        return best.action

    def search(self, game: Game, state: Any, seat: int, rng: np.random.Generator) -> _Node:
        """Run the simulations and return the root of the tree."""
        width = game.spec.num_actions
        c = self.exploration
        cap = self.rollout_cap if self.rollout_cap is not None else game.spec.max_game_length
        root = _Node(-1, -1)
        for _ in range(self.simulations):
            d = game.redeterminise(state, seat, rng)
            node = root
            path = [root]
            # Selection and expansion.
            while True:
                p = game.current_player(d)
                while p == CHANCE:
                    game.apply_legal(d, game.sample_chance(d, rng))
                    p = game.current_player(d)
                if p == TERMINAL:
                    break
                legal = game.legal_actions(d)
                children = node.children
                base = p * width
                untried: list[int] = []
                here: list[_Node] = []
                for a in legal:
                    child = children.get(base + a)
                    if child is None:
                        untried.append(a)
                    else:
                        here.append(child)
                if untried:
                    a = untried[int(rng.random() * len(untried))]
                    child = _Node(a, p)
                    children[base + a] = child
                    here.append(child)
                    for h in here:
                        h.avail += 1
                    game.apply_legal(d, a)
                    path.append(child)
                    break
                best = here[0]
                best_score = -math.inf
                for h in here:
                    h.avail += 1
                    score = h.total / h.visits + c * math.sqrt(math.log(h.avail) / h.visits)
                    if score > best_score:
                        best, best_score = h, score
                game.apply_legal(d, best.action)
                path.append(best)
                node = best
            # Rollout.
            play_out(game, d, rng, cap)
            # Back-propagation.
            result = game.returns(d)
            for n in path:
                n.visits += 1
                if n.player >= 0:
                    n.total += result[n.player]
        return root
