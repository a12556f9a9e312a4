"""The tables in play: one game each, a person in one seat and agents in the others.

A table is found by an id from `secrets` and answers only the browser that made it (its cookie token).
Every change carries the step it was chosen at, so a stale or repeated request changes nothing; one
request works on a table at a time. The tables are bounded in number and idle time: expired ones go
first, then finished ones, oldest first; when every table is in play a new one is refused. A browser
keeps at most `per_browser` unfinished tables: starting one more forgets the one it used longest ago.

Chance is drawn from a generator seeded with the table's seed, which stays on the server until the game
is over (anyone who knows it can deal the game again and see every hidden card). Each agent draws from a
generator of its own, seeded from fresh entropy, so the seed never tells what an agent will choose. Every
action, chance outcomes included, is kept: a finished game is saved to the replay folder as a "recorded"
replay, which plays back without the agents' generators.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from contextlib import contextmanager
from typing import Any, Callable, Iterator
from urllib.parse import quote

import numpy as np

from d2r_envs import registry, replay
from d2r_envs.core.game import CHANCE, TERMINAL, Game
from d2r_envs.core.words import plural
from d2r_envs.web import about
from d2r_envs.web.choices import Setup
from d2r_envs.web.errors import Refused, clip
from d2r_envs.web.folder import Folder
from d2r_envs.web.picture import move_place, picture

PERSON = "person"  # the browser's seat, as the replay names it
ENDED_KEPT = 1024  # ids of tables forgotten early, kept to say why


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Table:
    def __init__(self, setup: Setup, game: Game, agents: dict[int, Any], token: str, folder: Folder) -> None:
        self.id = secrets.token_urlsafe(16)
        self.token = token
        self.setup, self.game, self.agents, self.folder = setup, game, agents, folder
        self.seat = setup.seat
        self.rng = np.random.default_rng(setup.seed)  # chance only
        self.agent_rngs = {q: np.random.default_rng(secrets.randbits(128)) for q in agents}
        self.state = game.new_initial_state()
        self.log = registry.of(game).log(game)
        self.actions: list[int] = []  # every action applied, chance outcomes included
        self.decisions = 0  # player actions, against the game's cap
        self.truncated = False
        self.finished = False  # set once, when the game is over (read by Tables without the table's lock)
        self.last_place: str | None = None  # where the last opponent's move happened, in the picture
        self.replay_name: str | None = None
        self.replay_error: str | None = None
        self.last_used = 0.0
        self._lock = threading.Lock()
        self._settle()

    # The game --------------------------------------------------------------------------------------

    @property
    def step(self) -> int:
        return len(self.actions)

    @property
    def over(self) -> bool:
        return self.truncated or self.game.current_player(self.state) == TERMINAL

    def _apply(self, action: int) -> None:
        self.log.apply(self.state, action)
        self.actions.append(action)

    def _settle(self) -> None:
        """Draw chance until a player is to act or the game ends (or reaches its cap); save it if over."""
        game = self.game
        while game.current_player(self.state) == CHANCE:
            self._apply(game.sample_chance(self.state, self.rng))
        if not self.over and self.decisions >= game.spec.max_game_length:
            self.truncated = True
        if self.over and not self.finished:
            self._save()
            self.finished = True

    def _save(self) -> None:
        s = self.setup
        agents = [PERSON if q == self.seat else s.names[q] for q in range(s.num_players)]
        record = replay.make(s.game, s.num_players, s.options, s.seed, agents, self.actions, self.returns(),
                             self.truncated, chance="recorded")
        try:
            self.replay_name = self.folder.save(record)
        except OSError as err:
            self.replay_error = f"the replay could not be saved: {err.strerror or err}"

    def returns(self) -> list[float]:
        if self.truncated:  # cut off at the cap: no winner, as the env and replays have it
            return [float(self.game.spec.min_return)] * self.setup.num_players
        return [float(r) for r in self.game.returns(self.state)]

    @contextmanager
    def _held(self, since: int) -> Iterator[None]:
        """One request at a time works on the table; `since` (the browser's log) is checked first."""
        if not self._lock.acquire(blocking=False):
            raise Refused(409, "this table is busy with another request (an opponent may be thinking); try again",
                          step=self.step)
        try:
            if not _is_int(since) or not 0 <= since <= len(self.log):
                raise Refused(400, f"'since' must be an event number 0..{len(self.log)}, got {clip(since)}")
            yield
        finally:
            self._lock.release()

    def look(self, since: int = 0) -> dict[str, Any]:
        """The table as the person's seat sees it, the log from event `since` on."""
        with self._held(since):
            return self._view(since)

    @contextmanager
    def _turn(self, step: Any, since: int) -> Iterator[None]:
        """One change at a time, chosen at the current step, while the game goes on."""
        with self._held(since):
            if not _is_int(step):
                raise Refused(400, f"'step' must be the step number the move was chosen at (a whole number), got {clip(step)}")
            if step < self.step:
                raise Refused(409, f"stale request: chosen at step {step}, but the game is at step {self.step}; "
                              "nothing was changed, look at the table again", step=self.step)
            if step > self.step:
                raise Refused(409, f"step {clip(step)} is ahead of the game, which is at step {self.step}; nothing "
                              "was changed, look at the table again", step=self.step)
            if self.over:
                raise Refused(409, "the game is over; nothing more can be played at this table", step=self.step)
            yield

    def move(self, step: Any, action: Any, since: int = 0) -> dict[str, Any]:
        """The person's move `action`, chosen at `step`; the table after it (the log from `since` on)."""
        with self._turn(step, since):
            player = self.game.current_player(self.state)
            if player != self.seat:
                raise Refused(409, f"it is player_{player}'s turn ({self.setup.names[player]}), not yours", step=self.step)
            legal = self.game.legal_actions(self.state)
            if not _is_int(action) or action not in legal:
                raise Refused(400, self._illegal(action, legal), legal=legal, step=self.step)
            self._apply(action)
            self.last_place = None
            self.decisions += 1
            self._settle()
            return self._view(since)

    def advance(self, step: Any, since: int = 0) -> dict[str, Any]:
        """The move of the agent whose turn it is (the person's turn is theirs alone); the table after it."""
        with self._turn(step, since):
            player = self.game.current_player(self.state)
            if player == self.seat:
                raise Refused(409, "it is your move: choose one of the legal moves", step=self.step)
            action = self.agents[player].act(self.game, self.state, player, self.agent_rngs[player])
            self.last_place = move_place(self.game, self.state, int(action), self.seat)
            self._apply(int(action))
            self.decisions += 1
            self._settle()
            return self._view(since)

    def _illegal(self, action: Any, legal: list[int]) -> str:
        game, state = self.game, self.state
        moves = "; ".join(f"{a} {game.action_to_string(state, a)}" for a in legal)
        if not _is_int(action):
            what = f"'action' must be one of the legal action ids, got {clip(action)}"
        elif 0 <= action < game.spec.num_actions:
            what = f"action {action} ({game.action_to_string(state, action)}) is not legal now"
        else:
            what = f"action {clip(action)} is out of range 0..{game.spec.num_actions - 1}"
        return f"{what}; legal for you (player_{self.seat}) at '{game.decision_name(state)}': {moves}"

    # What the browser sees -------------------------------------------------------------------------

    def _view(self, since: int) -> dict[str, Any]:
        game, state, seat, s = self.game, self.state, self.seat, self.setup
        player = game.current_player(state)
        mine = not self.over and player == seat
        explain = registry.of(game).explain
        legal = game.legal_actions(state) if mine else []
        out: dict[str, Any] = {
            "id": self.id,
            "url": f"/table/{self.id}",
            "game": s.game,
            "title": about.title(game),
            "seat": seat,
            "seed": s.seed if self.over else None,  # told only at the end: it deals every hidden card
            "options": s.options,
            "seats": [{"seat": q, "agent": "you" if q == seat else s.names[q]} for q in range(s.num_players)],
            "step": self.step,
            "status": "over" if self.over else "your move" if mine else "waiting",
            "to_move": None if self.over else player,
            "decision": "" if self.over else game.decision_name(state),
            "picture": picture(game, state, seat, legal, self.last_place),
            "moves": [{"action": a, "name": game.action_to_string(state, a), "explain": explain(game, state, a)}
                      for a in legal],
            "log": self.log.seen_by(seat, since),
            "log_next": len(self.log),
            "result": None,
        }
        if self.over:
            returns = self.returns()
            out["result"] = {
                "returns": returns,
                "truncated": self.truncated,
                **about.result(game, state, returns, self.truncated, seat),
                "replay": self.replay_name,
                "replay_url": f"/replay?name={quote(self.replay_name)}" if self.replay_name else None,
                "replay_error": self.replay_error,
            }
        return out


class Tables:
    """The tables in play, at most `limit`, each forgotten after `idle` seconds without a request; at most
    `per_browser` unfinished ones for one browser (its token)."""

    def __init__(self, limit: int = 64, idle: float = 1800.0, per_browser: int = 4,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit, self.idle, self.per_browser, self.clock = limit, idle, per_browser, clock
        self._tables: dict[str, Table] = {}
        self._ended: OrderedDict[str, str] = OrderedDict()  # table id -> why it was forgotten early
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._tables)

    def _expire(self, now: float) -> None:
        for tid in [t for t, table in self._tables.items() if now - table.last_used > self.idle]:
            del self._tables[tid]

    def _end(self, table: Table, why: str) -> None:
        del self._tables[table.id]
        self._ended[table.id] = why
        while len(self._ended) > ENDED_KEPT:
            self._ended.popitem(last=False)

    def add(self, table: Table) -> None:
        with self._lock:
            now = self.clock()
            self._expire(now)
            mine = sorted((t for t in self._tables.values() if t.token == table.token and not t.finished),
                          key=lambda t: t.last_used)
            drop = mine[:max(0, len(mine) - self.per_browser + 1)]  # this browser's, used longest ago
            if len(self._tables) - len(drop) >= self.limit:
                finished = [t for t in self._tables.values() if t.finished]
                if not finished:
                    wait = min(t.last_used for t in self._tables.values()) + self.idle - now
                    raise Refused(503, f"the server keeps at most {self.limit} tables and all are in play; a table "
                                  f"is freed when its game ends or after {plural(self.idle / 60, 'minute')} without a "
                                  f"request (the next in about {max(1, round(wait))} s); try again then",
                                  retry_after=max(1, round(wait)))
                del self._tables[min(finished, key=lambda t: t.last_used).id]
            for old in drop:
                self._end(old, f"its browser started more games, and a browser keeps at most "
                               f"{plural(self.per_browser, 'unfinished game')}: the one it used longest ago is forgotten")
            table.last_used = now
            self._tables[table.id] = table

    def get(self, tid: str, token: str | None) -> Table:
        """The table `tid` if this browser (its `token`) made it."""
        with self._lock:
            now = self.clock()
            self._expire(now)
            table = self._tables.get(tid)
            if table is None:
                why = self._ended.get(tid) or (f"it never existed, or it was forgotten after {plural(self.idle / 60, 'minute')} "
                                               "without a request")
                raise Refused(404, f"no table {clip(tid)}: {why}; start a new one at /")
            if not token or not secrets.compare_digest(table.token.encode(), token.encode()):
                raise Refused(403, "this table belongs to another browser session (its cookie does not match); "
                              "start your own at /")
            table.last_used = now
            return table
