"""The documentation site's generated content: mkdocs hooks (mkdocs.yml, `hooks`).

A page asks for generated content with a directive alone on its line; the build replaces it:

    <!-- d2r games -->                  the table of games, from the registry
    <!-- d2r describe GAME -->          `d2r describe GAME`'s facts and tables (d2r_envs.describe)
    <!-- d2r section FILE HEADING -->   one `## HEADING` section of a Markdown file of the repository
    <!-- d2r include FILE [+N] -->      a Markdown file of the repository, less its title (headings N levels down)
    <!-- d2r picture GAME -->           the game's picture: a seeded mid-game state drawn by its draw.py
    <!-- d2r opponents GAME -->         its shipped models and their strength, from their manifests
    <!-- d2r levels GAME -->            its difficulty levels and the tournaments that order them (models/levels.json)
    <!-- d2r models -->                 every shipped model in one table, from the manifests
    <!-- d2r commands -->               the `d2r` subcommands and what each does, from its parser

Links inside an included file are rewritten for the page: to the page that holds the file they point to,
to a file of the documentation, or, for any other file of the repository, to its path as code. Nothing
generated is committed; `mkdocs build --strict` makes all of it from the code, the game READMEs and the
models' manifests.
"""

from __future__ import annotations

import json
import posixpath
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # the checkout's own packages, installed or not (mkdocs restores sys.path
    sys.path.insert(0, str(ROOT))  # after loading a hook: everything used later is imported here)

import d2r_envs  # noqa: E402
from d2r_envs import cli, describe, difficulty, opponents as _opponents, registry, render  # noqa: E402
from d2r_envs.single_agent import gym_id  # noqa: E402

PICTURE_SEED, PICTURE_MOVES = 2026, 40  # the seeded mid-game state every picture shows

# Files of the repository that are a page of the site, or are laid out on one.
PAGES = {
    "README.md": "index.md",
    "CHANGELOG.md": "changelog.md",
    "d2r_envs/games/README.md": "engine.md",
    "configs/README.md": "training.md",
    "training/benchmark/data/v1/README.md": "benchmark.md",
    **{f"d2r_envs/games/{g}/README.md": f"games/{g}.md" for g in d2r_envs.names()},
}

# The benchmark's committed reports (training/benchmark/data/vN/results/<folder>/, `d2r benchmark report`):
# their figures are laid in the site beside the page that includes their results.md.
REPORTS = sorted(p.parent.relative_to(ROOT).as_posix()
                 for p in ROOT.glob("training/benchmark/data/v*/results/*/results.json"))
ASSETS = {f"{folder}/{svg.name}": f"benchmark/{folder.split('/')[3]}-{folder.split('/')[5]}/{svg.name}"
          for folder in REPORTS for svg in sorted((ROOT / folder).glob("*.svg"))}

DIRECTIVE = re.compile(r"^<!-- d2r (\w+)((?: [^ ]+)*?)(?: (\"[^\"]*\"))? -->$", re.MULTILINE)
LINK = re.compile(r"(!?)\[([^\]]*)\]\(([^)\s]+)\)")


class DirectiveError(ValueError):
    """A directive the build cannot carry out (mkdocs reports it and stops)."""


# Links ------------------------------------------------------------------------------------------


def fix_links(text: str, source: str, page: str) -> str:
    """`text`, from the repository file `source`, with each relative link made right for the docs page
    `page` (both paths relative to their roots, with /)."""
    here = posixpath.dirname(page)

    def fix(m: re.Match[str]) -> str:
        bang, label, target = m.groups()
        if re.match(r"^[a-z]+:", target) or target.startswith("#"):
            return m.group(0)
        path, _, anchor = target.partition("#")
        repo = posixpath.normpath(posixpath.join(posixpath.dirname(source), path))
        doc = PAGES.get(repo) or ASSETS.get(repo) or (repo[len("docs/"):] if repo.startswith("docs/") else None)
        if doc is None:  # a file the site does not hold: name it
            return label if f"`{repo}`" in label or label == f"`{repo}`" else f"{label} (`{repo}`)"
        return f"{bang}[{label}]({posixpath.relpath(doc, here or '.')}{'#' + anchor if anchor else ''})"

    return LINK.sub(fix, text)


