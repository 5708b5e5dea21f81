"""Accessibility, checked by an engine: axe-core (npm, locked in package-lock.json) run in
Chromium on every kind of page a person sees — the home page, a table as a player and as a
spectator (phone and desktop), the replay viewer and the companion — finds no serious or
critical violation (issue 40's floor)."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from tests.web.server_helpers import Server, seat_in, started

from ono99 import Game, to_record

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[3]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def _axe_source() -> str:
    if not AXE.is_file():
        reason = "axe-core is not installed: run `npm ci` at the repository root"
        if os.environ.get("CI"):
            pytest.fail(f"accessibility tests cannot run in CI: {reason}")
        pytest.skip(reason)
    return AXE.read_text(encoding="utf-8")


def _serious(page: Any) -> list[str]:
    """The serious and critical violations axe-core finds on the page as it is now."""
    page.evaluate(_axe_source())  # evaluated by the browser's devtools: the page's CSP holds
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — "
        + "; ".join(n["target"][0] for n in v["nodes"][:3])
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def _page(chromium: Any, viewport: dict[str, int], url: str, scheme: str = "dark") -> Any:
    ctx = chromium.new_context(viewport=viewport, color_scheme=scheme)
    page = ctx.new_page()
    page.goto(url)
    return page


def _table(server: Server, players: int = 4) -> dict[str, Any]:
    return started(server, rules="classic1980", players=players, bots="easy", seed=11)


@pytest.mark.parametrize("scheme", ["dark", "light"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_home_page_and_a_table_have_no_serious_violation(
    server: Server, chromium: Any, viewport: dict[str, int], scheme: str
) -> None:
    page = _page(chromium, viewport, server.url + "/", scheme)
    page.wait_for_selector("#lobby:not([hidden])")
    assert _serious(page) == []
    created = _table(server, 8 if viewport is PHONE else 4)
    seat_in(page.context, created)
    page.goto(f"{server.url}/t/{created['code']}?lang=ta")
    page.wait_for_selector("#hand .card")
    assert _serious(page) == []
    watcher = _page(chromium, viewport, f"{server.url}/t/{created['code']}?lang=my", scheme)
    watcher.wait_for_selector("#table:not([hidden])")
    watcher.wait_for_selector("#watching:not([hidden])")
    assert _serious(watcher) == []
    page.context.close()
    watcher.context.close()


def test_the_replay_viewer_has_no_serious_violation(
    server: Server, chromium: Any, tmp_path: Path
) -> None:
    rng = random.Random(5)
    game = Game("mattel2022", ["Ana", "Bo", "Cy"], seed=5)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(to_record(game)))
    page = _page(chromium, PHONE, server.url + "/?lang=kn")
    page.wait_for_selector("#lobby:not([hidden])")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#replay:not([hidden])")
    page.click("#replay-forward")
    assert _serious(page) == []
    page.context.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_companion_has_no_serious_violation(
    server: Server, chromium: Any, viewport: dict[str, int]
) -> None:
    page = _page(
        chromium, viewport, server.url + "/companion?rules=mattel2022&players=Ana,Bo,Cy&first=0"
    )
    page.wait_for_function(
        "() => { const s = document.querySelector('main').dataset.state;"
        " return s && JSON.parse(s).total !== null && JSON.parse(s).total !== undefined; }"
    )
    assert _serious(page) == []
    page.click('[data-card="7"]')
    page.wait_for_function(
        "() => JSON.parse(document.querySelector('main').dataset.state).total === 7"
    )
    assert _serious(page) == []
    page.context.close()
