"""The benchmark's tasks and suites, as shipped data: `training/benchmark/data/v<N>/benchmark.json`.

A task is a game, a player count and options, pinned to what it was made for: the game's version, the
observation and action layouts' fingerprints and sizes (the default observation). Its deals are
deal d = 0 .. deals-1 of the tournament's duplicate deals, chance drawn from SeedSequence([seed, d]);
the deal list's hash is the SHA-256 of `[[seed,0],[seed,1],...]` as compact JSON. Its anchors are the
win shares against the heuristic lineup of random play and of the heuristic itself on those deals, as
whole counts (wins, seat-games). A task whose game no longer matches its pins is refused: it cannot be
scored by this benchmark version.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
from pathlib import Path
from typing import Any

BENCHMARK = "d2r-bench"
VERSION = 1
DATA = Path(__file__).resolve().parent / "data"
PINS = ("game_version", "obs_fingerprint", "obs_size", "action_fingerprint", "num_actions")
PIN_WORDS = {
    "game_version": "game version",
    "obs_fingerprint": "observation fingerprint",
    "obs_size": "observation size",
    "action_fingerprint": "action fingerprint",
    "num_actions": "number of actions",
}


def deal_list(seed: int, deals: int) -> list[list[int]]:
    """The chance seeds of deals 0..deals-1: deal d is SeedSequence([seed, d])."""
    return [[seed, d] for d in range(deals)]


def deal_list_sha256(seed: int, deals: int) -> str:
    text = json.dumps(deal_list(seed, deals), separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()


@dataclasses.dataclass(frozen=True)
class Anchor:
    """A reference's wins against the heuristic lineup on a task's deals (a game won when its return is
    the game's maximum; a shared win counts for every winner)."""

    wins: int
    seat_games: int

    @property
    def win_share(self) -> float:
        return self.wins / self.seat_games


@dataclasses.dataclass(frozen=True)
class Task:
    id: str
    game: str
    num_players: int
    options: dict[str, Any]
    game_version: int
    obs_fingerprint: str
    obs_size: int
    action_fingerprint: str
    num_actions: int
    seed: int
    deals: int
    deal_list_sha256: str
    anchors: dict[str, Anchor]

    def pins(self) -> dict[str, Any]:
        return {key: getattr(self, key) for key in PINS}

    def changes(self) -> list[str]:
        """What differs between the installed game and the task's pins ([] when nothing does)."""
        from d2r_envs.opponents import installed_game_facts
        import d2r_envs

        engine = d2r_envs.make_game(self.game, self.num_players, **self.options)
        facts = installed_game_facts(engine)
        return [f"{PIN_WORDS[key]} {getattr(self, key)} -> installed {facts[key]}"
                for key in PINS if facts[key] != getattr(self, key)]

    def check_installed(self) -> None:
        """Raises StaleTask naming what changed when the installed game no longer matches the pins."""
        changed = self.changes()
        if changed:
            raise StaleTask(f"task {self.id} was made for {self.game} as it was then: {'; '.join(changed)}. "
                            f"{BENCHMARK} v{VERSION} cannot score it (a new benchmark version is needed)")

    def score_anchors(self) -> tuple[float, float]:
        """(random's win share, the heuristic's win share) against the heuristic lineup."""
        return self.anchors["random"].win_share, self.anchors["heuristic"].win_share


class StaleTask(ValueError):
    """A task whose game changed since the benchmark version was made."""


@dataclasses.dataclass(frozen=True)
class Benchmark:
    name: str
    version: int
    tasks: dict[str, Task]
    suites: dict[str, list[str]]
    excluded: dict[str, str]  # a task measured but in no suite: why

    def suite(self, name: str) -> list[Task]:
        if name not in self.suites:
            raise ValueError(f"no suite {name!r} in {self.name} v{self.version}; allowed: {', '.join(self.suites)}")
        return [self.tasks[i] for i in self.suites[name]]


def _task(task_id: str, entry: dict[str, Any]) -> Task:
    anchors = {name: Anchor(int(a["wins"]), int(a["seat_games"])) for name, a in entry["anchors"].items()}
    return Task(id=task_id, **{k: v for k, v in entry.items() if k != "anchors"}, anchors=anchors)


def path(version: int = VERSION) -> Path:
    return DATA / f"v{version}" / "benchmark.json"


@functools.lru_cache(maxsize=None)
def load(version: int = VERSION) -> Benchmark:
    """The shipped benchmark of this version, its deal list hashes checked against the seeds and counts
    (read once per process: the shipped data does not change while it runs)."""
    file = path(version)
    if not file.is_file():
        shipped = sorted(p.name for p in DATA.glob("v*") if (p / "benchmark.json").is_file())
        raise ValueError(f"{BENCHMARK} v{version} is not shipped with this package; shipped: {', '.join(shipped)}")
    data = json.loads(file.read_text(encoding="utf-8"))
    tasks = {task_id: _task(task_id, entry) for task_id, entry in data["tasks"].items()}
    for task in tasks.values():
        if deal_list_sha256(task.seed, task.deals) != task.deal_list_sha256:
            raise ValueError(f"{file}: task {task.id}'s deal_list_sha256 is not the hash of its seed and deals")
    return Benchmark(data["benchmark"], data["version"], tasks, data["suites"], data.get("excluded", {}))
