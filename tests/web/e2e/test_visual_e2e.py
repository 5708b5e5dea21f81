"""The table as people see it, kept as pictures (issue 40): Chromium screenshots of a table at
a phone's size (390×844) and a desktop's (1280×800), in light and dark, in English (2
players), Tamil (4) and Burmese (8), compared with the pictures kept in
``tests/web/e2e/visual/`` within a tolerance (fonts and anti-aliasing may move a few pixels).

The pictures were read by eye when they were made. After a change to the page's look, or to
the seeded deals, look at the new ones and keep them:

    ONO99_UPDATE_VISUALS=1 python -m pytest -o addopts="" -m slow tests/web/e2e/test_visual_e2e.py
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image
from tests.web.server_helpers import Server, seat_in, started

pytestmark = pytest.mark.slow

KEPT = Path(__file__).parent / "visual"
#: a pixel differs when a channel moves by more than this; a picture, when more than
#: TOLERANCE of its pixels differ
CHANNEL = 24
TOLERANCE = 0.01
SIZES = {"phone": (390, 844), "desktop": (1280, 800)}
#: (language, players): each language, each player count
TABLES = [("en", 2), ("ta", 4), ("my", 8)]


def _difference(a: bytes, b: bytes) -> float:
    """The share of pixels that differ between two PNGs (1.0 when their sizes differ)."""
    x = np.asarray(Image.open(io.BytesIO(a)).convert("RGB"), dtype=np.int16)
    y = np.asarray(Image.open(io.BytesIO(b)).convert("RGB"), dtype=np.int16)
    if x.shape != y.shape:
        return 1.0
    return float((np.abs(x - y).max(axis=2) > CHANNEL).mean())


def _table(server: Server, players: int) -> dict[str, Any]:
    rules = "classic1980" if players > 6 else "mattel2022"
    return started(server, rules=rules, players=players, bots="easy", seed=40 + players)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize(("lang", "players"), TABLES)
def test_the_table_looks_as_kept(
    server: Server, chromium: Any, artifacts: Path, lang: str, players: int, size: str, scheme: str
) -> None:
    created = _table(server, players)
    width, height = SIZES[size]
    ctx = chromium.new_context(viewport={"width": width, "height": height}, color_scheme=scheme,
                               reduced_motion="reduce", device_scale_factor=1)  # fmt: skip
    seat_in(ctx, created)
    page = ctx.new_page()
    page.goto(f"{server.url}/t/{created['code']}?lang={lang}")
    # the seeded bots play until it is this seat's turn: the same position every time
    page.wait_for_function(
        "() => { const s = JSON.parse(document.querySelector('#main').dataset.state || 'null');"
        " return s && s.to_move === s.seat && s.legal.length > 0; }"
    )
    page.wait_for_selector('#hand button.card[aria-disabled="false"]')
    page.evaluate("() => document.fonts.ready")
    shot = page.screenshot(animations="disabled", caret="hide")
    ctx.close()
    name = f"table-{lang}-{players}-{size}-{scheme}.png"
    (artifacts / name).write_bytes(shot)
    kept = KEPT / name
    if os.environ.get("ONO99_UPDATE_VISUALS"):
        KEPT.mkdir(exist_ok=True)
        kept.write_bytes(shot)
        return
    assert kept.is_file(), f"no kept picture {kept}: make it with ONO99_UPDATE_VISUALS=1"
    share = _difference(kept.read_bytes(), shot)
    assert share <= TOLERANCE, (
        f"{name}: {share:.1%} of the pixels differ from the kept picture "
        f"(the new one is in {artifacts / name})"
    )
