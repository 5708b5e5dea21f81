"""The widgets of the table: players, the running total, the hand."""

from __future__ import annotations

from collections.abc import Mapping

from rich.cells import cell_len
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Digits, Static

from ono99.cards import DRAW, FOUR_99, Card
from ono99.i18n import _, ngettext
from ono99.moves import total_after
from ono99.texts import direction_text, move_name, score_text, turn_text
from ono99.view import PlayerView

__all__ = [
    "ViewPanel",
    "PlayersPanel",
    "TotalPanel",
    "HandBar",
    "CardView",
    "new_total",
    "chance_text",
]


def new_total(view: PlayerView, action: int) -> int:
    """The running total after the viewer plays ``action`` (a legal card)."""
    return total_after(view.rules, view.total, action)


class ViewPanel:
    """A panel that draws the human's view and draws it again when its size changes, so
    its words fit the new width (mixed in before the Textual widget class)."""

    view: PlayerView | None = None

    def on_resize(self) -> None:
        if self.view is not None:
            self.show(self.view)

    def show(self, view: PlayerView) -> None:
        self.view = view
        self.draw(view)

    def draw(self, view: PlayerView) -> None:
        """Draw ``view`` at the panel's present size."""
        raise NotImplementedError


class PlayersPanel(ViewPanel, Static):
    """Every player in seat order (the order of play when clockwise), with their cards
    and tokens or points; ×2 marks who owes two cards. Where the words do not fit
    (narrow terminals, long words), a table of numbers under a header row."""

    def draw(self, view: PlayerView) -> None:
        arrow = "↓" if view.direction == 1 else "↑"
        title = _("Players {arrow} {direction}").format(
            arrow=arrow, direction=direction_text(view.direction)
        )
        if cell_len(title) + 4 > self.outer_size.width > 0:
            title = _("Players {arrow}").format(arrow=arrow)
        self.border_title = title
        wide = self.words_table(view)
        room = self.content_size.width
        if room <= 0 or natural_width(wide) <= room:
            self.update(wide)
        else:
            self.update(self.numbers_table(view))

    @staticmethod
    def mark(view: PlayerView, seat: int) -> Text:
        mark = "▶" if seat == view.to_move else ""
        if view.owes_two == seat:
            mark = "▶×2" if seat == view.to_move else "×2"
        return Text(mark, style="bold yellow")

    @staticmethod
    def style(view: PlayerView, seat: int) -> str:
        if not view.active[seat]:
            return "dim"
        return "bold" if seat == view.to_move else ""

    def words_table(self, view: PlayerView) -> Table:
        table = Table.grid(padding=(0, 2))
        table.add_column(width=3, no_wrap=True)
        for _column in range(3):
            table.add_column(no_wrap=True)
        for seat, name in enumerate(view.names):
            if not view.alive[seat]:
                status = _("out of the game")
            elif not view.active[seat]:
                status = _("out of this round")
            else:
                status = ngettext("{count} card", "{count} cards", view.hand_sizes[seat]).format(
                    count=view.hand_sizes[seat]
                )
            style = self.style(view, seat)
            table.add_row(
                self.mark(view, seat),
                Text(name, style=style),
                Text(status, style=style),
                Text(score_text(view, seat), style=style),
            )
        return table

    def numbers_table(self, view: PlayerView) -> Table:
        """Cards and tokens/points as numbers under a header; ✗ out of the game, – out
        of the round."""
        table = Table.grid(padding=(0, 1))
        table.add_column(width=3, no_wrap=True)
        table.add_column(no_wrap=True, overflow="ellipsis")
        table.add_column(justify="right", no_wrap=True)
        header = [Text(""), Text(""), Text(_("cards"), style="dim")]
        if view.tokens is not None:
            table.add_column(justify="right", no_wrap=True)
            header.append(Text(_("tokens"), style="dim"))
        if view.scores is not None:
            table.add_column(justify="right", no_wrap=True)
            header.append(Text(_("points"), style="dim"))
        table.add_row(*header)
        for seat, name in enumerate(view.names):
            style = self.style(view, seat)
            if not view.alive[seat]:
                cards = "✗"
            elif not view.active[seat]:
                cards = "–"
            else:
                cards = str(view.hand_sizes[seat])
            row = [self.mark(view, seat), Text(name, style=style), Text(cards, style=style)]
            if view.tokens is not None:
                row.append(Text(str(view.tokens[seat]), style=style))
            if view.scores is not None:
                row.append(Text(str(view.scores[seat]), style=style))
            table.add_row(*row)
        return table


def natural_width(renderable: Table) -> int:
    """The width ``renderable`` takes without wrapping."""
    console = Console(width=10_000, color_system=None, legacy_windows=False)
    return Measurement.get(console, console.options, renderable).maximum


