"""Issue 26, the terminal game's end and its pace: a bot move is never lost, the final
moves stay in sight, the footer lists the keys that work, the record's place is said on
quitting, "play again" passes the deal on, a terminal too small says so."""

from __future__ import annotations

import fcntl
import json
import os
import random
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import RichLog, Static

from ono99.game import Game
from ono99.i18n import set_language
from ono99.texts import final_order
from ono99.tui.app import OnoApp
from ono99.tui.screens import GameOver, TooSmall
from ono99.tui.session import NewGame
from test_tui_app import SIZE, layout_problems, make_app, play_to_the_end
from tui_helpers import on_screen


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")


async def bots_move_within(app: OnoApp, pilot: object, seconds: float) -> bool:
    """Whether the bots have moved on to the human's turn (or the end) within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        await pilot.pause(0.02)  # type: ignore[attr-defined]
        if app.session.is_over or app.session.waiting_for() == "you":
            return True
    return False


@pytest.mark.parametrize("pace", [0.0, 0.0003])
async def test_a_pace_of_zero_never_loses_a_bot_move(pace: float) -> None:
    """``--pace 0`` (and a tiny pace on a busy machine): the bots move, every time. Textual's
    own one-shot timer dropped a move whose moment had passed before it started (pace 0:
    always), and the game waited for ever."""
    app, _saved = make_app("mattel2022", {}, 4, seed=1, bot_delay=pace)
    async with app.run_test(size=SIZE) as pilot:
        for _turn in range(6):
            await pilot.pause()
            assert app.session.waiting_for() == "you"
            legal = [i for i, a in enumerate(app.actions) if a in app.session.view().legal]
            await pilot.press(str(legal[0] + 1))
            assert await bots_move_within(app, pilot, 20), (app.timer, app.session.view())
            if app.session.is_over or isinstance(app.screen, GameOver):
                break


def visible_log_rows(app: OnoApp) -> int:
    """Rows of the announcements that no dialog covers."""
    log = app.screen_stack[0].query_one(RichLog)
    top = (
        app.screen.query_one("#dialog").region.bottom
        if app.screen is not app.screen_stack[0]
        else 0
    )
    region = log.content_region
    return max(0, region.bottom - max(region.y, top))


@pytest.mark.parametrize(("players", "size"), [(4, (80, 24)), (4, (60, 20))])
async def test_the_final_moves_stay_in_sight(players: int, size: tuple[int, int]) -> None:
    """At the end the results sit above the announcements, not on them: the last lines
    (the last card, who lost, who won) can be read, scrolled to the end."""
    app, _saved = make_app("mattel2022", {}, players, seed=3)
    async with app.run_test(size=size) as pilot:
        await play_to_the_end(app, pilot, seed=3)
        await pilot.pause()
        assert isinstance(app.screen, GameOver)
        log = app.screen_stack[0].query_one(RichLog)
        assert log.scroll_y == log.max_scroll_y  # at the end
        assert visible_log_rows(app) >= (8 if size == (80, 24) else 5), visible_log_rows(app)
        assert not app.screen_stack[0].query_one("#hand").display


async def test_page_keys_scroll_the_log_at_the_end_and_the_footer_says_only_those() -> None:
    """PgUp/PgDn work on the results screen; the footer lists them, and no key that does
    nothing there (cards, help, fast-forward, new game); P, S and Q are on the results."""
    app, _saved = make_app("mattel2022", {}, 4, seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await play_to_the_end(app, pilot, seed=3)
        await pilot.pause()
        log = app.screen_stack[0].query_one(RichLog)
        end = log.scroll_y
        assert end > 0
        await pilot.press("pageup")
        await pilot.pause()
        assert log.scroll_y < end and isinstance(app.screen, GameOver)
        await pilot.press("pagedown")
        await pilot.pause()
        assert log.scroll_y == end
        footer = str(app.screen_stack[0].query_one("#keys", Static).content)
        assert footer == "PgUp/PgDn: scroll the announcements"
        for gone in ("1–9", "?", "F:", "N:", "D:"):
            assert gone not in footer
        keys = str(app.screen.query_one("#over-keys", Static).content)
        assert "P: play again" in keys and "S: other settings" in keys and "Q: quit" in keys


async def test_play_again_passes_the_deal_to_the_left() -> None:
    """R-SET-3: the first game's dealer is the last seat, so you start; "play again"
    passes the deal one seat to the left, so the next player starts; the record keeps the
    dealer, and a seeded series goes on with the next seed."""
    settings = NewGame("mattel2022", 2, "random", seed=11)
    app = OnoApp(lambda k: settings.next_game(k).session() if k else settings.session(),
                 bot_delay=0.0, draw_window=0.002)  # fmt: skip
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await play_to_the_end(app, pilot, seed=0)
        first = app.session.record()
        await pilot.press("p")
        await pilot.pause()
        assert not app.session.is_over
        app.session.abandon()  # as quitting does: its record (and dealer) can be read
        second = app.session.record()
    starters = [
        Game(r["rules"], r["players"], seed=r["seed"], dealer=r["dealer"]).to_move
        for r in (first, second)
    ]
    assert [first["dealer"], second["dealer"]] == [1, 0]
    assert starters == [0, 1]
    assert [first["seed"], second["seed"]] == [11, 12]


@pytest.mark.parametrize("small", [(59, 20), (60, 19), (40, 10)])
async def test_a_terminal_too_small_gets_a_notice_and_the_game_waits(
    small: tuple[int, int],
) -> None:
    """Under 60x20 the table is not drawn broken: one notice says the size it needs, the
    bots wait; at 60x20 the table comes back and the game goes on."""
    app, _saved = make_app("mattel2022", {}, 4, seed=1)
    async with app.run_test(size=small) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmall)
        text = str(app.screen.query_one("#too-small", Static).content)
        assert "too small" in text and "60×20" in text and f"{small[0]}×{small[1]}" in text
        assert not layout_problems(app), layout_problems(app)
        await pilot.press("1")  # your card keys do nothing under the notice
        await pilot.pause(0.2)
        assert app.session.view().to_move == 0 and len(app.session.view().legal) > 0
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        await pilot.pause()
        assert not isinstance(app.screen, TooSmall)
        legal = [i for i, a in enumerate(app.actions) if a in app.session.view().legal]
        await pilot.press(str(legal[0] + 1))
        assert await bots_move_within(app, pilot, 20)
        await pilot.resize_terminal(*small)  # smaller again mid-game: the notice again
        await pilot.pause()
        assert isinstance(app.screen, TooSmall)


def _read_until(fd: int, want: bytes, seconds: float) -> bytes:
    """What the program wrote to its terminal, until ``want`` appears or time runs out."""
    out = b""
    deadline = time.monotonic() + seconds
    while want not in out and time.monotonic() < deadline:
        ready, _w, _x = select.select([fd], [], [], 0.2)
        if ready:
            try:
                out += os.read(fd, 65536)
            except OSError:  # the program has ended
                break
    return out


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_quitting_says_where_the_record_went(tmp_path: Path) -> None:
    """The full-screen game in a real (pseudo-)terminal: Q, Y quits, and once the screen is
    gone the game says where the record of the abandoned game was saved."""
    import pty

    record = tmp_path / "game.json"
    main, child = pty.openpty()
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "ono99", "play", "--record", str(record), "--pace", "slow"],
        stdin=child, stdout=child, stderr=child, env=env, close_fds=True,
    )  # fmt: skip
    os.close(child)
    try:
        assert b"Announcements" in _read_until(main, b"Announcements", 60)
        os.write(main, b"q")
        assert b"Quit this game?" in _read_until(main, b"Quit this game?", 30)
        os.write(main, b"y")
        out = _read_until(main, b"\n", 30)
        out += _read_until(main, b"game.json", 30)
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(main)
    text = out.decode("utf-8", "replace")
    assert f"Game record saved to {record}" in text, text[-2000:]
    assert json.loads(record.read_text())["moves"] is not None


async def test_stray_enter_on_the_game_over_screen_keeps_the_results() -> None:
    """Enter, Space or Esc (a key meant for the last move) leave the results on screen;
    only P plays again (in either case)."""
    app, _saved = make_app("mattel2022", {}, 2, seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await play_to_the_end(app, pilot, seed=3)
        first = app.session
        for key in ("enter", "space", "escape", "enter"):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, GameOver) and app.session is first
        assert "P: play again" in on_screen(app, "#over-keys")
        await pilot.press("P")
        await pilot.pause()
        assert app.session is not first and not isinstance(app.screen, GameOver)


def test_final_order_shared_win_and_points() -> None:
    g = Game("mattel2022", ["You", "Ana", "Bo"], seed=3)
    while not g.is_over:
        g.apply(g.legal_actions()[0] if g.pending_draw is None else g.legal_actions()[-1])
    view = g.view(0)
    order = final_order(view)
    assert order[0] == view.winner and sorted(order) == [0, 1, 2]
    assert order[1:] == list(reversed(view.out))


def test_the_winner_is_called_the_winner_even_when_out_too() -> None:
    """R-END-3 (elimination mode): every score passed the target in the same round, so
    every seat is out and the lowest score wins; the winner's standing is "winner", never
    "out of the game", and so in an elimination game's end (R-END-1)."""
    from ono99.texts import standing_text

    opts = {"scoring": "points", "target": 40, "points_mode": "elimination"}
    g = Game("classic1980", 3, options=opts, seed=0)
    rng = random.Random(0)
    while not g.is_over:
        acting = g.acting()
        seat = min(acting)
        g.apply(rng.choice(acting[seat]), seat)
    assert isinstance(g.winner, int) and g.out == [0, 1, 2]  # the case at hand: all out
    view = g.view(0)
    for seat in range(3):
        words = standing_text(view, seat)
        assert ("winner" in words) is (seat == g.winner), words
        assert ("out of the game" in words) is (seat != g.winner), words
    m = Game("mattel2022", 3, seed=3)
    while not m.is_over:
        m.apply(m.legal_actions()[0] if m.pending_draw is None else m.legal_actions()[-1])
    assert isinstance(m.winner, int) and standing_text(m.view(0), m.winner) == "winner"
