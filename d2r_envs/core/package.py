"""A game package's record: one explicit declaration of everything the rest of the project needs from a game.

Each game's `__init__.py` imports its pieces by name and declares one `GamePackage`: the engine (`Game`,
`Config`), its fast `Observer` and the observation spec (`encode`), `ACTIONS`, `DEFAULT_PLAYERS`, and the
presentation and tooling pieces (`narrate`, `draw`, `heuristic`, `invariants`). The registry maps ids to
these records, and everything above the core (the env's pictures, logs, agents, the command line) reaches
a game's narration, drawing and heuristic through its record, never by looking modules up by name: the
engine (core/game.py) stays the transition system alone.

The record also builds what every game exports, PettingZoo's classic `env()` / `raw_env()` pair
(`entry_points`), so no game copies an env module; `d2r_envs.make` and `raw_env` go through the same two.
"""

from __future__ import annotations

import dataclasses
import numbers
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Callable

from d2r_envs.core import config as _config
from d2r_envs.core.actions import ActionSpace
from d2r_envs.core.aec import GameEnv, SafeEnv
from d2r_envs.core.events import Event, Log, plain_events
from d2r_envs.core.obs import ObsLayout, build_observer
from d2r_envs.core.words import quote


def build_game(name: str, game_class: type, config_class: type, num_players: int | None, options: dict[str, Any]) -> Any:
    """The game's engine with its options checked (a ValueError names a bad key or value first)."""
    if num_players is not None:
        options = {**options, "num_players": num_players}
    try:
        config = _config.build(config_class, name, options)
    except ValueError as err:  # an observation option given as a game option: say where it goes
        kinds = getattr(getattr(game_class, "observer_class", None), "Options", None)
        misplaced = sorted(set(options) & {f.name for f in dataclasses.fields(kinds)}) if kinds else []
        if misplaced:
            raise ValueError(f"{err}; {', '.join(map(repr, misplaced))} is an observation option: pass "
                             "observation={...} (a training config: env.observation)") from None
        raise
    return game_class(config)


def _observation(name: str, observation: Any) -> dict[str, Any]:
    if observation is None:
        return {}
    if not isinstance(observation, dict):
        raise ValueError(f"{name}: observation must be a dict of observation options, got {quote(observation)}")
    return observation


