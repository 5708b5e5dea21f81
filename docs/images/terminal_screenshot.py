#!/usr/bin/env python3
"""Retake docs/images/terminal-game-en.png: the terminal game at 80×24 (Textual's own
screenshot, an SVG, rendered to PNG by Debian's headless Chromium through Playwright).

    python docs/images/terminal_screenshot.py     # needs the test extra and /usr/bin/chromium
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from ono99.tui.app import OnoApp
from ono99.tui.session import Session

OUT = Path(__file__).resolve().parent / "terminal-game-en.png"
CHROMIUM = os.environ.get("ONO99_CHROMIUM", "/usr/bin/chromium")


def _new(k: int) -> Session:
    return Session("mattel2022", 4, options={}, bots="medium", seed=3 + k)


async def _svg(folder: str) -> Path:
    app = OnoApp(_new, start=lambda s: s.session(), save=lambda s: "game.json",
                 bot_delay=0.001, draw_window=0.002)  # fmt: skip
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(3.0)
        for _ in range(3):  # three of your turns: play the first card
            await pilot.press("1")
            await pilot.pause(1.5)
        app.save_screenshot(path=folder, filename="tui.svg")
    return Path(folder) / "tui.svg"


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        svg = asyncio.run(_svg(folder))
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM)
            page = browser.new_page(viewport={"width": 1000, "height": 700})
            page.goto(svg.as_uri())
            page.locator("svg").first.screenshot(path=str(OUT))
            browser.close()
    print(OUT)


if __name__ == "__main__":
    main()
