"""A recorded game step by step, for the replay viewer: the state at each player's decision, the log up
to it and what happened next, from one seat's view or from above.

A replay is first played back by `d2r_envs.replay.play_back`, which refuses one that does not match the
rules. Its transitions are then walked once more through the engine with chance outcomes one at a time,
so that each is narrated: a "recorded" replay holds them among its actions; for an "env" replay they
are drawn from the env's seeded generator in the order the env draws them (a game's resolve_chance
draws what sample_chance would, tests/test_api.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from gymnasium.utils import seeding

from d2r_envs import registry, replay
from d2r_envs.core.events import Event
from d2r_envs.core.game import CHANCE, TERMINAL
from d2r_envs.web import about
from d2r_envs.web.errors import Refused, clip, shorten
from d2r_envs.web.picture import move_place, picture


@dataclass(frozen=True)
class Frame:
    state: Any  # a clone, before `action`
    events: int  # events in the log before this frame's action
    player: int | None  # who acts here; None at the last frame
    action: int | None = None  # what they do


class Steps:
    """The frames of one replay: one per player decision, and the end."""

    def __init__(self, data: dict[str, Any]) -> None:
        try:
            replay.play_back(data)
        except replay.ReplayError as err:
            raise Refused(422, f"this replay does not play back: {shorten(str(err))}") from None
        self.data = data
        self.game = game = registry.make_game(data["game"], data["num_players"], **data["options"])
        self.log = log = registry.of(game).log(game)
        self.frames: list[Frame] = []
        state = game.new_initial_state()
        actions = iter(data["actions"])
        rng = seeding.np_random(data["seed"])[0] if data["chance"] == "env" else None
        while True:
            player = game.current_player(state)
            if player == TERMINAL:
                break
            if player == CHANCE and rng is not None:
                log.apply(state, game.sample_chance(state, rng))
                continue
            action = next(actions, None)
            if action is None:  # cut off by a cap
                break
            if player != CHANCE:
                self.frames.append(Frame(game.clone(state), len(log), player, action))
            log.apply(state, action)
        self.frames.append(Frame(state, len(log), None))
        if not data["truncated"] and [float(r) for r in game.returns(state)] != data["returns"]:
            raise Refused(422, "this replay played back, but stepping through it again did not reach the same "
                          "end; it cannot be shown step by step")

    def about(self) -> dict[str, Any]:
        d = self.data
        return {key: d[key] for key in ("game", "version", "num_players", "options", "seed", "chance", "agents",
                                        "returns", "truncated")} | {"last": len(self.frames) - 1,
                                                                    "title": about.title(self.game)}

    def frame(self, i: int, seat: int | None) -> dict[str, Any]:
        """Frame `i` as `seat` sees it (None: from above): the picture (the place of the move made here
        outlined), the log so far, what happens next."""
        frame = self.frames[i]
        moved = None if frame.player is None else move_place(self.game, frame.state, frame.action, seat)
        end = self.frames[i + 1].events if i + 1 < len(self.frames) else len(self.log)
        out = {
            "step": i,
            "last": len(self.frames) - 1,
            "player": frame.player,
            "agent": None if frame.player is None else self.data["agents"][frame.player],
            "decision": "" if frame.player is None else self.game.decision_name(frame.state),
            "picture": picture(self.game, frame.state, seat, (), moved),
            "log": self._seen(0, frame.events, seat),
            "next": self._seen(frame.events, end, seat),
            "result": None,
        }
        if frame.player is None:
            returns = self.data["returns"]
            out["result"] = {"returns": returns, "truncated": self.data["truncated"],
                             **about.result(self.game, frame.state, returns, self.data["truncated"])}
        return out

    def _seen(self, start: int, stop: int, seat: int | None) -> list[str]:
        if seat is not None:
            return [t for e in self.log.events[start:stop] if (t := e.seen_by(seat))]
        return [t for e in self.log.events[start:stop] for t in _above(e)]


def _above(event: Event) -> list[str]:
    """Everything an event says, to every seat: its public text, and what a seat saw instead."""
    out = [event.public] if event.public else []
    out += [f"(player_{q} sees) {t}" for q, t in sorted(event.private.items()) if t and t != event.public]
    return out


def seat_of(value: Any, num_players: int) -> int | None:
    """The seat a viewer asks for: "above" (None) or a number 0..n-1; Refused otherwise."""
    if value in (None, "", "above"):
        return None
    if isinstance(value, str) and re.fullmatch(r"[0-9]{1,3}", value) and int(value) < num_players:
        return int(value)
    raise Refused(400, f"seat {clip(value)} is not allowed; allowed: above, or 0..{num_players - 1}",
                  allowed=["above", *range(num_players)])

