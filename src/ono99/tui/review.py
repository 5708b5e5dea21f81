""" "Review this game" (R at a game's end): the decisions that cost you most.

The finished game's record is reviewed for your seat (:func:`ono99.bots.review.review_game`,
from your own views only) in a Textual worker thread, with its progress on screen; then the
few moves that lost the most win chance, each with what was better, and how much of the
result the deal had already decided (docs/review.md).
"""

from __future__ import annotations

import secrets
from typing import Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import ProgressBar, Static
from textual.worker import get_current_worker

from ono99.bots.review import Decision, Review, review_game
from ono99.i18n import _, ngettext
from ono99.records import parse_record
from ono99.rules import Rules
from ono99.texts import move_name
from ono99.tui.session import HUMAN

__all__ = ["ReviewScreen", "TOP", "review_lines"]

#: how many of the costliest decisions are shown
TOP = 3


class _Closed(Exception):
    """The screen was closed while the review was running: stop it."""


def _pct(x: float) -> str:
    return f"{100 * x:.0f}"


def review_lines(review: Review, rules: Rules, top: int = TOP) -> list[Text]:
    """The review of the human's seat in words: the summary, the deal's share, then the
    ``top`` decisions that lost the most win chance (those that lost any), costliest first,
    each with the better card."""
    seat = next(s for s in review.seats if s.seat == HUMAN)
    lines = [
        Text(
            ngettext(
                "You had a choice {count} time; you lost {loss} points of win chance a "
                "decision on average, with {mistakes} mistakes.",
                "You had a choice {count} times; you lost {loss} points of win chance a "
                "decision on average, with {mistakes} mistakes.",
                seat.decisions,
            ).format(
                count=seat.decisions, loss=f"{100 * seat.mean_loss:.1f}", mistakes=seat.mistakes
            )
        ),
        Text(
            _("The deal gave you {percent} % to win before anyone chose a card.").format(
                percent=_pct(seat.start.win)
            )
        ),
    ]
    mine = [d for d in review.decisions if d.seat == HUMAN and d.loss > 0]
    worst = sorted(mine, key=lambda d: (-d.loss, d.move))[:top]
    if not worst:
        lines.append(Text(_("Every card you chose was as good as the best one."), style="green"))
        return lines
    lines.append(Text(_("The moves that cost you most:"), style="bold"))
    lines.extend(_decision_line(d, rules) for d in worst)
    return lines


def _decision_line(d: Decision, rules: Rules) -> Text:
    played = d.values.option(d.played)
    best = d.values.best
    line = _(
        "Move {move}: you played {played} ({played_win} % to win); {best} was better "
        "({best_win} %): {loss} points of win chance lost."
    ).format(
        move=d.move + 1,
        played=move_name(d.played, rules),
        played_win=_pct(played.win),
        best=move_name(best.action, rules),
        best_win=_pct(best.win),
        loss=f"{100 * d.loss:.1f}",
    )
    if d.mistake:
        return Text.assemble(("✗ ", "bold red"), _("A mistake.") + " " + line)
    return Text(line)


class ReviewScreen(ModalScreen[None]):
    """The review of a finished game for the human's seat; Esc or Enter goes back to the
    results (a review still running is stopped)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,space,r,R,q,Q", "close", show=False),
    ]

    def __init__(self, record: dict[str, Any], rules: Rules, samples: int) -> None:
        super().__init__()
        self.record = record
        self.rules = rules
        self.samples = samples
        self.review: Review | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="review"):
            yield Static(Text(_("Review of this game"), style="bold"), classes="title")
            with VerticalScroll(id="review-body"):
                yield Static(
                    _(
                        "Reviewing your decisions: each card you could play, valued from what "
                        "you could see…"
                    ),
                    id="review-status",
                )
                yield ProgressBar(id="review-progress", show_eta=False)
            yield Static(
                _(
                    "The values are chances to win if everyone plays like the heuristic bot "
                    "from then on (ono99 review tells every decision)."
                ),
                classes="note",
            )
            yield Static(_("Press Enter or Esc to go back to the results."), classes="close")

    def on_mount(self) -> None:
        self.run_review()

    @work(thread=True, exclusive=True, group="review")
    def run_review(self) -> None:
        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            if worker.is_cancelled:
                raise _Closed
            self.app.call_from_thread(self.show_progress, done, total)

        try:
            review = review_game(
                parse_record(self.record),
                seat=HUMAN,
                seed=secrets.randbits(64),  # not the player's to choose
                samples=self.samples,
                progress=progress,
            )
        except _Closed:
            return
        if not worker.is_cancelled:
            self.app.call_from_thread(self.call_next, self.show_review, review)

    def show_progress(self, done: int, total: int) -> None:
        self.query_one("#review-progress", ProgressBar).update(total=total, progress=done)

    async def show_review(self, review: Review) -> None:
        body = self.query_one("#review-body", VerticalScroll)
        await body.remove_children()
        await body.mount_all(
            [Static(line, classes="review-line") for line in review_lines(review, self.rules)]
        )
        self.review = review  # (set once it is on screen)

    def action_close(self) -> None:
        self.workers.cancel_group(self, "review")
        self.dismiss(None)
