"""A small SVG builder for the games' pictures (each game's `draw.py`): shapes and text on a canvas of
fixed size, and the few layouts the pictures share (a banner, a panel with a title, a row of chips
that wraps, a hand one card to a row). It writes SVG text and knows no game. Within `narrow`, a
picture is laid out for a phone: one column of a given width, as tall as it holds.

Text never measures itself in SVG, so `text_width` estimates it from DejaVu Sans' advance widths
(Verdana's are alike), a little generously; `fit` and `wrap` use it to keep every label inside its
box. The font list names DejaVu Sans first: the rasteriser (core/raster.py) finds it among the
system fonts, and a browser falls back to Verdana or its own sans-serif.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Callable, Iterable, Iterator, Sequence

FONT = "DejaVu Sans, Verdana, sans-serif"
INK = "#222222"  # text and lines
MUTED = "#6b6b6b"  # secondary text
PAPER = "#f6f3ee"  # the background
CARD = "#ffffff"  # a panel
EDGE = "#c9c3b8"  # a panel's border
HIGHLIGHT = "#e0a100"  # the seat to act, a winner

# Named colours the games use, chosen to be told apart and to carry dark or white text.
PALETTE = {
    "green": "#3f9b4f", "purple": "#8455b8", "yellow": "#e8c42f", "red": "#d2453c", "blue": "#3d79c9",
    "black": "#333333", "orange": "#ec8a2c",
}
# Seat colours for a game whose players have none of their own.
SEATS = ("#3d79c9", "#d2453c", "#3f9b4f", "#8455b8", "#ec8a2c", "#2f9c95")

_MIN_FONT: ContextVar[float] = ContextVar("min_font", default=0.0)
_WIDTH: ContextVar[int | None] = ContextVar("width", default=None)  # the narrow layout's width, while `narrow` is on
NARROW = 600  # a canvas narrower than this is a narrow layout: panels in one column
# The places to mark (place -> action ids) and the place of the last move, while `spots` is on.
_SPOTS: ContextVar[tuple[dict[str, list[int]], str | None] | None] = ContextVar("spots", default=None)

# Advance widths in ems (DejaVu Sans, rounded up by class); anything not listed is 0.64, capitals 0.74.
_WIDTHS = {**dict.fromkeys("ijlIJ'|", 0.3), **dict.fromkeys(" .,:;!-()/frt[]", 0.4),
           **dict.fromkeys("csz*_?\"", 0.56), **dict.fromkeys("mwMW%&+#@~=<>", 1.0)}


@contextmanager
def legible(size: float) -> Iterator[None]:
    """Within it, pictures draw no text under `size` (smaller text is drawn at `size` and cut to the
    width it was given), for a screen that shows a picture at its own size; outside, as drawn."""
    token = _MIN_FONT.set(size)
    try:
        yield
    finally:
        _MIN_FONT.reset(token)


@contextmanager
def spots(places: dict[str, list[int]], last: str | None = None) -> Iterator[None]:
    """Within it, a picture marks each of its places (`Canvas.spot`) named in `places` as a region that
    carries those action ids (`data-actions`), for a page to make clickable, and outlines the place
    `last` (where the last move happened); outside, pictures mark nothing."""
    token = _SPOTS.set((places, last))
    try:
        yield
    finally:
        _SPOTS.reset(token)


@contextmanager
def narrow(width: int) -> Iterator[None]:
    """Within it, a picture that has a narrow layout is drawn `width` units wide (under NARROW), its
    panels stacked in one column, for a phone's screen; outside, each at its own width."""
    token = _WIDTH.set(width)
    try:
        yield
    finally:
        _WIDTH.reset(token)


def width(wide: int) -> int:
    """The width to draw a picture whose own width is `wide`: the narrow layout's within `narrow`."""
    w = _WIDTH.get()
    return wide if w is None else min(w, wide)


