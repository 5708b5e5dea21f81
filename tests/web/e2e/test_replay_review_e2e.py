"""The replay viewer's review (issue 36): a finished game's record, reviewed by the server
(POST /api/review, off the event loop), drawn as each seat's chance to win over the game
with its mistakes marked; a mistake's button shows its move."""

from __future__ import annotations

import json
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.web.server_helpers import Server

from ono99 import Game, to_record
from ono99.bots import make_bot

pytestmark = pytest.mark.slow


def _random_vs_heuristic(seed: int) -> dict[str, Any]:
    """A 2-player game of `random` (seat 0) against `heuristic` (seat 1)."""
    game = Game("mattel2022", ["Rand", "Heur"], seed=seed)
    rng = random.Random(seed)
    heuristic = make_bot("heuristic")
    while not game.is_over:
        seat = game.to_move
        legal = game.legal_actions()
        action = rng.choice(legal) if seat == 0 else heuristic.act(game.view(seat))
        game.apply(action)
    return to_record(game)


def test_the_replay_draws_the_review_and_jumps_to_a_mistake(
    server: Server, chromium: Any, tmp_path: Path
) -> None:
    record = _random_vs_heuristic(3)
    expected = httpx.post(server.url + "/api/review", json=record, timeout=300).json()
    assert {"decisions", "seats"} <= expected.keys()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    ctx = chromium.new_context(viewport={"width": 1100, "height": 900})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/?lang=ta")
    page.wait_for_selector("#lobby:not([hidden])")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#replay:not([hidden])")
    page.click("#replay-review")
    page.wait_for_selector("#review:not([hidden]) .review-chart", timeout=300_000)
    # one line a seat, a dot a mistake: the server's values, drawn
    assert page.locator("#review .seat-line").count() == 2
    mistakes = [d for d in expected["decisions"] if d["mistake"]]
    assert page.locator("#review .mistake").count() == len(mistakes)
    assert (
        page.locator("#review-caption").text_content()
        != "Each player's chance to win, move by move"
    )
    if mistakes:
        page.locator("#review .review-mistakes button").first.click()
        shown = json.loads(page.get_attribute("#main", "data-replay") or "{}")
        assert shown["step"] == mistakes[0]["move"]
        assert page.locator("#review-move").text_content()
    assert errors == []
    ctx.close()


def test_bad_records_are_4xx_and_a_second_review_meanwhile_is_told_the_server_is_busy(
    server: Server,
) -> None:
    r = httpx.post(server.url + "/api/review", content=b"{not json", timeout=30)
    assert r.status_code == 400 and r.json()["move"] is None
    bad = {"rules": "mattel2022", "players": 2, "seed": 1, "moves": ["nonsense"]}
    r = httpx.post(server.url + "/api/review?lang=uz", json=bad, timeout=30)
    assert r.status_code == 400 and r.json()["move"] == 0
    # two reviews at once: one runs (seconds), the other is refused at once, never queued
    record = _random_vs_heuristic(5)
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(
            lambda lang: httpx.post(f"{server.url}/api/review?lang={lang}", json=record, timeout=600),
            ["ta", "ta"],
        ))  # fmt: skip
    assert sorted(r.status_code for r in answers) == [200, 503]
    busy = next(r for r in answers if r.status_code == 503)
    assert busy.json()["error"] != "the server is reviewing another game: try again in a minute"