def _read(path: str) -> str:
    file = ROOT / path
    if not file.is_file():
        raise DirectiveError(f"{path}: no such file in the repository")
    return file.read_text(encoding="utf-8")


def headings(lines: list[str]) -> dict[int, int]:
    """{line index: level} of the Markdown headings among `lines`, code fences skipped."""
    out, fence = {}, None
    for i, line in enumerate(lines):
        m = re.match(r"^(```+|~~~+)", line.lstrip())
        if m:
            fence = None if fence and m.group(1).startswith(fence) else (fence or m.group(1))
        elif fence is None and (h := re.match(r"^(#{1,6}) ", line)):
            out[i] = len(h.group(1))
    return out


def section(path: str, heading: str) -> str:
    """The body of the `## heading` section of a Markdown file, up to the next heading of its level."""
    lines = _read(path).splitlines()
    marks = headings(lines)
    start = next((i + 1 for i, level in marks.items() if level == 2 and lines[i] == f"## {heading}"), None)
    if start is None:
        raise DirectiveError(f"{path} has no section '## {heading}'")
    end = next((i for i, level in marks.items() if i >= start and level <= 2), len(lines))
    return "\n".join(lines[start:end]).strip("\n")


def include(path: str, shift: str = "+0") -> str:
    """A Markdown file less its title line, its headings `shift` levels down ("+1": ## becomes ###)."""
    lines = _read(path).splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    down = int(shift)
    for i in headings(lines):
        lines[i] = "#" * down + lines[i]
    return "\n".join(lines).strip("\n")


# Games ------------------------------------------------------------------------------------------


def games_table(page: str) -> str:
    here = posixpath.dirname(page)
    rows = ["| game | players (default) | actions | observation | AEC env | gymnasium id |",
            "|---|---|---:|---:|---|---|"]
    for name in d2r_envs.names():
        pkg = registry.package(name)
        spec = d2r_envs.make_game(name).spec
        link = posixpath.relpath(f"games/{name}.md", here or ".")
        rows.append(f"| [`{name}`]({link}) | {spec.min_players}-{spec.max_players} ({pkg.DEFAULT_PLAYERS}) | "
                    f"{spec.num_actions} | {registry.obs_layout(name).size} | `{name}_v{pkg.VERSION}` | "
                    f"`{gym_id(name)}` |")
    return "\n".join(rows)


def describe_game(name: str) -> str:
    d = describe.sections(name)
    out = list(d.facts)
    for title, body in d.sections:
        out += ["", f"### {title}", "", body] if title else ["", body]
    return "\n".join(out)


def picture_file(name: str) -> str:
    return f"pictures/{name}.svg"


def picture_svg(name: str) -> str:
    game = d2r_envs.make_game(name)
    return render.svg(game, render.seeded_state(game, PICTURE_SEED, PICTURE_MOVES))


def picture(name: str, page: str) -> str:
    game = d2r_envs.make_game(name)
    link = posixpath.relpath(picture_file(name), posixpath.dirname(page) or ".")
    return (f"![{name}: a game of random legal moves, {PICTURE_MOVES} moves in, from above]({link})\n\n"
            f"*{game.spec.num_players} players, seed {PICTURE_SEED}, {PICTURE_MOVES} random legal moves, drawn "
            f"from above by `d2r_envs.render.svg` (the game's `draw.py`); "
            f"`python -m d2r_envs.render {name} --seed {PICTURE_SEED} --moves {PICTURE_MOVES} --out {name}.svg` "
            f"draws it again.*")


# Models -----------------------------------------------------------------------------------------