def stack_seats(y: float, own: int, n: int, seat_panel: Callable[[int, float], float],
                hand: Callable[[float], float], gap: float = 8) -> float:
    """The narrow layout's players from `y` down: the seat `own`'s panel and then its hand, then every
    other seat's panel; with no own seat (-1, from above before anyone acts), every panel and then the
    hand. `seat_panel(q, y)` and `hand(y)` draw one and return the y under it; returns the y under all."""
    order = ([own] if own >= 0 else []) + [q for q in range(n) if q != own]
    for i, q in enumerate(order):
        y = seat_panel(q, y) + gap
        if i == 0 and own >= 0:
            y = hand(y) + gap
    if own < 0:
        y = hand(y) + gap
    return y


def min_font() -> float:
    """The smallest text size pictures draw now (0: as each drawing says)."""
    return _MIN_FONT.get()


def escape(text: object) -> str:
    """`text` made safe for SVG text and attribute values."""
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#39;"))


def text_width(text: str, size: float, bold: bool = False) -> float:
    """An upper estimate of the width of `text` at font size `size`."""
    em = sum(_WIDTHS.get(ch, 0.74 if ch.isupper() else 0.64) for ch in text)
    return em * size * (1.1 if bold else 1.0)


def fit(text: str, width: float, size: float, bold: bool = False) -> str:
    """`text`, cut and ended with an ellipsis where it is wider than `width`."""
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + "…", size, bold) > width:
        text = text[:-1]
    return text.rstrip() + "…" if text else ""


def wrap(text: str, width: float, size: float, max_lines: int, bold: bool = False) -> list[str]:
    """`text` broken at spaces and after hyphens into at most `max_lines` lines of at most `width`;
    the last line ends in an ellipsis where the text does not fit."""
    out: list[str] = []
    end = -1
    for m in re.finditer(r"\S+?-|\S+", text):
        piece = ("" if m.start() == end else " ") + m.group()
        end = m.end()
        if out and text_width(out[-1] + piece, size, bold) <= width:
            out[-1] += piece
        else:
            out.append(piece.lstrip())
    if len(out) > max_lines:
        out = out[:max_lines]
        out[-1] += " …"
    return [fit(line, width, size, bold) for line in out]


def contrast(fill: str) -> str:
    """Dark or white text, whichever reads better on `fill` (a #rrggbb colour)."""
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def tint(fill: str, amount: float) -> str:
    """`fill` mixed with white: 0 leaves it, 1 is white."""
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(c + (255 - c) * amount):02x}" for c in (r, g, b))


