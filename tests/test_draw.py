"""The pictures (each game's draw.py, d2r_envs/render.py, render_mode="rgb_array"), generic over every
registered game: well-formed SVG of one size per game and player count with every label on the canvas,
a seat's view that depends only on what the seat may see, the result at the end, and the pixel frames
a video recorder reads."""

from __future__ import annotations

import itertools
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import d2r_envs
from d2r_envs import registry, render
from d2r_envs.core import svg as S
from d2r_envs.core.events import result_headline
from d2r_envs.core.game import CHANCE, TERMINAL

NS = "{http://www.w3.org/2000/svg}"


def _size(game) -> tuple[int, int]:
    """The canvas the game's draw.py gives its player count."""
    return registry.of(game).size(game.spec.num_players)


def _cases() -> list[tuple[str, int, dict]]:
    out = []
    for name in d2r_envs.names():
        spec = d2r_envs.make_game(name).spec
        out += [(name, spec.min_players, {}), (name, spec.max_players, {})]
    return out + [("extravaganza", 4, {"level": "legendary"}),
                  ("extravaganza", 3, {"level": "legendary", "queens": "draft"}),  # the queens left to draft
                  ("drags_2_riches", 4, {"characters": True})]  # the Characters on offer


CASES = _cases()
IDS = [f"{name}-{n}p" + "".join(f"-{v}" for v in opts.values()) for name, n, opts in CASES]


def _states(game, seed: int, every: int = 7, games: int = 1):
    """States along random games, one decision in `every` and the last, terminal one of each game."""
    rng = np.random.default_rng(seed)
    for _ in range(games):
        s = game.new_initial_state()
        decisions = 0
        while True:
            player = game.current_player(s)
            if player == TERMINAL or decisions >= game.spec.max_game_length:
                yield s
                break
            if player == CHANCE:
                game.apply_action(s, game.sample_chance(s, rng))
                continue
            if decisions % every == 0:
                yield s
            legal = game.legal_actions(s)
            game.apply_action(s, legal[int(rng.integers(len(legal)))])
            decisions += 1


def _check_document(text: str, size: tuple[int, int]) -> None:
    """Well-formed SVG of the game's size, every label inside the canvas (by the builder's estimate)."""
    root = ET.fromstring(text)
    assert root.tag == NS + "svg"
    width, height = size
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == (str(width), str(height), f"0 0 {width} {height}")
    labels = 0
    for el in root.iter(NS + "text"):
        x, y, fs = float(el.get("x")), float(el.get("y")), float(el.get("font-size"))
        w = S.text_width(el.text or "", fs, el.get("font-weight") == "bold")
        left = {"start": x, "middle": x - w / 2, "end": x - w}[el.get("text-anchor", "start")]
        assert left >= -1 and left + w <= width + 1 and fs <= y <= height, f"label off the canvas: {el.text!r} at {x},{y}"
        labels += 1
    assert labels > 20


@pytest.mark.parametrize(("name", "n", "opts"), CASES, ids=IDS)
def test_every_picture_is_well_formed_svg_of_one_size(name: str, n: int, opts: dict) -> None:
    game = d2r_envs.make_game(name, n, **opts)
    size = _size(game)
    seen = 0
    for s in _states(game, seed=n, every=5):
        for seat in [None, *range(n)]:
            _check_document(render.svg(game, s, seat), size)
        seen += 1
    assert seen > 5 and game.is_terminal(s)


@pytest.mark.parametrize(("name", "n", "opts"), CASES, ids=IDS)
def test_a_seat_sees_only_what_it_may(name: str, n: int, opts: dict) -> None:
    """Resampling what a seat cannot see leaves its picture unchanged, to the byte; the picture from
    above, and the views of the seats whose hidden cards were dealt anew, do change."""
    game = d2r_envs.make_game(name, n, **opts)
    rng = np.random.default_rng(5)
    above_changed = owner_changed = checked = 0
    for s in itertools.islice(_states(game, seed=100 + n, every=17, games=8), 12):
        for seat in range(n):
            t = game.redeterminise(s, seat, rng)
            assert render.svg(game, t, seat) == render.svg(game, s, seat), f"player_{seat}'s picture shows hidden cards"
            above_changed += render.svg(game, t) != render.svg(game, s)
            other = (seat + 1) % n
            owner_changed += render.svg(game, t, other) != render.svg(game, s, other)
            checked += 1
    assert checked >= 24
    assert above_changed > checked // 4, "the picture from above does not show what was hidden"
    assert owner_changed > checked // 4, "a seat's picture does not show its own hidden cards"


@pytest.mark.parametrize(("name", "n", "opts"), CASES, ids=IDS)
def test_the_narrow_layout_fits_its_width_and_hides_what_the_wide_one_hides(name: str, n: int, opts: dict) -> None:
    """Within core.svg `narrow` (the browser table on a phone), a picture is drawn that wide, its height
    what it holds, every label on the canvas and none under the legible size; resampling what a seat
    cannot see leaves its narrow picture unchanged too."""
    game = d2r_envs.make_game(name, n, **opts)
    rng = np.random.default_rng(7)
    seen = 0
    for s in itertools.islice(_states(game, seed=n, every=9), 10):
        for seat in [None, *range(n)]:
            with S.legible(11), S.narrow(360):
                text = render.svg(game, s, seat)
                hidden = render.svg(game, game.redeterminise(s, seat, rng), seat) if seat is not None else text
            _check_document(text, (360, int(ET.fromstring(text).get("height"))))
            assert min(float(el.get("font-size")) for el in ET.fromstring(text).iter(NS + "text")) >= 11
            assert hidden == text, f"player_{seat}'s narrow picture shows hidden cards"
        seen += 1
    assert seen > 5