def manifests(game: str | None = None) -> list[tuple[str, dict[str, Any]]]:
    """(id, manifest) of each model under the repository's models/, shipped model of each game first."""
    out = []
    for path in sorted((ROOT / "models").glob(f"{game or '*'}/*/manifest.json")):
        out.append((f"{path.parent.parent.name}/{path.parent.name}", json.loads(path.read_text(encoding="utf-8"))))
    shipped = {Path(_opponents.shipped_model(g, ROOT / "models")).name for g in {m["game"] for _, m in out}}

    def order(item: tuple[str, dict[str, Any]]) -> tuple[str, bool, str]:
        ref, m = item
        return (m["game"], ref.split("/")[1] not in shipped, ref)

    return sorted(out, key=order)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _label(options: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(options.items())) or "-"


def _trained(m: dict[str, Any]) -> str:
    """How a model was trained, in words, from its manifest's `training` section."""
    t = m.get("training") or {}
    c = t.get("config") if isinstance(t.get("config"), dict) else {}
    algo, imitate, pool = c.get("algo") or {}, c.get("imitate"), (c.get("opponents") or {})
    counts = t.get("player_counts") or [(c.get("env") or {}).get("num_players", 4)]
    parts = [
        f"{'RLlib PPO' if t.get('backend') == 'rllib' else 'MaskablePPO'} for {t['total_timesteps']:,} steps"
        if t.get("total_timesteps") else None,
        (f"after imitating `{imitate['teacher']}` ({imitate['games']:,} games"
         + (f", {imitate['rounds'] - 1} DAgger round{'s' if imitate['rounds'] > 2 else ''}" if imitate.get("rounds", 1) > 1 else "")
         + ")") if imitate else None,
        f"at {', '.join(map(str, counts))} players"
        + (f" (weights {', '.join(f'{w:g}' for w in t['player_weights'])})" if t.get("player_weights") else ""),
        "levels " + ", ".join(v.get("level", _label(v)) for v in t["variants"]) if t.get("variants") else None,
        "against " + ", ".join(f"`{o}`" for o in pool.get("pool", []))
        + (" and snapshots of itself" if pool.get("snapshot_every") else "") if pool else None,
        f"a {algo['net_arch']} {algo.get('activation', '')} network".replace(" ]", "]") if algo.get("net_arch") else None,
        f"observation options {json.dumps(m['observation'])}" if m.get("observation") else None,
    ]
    return "; ".join(p for p in parts if p)


def bars_table(ref: str, bars: dict[str, Any]) -> str:
    rows = ["| players | options | bar | its win share | opponents' (each) | verdict |", "|---:|---|---|---:|---:|---|"]
    for key, entry in bars.items():
        count, _, rest = key.partition("[")
        for b in entry["bars"]:
            rows.append(f"| {count} | {rest.rstrip(']') or '-'} | {b['bar']}: {b['rule']} | {_pct(b['win_share'])} | "
                        f"{_pct(b['opponent_win_share'])} | {'pass' if b['passed'] else '**fail**'} |")
    return "\n".join(rows)


def tournaments_table(ref: str, evaluation: dict[str, Any]) -> str:
    rows = ["| players | options | against | games | its win share (95% interval) | each other agent's |",
            "|---:|---|---|---:|---|---|"]
    entries = [e for k, e in evaluation.items() if k != "bars" and isinstance(e, dict) and "agents" in e]
    entries.sort(key=lambda e: (e["num_players"], _label(e.get("options") or {}), e["lineup"]))
    for e in entries:
        own = e["agents"][ref]
        low, high = own["win_share_ci"]
        others = ", ".join(f"{a} {_pct(s['win_share'])}" for a, s in e["agents"].items() if a != ref)
        against = ", ".join(f"`{a}`" for a in e["lineup"][1:])
        rows.append(f"| {e['num_players']} | {_label(e.get('options') or {})} | {against} | {e['games']:,} | "
                    f"{_pct(own['win_share'])} ({_pct(low)} to {_pct(high)}) | {others} |")
    return "\n".join(rows)


