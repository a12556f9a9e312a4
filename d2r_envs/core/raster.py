"""SVG text to pixels, for `render_mode="rgb_array"` and PNG pictures: an optional extra.

resvg (the `resvg-py` wheel, self-contained) draws the SVG into a PNG with the system's fonts;
Pillow reads the PNG back as an array. Both come with `pip install 'd2r_envs[render]'`; the
environments' own dependencies stay numpy, gymnasium and pettingzoo, so `require()` says what to
install before anything else runs.
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np

INSTALL = "pip install 'd2r_envs[render]'"
_FONTS_CHECKED = False


def require() -> None:
    """Raise ImportError, naming the extra to install, unless the rasteriser can be imported."""
    try:
        import PIL.Image  # noqa: F401
        import resvg_py  # noqa: F401
    except ImportError as err:
        raise ImportError(f"drawing to pixels needs the render extra ({err.name} is missing): {INSTALL}") from err


def png(svg: str) -> bytes:
    """The SVG document drawn at its own size, as PNG bytes (opaque where the SVG paints its background)."""
    require()
    import resvg_py

    _check_fonts(resvg_py)
    return bytes(resvg_py.svg_to_bytes(svg_string=svg))


def rgb(svg: str) -> np.ndarray:
    """The SVG document drawn at its own size: an (height, width, 3) uint8 array."""
    from PIL import Image

    with Image.open(io.BytesIO(png(svg))) as image:
        return np.asarray(image.convert("RGB"), dtype=np.uint8)


def _check_fonts(resvg_py: Any) -> None:
    """Once: refuse to draw pictures whose every word would vanish because no font is installed."""
    global _FONTS_CHECKED
    if _FONTS_CHECKED:
        return
    from PIL import Image

    probe = ('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="24">'
             '<text x="2" y="18" font-size="18" font-family="DejaVu Sans, Verdana, sans-serif">Mw</text></svg>')
    with Image.open(io.BytesIO(bytes(resvg_py.svg_to_bytes(svg_string=probe)))) as image:
        inked = image.convert("RGBA").getextrema()[3][1] > 0
    if not inked:
        raise RuntimeError("resvg found no font to draw text with: install one (Debian: apt-get install fonts-dejavu-core)")
    _FONTS_CHECKED = True
