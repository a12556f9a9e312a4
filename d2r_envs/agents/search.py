"""Information-set MCTS guided by a policy network
("search:<model>:<simulations>[:<play-out>][:temperature=T][:exploration=C]").

The search of mcts.py (single-observer ISMCTS: one tree of the searching seat's information sets, a
fresh determinisation each simulation, a child's availability count standing for its parent's visits),
with a trained policy in two places:

- the prior: when a decision is first met, every legal action gets a child whose prior P is the
  network's probability for it (its softmax over the legal actions, from the acting seat's observation
  of that determinisation), and selection is PUCT, as in AlphaZero:
  Q + c * P * sqrt(avail) / (1 + visits), with Q the chooser's mean return (0 before its first visit),
  c the exploration (1.5). A prior temperature T above 1 (the probabilities from logits / T) flattens a
  network that is sure of its moves, so the search looks at more of them. A simulation descends until it takes a child for the first time, then plays out;
- the play-out, to the end of the game: "random" (uniform legal moves, the cheapest), "policy" (moves
  sampled from the network as it plays, at temperature 1) or "heuristic" (the game's heuristic).

The move played is the root's most visited child (ties: the higher prior, then the lower action).

A search reads the network one observation at a time, which one BLAS thread does fastest: where
threadpoolctl is installed (the train and web extras) the search holds BLAS to one thread.
"""

from __future__ import annotations

import copy
import dataclasses
import math
from typing import Any

import numpy as np

from d2r_envs.agents.base import one_blas_thread
from d2r_envs.agents.playout import play_out
from d2r_envs.core.game import CHANCE, TERMINAL, Game

PLAYOUTS = ("random", "policy", "heuristic")


@dataclasses.dataclass(frozen=True)
class Settings:
    """What a search spec names: the guiding model and how the search runs."""

    model: str
    simulations: int
    playout: str = "random"
    temperature: float = 1.0  # of the prior
    exploration: float = 1.5  # PUCT's c

    @property
    def spec(self) -> str:
        """The agent spec (parse's inverse), naming only what differs from the defaults."""
        text = f"search:{self.model}:{self.simulations}" + (f":{self.playout}" if self.playout != "random" else "")
        for key in TUNABLE:
            if getattr(self, key) != TUNABLE[key]:
                text += f":{key}={getattr(self, key):g}"
        return text


TUNABLE = {"temperature": 1.0, "exploration": 1.5}  # the key=value parts of a spec, with their defaults


def parse(spec: str) -> Settings:
    """The settings "search:<model>:<simulations>[:<play-out>][:temperature=T][:exploration=C]" names;
    a ValueError shows the form."""
    parts = spec.split(":")[1:] if spec.startswith("search:") else []
    tuned: dict[str, float] = {}
    while parts and "=" in parts[-1]:
        key, _, value = parts.pop().partition("=")
        if key not in TUNABLE or key in tuned:
            raise ValueError(f"{spec!r}: {key!r} is not a setting of a search, or is given twice; the settings are "
                             f"{' and '.join(TUNABLE)}, e.g. search:shipped:200:temperature=3")
        try:
            tuned[key] = float(value)
        except ValueError:
            tuned[key] = math.nan
        if not 0 < tuned[key] < math.inf:
            raise ValueError(f"{spec!r}: {key} must be a positive number, got {value!r}")
    playout = parts.pop() if len(parts) >= 3 and parts[-1] in PLAYOUTS else "random"
    if len(parts) < 2 or not parts[-1].isdigit() or int(parts[-1]) < 1 or not all(parts[:-1]):
        raise ValueError(f"{spec!r}: write search:<model>:<simulations>[:<play-out>][:temperature=T][:exploration=C], "
                         f"the model shipped or an id or folder, simulations a whole number from 1, the play-out one of "
                         f"{', '.join(PLAYOUTS)} (default random), T and C positive numbers (default 1 and 1.5); "
                         "e.g. search:shipped:200")
    return Settings(":".join(parts[:-1]), int(parts[-1]), playout, **tuned)


class _Node:
    """The information set reached by a sequence of decisions from the root."""

    __slots__ = ("action", "player", "prior", "children", "visits", "total", "avail")

    def __init__(self, action: int, player: int, prior: float) -> None:
        self.action = action
        self.player = player  # the seat that chose `action`
        self.prior = prior
        self.children: dict[int, _Node] = {}  # key: player * num_actions + action
        self.visits = 0
        self.total = 0.0  # sum of `player`'s returns over the simulations through here
        self.avail = 0  # simulations in which `action` was legal at the parent


