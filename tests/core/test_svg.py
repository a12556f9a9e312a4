"""The SVG builder (core/svg.py): escaping, fitting text, and the chips that say what did not fit."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from d2r_envs.core import svg as S

NS = "{http://www.w3.org/2000/svg}"


def _texts(c: S.Canvas) -> list[str]:
    return [el.text for el in ET.fromstring(str(c)).iter(NS + "text")]


def test_text_is_escaped_and_the_document_parses() -> None:
    c = S.Canvas(300, 100, title="a <b> & 'c'")
    c.text(10, 20, 'Sven\'s "Tacos" & <Fries>')
    root = ET.fromstring(str(c))
    assert root.get("viewBox") == "0 0 300 100" and root.find(NS + "title").text == "a <b> & 'c'"
    assert _texts(c) == ['Sven\'s "Tacos" & <Fries>']


def test_the_last_move_is_outlined_once_where_copies_share_a_place() -> None:
    with S.spots({"market:3": [7]}, last="market:3"):
        c = S.Canvas(300, 100)
        for x in (10, 110, 210):  # three copies of one card kind, one place name
            c.spot("market:3", x, 10, 80, 80)
        other = S.Canvas(300, 100)
        other.spot("market:3", 10, 10, 80, 80)
    assert str(c).count('class="last-move"') == 1 and str(c).count('class="spot"') == 3
    assert str(other).count('class="last-move"') == 1  # each drawing outlines it anew


def test_fit_and_wrap_keep_text_inside_the_width() -> None:
    long = "Move one of your characters 4 places forward and your other character 3 places backward."
    cut = S.fit(long, 120, 12)
    assert cut.endswith("…") and S.text_width(cut, 12) <= 120 and long.startswith(cut[:-1])
    assert S.fit("short", 120, 12) == "short"
    lines = S.wrap(long, 150, 11, 3)
    assert len(lines) == 3 and lines[-1].endswith("…")
    assert all(S.text_width(line, 11) <= 150 for line in lines)
    assert S.wrap("two words", 150, 11, 3) == ["two words"]
    assert S.wrap("Hand-me-down Outfit", 86, 11, 2, bold=True) == ["Hand-me-", "down Outfit"]  # after a hyphen


def test_chips_that_do_not_fit_are_counted() -> None:
    c = S.Canvas(400, 100)
    items = [(f"card {i}", "#dddddd") for i in range(30)]
    bottom = S.chips(c, 10, 10, 200, items, size=10, rows=2)
    texts = _texts(c)
    shown = [t for t in texts if t.startswith("card")]
    assert texts[-1] == f"+{30 - len(shown)} more" and 0 < len(shown) < 30
    assert 10 < bottom <= 10 + 2 * (10 + 9 + 4)
    empty = S.Canvas(400, 100)
    assert S.chips(empty, 10, 10, 200, [], empty="no cards") == 10 and _texts(empty) == ["no cards"]


def test_contrast_and_tint() -> None:
    assert S.contrast("#ffffff") == S.INK and S.contrast("#333333") == "#ffffff"
    assert S.tint("#000000", 1) == "#ffffff" and S.tint("#3d79c9", 0) == "#3d79c9"
