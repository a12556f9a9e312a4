"""What `d2r describe GAME` prints: a game's facts, options, action table and observation table, in Markdown.

`sections(name)` gives the parts one by one (the documentation site lays them out on each game's page);
`markdown(name)` joins them as the command prints them. Everything comes from the game package's own
declarations (its Config, Observer.Options, ACTIONS and LAYOUT), so the tables cannot drift from the code.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from d2r_envs import registry
from d2r_envs.core import config as _config


@dataclass(frozen=True)
class Description:
    """A game described: `title` ("draco_and_co (draco_and_co_v0)"), `lead` (the package docstring's
    first line, or ""), `facts` (Markdown bullets) and `sections`, (title, Markdown body) in order."""

    title: str
    lead: str
    facts: list[str]
    sections: list[tuple[str | None, str]]


def _cell(value: Any) -> str:
    return str(value).replace("|", "\\|")


def _options_table(rows: list[tuple[str, Any, str, str]]) -> list[str]:
    out = ["| option | default | allowed | meaning |", "|---|---|---|---|"]
    for key, default, allowed, meaning in rows:
        out.append(f"| `{key}` | {_cell(json.dumps(default))} | {_cell(allowed)} | {_cell(meaning)} |")
    return out


def sections(name: str, players: int | None = None) -> Description:
    """The description of game `name` at `players` (its default when None); a bad count is a ValueError."""
    pkg = registry.package(name)
    players = players if players is not None else pkg.DEFAULT_PLAYERS
    env = pkg.raw_env(players)
    spec = env.game.spec
    actions, layout = registry.action_space(name), registry.obs_layout(name)
    doc = pkg.doc.strip().splitlines()
    facts = [
        f"- players: {players} (allowed {spec.min_players}-{spec.max_players}, default {pkg.DEFAULT_PLAYERS})",
        f"- agents: {', '.join(env.possible_agents)}",
        f"- actions: Discrete({spec.num_actions}), the same for every player count; fingerprint {actions.fingerprint()}",
        f"- observation: Dict(observation=Box(0, high, ({layout.size},), float32), "
        f"action_mask=Box(0, 1, ({spec.num_actions},), int8)); fingerprint {layout.fingerprint()}",
        f"- returns: {spec.min_return:g} to {spec.max_return:g}; truncated after {spec.max_game_length} decisions",
    ]
    parts: list[tuple[str | None, str]] = [("Options", "\n".join(_options_table(_config.describe(pkg.Config))))]
    seen = _config.describe(pkg.Observer.Options)
    if seen:
        parts.append(("Observation options", "\n".join(
            ["`d2r_envs.make(..., observation={...})`; a training config's `env.observation`.", ""]
            + _options_table(seen))))
    parts += [("Actions", actions.describe()), ("Observation", layout.describe())]
    on: dict[str, bool] = {}
    for key, default, _, _ in seen:  # what each switch adds to the vector, those before it on too
        if default is False:
            on[key] = True
            wide = env.game.make_observer(**on).layout
            extra = [p.name for p in wide.pieces if p.name not in layout.offsets]
            if extra:
                parts.append((None, f"With `{', '.join(f'{k}: true' for k in on)}`: Box(0, high, ({wide.size},), "
                                    f"float32), fingerprint {wide.fingerprint()}; the pieces above, then:\n\n"
                                    f"{wide.describe(extra)}"))
                layout = wide
    return Description(f"{name} ({env.metadata['name']})", doc[0] if doc else "", facts, parts)


def markdown(name: str, players: int | None = None) -> str:
    """`d2r describe`'s page: the title, the lead line, the facts, then each section under its heading
    (a section without a title continues the one before it)."""
    d = sections(name, players)
    out = [f"# {d.title}", ""]
    if d.lead:
        out += [d.lead, ""]
    out += d.facts
    for title, body in d.sections:
        out += ["", f"## {title}", "", body] if title else ["", body]
    return "\n".join(out)