def _n(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


class Canvas:
    """An SVG document of a fixed size, built element by element; `str(canvas)` is the document."""

    def __init__(self, width: int, height: int, title: str = "", background: str = PAPER) -> None:
        self.width, self.height = width, height
        self.title = title
        self.parts: list[str] = [f'<rect width="{width}" height="{height}" fill="{background}"/>']
        self.marks: list[str] = []  # the regions of `spot`, drawn over everything else
        self.outlined = False  # the last move's place is outlined once (a kind may lie in several boxes)

    def resize(self, height: float) -> None:
        """Make the canvas `height` tall (a narrow layout knows its height once drawn)."""
        self.height = round(height)
        self.parts[0] = re.sub(r'height="[0-9.]+"', f'height="{self.height}"', self.parts[0], count=1)

    def add(self, element: str) -> None:
        self.parts.append(element)

    def rect(self, x: float, y: float, w: float, h: float, fill: str = "none", stroke: str = "none",
             stroke_width: float = 1, rx: float = 0, dash: bool = False) -> None:
        extra = f' rx="{_n(rx)}"' if rx else ""
        extra += ' stroke-dasharray="4 3"' if dash else ""
        self.add(f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" fill="{fill}" '
                 f'stroke="{stroke}" stroke-width="{_n(stroke_width)}"{extra}/>')

    def circle(self, cx: float, cy: float, r: float, fill: str = "none", stroke: str = "none",
               stroke_width: float = 1) -> None:
        self.add(f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r)}" fill="{fill}" stroke="{stroke}" '
                 f'stroke-width="{_n(stroke_width)}"/>')

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = INK, stroke_width: float = 1) -> None:
        self.add(f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" stroke="{stroke}" '
                 f'stroke-width="{_n(stroke_width)}"/>')

    def polygon(self, points: Iterable[tuple[float, float]], fill: str = INK, stroke: str = "none") -> None:
        pts = " ".join(f"{_n(x)},{_n(y)}" for x, y in points)
        self.add(f'<polygon points="{pts}" fill="{fill}" stroke="{stroke}"/>')

    def text(self, x: float, y: float, text: str, size: float = 13, fill: str = INK, anchor: str = "start",
             bold: bool = False, width: float | None = None) -> None:
        """`text` with its baseline at `y`; cut to `width` where given (see `fit`)."""
        size = max(size, _MIN_FONT.get())
        if width is not None:
            text = fit(text, width, size, bold)
        if not text:
            return
        weight = ' font-weight="bold"' if bold else ""
        anchor_attr = f' text-anchor="{anchor}"' if anchor != "start" else ""
        self.add(f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" fill="{fill}"{weight}{anchor_attr}>'
                 f"{escape(text)}</text>")

    def spot(self, place: str, x: float, y: float, w: float, h: float) -> None:
        """The box of the place named `place` (such as "card:3" or "player:1"); marked only within `spots`.
        Where several boxes share a name (copies of one card), only the first is outlined as the last move."""
        active = _SPOTS.get()
        if active is None:
            return
        places, last = active
        box = f'x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="5"'
        if place == last and not self.outlined:
            self.outlined = True
            self.marks.append(f'<rect class="last-move" {box} fill="none" stroke="#e0007a" stroke-width="4" '
                              'pointer-events="none"/>')
        if place in places:
            ids = " ".join(str(a) for a in places[place])
            self.marks.append(f'<rect class="spot" data-place="{escape(place)}" data-actions="{ids}" {box} '
                              'fill="#7a2e8e" fill-opacity="0" stroke="#7a2e8e" stroke-width="2" stroke-dasharray="6 4"/>')

    def __str__(self) -> str:
        title = f"<title>{escape(self.title)}</title>" if self.title else ""
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height}" '
                f'viewBox="0 0 {self.width} {self.height}" font-family="{FONT}">{title}'
                + "".join(self.parts) + "".join(self.marks) + "</svg>")


# Layouts ------------------------------------------------------------------------------------------