def opponents(game: str) -> str:
    found = manifests(game)
    if not found:
        return "No shipped model yet."
    shipped = f"{game}/{Path(_opponents.shipped_model(game, ROOT / 'models')).name}"
    out = []
    for ref, m in found:
        evaluation = m.get("evaluation") or {}
        role = "the shipped opponent (`d2r play`, the `shipped` agent)" if ref == shipped else "kept loadable"
        out += [f"### `{ref}`", "", f"{role[0].upper()}{role[1:]}; game version {m['game_version']}. Trained with "
                f"{_trained(m)}.", ""]
        if evaluation.get("bars"):
            out += ["The bars for shipped opponents (`python -m training.bars`):", "", bars_table(ref, evaluation["bars"]), ""]
        if any(k != "bars" for k in evaluation):
            out += ["Tournaments recorded in its manifest (seats rotated over duplicate deals):", "",
                    tournaments_table(ref, evaluation), ""]
    return "\n".join(out).rstrip()


def models_table() -> str:
    rows = ["| model | role | game version | players | backend | bars |", "|---|---|---:|---|---|---|"]
    shipped = {f"{g}/{Path(_opponents.shipped_model(g, ROOT / 'models')).name}" for g in d2r_envs.names()
               if (ROOT / "models" / g).is_dir()}
    for ref, m in manifests():
        t = m.get("training") or {}
        bars = (m.get("evaluation") or {}).get("bars") or {}
        verdict = ("pass at " + ", ".join(bars) if all(b["passed"] for b in bars.values())
                   else "fails at " + ", ".join(k for k, b in bars.items() if not b["passed"])) if bars else "-"
        game = ref.split("/")[0]
        rows.append(f"| [`{ref}`](games/{game}.md#{ref.replace('/', '')}) | {'shipped' if ref in shipped else 'kept'} | "
                    f"{m['game_version']} | "
                    f"{', '.join(map(str, t.get('player_counts') or [4]))} | {t.get('backend', 'sb3')} | {verdict} |")
    return "\n".join(rows)


# The command line ------------------------------------------------------------------------------


def commands() -> str:
    import argparse

    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    rows = ["| command | what it does |", "|---|---|"]
    for choice in sub._choices_actions:
        rows.append(f"| `d2r {choice.dest}` | {choice.help} |")
    return "\n".join(rows)


# The hooks --------------------------------------------------------------------------------------


def expand(markdown: str, page: str) -> str:
    """The page's Markdown with every directive replaced by what it asks for."""

    def run(m: re.Match[str]) -> str:
        name, args, quoted = m.group(1), m.group(2).split(), m.group(3)
        if quoted:
            args.append(quoted.strip('"'))
        try:
            if name == "games":
                return games_table(page)
            if name == "describe":
                return describe_game(*args)
            if name == "section":
                return fix_links(section(*args), args[0], page)
            if name == "include":
                return fix_links(include(*args), args[0], page)
            if name == "picture":
                return picture(args[0], page)
            if name == "opponents":
                return opponents(*args)
            if name == "levels":
                return difficulty.table(*args)
            if name == "models":
                return fix_links(models_table(), "docs/evaluation.md", page)
            if name == "commands":
                return commands()
        except TypeError as e:
            raise DirectiveError(f"{page}: {m.group(0)}: {e}") from None
        raise DirectiveError(f"{page}: unknown directive {m.group(0)}")

    return DIRECTIVE.sub(run, markdown)


def on_files(files, config):
    from mkdocs.structure.files import File

    for name in d2r_envs.names():
        files.append(File.generated(config, picture_file(name), content=picture_svg(name)))
    for source, site in ASSETS.items():
        files.append(File.generated(config, site, content=(ROOT / source).read_bytes()))
    return files


def on_page_markdown(markdown, page, config, files):
    return expand(markdown, page.file.src_uri)
