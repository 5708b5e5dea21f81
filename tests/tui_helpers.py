"""Helpers for the terminal game's tests: what a widget shows, a game set up by a test."""

from __future__ import annotations

from rich.console import Console
from textual.widgets import Static

from ono99.game import Game
from ono99.tui.app import OnoApp
from ono99.tui.session import Session


def on_screen(app: OnoApp, selector: str) -> str:
    """The text of a widget of the screen on top, as drawn."""
    widget = app.screen.query_one(selector, Static)
    console = Console(width=max(widget.content_size.width, 20), color_system=None)
    lines = console.render_lines(widget.content, console.options, pad=False)
    return "\n".join("".join(seg.text for seg in line) for line in lines)


def position_app(app: OnoApp, game: Game) -> Session:
    """Seat the app at a position the test set up (the human at seat 0)."""
    session = Session(game=game, bots="random")
    app.session = session
    return session


def draw_penalty_game() -> Game:
    """classic1980 with the draw penalty; you start holding a Double Play."""
    deal = {"hands": [["P2", "2", "3", "4"], ["5", "6", "7", "8"], ["2", "3", "4", "5"]],
            "draw": ["9", "9", "9"]}  # fmt: skip
    return Game("classic1980", ["You", "Ana", "Bo"], options={"draw_penalty": True},
                deals=[deal], seed=1)  # fmt: skip