@pytest.mark.parametrize("name", d2r_envs.names())
def test_a_finished_game_draws_its_result(name: str) -> None:
    game = d2r_envs.make_game(name)
    s = list(_states(game, seed=3, every=10**9))[-1]
    assert game.is_terminal(s)
    returns = game.returns(s)
    winners = [p for p, r in enumerate(returns) if r == max(returns) and r > game.spec.min_return]
    headline = result_headline(game, s)
    assert headline.startswith("game over: ") and all(f"player_{p}" in headline for p in winners)
    for seat in [None, *range(game.spec.num_players)]:
        assert f">{S.escape(headline)}</text>" in render.svg(game, s, seat)


def test_a_seat_outside_the_game_is_refused() -> None:
    game = d2r_envs.make_game("draco_and_co", 3)
    s = game.new_initial_state()
    for bad in (3, -1, True, "0"):
        with pytest.raises(ValueError, match="not a seat"):
            render.svg(game, s, bad)
    assert render.svg(game, s, np.int64(2)) == render.svg(game, s, 2)


# Pixels (the render extra) -------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "n", "opts"), [c for c in CASES if not c[2]], ids=[i for c, i in zip(CASES, IDS) if not c[2]])
def test_rgb_array_frames_keep_one_size_and_follow_the_game(name: str, n: int, opts: dict) -> None:
    """render_mode="rgb_array": each frame an (H, W, 3) uint8 array of the game's fixed size, the picture
    from above, changing as the game moves on (what a video recorder needs)."""
    pytest.importorskip("resvg_py")
    env = d2r_envs.make(name, n, render_mode="rgb_array")
    assert "rgb_array" in env.metadata["render_modes"] and env.metadata["render_fps"] > 0
    env.reset(seed=0)
    width, height = _size(env.unwrapped.game)
    frames = [env.render()]
    for _ in range(4):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        frames.append(env.render())
    for frame in frames:
        assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8 and frame.shape == (height, width, 3)
    assert len({f.tobytes() for f in frames}) > 1, "the frames do not change as the game goes on"
    assert frames[-1].std() > 20, "a blank frame"
    picture = render.picture(env.unwrapped.game, env.unwrapped.state)
    assert np.array_equal(render.rgb(env.unwrapped.game, env.unwrapped.state), frames[-1])
    assert picture._repr_png_()[:8] == b"\x89PNG\r\n\x1a\n"


def test_text_is_drawn_in_pixels() -> None:
    """resvg finds a font: a label leaves ink where it stands, and nowhere else."""
    pytest.importorskip("resvg_py")
    from d2r_envs.core import raster

    c = S.Canvas(200, 40, background="#ffffff")
    c.text(10, 28, "Draco", size=24)
    pixels = raster.rgb(str(c))
    assert pixels[5:35, 10:90].min() < 100 and pixels[:, 120:].min() == 255


def test_without_the_render_extra_rgb_array_is_refused_before_anything_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "resvg_py", None)  # as if not installed: importing it raises ImportError
    with pytest.raises(ImportError, match=r"pip install 'd2r_envs\[render\]'"):
        d2r_envs.make("filthy_rich", render_mode="rgb_array")
    with pytest.raises(ImportError, match=r"pip install 'd2r_envs\[render\]'"):
        d2r_envs.raw_env("filthy_rich", render_mode="rgb_array")
    env = d2r_envs.make("filthy_rich")  # the other modes and the SVG need nothing more
    env.reset(seed=1)
    game, state = env.unwrapped.game, env.unwrapped.state
    assert env._repr_svg_() == render.svg(game, state)
    picture = render.picture(game, state, 0)
    assert picture._repr_svg_() == render.svg(game, state, 0) and picture._repr_png_() is None
    with pytest.raises(ImportError, match="render extra"):
        render.png(game, state)


def test_a_notebook_shows_the_env_and_a_picture(tmp_path) -> None:
    env = d2r_envs.make("rap_godz")
    assert env._repr_svg_() is None  # nothing to show before reset()
    env.reset(seed=2)
    game, state = env.unwrapped.game, env.unwrapped.state
    assert env._repr_svg_() == env.unwrapped._repr_svg_() == render.svg(game, state)
    picture = render.picture(game, state, 1)
    assert picture.save(tmp_path / "p.svg").read_text(encoding="utf-8") == render.svg(game, state, 1)
    with pytest.raises(ValueError, match=".svg or .png"):
        picture.save(tmp_path / "p.jpg")


def test_gymnasium_collects_the_learner_env_frames() -> None:
    """gymnasium's own RenderCollection (what its video recorder reads from) over the learner's env."""
    pytest.importorskip("resvg_py")
    from gymnasium.wrappers import RenderCollection

    from d2r_envs.single_agent import SingleAgentEnv

    env = RenderCollection(SingleAgentEnv("draco_and_co", 3, render_mode="rgb_array"))
    env.reset(seed=0)
    for _ in range(3):
        env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))
    frames = env.render()
    size = _size(d2r_envs.make_game("draco_and_co", 3))
    assert len(frames) == 4 and {f.shape for f in frames} == {(size[1], size[0], 3)}
