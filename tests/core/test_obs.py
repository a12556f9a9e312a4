"""The kit's observation builder: a Frame written piece by piece by name, seats rotated to the
observer and padded."""

from __future__ import annotations

import numpy as np
import pytest

from d2r_envs.core.obs import ObsLayout, Piece

LAYOUT = ObsLayout(
    Piece("seats", (4,)),
    Piece("money", (4,), 255),
    Piece("hands", (4, 3), 9),
    Piece("turn", (4,)),
    Piece("flag", (2,)),
)


def test_a_frame_writes_each_piece_by_name_rotated_to_the_observer_and_padded():
    f = LAYOUT.frame(LAYOUT.blank(), 1, 3)  # seat 1 of 3 (the 4th row is padding)
    f.seats("money", [10, 20, 30])
    f.seat_rows("hands", [b"\x01\x00\x00", b"\x00\x02\x00", b"\x00\x00\x03"])
    f.seat("turn", 0)
    f.one("flag", 1)
    v = LAYOUT.views(f.vector())
    assert v["money"].tolist() == [20, 30, 10, 0]
    assert v["hands"].tolist() == [[0, 2, 0], [0, 0, 3], [1, 0, 0], [0, 0, 0]]
    assert v["turn"].tolist() == [0, 0, 1, 0] and f.place(0) == 2
    assert v["flag"].tolist() == [0, 1] and v["seats"].tolist() == [0] * 4
    joined = LAYOUT.frame(LAYOUT.blank(), 1, 3)
    joined.seat_rows("hands", b"\x01\x00\x00" + b"\x00\x02\x00" + b"\x00\x00\x03", width=3)
    assert LAYOUT.views(joined.vector())["hands"].tolist() == v["hands"].tolist()


def test_a_layout_and_an_observer_that_writes_frames_pickle():
    import pickle

    import d2r_envs

    copy = pickle.loads(pickle.dumps(LAYOUT))
    assert copy.offsets == LAYOUT.offsets and copy.fingerprint() == LAYOUT.fingerprint()
    assert copy.frame(copy.blank(), 1, 2).me == 1
    game = d2r_envs.make_game("draco_and_co", 4)
    observer = game.make_observer()  # Draco & Co's encoder writes through Frames
    state = game.new_initial_state()
    game.resolve_chance(state, np.random.default_rng(0))
    again = pickle.loads(pickle.dumps(observer))
    assert np.array_equal(again.encode(state, 1), observer.encode(state, 1))


def test_a_frame_starts_from_its_template_and_refuses_what_a_byte_cannot_hold():
    template = LAYOUT.frame(LAYOUT.blank(), 0, 2)
    template.one("seats", 0)
    template.one("seats", 1)
    f = LAYOUT.frame(bytes(template), 0, 2)
    f.seat("turn", -1)  # nobody: nothing written
    assert LAYOUT.views(f.vector())["seats"].tolist() == [1, 1, 0, 0] and not any(f[LAYOUT.offsets["turn"]:])
    with pytest.raises(ValueError):
        f.seats("money", [256, 0])
    assert f.vector().dtype == np.float32 and f.vector().shape == (LAYOUT.size,)


def test_check_order_holds_an_encoder_that_joins_its_pieces_to_the_layout():
    LAYOUT.check_order("seats", "money", "hands", "turn", "flag")
    with pytest.raises(ValueError, match="not"):
        LAYOUT.check_order("seats", "money", "turn", "hands", "flag")  # out of order
    with pytest.raises(ValueError):
        LAYOUT.check_order("seats", "money", "hands", "turn")  # one left out
