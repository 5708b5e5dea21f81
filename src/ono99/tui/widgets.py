"""The widgets of the table: players, the running total, the hand."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Digits, Static

from ono99.cards import DRAW, FOUR_99
from ono99.i18n import _, ngettext
from ono99.moves import total_after
from ono99.tui.texts import direction_text, move_name, score_text, turn_text
from ono99.view import PlayerView

__all__ = ["PlayersPanel", "TotalPanel", "HandBar", "CardView", "new_total"]


def new_total(view: PlayerView, action: int) -> int:
    """The running total after the viewer plays ``action`` (a legal card)."""
    return total_after(view.rules, view.total, action)


class PlayersPanel(Static):
    """Every player in seat order (the order of play when clockwise)."""

    def show(self, view: PlayerView) -> None:
        arrow = "↓" if view.direction == 1 else "↑"
        self.border_title = _("Players {arrow} {direction}").format(
            arrow=arrow, direction=direction_text(view.direction)
        )
        table = Table.grid(padding=(0, 2))
        table.add_column(width=3, no_wrap=True)
        for _column in range(3):
            table.add_column()
        for seat, name in enumerate(view.names):
            mark = "▶" if seat == view.to_move else ""
            if view.owes_two == seat:
                mark = "▶×2" if seat == view.to_move else "×2"
            if not view.alive[seat]:
                status = _("out of the game")
            elif not view.active[seat]:
                status = _("out of this round")
            else:
                status = ngettext("{count} card", "{count} cards", view.hand_sizes[seat]).format(
                    count=view.hand_sizes[seat]
                )
            style = "bold" if seat == view.to_move else ""
            if not view.active[seat]:
                style = "dim"
            table.add_row(
                Text(mark, style="bold yellow"),
                Text(name, style=style),
                Text(status, style=style),
                Text(score_text(view, seat), style=style),
            )
        self.update(table)


class TotalPanel(Vertical):
    """The running total, large, with the direction and whose turn it is."""

    def compose(self) -> ComposeResult:
        yield Static(id="total-label")
        yield Digits("0", id="total")
        yield Static(id="direction")
        yield Static(id="turn")

    def show(self, view: PlayerView) -> None:
        self.query_one("#total-label", Static).update(_("Total"))
        self.query_one("#total", Digits).update(str(view.total))
        arrow = "↻" if view.direction == 1 else "↺"
        self.query_one("#direction", Static).update(
            _("{arrow} {direction}").format(arrow=arrow, direction=direction_text(view.direction))
        )
        self.query_one("#turn", Static).update(Text(turn_text(view), style="bold"))
        danger = view.total >= 89 if view.rules.limit <= 99 else view.total >= 90
        self.set_class(danger, "danger")


class CardView(Static):
    """One card of the hand (or the draw / four-99 move), with its key."""

    def show(self, key: str, label: str, playable: bool, selected: bool, my_turn: bool) -> None:
        mark = "" if playable or not my_turn else " ✗"
        self.update(Text.assemble((key, "dim"), " ", (label, "bold"), (mark, "red")))
        self.set_class(playable, "playable")
        self.set_class(not playable, "unplayable")
        self.set_class(selected, "selected")


class HandBar(Horizontal):
    """The human's hand: the cards, then the moves that are not cards."""

    def items(self, view: PlayerView) -> list[int]:
        """The actions shown, in order: the cards in hand, then 99x4 and draw."""
        acts = list(view.hand)
        if FOUR_99 in view.legal:
            acts.append(FOUR_99)
        if view.pending_draw == view.seat:
            acts.append(DRAW)
        return acts

    async def show(self, view: PlayerView, selected: int) -> list[int]:
        acts = self.items(view)
        cards = list(self.query(CardView))
        if len(cards) != len(acts):
            await self.remove_children()
            cards = [CardView() for _action in acts]
            await self.mount_all(cards)
        for i, (card, action) in enumerate(zip(cards, acts, strict=True)):
            key = "D" if action == DRAW else str(i + 1)
            playable = action in view.legal or (action == DRAW and view.pending_draw == view.seat)
            card.show(key, move_name(action, view.rules), playable, i == selected, view.is_my_turn)
        return acts
