"""Replays: one game as a small JSON file, and playing it back through the engine.

A replay holds the game, its rules version, options and player count, the seed, the agents seated, the
actions in order and the final returns. Its `chance` says where chance outcomes come from: "env" (from
`d2r simulate`): the AEC env reset with the seed resolves them, and `actions` are the players' actions;
"recorded" (from `d2r eval`, whose chance has a stream of its own per deal): `actions` hold every
outcome too, in the order applied. Playing it back steps the actions through a fresh env or engine: every
action must be legal where it falls, and the game must end with the recorded returns. A replay of another
rules version, an illegal, missing or extra action, or another outcome is refused with what differs.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from d2r_envs import registry
from d2r_envs.core.game import CHANCE, TERMINAL

FORMAT = "d2r-replay/1"
MAX_BYTES = 4_000_000  # far above any game here (a 4-player Extravaganza game: ~400 actions)
FIELDS = {"format": str, "game": str, "version": int, "options": dict, "num_players": int, "seed": int,
          "chance": str, "agents": list, "actions": list, "returns": list, "truncated": bool}
CHANCE_KINDS = ("env", "recorded")


class ReplayError(ValueError):
    """A replay that cannot be read, or that does not play back as recorded."""


def version(game: str) -> int:
    return int(registry.package(game).VERSION)


def make(game: str, num_players: int, options: dict[str, Any], seed: int, agents: list[str],
         actions: list[int], returns: list[float], truncated: bool, chance: str = "env") -> dict[str, Any]:
    """A replay record (a plain dict, as written to JSON)."""
    return {"format": FORMAT, "game": game, "version": version(game), "options": dict(options),
            "num_players": num_players, "seed": seed, "chance": chance, "agents": list(agents),
            "actions": [int(a) for a in actions],
            "returns": [float(r) for r in returns], "truncated": bool(truncated)}


def save(replay: dict[str, Any], path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # Written beside the target and renamed over it: a stop part-way leaves the old file or none, never half.
    text = json.dumps(replay, separators=(",", ":")) + "\n"
    handle, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def parse(text: str | bytes) -> dict[str, Any]:
    """A replay from JSON text, its fields and their types checked (nothing else is trusted)."""
    if len(text) > MAX_BYTES:
        raise ReplayError(f"replay too large: {len(text):,} bytes (at most {MAX_BYTES:,})")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ReplayError(f"not a JSON replay: {e}") from None
    except ValueError:  # a number of more digits than Python converts
        digits = getattr(sys, "get_int_max_str_digits", lambda: 4300)()
        raise ReplayError(f"not a replay: it holds a number of over {digits:,} digits") from None
    except RecursionError:
        raise ReplayError("not a replay: its JSON is nested too deeply (a replay nests three levels)") from None
    if not isinstance(data, dict):
        raise ReplayError(f"a replay is a JSON object, got {type(data).__name__}")
    missing = sorted(set(FIELDS) - set(data))
    unknown = sorted(set(data) - set(FIELDS))
    if missing or unknown:
        raise ReplayError(f"replay fields: missing {missing}, unknown {unknown}; expected {sorted(FIELDS)}")
    for key, kind in FIELDS.items():
        value = data[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ReplayError(f"replay field {key!r}: expected {kind.__name__}, got {type(value).__name__}")
    if data["format"] != FORMAT:
        raise ReplayError(f"replay format {data['format']!r}: this version reads {FORMAT!r}")
    if data["chance"] not in CHANCE_KINDS:
        raise ReplayError(f"replay chance {data['chance']!r}: expected one of {', '.join(CHANCE_KINDS)}")
    if not 0 <= data["seed"] < 2**63:
        raise ReplayError(f"replay seed: expected a whole number 0..2**63-1, got {str(data['seed'])[:30]}")
    if data["game"] not in registry.names():
        raise ReplayError(f"replay game {data['game']!r}: unknown; registered: {', '.join(registry.names())}")
    for key, kind in (("actions", int), ("returns", (int, float)), ("agents", str)):
        if not all(isinstance(x, kind) and not isinstance(x, bool) for x in data[key]):
            raise ReplayError(f"replay field {key!r}: every entry must be {getattr(kind, '__name__', 'a number')}")
    return data


def load(path: str | Path) -> dict[str, Any]:
    path = Path(path)
    if path.stat().st_size > MAX_BYTES:
        raise ReplayError(f"{path}: replay too large ({path.stat().st_size:,} bytes, at most {MAX_BYTES:,})")
    try:
        return parse(path.read_bytes())
    except ReplayError as e:
        raise ReplayError(f"{path}: {e}") from None


def play_back(data: dict[str, Any], on_step=None) -> list[float]:
    """Step the replay's actions through a fresh env (chance "env", reset with the seed) or engine
    (chance "recorded"); return the returns. Raises ReplayError on another rules version, an illegal or
    missing action, actions left over, or returns that differ. `on_step(game, state, player, action)` is
    called before each action is applied (player: a seat, or core.game.CHANCE)."""
    game, recorded = data["game"], version(data["game"])
    if data["version"] != recorded:
        raise ReplayError(f"replay of {game} version {data['version']}; these rules are version {recorded}")
    if len(data["agents"]) != data["num_players"]:
        raise ReplayError(f"replay: {len(data['agents'])} agents for {data['num_players']} players")
    n, options = data["num_players"], data["options"]
    try:  # a bad option or player count: the game's own ValueError, one line
        if data["chance"] == "env":
            made = registry.package(game).env(n, **options)  # as d2r_envs.make
        else:
            made = registry.make_game(game, n, **options)
    except (ValueError, TypeError) as e:
        raise ReplayError(f"replay options: {e}") from None
    if data["chance"] == "env":
        got, truncated, used = _through_env(made, data, on_step)
    else:
        got, truncated, used = _through_engine(made, data, on_step)
    if used != len(data["actions"]):
        raise ReplayError(f"replay: the game ended after {used} actions; {len(data['actions']) - used} more recorded")
    if got != data["returns"] or truncated != data["truncated"]:
        raise ReplayError(f"replay outcome differs: played back returns {got} (truncated {truncated}), "
                          f"recorded {data['returns']} (truncated {data['truncated']})")
    return got


def _illegal(i: int, who: str, action: int, legal: list[int]) -> ReplayError:
    return ReplayError(f"replay action {i} ({who}): {action} is not legal here; legal: {legal}")


def _through_env(env, data: dict[str, Any], on_step) -> tuple[list[float], bool, int]:
    env.reset(seed=data["seed"])
    actions = data["actions"]
    returns = dict.fromkeys(env.possible_agents, 0.0)
    i = 0
    truncated = False
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        returns[agent] += reward
        if term or trunc:
            truncated |= bool(trunc)
            action = None
        else:
            if i >= len(actions):
                raise ReplayError(f"replay ends after {len(actions)} actions, but the game goes on ({agent} to move)")
            action = actions[i]
            mask = obs["action_mask"]
            if not 0 <= action < len(mask) or not mask[action]:
                raise _illegal(i, agent, action, np.flatnonzero(mask).tolist())
            i += 1
            if on_step is not None:
                on_step(env.unwrapped.game, env.unwrapped.state, env.possible_agents.index(agent), action)
        env.step(action)
    return [returns[a] for a in env.possible_agents], truncated, i


def _through_engine(game, data: dict[str, Any], on_step) -> tuple[list[float], bool, int]:
    state = game.new_initial_state()
    actions = data["actions"]
    for i, action in enumerate(actions):
        player = game.current_player(state)
        if player == TERMINAL:
            return [float(x) for x in game.returns(state)], False, i
        legal = [o for o, _ in game.chance_outcomes(state)] if player == CHANCE else game.legal_actions(state)
        if action not in legal:
            raise _illegal(i, "chance" if player == CHANCE else f"player_{player}", action, legal)
        if on_step is not None:
            on_step(game, state, player, action)
        game.apply_action(state, action)
    if game.current_player(state) == TERMINAL:
        return [float(x) for x in game.returns(state)], False, len(actions)
    if data["truncated"]:  # cut off by the tournament's cap: no winner, every seat the lowest return
        return [float(game.spec.min_return)] * game.spec.num_players, True, len(actions)
    raise ReplayError(f"replay ends after {len(actions)} actions, but the game goes on")