class PolicySearch:
    """An agent: `act(game, state, seat, rng)` searches `simulations` determinisations, guided by
    `policy` (a NumpyPolicy) read through `observer` (the game's observer with the policy's options)."""

    def __init__(self, policy: Any, observer: Any, simulations: int = 200, playout: str = "random",
                 heuristic: Any = None, exploration: float = 1.5, name: str = "policy", temperature: float = 1.0) -> None:
        if simulations < 1:
            raise ValueError(f"simulations must be at least 1, got {simulations}")
        if playout not in PLAYOUTS:
            raise ValueError(f"play-out {playout!r} is not one of {', '.join(PLAYOUTS)}")
        if not (0 < temperature < math.inf and 0 < exploration < math.inf):
            raise ValueError(f"temperature and exploration must be positive numbers, got {temperature}, {exploration}")
        if playout == "heuristic" and heuristic is None:
            raise ValueError("a heuristic play-out needs the game's heuristic")
        self.policy = policy
        self.observer = observer
        self.simulations = simulations
        self.playout = playout
        self.heuristic = heuristic
        self.exploration = exploration
        self.temperature = temperature
        self.name = Settings(name, simulations, playout, temperature, exploration).spec

    def for_game(self, engine: Any) -> "PolicySearch":
        """This search made to play `engine`'s game (another player count, other options): itself, or a
        copy that reads the policy through that game's observer."""
        if self.observer.game is engine:
            return self
        other = copy.copy(self)
        other.observer = engine.make_observer(**self.observer.options)
        return other

    def act(self, game: Game, state: Any, seat: int, rng: np.random.Generator) -> int:
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        with one_blas_thread():
            root = self.search(game, state, seat, rng)
        best = max(root.children.values(), key=lambda c: (c.visits, c.prior, -c.action))
        return best.action

    def probabilities(self, game: Game, state: Any, seat: int, legal: list[int], temperature: float = 1.0) -> np.ndarray:
        """The policy's probabilities of the `legal` actions of `seat` in `state`, at `temperature`."""
        logits = self.policy.logits(self.observer.encode(state, seat))[legal].astype(np.float64) / temperature
        weights = np.exp(logits - logits.max())
        return weights / weights.sum()

    def search(self, game: Game, state: Any, seat: int, rng: np.random.Generator) -> _Node:
        """Run the simulations and return the root of the tree."""
        current, legal_actions, apply = game.current_player, game.legal_actions, game.apply_legal
        sample, redeterminise = game.sample_chance, game.redeterminise
        width = game.spec.num_actions
        c = self.exploration
        sqrt = math.sqrt
        root = _Node(-1, -1, 1.0)
        for _ in range(self.simulations):
            d = redeterminise(state, seat, rng)
            node = root
            path = [root]
            while True:
                p = current(d)
                while p == CHANCE:
                    apply(d, sample(d, rng))
                    p = current(d)
                if p == TERMINAL:
                    break
                legal = legal_actions(d)
                children = node.children
                base = p * width
                if any(base + a not in children for a in legal):
                    for a, prior in zip(legal, self.probabilities(game, d, p, legal, self.temperature)):
                        if base + a not in children:
                            children[base + a] = _Node(a, p, float(prior))
                best = None
                best_score = -math.inf
                for a in legal:
                    h = children[base + a]
                    h.avail += 1
                    q = h.total / h.visits if h.visits else 0.0
                    score = q + c * h.prior * sqrt(h.avail) / (1 + h.visits)
                    if score > best_score:
                        best, best_score = h, score
                apply(d, best.action)
                path.append(best)
                node = best
                if best.visits == 0:
                    break
            result = self._play_out(game, d, rng)
            for n in path:
                n.visits += 1
                if n.player >= 0:
                    n.total += result[n.player]
        return root

    def _play_out(self, game: Game, d: Any, rng: np.random.Generator) -> list[float]:
        """The returns after playing `d` to the end (or to the game's length cap)."""
        random = rng.random

        def by_policy(d: Any, p: int, legal: list[int]) -> int:
            if len(legal) == 1:
                return legal[int(random() * len(legal))]
            cumulative = np.cumsum(self.probabilities(game, d, p, legal))
            return legal[min(int(np.searchsorted(cumulative, random() * cumulative[-1])), len(legal) - 1)]

        def by_heuristic(d: Any, p: int, legal: list[int]) -> int:
            return int(self.heuristic.act(game, d, p, rng))

        pick = {"random": None, "policy": by_policy, "heuristic": by_heuristic}[self.playout]
        play_out(game, d, rng, game.spec.max_game_length, pick)
        return game.returns(d)
