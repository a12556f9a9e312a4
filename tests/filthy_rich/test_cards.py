"""The component data (cards.py) against the rulebook's component list and our reconstructions.

`card_tables()` writes the README's card tables from the data; the last test checks that the README
holds them as they are now.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import d2r_envs.games.filthy_rich as pkg
from d2r_envs.games.filthy_rich import cards as C

README = Path(pkg.__file__).parent / "README.md"
SOURCES = {
    "rulebook",
    "rulebook name",
    "rulebook theme",
    "found name",
    "found (price)",
    "found name (middle of the range)",
    "reconstructed",
}
TWO_COPIES = {"Sven's Swedish Tacos", "Chapter 11 Books", "Hot Dog Stand", "Pawn Shop"}


def _cards(asset: bool) -> int:
    return sum(c.copies for c in C.CARDS if c.asset == asset)


def _slots(mask: int) -> str:
    return "+".join(map(str, C.slots_of(mask)))


# The README tables ---------------------------------------------------------------------------------


def _hit(b: C.Business) -> str:
    if b.hit == C.Hit.BANK:
        return f"collect ${b.pay} from the bank"
    if b.hit == C.Hit.ROLLER:
        return f"the roller pays you ${b.pay} (the bank pays if you rolled)"
    return f"collect ${b.pay} from the bank; each 0 rolled: collect ${b.zero_pay}"


def shape_table() -> str:
    rows = ["| shape | sign cards | slots at anchor 1 | places on an empty page | businesses |",
            "|---|---:|---|---:|---:|"]
    for name in C.SHAPES:
        masks = [m for m in C.placements(name) if m]
        users = sum(b.shape == name for b in C.BUSINESSES)
        rows.append(f"| {name} | {len(C.SHAPES[name])} | {_slots(masks[0])} | {len(masks)} | {users} |")
    return "\n".join(rows)


def business_table() -> str:
    rows = ["| # | business | launch cost | sign | sign cards | hit | tax | copies | provenance |",
            "|---:|---|---:|---|---:|---|---:|---:|---|"]
    for i, b in enumerate(C.BUSINESSES):
        rows.append(f"| {i + 1} | {b.name} | ${b.cost} | {b.shape} | {b.size} | {_hit(b)} | {b.tax} | {b.copies} "
                    f"| {b.source} |")
    return "\n".join(rows)


def luxury_table() -> str:
    rows = ["| # | luxury | price | tax | provenance |", "|---:|---|---:|---:|---|"]
    for i, x in enumerate(C.LUXURIES):
        rows.append(f"| {i + 1} | {x.name} | ${x.price} | {x.tax} | {x.source} |")
    return "\n".join(rows)


def card_table() -> str:
    rows = ["| card | type | cost | tax | effect | copies | provenance |", "|---|---|---:|---:|---|---:|---|"]
    for c in C.CARDS:
        effect = c.text.split(": ", 1)[1]
        cost, tax = (f"${c.cost}", str(c.tax)) if c.asset else ("-", "-")
        rows.append(f"| {c.name} | {'asset' if c.asset else 'action'} | {cost} | {tax} | {effect} | {c.copies} "
                    f"| {c.source} |")
    return "\n".join(rows)


def totals() -> str:
    biz = sum(b.copies for b in C.BUSINESSES)
    return (f"The deck: {biz} business cards + {_cards(False)} action cards + {_cards(True)} asset cards = "
            f"{C.DECK_SIZE} cards. The {C.NUM_BUSINESSES} signs have {C.SIGN_CARDS} sign cards in all.")


def card_tables() -> list[str]:
    return [shape_table(), business_table(), luxury_table(), card_table(), totals()]


# FR-COMP-1 -----------------------------------------------------------------------------------------


@pytest.mark.rules("FR-COMP-1")
def test_component_counts():
    assert C.NUM_BUSINESSES == len(C.BUSINESSES) == 22  # one sign each
    assert len(C.PLACEMENTS) == len(C.SIZE) == 22
    assert C.NUM_LUXURIES == len(C.LUXURIES) == 12
    assert C.DECK_SIZE == sum(C.COPIES) == 73
    assert C.NUM_KINDS == C.NUM_BUSINESSES + C.NUM_CARDS == 37
    assert (C.MIN_PLAYERS, C.MAX_PLAYERS, C.HAND_SIZE, C.START_MONEY, C.PAGES, C.SLOTS) == (2, 5, 5, 10, 4, 9)
    assert (C.COVER_FEE, C.SELL_PER_CARD, C.DISCARD_PAY, C.ACTIONS_PER_TURN) == (2, 2, 1, 2)


@pytest.mark.rules("FR-COMP-1")
def test_names_are_unique_and_kinds_line_up():
    assert len(set(C.KIND_NAMES)) == C.NUM_KINDS
    assert len({x.name for x in C.LUXURIES}) == C.NUM_LUXURIES
    assert C.KIND_NAMES == tuple(b.name for b in C.BUSINESSES) + tuple(c.name for c in C.CARDS)
    assert all(C.card_of(C.NUM_BUSINESSES + i) is c for i, c in enumerate(C.CARDS))
    effects = {v for name, v in vars(C.Effect).items() if not name.startswith("_")}
    assert len({c.effect for c in C.CARDS}) == C.NUM_CARDS == len(effects)  # one kind per effect
    assert C.ASSET_KINDS == tuple(C.NUM_BUSINESSES + i for i, c in enumerate(C.CARDS) if c.asset)


# FR-DATA-1 -----------------------------------------------------------------------------------------


@pytest.mark.rules("FR-DATA-1")
def test_deck_split_26_25_22():
    assert sum(b.copies for b in C.BUSINESSES) == 26
    assert _cards(False) == 25
    assert _cards(True) == 22
    assert 26 + 25 + 22 == C.DECK_SIZE
    assert all(k >= 1 for k in C.COPIES)


@pytest.mark.rules("FR-DATA-1")
def test_the_four_two_copy_businesses():
    copies = Counter(b.copies for b in C.BUSINESSES)
    assert copies == {1: 18, 2: 4}
    assert {b.name for b in C.BUSINESSES if b.copies == 2} == TWO_COPIES
    for b in C.BUSINESSES:
        if b.copies == 2:  # cheap single-card signs, so the second card often meets its sign in the book
            assert b.size == 1 and b.cost <= 6, b.name


@pytest.mark.rules("FR-DATA-1")
def test_every_sign_has_1_to_4_cards_and_fits_a_page():
    for b, biz in enumerate(C.BUSINESSES):
        assert 1 <= biz.size <= 4, biz.name
        assert C.SIZE[b] == biz.size
        assert any(C.PLACEMENTS[b]), f"{biz.name}'s sign fits nowhere on a 3x3 page"
    assert C.SIGN_CARDS == sum(C.SIZE) == 42


@pytest.mark.rules("FR-DATA-1")
def test_every_placement_stays_inside_the_page():
    for name, cells in C.SHAPES.items():
        assert cells[0] == (0, 0) and len(set(cells)) == len(cells), name
        masks = C.placements(name)
        assert len(masks) == C.SLOTS
        for anchor, mask in enumerate(masks):
            r0, c0 = divmod(anchor, 3)
            inside = all(r0 + r < 3 and c0 + c < 3 for r, c in cells)
            if not inside:
                assert mask == 0, (name, anchor)
                continue
            assert mask == sum(1 << (3 * (r0 + r) + c0 + c) for r, c in cells), (name, anchor)
            assert 0 < mask < 1 << C.SLOTS and bin(mask).count("1") == len(cells)
            assert mask & 1 << anchor  # the anchor is the sign's top-left card
            # rows and columns of the covered slots keep the shape: nothing wraps to the next row
            got = sorted(divmod(s - 1, 3) for s in C.slots_of(mask))
            assert got == sorted((r0 + r, c0 + c) for r, c in cells), (name, anchor)


@pytest.mark.rules("FR-DATA-1", "FR-SIGN-2")
def test_placements_examples():
    # Tornado Cleaners, the rulebook's example: one card above the other, e.g. 1+4, 2+5, 6+9.
    tornado = C.BUSINESSES[C.KIND_NAMES.index("Tornado Cleaners")]
    assert tornado.shape == "vertical 2" and tornado.cost == 12 and tornado.source == "rulebook"
    masks = {_slots(m) for m in C.placements("vertical 2") if m}
    assert masks == {"1+4", "2+5", "3+6", "4+7", "5+8", "6+9"}
    # no horizontal sign wraps from the end of a row to the start of the next (slot 3 to slot 4)
    assert {_slots(m) for m in C.placements("horizontal 2") if m} == {"1+2", "2+3", "4+5", "5+6", "7+8", "8+9"}
    assert {_slots(m) for m in C.placements("horizontal 3") if m} == {"1+2+3", "4+5+6", "7+8+9"}
    assert {_slots(m) for m in C.placements("L 3") if m} == {"1+4+5", "2+5+6", "4+7+8", "5+8+9"}
    assert {_slots(m) for m in C.placements("square 4") if m} == {"1+2+4+5", "2+3+5+6", "4+5+7+8", "5+6+8+9"}
    assert {_slots(m) for m in C.placements("single") if m} == {str(i) for i in range(1, 10)}


@pytest.mark.rules("FR-DATA-1")
def test_sign_shape_mix_and_business_numbers():
    assert Counter(b.shape for b in C.BUSINESSES) == {
        "single": 8, "vertical 2": 6, "horizontal 2": 4, "horizontal 3": 1, "L 3": 1, "square 4": 2}
    for b in C.BUSINESSES:
        assert b.cost > 0 and b.pay > 0 and 0 <= b.tax <= 2, b.name
        assert (b.zero_pay > 0) == (b.hit == C.Hit.TAX_MAN), b.name
    # cost grows with the sign's size: every two-card sign costs more than every single card, and the
    # average cost rises with the size (three- and four-card signs were cut to the two-card range so
    # that they get opened; see the README)
    by_size = {n: [b.cost for b in C.BUSINESSES if b.size == n] for n in (1, 2, 3, 4)}
    mean = {n: sum(c) / len(c) for n, c in by_size.items()}
    assert max(by_size[1]) < min(by_size[2]) and mean[1] < mean[2] < mean[3] < mean[4]


# FR-DATA-2 -----------------------------------------------------------------------------------------


@pytest.mark.rules("FR-DATA-2")
def test_luxury_ladder():
    prices = [x.price for x in C.LUXURIES]
    assert all(a < b for a, b in zip(prices, prices[1:]))
    assert (C.LUXURIES[0].name, prices[0]) == ("Personal Trainer", 6)
    assert (C.LUXURIES[-1].name, prices[-1]) == ("Space Shuttle", 45)
    taxes = [x.tax for x in C.LUXURIES]
    assert all(1 <= t <= 3 for t in taxes)
    assert all(a <= b for a, b in zip(taxes, taxes[1:]))
    assert {"Trophy Spouse", "Title of Nobility", "European Castle"} <= {x.name for x in C.LUXURIES}


# Provenance ----------------------------------------------------------------------------------------


@pytest.mark.rules("FR-DATA-1", "FR-DATA-2")
def test_every_entry_has_a_known_provenance():
    entries = [*C.BUSINESSES, *C.LUXURIES, *C.CARDS]
    assert {e.source for e in entries} <= SOURCES
    found = {e.name for e in entries if e.source != "reconstructed"}
    assert found == {
        "Tornado Cleaners", "Murphy's Fish House", "Sven's Swedish Tacos", "Chapter 11 Books",
        "Personal Trainer", "Trophy Spouse", "Title of Nobility", "European Castle", "Space Shuttle",
        "IRS Audit", "Business Scout", "Yakuza Loan", "Protection Racket",
        "Mysterious Fire", "Government Connections",
    }


@pytest.mark.rules("FR-DATA-1")
def test_every_card_has_a_text_and_sane_numbers():
    for c in C.CARDS:
        assert c.text.startswith("asset, cost" if c.asset else "action: "), c.name
        assert c.copies >= 1 and c.cost >= 0 and c.tax >= 0
        if not c.asset:
            assert c.cost == 0 and c.tax == 0, c.name
    for b in C.BUSINESSES:
        assert b.text.startswith(f"launch ${b.cost}, {b.shape} sign"), b.name


# The README ----------------------------------------------------------------------------------------


def test_readme_card_tables_match_the_data():
    readme = README.read_text(encoding="utf-8")
    assert "## Cards" in readme
    cards = readme[readme.index("## Cards") : readme.index("## Hidden information")]
    for table in card_tables():
        assert table in cards, "README card table out of date; print it with tests/filthy_rich/test_cards.py:\n" + table


if __name__ == "__main__":  # print the tables for the README
    print("\n\n".join(card_tables()))