@dataclass(frozen=True, eq=False)
class GamePackage:
    """What a game package is, declared once in its `__init__.py` (d2r_envs/games/README.md).

    Engine: `name`, `VERSION`, `Game`, `Config`, `Observer` (the fast one the env uses), `encode` (the
    observation spec: `LAYOUT`, `encode`, `string_from`), `ACTIONS`, `DEFAULT_PLAYERS`. Presentation and
    tooling, read only by people, logs, agents and tests: `narrate` (`events`, `explain`), `draw` (`svg`,
    `size`), `guide` (`NAME`, `OBJECTIVE`, `HOW_TO_PLAY`, `WORDS`, `standings`: the game told to a
    newcomer), `heuristic` (`Heuristic`, optionally `VARIANTS`), `invariants` (`violations`); `doc`, the
    package's docstring. A game without
    `narrate` gets the plain narration (the mover's action named, the result at the end); one without
    `draw` has no pictures.

    Declaring the record gives the engine class its Observer (`Game.observer_class`), so that
    `Game.make_observer` builds it without the engine ever looking for its package.
    """

    name: str
    VERSION: int
    Game: type
    Config: type
    Observer: type
    encode: ModuleType
    ACTIONS: ActionSpace
    DEFAULT_PLAYERS: int
    invariants: ModuleType
    narrate: ModuleType | None = None
    draw: ModuleType | None = None
    guide: ModuleType | None = None
    heuristic: ModuleType | None = None
    doc: str = ""  # the package's docstring: the game's title and what it is, for `d2r describe`

    def __post_init__(self) -> None:
        self.Game.observer_class = self.Observer
        _DECLARED[self.name] = self

    def __reduce__(self) -> tuple[Any, tuple[str, type]]:
        # A record holds modules, which do not pickle: a copy (an env's, pickled or deep-copied) is the one
        # record of its game, found again by name; the engine class comes along so that unpickling in a fresh
        # process imports the game's package, which declares it, first.
        return _declared, (self.name, self.Game)

    @property
    def LAYOUT(self) -> ObsLayout:  # noqa: N802: the game's constant, by its name
        """The default observation's layout (observation options may add pieces after it)."""
        return self.encode.LAYOUT

    @property
    def variants(self) -> dict[str, type]:
        """The heuristic's named variants (`heuristic.VARIANTS`, each the agent `heuristic:<name>`); {} for none."""
        return dict(getattr(self.heuristic, "VARIANTS", {}))

    # The engine and the envs ----------------------------------------------------------------------

    def make_game(self, num_players: int | None = None, **options: Any) -> Any:
        """The bare rules engine with its options checked; `num_players=None` means the game's default."""
        return build_game(self.name, self.Game, self.Config, num_players, options)

    def raw_env(self, num_players: int | None = None, render_mode: str | None = None,
                observation: dict[str, Any] | None = None, **options: Any) -> GameEnv:
        """The bare AEC env, on which an illegal action raises and changes nothing; it draws its pictures
        (render_mode="rgb_array", a notebook's) with this package's `draw`."""
        game = self.make_game(self.DEFAULT_PLAYERS if num_players is None else num_players, **options)
        observer = build_observer(self.Observer, game, _observation(self.name, observation))
        return GameEnv(game, observer, render_mode=render_mode, picture=self.svg if self.draw is not None else None)

    def env(self, num_players: int | None = None, render_mode: str | None = None,
            observation: dict[str, Any] | None = None, **options: Any) -> SafeEnv:
        """`raw_env` with PettingZoo's usual safety (reset first, actions in bounds, an illegal action ends
        the game with the mover's minimum return)."""
        raw = self.raw_env(num_players, render_mode=render_mode, observation=observation, **options)
        return SafeEnv(raw, illegal_reward=raw.game.spec.min_return)

    # Presentation ---------------------------------------------------------------------------------

    def events(self, game: Any, before: Any, action: int, after: Any) -> list[Event]:
        """What happened in the transition `before` --action--> `after`, as each seat may see it: the
        game's `narrate.events`, or the plain narration where it has none (core/events.py)."""
        if self.narrate is None:
            return plain_events(game, before, action, after)
        return self.narrate.events(game, before, action, after)

    def explain(self, game: Any, state: Any, action: int) -> str:
        """What a legal action at this node does, for a person choosing it (a card's text, a cost); ""
        where its name says it all."""
        return "" if self.narrate is None else self.narrate.explain(game, state, action)

    def log(self, game: Any) -> Log:
        """A `Log` of a game of this package, narrated by its `narrate`."""
        return Log(game, self.narrate)

    def svg(self, game: Any, state: Any, seat: int | None = None) -> str:
        """The state's picture, a standalone SVG document of a size fixed by the game and its player
        count: from `seat`'s view (only what that seat may see, as its observation) or from above
        (everything) when `seat` is None."""
        if seat is not None:
            n = game.spec.num_players
            if isinstance(seat, bool) or not isinstance(seat, numbers.Integral) or not 0 <= seat < n:
                raise ValueError(f"seat {seat!r} is not a seat of this game (0..{n - 1}, or None)")
            seat = int(seat)
        if self.draw is None:
            raise NotImplementedError(f"{self.name} has no draw.py")
        return self.draw.svg(game, state, seat)

    def size(self, num_players: int) -> tuple[int, int]:
        """The (width, height) of every picture of this game at `num_players`."""
        if self.draw is None:
            raise NotImplementedError(f"{self.name} has no draw.py")
        return self.draw.size(num_players)


_DECLARED: dict[str, GamePackage] = {}


def _declared(name: str, game_class: type) -> GamePackage:
    """The record declared for the game `name` (a pickled record's way back)."""
    return _DECLARED[name]


def entry_points(package: GamePackage) -> tuple[Callable[..., SafeEnv], Callable[..., GameEnv]]:
    """(env, raw_env) for one game, the module-level functions PettingZoo expects. `raw_env(num_players,
    render_mode, observation=None, **options)` is the bare AEC env, on which an illegal action raises and
    changes nothing; `env(...)` adds PettingZoo's usual safety (reset first, actions in bounds, an illegal
    action ends the game with the mover's minimum return). Options are checked before anything is built;
    `num_players=None` means the game's default. `observation`: the observation options of the game's
    Observer (core/obs.py), checked the same way."""
    name, default_players = package.name, package.DEFAULT_PLAYERS

    def raw_env(num_players: int | None = default_players, render_mode: str | None = None,
                observation: dict[str, Any] | None = None, **options: Any) -> GameEnv:
        return package.raw_env(num_players, render_mode=render_mode, observation=observation, **options)

    def env(num_players: int | None = default_players, render_mode: str | None = None,
            observation: dict[str, Any] | None = None, **options: Any) -> SafeEnv:
        return package.env(num_players, render_mode=render_mode, observation=observation, **options)

    raw_env.__doc__ = f"The bare AEC env of {name}: an illegal action raises IllegalActionError and changes nothing."
    env.__doc__ = f"The AEC env of {name} with PettingZoo's usual safety: order checks, bounds, illegal move ends the game."
    return env, raw_env
