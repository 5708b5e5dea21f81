"""Modal screens: rules help, quit and new-game confirmations, round and game summaries.

The new-game settings screen is in :mod:`ono99.tui.setup`.
"""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ono99.i18n import _
from ono99.texts import final_standings, standing_text
from ono99.view import PlayerView

__all__ = ["HelpScreen", "ConfirmQuit", "ConfirmNewGame", "RoundSummary", "GameOver",
           "TooSmall", "MIN_SIZE", "standings_table", "log_keys"]  # fmt: skip

#: the smallest terminal the table is laid out for (columns, rows); below it, TooSmall
MIN_SIZE = (60, 20)


def log_keys(action: str) -> list[BindingType]:
    """PgUp/PgDn: scroll the game's announcements (``OnoApp.action_log``), as ``action``
    names it: ``log`` on the game's own screen, ``app.log`` from a screen above it."""
    return [
        Binding("pageup", f"{action}(-1)", show=False),
        Binding("pagedown", f"{action}(1)", show=False),
    ]


def standings_table(view: PlayerView, gained: list[int] | None = None) -> Table:
    """Every player's tokens or points (with this round's points) and whether out; at the
    end of the game, by place: the winner first (see :func:`final_standings`)."""
    table = Table.grid(padding=(0, 2))
    if view.is_over:
        table.add_column(justify="right")
        table.add_column()
        table.add_column()
        for place, seat, standing in final_standings(view):
            style = "bold" if place == 1 else ("" if view.alive[seat] else "dim")
            table.add_row(
                Text(_("{place}.").format(place=place), style=style),
                Text(view.names[seat], style=style),
                Text(standing, style=style),
            )
        return table
    for _column in range(3 if gained else 2):
        table.add_column()
    for seat, name in enumerate(view.names):
        style = "bold" if view.alive[seat] else "dim"
        cells = [Text(name, style=style)]
        if gained:
            cells.append(Text(_("+{points}").format(points=gained[seat]), style=style))
        cells.append(Text(standing_text(view, seat), style=style))
        table.add_row(*cells)
    return table


class HelpScreen(ModalScreen[None]):
    """The rules summary and the keys."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,question_mark,q,Q,space", "close", show=False),
    ]

    def __init__(self, lines: list[str], keys: str) -> None:
        super().__init__()
        self.lines = lines
        self.keys = keys

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="help"):
            with VerticalScroll():
                yield Static(Text(self.lines[0], style="bold"), classes="title")
                for line in self.lines[1:]:
                    yield Static(line)
                yield Static(Text(self.keys, style="italic"), classes="keys")
            yield Static(_("Press Enter or Esc to go back to the game."), classes="close")

    def action_close(self) -> None:
        self.dismiss(None)


class ConfirmQuit(ModalScreen[bool]):
    """Quit this game? Y / N."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,Y", "answer(True)", show=False),
        Binding("n,N,escape", "answer(False)", show=False),
    ]

    def question(self) -> tuple[str, str]:
        return _("Quit this game?"), _("Y: quit · N or Esc: keep playing")

    def compose(self) -> ComposeResult:
        question, keys = self.question()
        with Vertical(id="dialog", classes="confirm"):
            yield Static(Text(question, style="bold"))
            yield Static(keys)

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)


class ConfirmNewGame(ConfirmQuit):
    """Abandon this game for a new one? Y / N (the same keys as quitting)."""

    def question(self) -> tuple[str, str]:
        return (
            _("Abandon this game and start a new one?"),
            _("Y: choose the new game's settings · N or Esc: keep playing"),
        )


class RoundSummary(ModalScreen[None]):
    """The end of a round: what happened and the standings."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,space,escape", "close", show=False)]

    def __init__(
        self, title: str, lines: list[str], view: PlayerView, gained: list[int] | None = None
    ) -> None:
        super().__init__()
        self.title_text = title
        self.lines = lines
        self.view = view
        self.gained = gained

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="summary"):
            yield Static(Text(self.title_text, style="bold"), classes="title")
            for line in self.lines:
                yield Static(line)
            yield Static(standings_table(self.view, self.gained), classes="standings")
            yield Static(_("Press Enter for the next round."), classes="close")

    def action_close(self) -> None:
        self.dismiss(None)


class GameOver(ModalScreen[str]):
    """The result; P plays again ("again"), S chooses other settings ("settings"),
    R reviews the game ("review", :mod:`ono99.tui.review`), Q quits ("quit"). Enter, Space and Esc do nothing here but point at those keys: a
    stray key from the last move must not throw the results away."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("p,P", "answer('again')", show=False),
        Binding("s,S,n,N", "answer('settings')", show=False),
        Binding("q,Q", "answer('quit')", show=False),
        Binding("r,R", "answer('review')", show=False),
        Binding("enter,space,escape", "stray", show=False),
        # the announcements stay in sight below the results (app.tcss): scroll them
        *log_keys("app.log"),
    ]

    def __init__(self, result: str, view: PlayerView, note: str | None) -> None:
        super().__init__()
        self.result = result
        self.view = view
        self.note = note

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="gameover"):
            yield Static(Text(_("Game over"), style="bold"), classes="title")
            yield Static(Text(self.result, style="bold green"), classes="result")
            yield Static(standings_table(self.view), classes="standings")
            if self.note:
                yield Static(self.note, classes="note")
            yield Static(
                _("P: play again · S: other settings · Q: quit"), classes="close", id="over-keys"
            )
            yield Static(
                _("R: review this game: the moves that cost you most"),
                classes="close",
                id="review-key",
            )

    def action_stray(self) -> None:
        self.query_one("#over-keys", Static).set_class(True, "flash")
        self.app.bell()

    def action_answer(self, choice: str) -> None:
        self.dismiss(choice)


class TooSmall(ModalScreen[None]):
    """Instead of a broken layout below :data:`MIN_SIZE`: what size the game needs. The
    game waits under it (OnoApp.check_size) and goes on once the terminal is larger;
    Ctrl+Q still quits."""

    def compose(self) -> ComposeResult:
        yield Static(id="too-small")

    def on_mount(self) -> None:
        self.show_size()

    def on_resize(self) -> None:
        self.show_size()
        self.check()

    def on_screen_resume(self) -> None:
        self.check()  # the terminal may have grown while a dialog was on top

    def check(self) -> None:
        check = getattr(self.app, "check_size", None)
        if callable(check):
            self.call_after_refresh(check)

    def show_size(self) -> None:
        width, height = self.app.size
        self.query_one("#too-small", Static).update(
            _(
                "The terminal is too small for the game: make it at least {min_width}×"
                "{min_height} (it is {width}×{height}). Ctrl+Q quits."
            ).format(min_width=MIN_SIZE[0], min_height=MIN_SIZE[1], width=width, height=height)
        )
