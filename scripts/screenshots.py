#!/usr/bin/env python3
"""The README's screenshots of the web table, taken from a real ``ono99 serve`` in
Debian's headless Chromium (Playwright for Python).

    python scripts/screenshots.py            # writes docs/images/web-table-*.png

Needs the ``web`` and ``test`` extras and ``/usr/bin/chromium`` (``ONO99_CHROMIUM``).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "images"
CHROMIUM = os.environ.get("ONO99_CHROMIUM", "/usr/bin/chromium")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _state(page: Any) -> dict[str, Any]:
    raw = page.get_attribute("#main", "data-state")
    return json.loads(raw) if raw else {}


def _my_turn(page: Any) -> bool:
    st = _state(page)
    return bool(st.get("legal")) and st.get("winner") is None


def table_shot(url: str, browser: Any, lang: str, size: dict[str, int], moves: int) -> Path:
    """Create a 4-seat table, join it as Ana, start, play ``moves`` cards, screenshot."""
    r = httpx.post(
        url + "/api/tables",
        json={"rules": "mattel2022", "players": 4, "bots": "medium", "bot_delay": 0.05,
              "seed": 2026},
    )  # fmt: skip
    r.raise_for_status()
    code = r.json()["code"]
    page = browser.new_context(viewport=size).new_page()
    page.goto(f"{url}/?lang={lang}")
    page.wait_for_selector("#lobby:not([hidden])")
    page.fill("#join-code", code)
    page.fill("#join-name", "Ana")
    page.click("#join-button")
    page.wait_for_selector("#waiting:not([hidden])")
    page.click("#start-button")
    page.wait_for_selector("#table:not([hidden])")
    played = 0
    deadline = time.monotonic() + 60
    while played < moves and time.monotonic() < deadline:
        if _my_turn(page):
            cards = page.locator('#hand button.card[aria-disabled="false"]')
            if cards.count():
                cards.last.click()
                played += 1
        page.wait_for_timeout(400)
    while not _my_turn(page) and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    page.wait_for_timeout(300)
    path = OUT / f"web-table-{lang}-{size['width']}.png"
    page.screenshot(path=str(path))
    return path


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen(
            [sys.executable, "-m", "ono99", "serve", "--host", "127.0.0.1", "--port",
             str(port), "--db", f"sqlite:///{tmp}/shots.db"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(100):
                try:
                    if httpx.get(url + "/healthz").status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            with sync_playwright() as pw:
                browser = pw.chromium.launch(
                    executable_path=CHROMIUM, headless=True, args=["--no-sandbox"]
                )
                for lang, size in (
                    ("en", {"width": 1100, "height": 820}),
                    ("ta", {"width": 390, "height": 844}),
                ):
                    print(table_shot(url, browser, lang, size, moves=4))
                browser.close()
        finally:
            server.terminate()
            server.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
