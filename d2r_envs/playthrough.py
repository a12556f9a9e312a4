"""Playthrough goldens: a recorded game, chance included, replayed exactly (OpenSpiel's idea).

    python -m d2r_envs.playthrough --new GAME --players N --seed S OUT.txt
    python -m d2r_envs.playthrough --update PATH [PATH ...]

Every applied action is written as an `action:` line, so replaying needs no RNG. A state is
shown in full (observation string, tensor digest, legal actions) for the first decisions and
then every tenth; every state gets one summary line.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from d2r_envs.core.game import CHANCE, TERMINAL
from d2r_envs import registry

FULL_FIRST = 24  # decisions shown in full at the start
FULL_EVERY = 10  # then every tenth decision


def _digest(vector: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(vector, np.float32).tobytes()).hexdigest()[:16]


def render(name: str, options: dict[str, Any], seed: int, actions: list[int]) -> str:
    """The golden text of a game with these options, played with exactly these actions."""
    game = registry.make_game(name, **dict(options))
    observer = game.make_observer()
    pkg = registry.package(name)
    lines = [
        f"game: {name}",
        f"version: {game.spec.version}",
        f"config: {json.dumps(options, sort_keys=True)}",
        f"seed: {seed}",
        f"NumActions() = {game.spec.num_actions}  ActionSpace {pkg.ACTIONS.fingerprint()}",
        f"ObservationSize() = {observer.layout.size}  Layout {observer.layout.fingerprint()}",
        f"MaxGameLength() = {game.spec.max_game_length}",
        "",
    ]
    state = game.new_initial_state()
    decisions = 0
    for i, action in enumerate(actions):
        player = game.current_player(state)
        if player == TERMINAL:
            raise ValueError(f"action {i} ({action}) given after the game ended")
        if player == CHANCE:
            lines.append(f"# chance: {game.action_to_string(state, action)}")
        else:
            if decisions < FULL_FIRST or decisions % FULL_EVERY == 0:
                lines.append(f"# State {i} (decision {decisions})")
                lines.append(f"CurrentPlayer() = {player}")
                lines += [f"  {line}" for line in observer.string_from(state, player).splitlines()]
                for p in range(game.spec.num_players):
                    lines.append(f"ObservationDigest({p}) = {_digest(observer.encode(state, p))}")
                legal = game.legal_actions(state)
                lines.append(f"LegalActions() = {legal}")
                lines.append(
                    "StringLegalActions() = " + json.dumps([game.action_to_string(state, a) for a in legal])
                )
            lines.append(f"# player_{player}: {game.action_to_string(state, action)}")
            decisions += 1
        lines.append(f"action: {action}")
        game.apply_action(state, action)
    lines.append("")
    lines.append("# Final state")
    lines += [f"  {line}" for line in game.state_to_string(state).splitlines()]
    lines.append(f"IsTerminal() = {game.is_terminal(state)}")
    lines.append(f"Returns() = {game.returns(state)}")
    return "\n".join(lines) + "\n"


def generate(name: str, options: dict[str, Any], seed: int) -> str:
    """Play a whole game with uniformly random legal actions and chance from `seed`."""
    game = registry.make_game(name, **dict(options))
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    actions: list[int] = []
    while not game.is_terminal(state) and len(actions) < 20 * game.spec.max_game_length:
        if game.current_player(state) == CHANCE:
            action = game.sample_chance(state, rng)
        else:
            legal = game.legal_actions(state)
            action = legal[int(rng.integers(len(legal)))]
        actions.append(action)
        game.apply_action(state, action)
    return render(name, options, seed, actions)


def parse(text: str) -> tuple[str, dict[str, Any], int, list[int]]:
    header: dict[str, str] = {}
    actions: list[int] = []
    for line in text.splitlines():
        if line.startswith("action: "):
            actions.append(int(line[len("action: ") :]))
        elif ": " in line and not line.startswith(("#", " ")) and len(header) < 4:
            key, value = line.split(": ", 1)
            header[key] = value
    return header["game"], json.loads(header["config"]), int(header["seed"]), actions


def replay(text: str) -> str:
    """Re-render a golden from its own recorded actions."""
    name, options, seed, actions = parse(text)
    return render(name, options, seed, actions)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m d2r_envs.playthrough", description=__doc__)
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--update", action="store_true", help="re-render the goldens from their actions")
    parser.add_argument("--new", metavar="GAME", help="generate a new golden for GAME")
    parser.add_argument("--players", type=int)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args(argv)
    if args.new:
        options: dict[str, Any] = {}
        if args.players:
            options["num_players"] = args.players
        for item in args.option:
            key, value = item.split("=", 1)
            options[key] = json.loads(value)
        args.paths[0].parent.mkdir(parents=True, exist_ok=True)
        args.paths[0].write_text(generate(args.new, options, args.seed), encoding="utf-8")
        return 0
    if args.update:
        for path in args.paths:
            path.write_text(replay(path.read_text(encoding="utf-8")), encoding="utf-8")
        return 0
    parser.error("give --new GAME or --update")
    return 2


if __name__ == "__main__":
    sys.exit(main())
