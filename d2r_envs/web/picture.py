"""The picture of a state on the page, from one seat's view or from above: the one place it is drawn.

When `d2r_envs.render` is installed, its `svg(game, state, seat)` draws it, with no text under MIN_FONT
units (core/svg.py `legible`): the page shows the picture at its own size or larger, panning it where the
screen is narrower, so its text is never under MIN_FONT CSS pixels. A game whose drawing has a narrow
layout (core/svg.py `narrow`) is drawn twice, the second NARROW units wide with its panels in one
column; the page shows the wide one where it fits and the narrow one on a narrower screen (style.css),
so a phone shows the picture across its width without panning. Both are the same seat's view. Without
d2r_envs.render it is the seat's text view (`Observer.string_from`) or, from above,
`Game.state_to_string`, escaped in a <pre>.
"""

from __future__ import annotations

import html
import importlib
import re
from typing import Any, Sequence

from d2r_envs import registry
from d2r_envs.core import svg as S
from d2r_envs.core.game import Game

MIN_FONT = 11  # the smallest text of a picture on the page, in its own units and in CSS pixels
NARROW = 360  # the narrow drawing's width: a 390-pixel phone's picture box

_render: Any = None


def _renderer() -> Any:
    """d2r_envs.render when it exists (False when not), imported once."""
    global _render
    if _render is None:
        try:
            _render = importlib.import_module("d2r_envs.render")
        except ModuleNotFoundError as err:
            if err.name != "d2r_envs.render":
                raise
            _render = False
    return _render


def place_of(game: Game, state: Any, action: int) -> str | None:
    """The place in the picture where `action` happens at `state` (the game's `draw.place`), None where
    it has none. A place named "card:..." is in the hand of the seat that acts."""
    draw = registry.of(game).draw
    place = getattr(draw, "place", None)
    return place(game, state, action) if place is not None else None


def move_place(game: Game, state: Any, action: int, seat: int | None) -> str:
    """Where the move `action` of the player to act at `state` is outlined for `seat` (None: from above):
    its place, or the mover's panel where it has none or where it is in a hand `seat` does not hold."""
    player = game.current_player(state)
    place = place_of(game, state, action)
    if place is None or (place.startswith("card:") and seat != player and seat is not None):
        return f"player:{player}"
    return place


def places(game: Game, state: Any, actions: Sequence[int]) -> dict[str, list[int]]:
    """The places of these actions (legal at `state`), each with its actions."""
    out: dict[str, list[int]] = {}
    for a in actions:
        key = place_of(game, state, a)
        if key is not None:
            out.setdefault(key, []).append(a)
    return out


def picture(game: Game, state: Any, seat: int | None, moves: Sequence[int] = (), last: str | None = None) -> str:
    """HTML for `state` as `seat` sees it (None: from above, everything); `moves`, the seat's legal
    actions, marked in the picture where they have a place (see `core.svg.spots`), and `last`, the
    place of the last move, outlined."""
    render = _renderer()
    if render and hasattr(render, "svg"):
        marked = places(game, state, moves)
        with S.legible(MIN_FONT), S.spots(marked, last):
            wide = render.svg(game, state, seat)
        with S.legible(MIN_FONT), S.spots(marked, last), S.narrow(NARROW):
            narrow = render.svg(game, state, seat)
        if _width(narrow) >= _width(wide):  # the game has no narrow layout
            return _box(wide, "svg")
        return _box(wide, "svg wide") + _box(narrow, "svg narrow")
    text = game.state_to_string(state) if seat is None else game.make_observer().string_from(state, seat)
    return f'<pre class="text">{html.escape(text)}</pre>'


def _width(drawing: str) -> float:
    width = re.search(r'<svg[^>]*? width="([0-9.]+)"', drawing)
    return float(width.group(1)) if width else 0.0


def _box(drawing: str, kind: str) -> str:
    """The drawing in its box, which knows its width (the page shows it at least that wide)."""
    width = _width(drawing)
    style = f' style="--width: {width:g}px"' if width else ""
    return f'<div class="{kind}"{style}>{drawing}</div>'