def cells(x: float, y: float, w: float, h: float, count: int, columns: int, gap: float = 10
          ) -> list[tuple[float, float, float, float]]:
    """`count` boxes (x, y, w, h) filling the area row by row, `columns` to a row."""
    rows = -(-count // columns)
    cw = (w - gap * (columns - 1)) / columns
    ch = (h - gap * (rows - 1)) / rows
    return [(x + (i % columns) * (cw + gap), y + (i // columns) * (ch + gap), cw, ch) for i in range(count)]


def banner(c: Canvas, title: str, view: str, headline: str, detail: str, height: float = 58,
           done: bool = False) -> float:
    """The strip across the top: the game and the view on the left, whose turn and which decision
    (or, when the game is over, its result) on the right; on a narrow canvas, those under them,
    wrapped. Returns the y below it."""
    if c.width < NARROW:  # a column: the game and the view, then the headline and detail, wrapped
        heads = wrap(headline, c.width - 28, 15, 2, bold=True)
        details = wrap(detail, c.width - 28, max(12, _MIN_FONT.get()), 3)
        height = 48 + 19 * len(heads) + 15 * len(details) + 8
        c.rect(0, 0, c.width, height, fill="#2b2b3a")
        c.text(10, 22, title, size=18, fill="#ffffff", bold=True, width=c.width - 20)
        c.text(10, 40, view, size=12, fill="#c9c9d6", width=c.width - 20)
        if done:
            c.rect(6, 48, c.width - 12, height - 54, fill=HIGHLIGHT, rx=6)
        ink = INK if done else "#ffffff"
        for i, line in enumerate(heads):
            c.text(14, 66 + 19 * i, line, size=15, fill=ink, bold=True)
        for i, line in enumerate(details):
            c.text(14, 66 + 19 * (len(heads) - 1) + 18 + 15 * i, line, size=12, fill=ink if done else "#dcdce6")
        return height
    c.rect(0, 0, c.width, height, fill="#2b2b3a")
    c.text(16, 26, title, size=20, fill="#ffffff", bold=True, width=260)
    c.text(16, 46, view, size=12, fill="#c9c9d6", width=260)
    if done:
        c.rect(290, 8, c.width - 300, height - 16, fill=HIGHLIGHT, rx=6)
    ink = INK if done else "#ffffff"
    c.text(304, 27, headline, size=16, fill=ink, bold=True, width=c.width - 324)
    c.text(304, 46, detail, size=12, fill=ink if done else "#dcdce6", width=c.width - 324)
    return height


def panel(c: Canvas, x: float, y: float, w: float, h: float, title: str, colour: str = "#8c8c8c",
          note: str = "", mark: str | None = None) -> float:
    """A box with a coloured title strip (`note` at its right); `mark` outlines it (the seat to act,
    a winner). Returns the y below the strip."""
    c.rect(x, y, w, h, fill=CARD, stroke=mark or EDGE, stroke_width=3 if mark else 1, rx=6)
    c.rect(x + 1.5, y + 1.5, w - 3, 22, fill=colour, rx=5)
    ink = contrast(colour)
    note_w = min(text_width(note, 11), w / 2) if note else 0
    c.text(x + 8, y + 17, title, size=13, fill=ink, bold=True, width=w - note_w - 22)
    if note:
        c.text(x + w - 8, y + 17, note, size=11, fill=ink, anchor="end", width=note_w)
    return y + 24


def chips(c: Canvas, x: float, y: float, w: float, items: Sequence[tuple[str, str]], size: float = 11,
          rows: int = 1, max_chip: float = 190, height: float | None = None, empty: str = "",
          places: Sequence[str] = ()) -> float:
    """Labels on rounded chips (`items`: label, fill) from left to right, wrapping onto at most `rows`
    rows within `w`; where they do not fit, the last chip says how many more there are; with no items,
    `empty` in grey. `places`: each item's place (`Canvas.spot`), its chip where it is drawn. Returns
    the y below the rows."""
    h = height or size + 9
    size = max(size, _MIN_FONT.get())  # chips keep their height; larger text makes them wider
    if not items and empty:
        c.text(x, y + h / 2 + size * 0.36, empty, size=size, fill=MUTED, width=w)
    gap = 4
    placed: list[tuple[float, float, float, str, str | None]] = []  # x, y, width, label, fill
    cx, row = x, 0
    for label, fill in items:
        cw = min(text_width(label, size) + 12, max_chip, w)
        if cx + cw > x + w and cx > x:
            row, cx = row + 1, x
        if row >= rows:
            break
        placed.append((cx, y + row * (h + gap), cw, label, fill))
        cx += cw + gap
    hidden = len(items) - len(placed)
    while hidden:  # the last chip that leaves room says how many more there are
        more = f"+{hidden} more"
        mw = text_width(more, size) + 8
        if not placed:
            placed.append((x, y, mw, more, None))
            break
        px, py, pw, _, _ = placed[-1]
        if px + pw + gap + mw <= x + w:
            placed.append((px + pw + gap, py, mw, more, None))
            break
        placed.pop()
        hidden += 1
    for i, (px, py, pw, label, fill) in enumerate(placed):
        base = py + h / 2 + size * 0.36
        if fill is not None and i < len(places):
            c.spot(places[i], px - 1, py - 1, pw + 2, h + 2)
        if fill is None:
            c.text(px + 4, base, label, size=size, fill=MUTED)
            continue
        c.rect(px, py, pw, h, fill=fill, stroke=EDGE if fill in ("#ffffff", CARD) else "none", rx=4)
        c.text(px + 6, base, label, size=size, fill=contrast(fill), width=pw - 10)
    used = max((p[1] for p in placed), default=y - h - gap) - y + h + gap
    return y + used


def card_list(c: Canvas, x: float, y: float, w: float, h: float, body: float,
              cards: Sequence[tuple[str, str | None, str]], per_col: int = 5, line: float = 23,
              label_w: float = 190, text_size: float = 11, empty: str = "no cards",
              places: Sequence[str] = ()) -> None:
    """A hand in a panel (`x`, `y`, `w`, `h`; its strip ends at `body`) as a list of cards, each its
    label in bold, a colour swatch before it where `fill` is given (`cards`: label, fill, text), and
    its text after it; two columns when more than `per_col`; what does not fit is counted at the
    bottom; `empty` in grey when there are none. `places`: each card's place (`Canvas.spot`), its row."""
    col_w = (w - 30) / 2 if len(cards) > per_col else w - 20
    for i, (label, fill, text) in enumerate(cards[: 2 * per_col]):
        cx = x + 10 + (i // per_col) * (col_w + 10)
        cy = body + 20 + (i % per_col) * line
        if i < len(places):
            c.spot(places[i], cx - 4, cy - line + 6, col_w + 4, line - 1)
        if fill is not None:
            c.rect(cx, cy - 12, 10, 15, fill=fill, rx=2)
            cx += 16
        c.text(cx, cy, label, size=12, bold=True, width=label_w)
        c.text(cx + label_w + 6, cy, text, size=text_size, fill=MUTED, width=x + 10 + (i // per_col) * (col_w + 10)
               + col_w - cx - label_w - 8)
    if len(cards) > 2 * per_col:
        c.text(x + w - 10, y + h - 8, f"+{len(cards) - 2 * per_col} more kinds", size=11, fill=MUTED, anchor="end")
    if not cards and empty:
        c.text(x + 10, body + 20, empty, size=12, fill=MUTED)


def card_rows(c: Canvas, x: float, y: float, w: float, title: str, colour: str, note: str,
              cards: Sequence[tuple[str, str | None, str]], places: Sequence[str] = (), empty: str = "no cards",
              text_lines: int = 3) -> float:
    """A hand in a panel `w` wide from `y`, for a narrow layout: one card to a row, its label in bold
    (a colour swatch before it where `fill` is given; `cards`: label, fill, text) and its text wrapped
    under it in at most `text_lines` lines; `empty` in grey when there are none. `places`: each card's
    place (`Canvas.spot`), its row. Returns the y below the panel."""
    size = max(11, _MIN_FONT.get())
    rows = [wrap(text, w - 20, size, text_lines) if text else [] for _, _, text in cards]
    h = 24 + 8 + sum(18 + len(r) * (size + 3) + 6 for r in rows) + (22 if not cards else 0) + 4
    body = panel(c, x, y, w, h, title, colour, note=note)
    cy = body + 8
    for i, ((label, fill, _), texts) in enumerate(zip(cards, rows)):
        row_h = 18 + len(texts) * (size + 3)
        if i < len(places):
            c.spot(places[i], x + 4, cy - 2, w - 8, row_h + 4)
        lx = x + 10
        if fill is not None:
            c.rect(lx, cy + 1, 10, 15, fill=fill, rx=2)
            lx += 16
        c.text(lx, cy + 14, label, size=12, bold=True, width=x + w - 10 - lx)
        for j, t in enumerate(texts):
            c.text(x + 10, cy + 18 + (j + 1) * (size + 3) - 3, t, size=size, fill=MUTED)
        cy += row_h + 6
    if not cards and empty:
        c.text(x + 10, body + 20, empty, size=12, fill=MUTED)
    return y + h


def bar(c: Canvas, x: float, y: float, w: float, h: float, value: float, top: float, fill: str,
        label: str = "") -> None:
    """A horizontal gauge of `value` out of `top`, with `label` over it."""
    c.rect(x, y, w, h, fill="#ebe7df", rx=3)
    if top > 0 and value > 0:
        c.rect(x, y, w * min(value, top) / top, h, fill=fill, rx=3)
    if label:
        c.text(x + 5, y + h / 2 + 4, label, size=11, fill=INK, width=w - 8)


def lines(c: Canvas, x: float, y: float, w: float, texts: Sequence[str], size: float = 12, leading: float = 1.35,
          fill: str = INK) -> float:
    """Lines of text from `y` (the first baseline at y + size), each cut to `w`. Returns the y below."""
    step = size * leading
    for i, t in enumerate(texts):
        c.text(x, y + size + i * step, t, size=size, fill=fill, width=w)
    return y + len(texts) * step + size * (leading - 1)
