"""Pictures of a game's states, for people: SVG text, PNG bytes, pixel arrays and notebook pictures.

    import d2r_envs
    from d2r_envs import render

    game = d2r_envs.make_game("draco_and_co", 4)        # or env.unwrapped.game
    state = game.new_initial_state()
    ...
    render.svg(game, state)             # from above: everything, every hand
    render.svg(game, state, 2)          # what player_2 may see (its observation's information)
    render.png(game, state, 2)          # PNG bytes
    render.rgb(game, state)             # an (H, W, 3) uint8 array
    render.picture(game, state, 2)      # shows itself in a notebook; .save("table.png")

`svg(game, state, seat=None)` takes a rules engine (`core.game.Game`: the game's name is its
`spec.name`) and one of its states; the drawing comes from the game package's draw.py (through
its package record in the registry, `GamePackage.svg`), a standalone SVG document whose size is fixed by the game and its player count. `png`,
`rgb` and `Picture._repr_png_` draw it to pixels with the render extra, `pip install
'd2r_envs[render]'` (resvg and Pillow); without it they raise ImportError saying so (a notebook
then shows the SVG alone). The AEC env's `render_mode="rgb_array"` gives the same picture from above.

From the command line, a seeded mid-game picture (the README's and the documentation's come from it):

    python -m d2r_envs.render draco_and_co --seed 2026 --moves 40 --out docs/table.svg
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from d2r_envs import registry
from d2r_envs.core import raster
from d2r_envs.core.game import Game

__all__ = ["svg", "png", "rgb", "picture", "Picture", "seeded_state"]


def svg(game: Game, state: Any, seat: int | None = None) -> str:
    """The state's picture as an SVG document: from `seat`'s view, or from above when None."""
    return registry.of(game).svg(game, state, seat)


def png(game: Game, state: Any, seat: int | None = None) -> bytes:
    """The picture as PNG bytes (the render extra)."""
    return raster.png(svg(game, state, seat))


def rgb(game: Game, state: Any, seat: int | None = None) -> np.ndarray:
    """The picture as an (H, W, 3) uint8 array (the render extra)."""
    return raster.rgb(svg(game, state, seat))


@dataclass(frozen=True)
class Picture:
    """One drawn state: `.svg` (the document), `.png()`, `.save(path)` (.svg or .png); a notebook
    shows it (SVG, and PNG where the render extra is installed)."""

    svg: str

    def png(self) -> bytes:
        return raster.png(self.svg)

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        if path.suffix.lower() == ".png":
            path.write_bytes(self.png())
        elif path.suffix.lower() == ".svg":
            path.write_text(self.svg, encoding="utf-8")
        else:
            raise ValueError(f"{path}: save a picture as .svg or .png")
        return path

    def _repr_svg_(self) -> str:
        return self.svg

    def _repr_png_(self) -> bytes | None:
        try:
            return self.png()
        except ImportError:  # without the render extra a notebook shows the SVG alone
            return None


def picture(game: Game, state: Any, seat: int | None = None) -> Picture:
    """The state's picture from `seat`'s view (from above when None), to show or save."""
    return Picture(svg(game, state, seat))


def seeded_state(game: Game, seed: int = 0, moves: int = 40) -> Any:
    """The state after `moves` player decisions of random legal play (or the game's end, if sooner): every
    move and chance outcome drawn from one Generator seeded with `seed`, so the same arguments give the
    same state."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    made = 0
    while not game.is_terminal(state):
        if game.current_player(state) < 0:  # chance
            game.apply_action(state, game.sample_chance(state, rng))
            continue
        if made >= moves:
            break
        legal = game.legal_actions(state)
        game.apply_action(state, legal[int(rng.integers(len(legal)))])
        made += 1
    return state


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m d2r_envs.render",
                                     description="Draw a seeded mid-game state of a game as SVG (or PNG with the render extra).")
    parser.add_argument("game", choices=registry.names())
    parser.add_argument("--players", type=int, help="number of players (default: the game's default)")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the moves and chance (default 2026)")
    parser.add_argument("--moves", type=int, default=40, help="random legal moves before the picture (default 40)")
    parser.add_argument("--seat", type=int, help="draw what this seat may see (default: from above, everything)")
    parser.add_argument("--out", required=True, help="the picture file, .svg or .png")
    args = parser.parse_args(argv)
    game = registry.make_game(args.game, args.players)
    picture(game, seeded_state(game, args.seed, args.moves), args.seat).save(args.out)
    print(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