class TotalPanel(ViewPanel, Vertical):
    """The running total, large, with the direction and whose turn it is; who owes two
    cards stays in sight while anyone does (R-P2-6)."""

    def compose(self) -> ComposeResult:
        yield Digits("0", id="total")
        yield Static(id="direction")
        yield Static(id="turn")
        yield Static(id="owes")

    def draw(self, view: PlayerView) -> None:
        self.border_title = _("Total")
        self.query_one("#total", Digits).update(str(view.total))
        arrow = "↻" if view.direction == 1 else "↺"
        direction = self.query_one("#direction", Static)
        words = _("{arrow} {direction}").format(
            arrow=arrow, direction=direction_text(view.direction)
        )
        # where the words do not fit (narrow screens), the arrow alone; the players'
        # title says the direction too
        room = direction.content_size.width
        direction.update(words if room <= 0 or cell_len(words) <= room else arrow)
        turn = turn_text(view)
        self.query_one("#turn", Static).update(Text(turn, style="bold"))
        owes = self.query_one("#owes", Static)
        says_two = view.owes_two is not None and view.owes_two == view.to_move
        if view.owes_two is not None and not (says_two and view.pending_draw != view.seat):
            name = view.names[view.owes_two]
            line = (
                _("You must play two cards")
                if view.owes_two == view.seat
                else _("{name} must play two cards").format(name=name)
            )
            owes.update(Text("×2 " + line, style="yellow"))
            owes.display = True
        else:
            owes.display = False
        danger = view.total >= 89 if view.rules.limit <= 99 else view.total >= 90
        self.set_class(danger, "danger")


#: each card's kind, the class that colours it in app.tcss: the web page's palette
#: (static/cards.css), so a card looks the same in the terminal and in the browser
CARD_KINDS: dict[int, str] = {
    **{int(c): "number" for c in Card if c <= Card.N10},
    int(Card.MINUS10): "minus",
    int(Card.REVERSE): "reverse",
    int(Card.PLAY2): "play2",
    int(Card.HOLD): "hold",
    int(Card.NINETY_NINE): "n99",
    FOUR_99: "n99",
    DRAW: "draw",
}


class CardView(Static):
    """One card of the hand (or the draw / four-99 move), with its key: a small box in the
    card's colour where the terminal has colour (a Textual app without colour draws it
    plain)."""

    def show(
        self,
        key: str,
        label: str,
        playable: bool,
        selected: bool,
        my_turn: bool,
        action: int,
        chance: float | None = None,
    ) -> None:
        """``chance``: the card's win chance (a hint, H), shown on the box's second line."""
        mark = "" if playable or not my_turn else " ✗"
        text = Text.assemble((f"[{key}]", ""), " ", (label, "bold"), (mark, ""))
        if chance is not None:  # the name on one line (cut where narrow), the chance below
            text.append("\n" + chance_text(chance))
            text.no_wrap = True
            text.overflow = "ellipsis"
        self.update(text)
        for kind in set(CARD_KINDS.values()):
            self.set_class(CARD_KINDS[action] == kind, f"kind-{kind}")
        self.set_class(playable, "playable")
        self.set_class(not playable, "unplayable")
        self.set_class(selected, "selected")


def chance_text(win: float) -> str:
    """A win chance as a whole percentage (short: it fits under the narrowest card)."""
    # Translators: a card's chance to win the game, under the card; keep it short
    return _("{percent} %").format(percent=f"{100 * win:.0f}")


class HandBar(Horizontal):
    """The human's hand: the cards, then the moves that are not cards."""

    def items(self, view: PlayerView) -> list[int]:
        """The actions shown, in order: the cards in hand, then 99x4 and draw (nothing
        once you are out)."""
        if not view.alive[view.seat] or not view.active[view.seat]:
            return []
        acts = list(view.hand)
        if FOUR_99 in view.legal:
            acts.append(FOUR_99)
        if view.pending_draw == view.seat:
            acts.append(DRAW)
        return acts

    async def show(
        self, view: PlayerView, selected: int, chances: Mapping[int, float] | None = None
    ) -> list[int]:
        """Show ``view``'s hand with ``selected`` marked and, from a hint, each move's
        win chance under it (``chances``: action -> win chance)."""
        out = not view.alive[view.seat] or not view.active[view.seat]
        self.set_class(out, "out")
        acts = [] if out else self.items(view)  # your hand is hidden once you are out
        cards = list(self.query(CardView))
        if len(cards) != len(acts):
            await self.remove_children()
            cards = [CardView() for _action in acts]
            await self.mount_all(cards)
        for i, (card, action) in enumerate(zip(cards, acts, strict=True)):
            key = "D" if action == DRAW else str(i + 1)
            playable = action in view.legal or (action == DRAW and view.pending_draw == view.seat)
            name = move_name(action, view.rules)
            chance = None if chances is None else chances.get(action)
            card.show(key, name, playable, i == selected, view.is_my_turn, action, chance)
        return acts
