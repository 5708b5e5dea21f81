"""How fast the companion follows a game in the browser (Pyodide), in Debian's Chromium.

    python benchmarks/companion_pyodide.py [GAMES]

Starts ``ono99 serve`` with Pyodide (``scripts/fetch_pyodide.py``'s folder), then measures:
the first visit until the page follows games itself (the service worker keeps Pyodide as it
installs), an offline reload until it does again (from that cache), and the time from a
tap to the new ``<main data-state>`` for every tap of GAMES (default 3) whole mattel2022
games, offline. Prints one JSON object (seconds and milliseconds).
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "web"))
from server_helpers import Server  # type: ignore[import-not-found]

from ono99.web.companion_site import default_pyodide_dir
from tracking_helpers import feed, real_game  # type: ignore[import-not-found]

ENGINE = "() => document.querySelector('main').dataset.engineReady === '1'"
#: click a card and time until data-state changes (in the page: no round trip to the test)
TIMED_TAP = """(sel) => { const m = document.querySelector('main'); const before = m.dataset.state;
    const t0 = performance.now(); document.querySelector(sel).click();
    if (m.dataset.state === before) return null; return performance.now() - t0; }"""


def main(games: int) -> dict[str, object]:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        srv = Server(f"sqlite:///{tmp}/b.db", Path(tmp) / "s.log", str(default_pyodide_dir()))
        srv.start()
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(
                    executable_path="/usr/bin/chromium", headless=True,
                    args=["--no-sandbox", "--disable-gpu"],
                )  # fmt: skip
                ctx = browser.new_context()
                page = ctx.new_page()
                t0 = time.perf_counter()
                page.goto(f"{srv.url}/companion")
                page.wait_for_function(ENGINE, timeout=300_000)
                first = time.perf_counter() - t0
                ctx.set_offline(True)
                t0 = time.perf_counter()
                page.reload()
                page.wait_for_function(ENGINE, timeout=300_000)
                again = time.perf_counter() - t0
                taps: list[float] = []
                for seed in range(games):
                    page.goto(f"{srv.url}/companion?rules=mattel2022&players=A,B,C&first=0")
                    page.wait_for_function(
                        "() => document.querySelector('main').dataset.engine === 'local'"
                    )

                    def one(code: str) -> None:
                        sel = (
                            '[data-action="bust"]'
                            if code == "bust"
                            else f'#pad [data-card="{code}"]'
                        )
                        ms = page.evaluate(TIMED_TAP, sel)
                        assert ms is not None, code
                        taps.append(float(ms))

                    for mv in real_game("mattel2022", 3, seed, None, 0):
                        feed(
                            mv,
                            one,
                            lambda: json.loads(page.get_attribute("main", "data-state") or "{}"),
                        )
                browser.close()
        finally:
            srv.stop()
    taps.sort()
    return {
        "first_visit_s": round(first, 2),
        "offline_reload_s": round(again, 2),
        "taps": len(taps),
        "tap_ms": {
            "p50": round(statistics.median(taps), 1),
            "p99": round(taps[int(0.99 * (len(taps) - 1))], 1),
            "max": round(taps[-1], 1),
        },
    }


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)))
