"""Extravaganza component counts and the reconstructed data."""

from __future__ import annotations

import pytest

from d2r_envs.games.extravaganza import cards as C



@pytest.mark.rules("EX-COMP-1")
def test_component_counts():
    assert C.NUM_STONES == 50 and C.NUM_LIPS == 40 and C.NUM_TENS == 20 and C.NUM_QUEENS == 8
    assert C.NUM_CARDS == 150 and len(set(C.CARD_NAMES)) == 150 and C.NUM_CATEGORIES == 10
    assert all(sum(1 for k in range(150) if C.CARD_CATEGORY[k] == c) == 15 for c in range(10))
    assert C.NUM_LYRICS == 30 and C.NUM_DESIRES == 60 and C.NUM_REVEALS == 24
    assert len(C.QUEENS) == len(C.POWERS) == 8


@pytest.mark.rules("EX-DATA-COLOURS")
def test_colours():
    assert C.COLOURS == ("purple", "orange", "blue", "green", "yellow") and C.STONES_PER_COLOUR == 10


@pytest.mark.rules("EX-DATA-STAGE")
def test_stage_layouts_have_five_areas_of_five():
    for name in C.STAGES:
        areas = C.stage_areas(name)
        assert [areas.count(c) for c in range(5)] == [5] * 5
    C.STAGES["bad"] = ("PPPPP", "PPPPP", "BBBBB", "GGGGG", "YYYYY")
    try:
        with pytest.raises(ValueError):
            C.stage_areas("bad")
    finally:
        del C.STAGES["bad"]


@pytest.mark.rules("EX-DATA-CARDS")
def test_cards_moves_and_stars():
    for cat in range(10):
        for move in range(3):
            for colour in range(5):
                k = C.card_id(cat, move, colour)
                assert (C.card_category(k), C.card_move(k), C.card_colour(k)) == (cat, move, colour)
                assert C.CARD_STARS[k] == move + 1
    assert C.card_source(C.card_id(C.BOOTY, 0, 0)) == "rulebook" and C.card_source(C.card_id(C.TUCK, 0, 0)) == "reconstructed"


@pytest.mark.rules("EX-DATA-LYRICS")
def test_lyrics():
    for c in range(5):
        assert sorted(C.LYRIC_STARS[t] for t in range(30) if C.LYRIC_COLOUR[t] == c) == [1, 2, 3, 3, 4, 5]
    assert C.SONG_LENGTH == {2: 12, 3: 18, 4: 24}


@pytest.mark.rules("EX-DATA-DESIRES", "EX-DATA-REVEALS")
def test_desires_and_reveals():
    assert len(C.DESIRE_TYPES) == 6 and C.NUM_DESIRE_KINDS * C.DESIRE_COPIES == 60
    assert len(C.REVEAL_CONDITIONS) == 6 and len(C.REWARDS) == 4
    assert len({(C.REVEAL_CONDITION[r], C.REVEAL_REWARD[r]) for r in range(24)}) == 24


@pytest.mark.rules("EX-DATA-JUDGES", "EX-FINAL-5")
def test_judges():
    assert C.JUDGES[2] == "Francis Labelle" and C.JUDGE_ROLES[2] == "head"
    assert C.JUDGE_POINTS == (3, 4, 5, 4, 3)
