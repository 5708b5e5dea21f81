"""``ono99 play``: the Textual table (see app.tcss for the layout)."""

from __future__ import annotations

import asyncio
import time
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.timer import Timer
from textual.widgets import RichLog, Static

from ono99.bots.evaluate import DEFAULT_SAMPLES, Values
from ono99.cards import DRAW
from ono99.errors import Ono99Error
from ono99.events import Event
from ono99.i18n import _, translate_error
from ono99.texts import card_legend, move_name, preset_title, rules_help, tell, winner_text
from ono99.tui.cells import use_terminal_widths
from ono99.tui.review import ReviewScreen
from ono99.tui.screens import (
    MIN_SIZE,
    ConfirmNewGame,
    ConfirmQuit,
    GameOver,
    HelpScreen,
    RoundSummary,
    TooSmall,
    log_keys,
)
from ono99.tui.session import (
    DEFAULT_DRAW_SECONDS,
    DEFAULT_PACE,
    HUMAN,
    HintAsk,
    NewGame,
    NotPlayable,
    Session,
)
from ono99.tui.setup import NewGameScreen
from ono99.tui.widgets import HandBar, PlayersPanel, TotalPanel, new_total

__all__ = ["OnoApp"]

#: ``new_session(k)``: the k-th game with the starting settings (0 first; k > 0: play again)
SessionFactory = Callable[[int], Session]
#: ``start(settings)``: a game with settings chosen on the new-game screen
Starter = Callable[[NewGame], Session]
Saver = Callable[[Session], str | None]


class Later:
    """A call after ``delay`` seconds on the event loop (``stop()`` cancels it).

    Not Textual's ``set_timer``: Textual 8 drops a one-shot timer whose moment has passed
    by the time its task first runs (``--pace 0``, or a busy machine with a short pace),
    and the game then waited for a bot move that never came."""

    def __init__(self, app: App[int], delay: float, callback: Callable[[], Awaitable[None]]):
        self._handle = asyncio.get_running_loop().call_later(
            max(0.0, delay), app.call_next, callback
        )

    def stop(self) -> None:
        self._handle.cancel()


class OnoApp(App[int]):
    """A game against bots. ``new_session(k)`` makes the k-th game (0 first);
    ``start(settings)`` a game with other settings (N in a game, S at its end);
    ``save(session)`` keeps each game's record when it ends or is abandoned.

    ``bot_delay``: seconds a bot takes to move (``--pace``); ``draw_window``: seconds
    the human has to draw under the draw penalty (``--draw-seconds``, R-DRAW-1);
    ``hint_samples`` / ``review_samples``: worlds a hint (H) / a decision of the game's
    review (R at its end) is valued from (docs/review.md).
    Letter keys work in both cases (Shift, Caps Lock)."""

    CSS_PATH = "app.tcss"
    ENABLE_COMMAND_PALETTE = False
    TITLE = "ONO 99"
    #: the layout adapts below 72 columns and below 23 rows (tested at 60x20 and 80x24)
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (72, "-wide")]  # noqa: RUF012 (App declares it)
    VERTICAL_BREAKPOINTS = [(0, "-short"), (23, "-tall")]  # noqa: RUF012
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", show=False),
        Binding("right", "move(1)", show=False),
        Binding("enter,space", "play_selected", show=False),
        Binding("d,D", "draw", show=False),
        Binding("h,H", "hint", show=False),
        Binding("question_mark,f1", "help", show=False),
        Binding("q,Q", "quit_game", show=False),
        Binding("n,N", "new_game", show=False),
        Binding("f,F", "fast", show=False),
        *log_keys("log"),
        Binding("ctrl+q,ctrl+c", "quit_game", show=False, priority=True),
        *(Binding(str(i), f"play_key({i})", show=False) for i in range(1, 10)),
    ]

    def __init__(
        self,
        new_session: SessionFactory,
        *,
        start: Starter = NewGame.session,
        save: Saver | None = None,
        note: str | None = None,
        bot_delay: float = DEFAULT_PACE,
        draw_window: float = DEFAULT_DRAW_SECONDS,
        hint_samples: int = DEFAULT_SAMPLES,
        review_samples: int = DEFAULT_SAMPLES,
    ) -> None:
        use_terminal_widths()  # before anything is measured
        super().__init__()
        self.new_session = new_session
        self.start = start
        self.save = save
        self.note = note
        self.bot_delay = bot_delay
        self.draw_window = draw_window
        self.games = 0
        self.session = new_session(0)
        self.selected = 0
        self.actions: list[int] = []
        self.timer: Later | None = None  # the next bot move
        self.busy = False  # a modal screen waits for the player
        self.crash: BaseException | None = None
        self.crash_report: str | None = None
        self.saved_to: str | None = None
        self.last_bust: Event | None = None
        self.fast = False  # F: bots move at once until the human's next turn
        self.draw_deadline: float | None = None  # R-DRAW-1: when the draw window closes
        self.countdown: Timer | None = None
        self.too_small: TooSmall | None = None  # the notice under MIN_SIZE, while shown
        self.busy_before_small = False
        self.hint_samples = hint_samples
        self.review_samples = review_samples
        #: the hint asked for (H) and, once valued, each action's win chance
        self.hint_ask: HintAsk | None = None
        self.hint_values: dict[int, float] | None = None

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Static(id="top")
        with Horizontal(id="middle"):
            yield PlayersPanel(id="players")
            yield TotalPanel(id="center")
        yield RichLog(id="log", wrap=True, min_width=1, markup=False)
        yield HandBar(id="hand")
        yield Static(id="hint")
        yield Static(id="keys")

    async def on_mount(self) -> None:
        log = self.query_one(RichLog)
        log.can_focus = False
        log.border_title = _("Announcements")
        self.query_one("#hand", HandBar).border_title = _("Your cards")
        if self.note:
            self.notify(self.note, timeout=6)
        await self.start_game()
        self.check_size()

    async def on_resize(self) -> None:
        """Lay the words out again for the new size (titles, legend, top line)."""
        self.call_after_refresh(self.refresh_table)
        self.call_after_refresh(self.check_size)

    def check_size(self) -> None:
        """Under :data:`MIN_SIZE` the table cannot be laid out: the TooSmall notice covers
        it and the game waits (no bot moves, no draw window running out); at MIN_SIZE or
        more the notice goes and the game goes on."""
        width, height = self.size
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        if small and self.too_small is None:
            self.busy_before_small = self.busy
            self.busy = True
            self.stop_timers()
            self.too_small = TooSmall()
            self.push_screen(self.too_small)
        elif not small and self.too_small is not None and self.screen is self.too_small:
            self.too_small = None
            self.pop_screen()
            self.busy = self.busy_before_small
            if not self.busy:
                self.advance()

    async def start_game(self) -> None:
        self.screen_stack[0].set_class(False, "-game-over")
        self.query_one(RichLog).clear()
        self.selected = 0
        self.last_bust = None
        self.hint_ask = None  # a hint belongs to the game it was asked in
        self.hint_values = None
        await self.tell(self.session.events())
        await self.refresh_table()
        self.advance()

    def current_hint(self) -> dict[int, float] | None:
        """The hint's win chances while its position is still on the table."""
        ask = self.hint_ask
        if ask is None or self.hint_values is None or not self.session.hint_current(ask):
            return None
        return self.hint_values

    def hint_working(self) -> bool:
        """A hint for the position on the table is being valued."""
        ask = self.hint_ask
        return ask is not None and self.hint_values is None and self.session.hint_current(ask)

    def keys_text(self) -> str:
        """The key legend: as many of the keys as fit the line (the help screen lists
        them all); the playing keys first."""
        if self.session.is_over:  # P, S and Q are on the results themselves
            return _("PgUp/PgDn: scroll the announcements")
        keys = [_("1–9/←→ Enter: play")]
        if self.session.rules.draw_penalty:
            keys.append(_("D: draw"))
        keys += [_("H: hint"), _("?: help"), _("Q: quit")]
        text = " · ".join(keys)
        room = self.query_one("#keys", Static).content_size.width or self.size.width - 2
        for extra in (_("F: fast"), _("N: new game")):  # where the line has room
            if cell_len(text + " · " + extra) <= room:
                text += " · " + extra
        return text

    async def refresh_table(self) -> None:
        view = self.session.view()
        self.query_one("#top", Static).update(self.top_text())
        self.query_one("#middle").set_class(view.players > 7, "many")
        self.query_one(PlayersPanel).show(view)
        self.query_one(TotalPanel).show(view)
        hand = self.query_one(HandBar)
        acts = hand.items(view)
        if (
            view.is_my_turn
            and acts
            and (self.selected >= len(acts) or acts[self.selected] not in view.legal)
        ):
            self.selected = next(i for i, a in enumerate(acts) if a in view.legal or a == DRAW)
        self.selected = min(self.selected, max(len(acts) - 1, 0))
        self.actions = await hand.show(view, self.selected, self.current_hint())
        self.query_one("#hint", Static).update(self.hint_text())
        self.query_one("#keys", Static).update(Text(self.keys_text(), style="dim"))

    def top_text(self) -> Text:
        """The preset, the round, the points target (points games), the draw pile and
        whether bots are fast-forwarded; the draw pile, then the preset's long name are
        left out where the line has no room."""
        view = self.session.view()
        r = view.rules
        room = self.query_one("#top", Static).content_size.width or self.size.width - 2
        fast = " · " + _("fast-forward") if self.fast and not view.is_over else ""
        target = _("to {target} points").format(target=r.target) if view.scores is not None else ""
        short = "ONO 99" if r.preset == "mattel2022" else "O'NO 99"
        line = ""
        for title, pile in ((preset_title(r), True), (preset_title(r), False), (short, False)):
            parts = [title, _("round {round}").format(round=view.round)]
            if target:
                parts.append(target)
            if pile:
                parts.append(_("draw pile {count}").format(count=view.draw_pile))
            line = " · ".join(parts)
            if cell_len(line + fast) <= room:
                break
        text = Text(line, style="bold")
        if fast:
            text.append(fast, style="bold yellow")
        return text

    def hint_text(self) -> Text:
        """What Enter would do with the selected card, or why it cannot be played; the
        draw window's countdown (R-DRAW-1); a hint being worked out (H)."""
        text = self.move_text()
        if self.hint_working():
            note = Text(_("Working out each card's chance to win…"), style="italic")
        elif self.current_hint() is not None:
            note = Text(_("Under each card: your chance to win the game if you play it now."))
        else:
            return text
        if not text.plain:
            return note
        # two lines at most (the hint line's height): one for each, cut where too long
        room = self.query_one("#hint", Static).content_size.width or self.size.width - 2
        for line in (text, note):
            line.truncate(room, overflow="ellipsis")
        return Text.assemble(text, "\n", note)

    def move_text(self) -> Text:
        """What Enter would do with the selected card, or why it cannot be played; the
        draw window's countdown (R-DRAW-1)."""
        view = self.session.view()
        if view.to_move is None:
            return Text("")
        if self.session.human_may_draw() and view.to_move != HUMAN:
            left = self.draw_seconds_left()
            if left is None:
                return Text(_("Press D now to draw your card!"), style="bold yellow")
            return Text(
                _("Press D now to draw your card! {seconds} s left").format(seconds=f"{left:.1f}"),
                style="bold yellow",
            )
        if not view.alive[HUMAN] or not view.active[HUMAN]:
            return Text(_("You are out: watch the others play, F to fast-forward, Q to quit."))
        if view.to_move != HUMAN or not self.actions:
            return Text("")
        action = self.actions[self.selected]
        name = move_name(action, view.rules)
        reason = self.session.why_not(action)
        if reason is not None:
            return Text(reason, style="red")
        if action == DRAW:
            return Text(_("Enter: draw a card"), style="green")
        if view.bust_mode:
            return Text(
                _("Enter: give up {card} (you are out of this round)").format(card=name),
                style="yellow",
            )
        if action > 15:
            return Text(_("Enter: discard four ONO 99 cards"), style="green")
        return Text(
            _("Enter: play {card} — the total becomes {total}").format(
                card=name, total=new_total(view, action)
            ),
            style="green",
        )

    # ------------------------------------------------------------------ flow

    async def tell(self, events: list[Event]) -> None:
        log = self.query_one(RichLog)
        s = self.session
        rounds: list[Event] = []
        over = False
        for e in events:
            if e.kind == "bust":
                self.last_bust = e
            line = tell(e, s.names, s.rules, HUMAN)
            if line:
                mine = e.seat == HUMAN and e.kind != "round_end"
                log.write(Text(line, style="bold cyan" if mine else ""))
            if e.kind == "round_end":
                rounds.append(e)
            over = over or e.kind == "game_over"
        if rounds and not over and s.view().alive[HUMAN]:
            self.show_round_end(rounds[-1])

    def show_round_end(self, event: Event) -> None:
        view = self.session.view()
        info = event.info or {}
        lines: list[str] = []
        loser = info.get("loser")
        bust = self.last_bust
        total = bust.total if bust is not None and bust.seat == loser else None
        if isinstance(loser, int):
            if total is None:
                total = view.total
            if loser == HUMAN:
                lines.append(_("You had no safe card at total {total}.").format(total=total))
            else:
                lines.append(
                    _("{name} had no safe card at total {total}.").format(
                        name=view.names[loser], total=total
                    )
                )
        gained = info.get("gained")
        title = _("Round {round} is over").format(round=info.get("round", view.round))
        self.busy = True
        summary = RoundSummary(title, lines, view, gained if isinstance(gained, list) else None)
        self.push_screen(summary, self.after_modal)

    def after_modal(self, _result: object = None) -> None:
        self.busy = False
        self.advance()

    def advance(self) -> None:
        """Schedule the next bot move, or wait for the human or a modal."""
        if self.busy or self.timer is not None:
            return
        s = self.session
        if s.is_over:
            self.game_over()
            return
        view = s.view()
        if s.waiting_for() == "you":
            if view.active[HUMAN] and self.fast:
                self.fast = False  # fast-forward lasts until your turn
                self.query_one("#top", Static).update(self.top_text())
            return
        delay = self.bot_delay
        if self.fast:
            delay = min(delay, 0.05)
        elif not view.active[HUMAN]:
            delay = delay / 3
        if s.human_may_draw():
            # R-DRAW-1: the human's draw window, counted down on screen
            delay = max(delay, self.draw_window)
            self.draw_deadline = time.monotonic() + delay
            self.stop_countdown()
            self.countdown = self.set_interval(0.1, self.show_countdown)
            self.show_countdown()
        self.timer = Later(self, delay, self.bot_move)

    def draw_seconds_left(self) -> float | None:
        if self.draw_deadline is None:
            return None
        return max(0.0, self.draw_deadline - time.monotonic())

    def show_countdown(self) -> None:
        # The interval may tick once more while the app shuts down (its widgets gone).
        hints = self.query("#hint").results(Static)
        for hint in hints:
            hint.update(self.hint_text())

    def stop_countdown(self) -> None:
        if self.countdown is not None:
            self.countdown.stop()
            self.countdown = None

    def stop_timers(self) -> None:
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
        self.stop_countdown()
        self.draw_deadline = None

    async def bot_move(self) -> None:
        self.timer = None
        self.stop_countdown()
        self.draw_deadline = None
        if self.busy or not self.is_running:
            return  # (a timer may still fire while the app shuts down)
        await self.tell(self.session.step())
        await self.refresh_table()
        self.advance()

    def game_over(self) -> None:
        self.fast = False
        self.saved_to = self.save(self.session) if self.save else None
        self.show_game_over()

    def show_game_over(self) -> None:
        note = None
        if self.saved_to:
            note = _("Game record saved to {path}").format(path=self.saved_to)
        view = self.session.view()
        self.busy = True
        table = self.screen_stack[0]
        table.set_class(True, "-game-over")  # the log takes the hand's rows (app.tcss)
        table.query_one("#keys", Static).update(Text(self.keys_text(), style="dim"))
        self.push_screen(
            GameOver(winner_text(view.winner, view.names), view, note), self.after_game
        )

    async def after_game(self, choice: str | None) -> None:
        if choice == "review":
            # the finished game's record, reviewed for your seat (tui.review)
            review = ReviewScreen(self.session.record(), self.session.rules, self.review_samples)
            self.push_screen(review, lambda _result: self.show_game_over())
            return
        if choice == "settings":
            self.choose_settings(cancelled=self.show_game_over)
            return
        self.busy = False
        if choice != "again":
            self.exit(0)
            return
        self.games += 1
        self.fast = False
        self.session = self.new_session(self.games)
        await self.start_game()

    def choose_settings(self, cancelled: Callable[[], None]) -> None:
        """The new-game screen, filled in with this game's settings (a fresh seed) and
        the pace and draw window now in use."""
        current = replace(
            NewGame.of(self.session),
            seed=None,
            pace=self.bot_delay,
            draw_seconds=self.draw_window,
        )

        async def chosen(settings: NewGame | None) -> None:
            if settings is None or not await self.start_new(settings):
                cancelled()

        self.busy = True
        self.push_screen(NewGameScreen(current), chosen)

    async def start_new(self, settings: NewGame) -> bool:
        """Abandon this game (its record saved first) for one with ``settings``;
        later "play again" games keep the settings."""
        try:
            session = self.start(settings)
        except Ono99Error as e:  # the screen validates, so this is a bug: say it, keep playing
            self.notify(translate_error(e), severity="error")
            return False
        if not self.session.is_over:
            self.session.abandon()
            if self.save:
                self.saved_to = self.save(self.session)
        self.stop_timers()
        self.bot_delay = settings.pace
        self.draw_window = settings.draw_seconds
        self.games += 1
        first = self.games
        start = self.start

        def again(k: int) -> Session:
            # the next seed of a seeded series (else a fresh one), the deal passed on
            return start(settings.next_game(k - first))

        self.new_session = again
        self.session = session
        self.fast = False
        self.busy = False
        await self.start_game()
        return True

    # ------------------------------------------------------------------ keys

    async def human(self, action: int) -> None:
        if self.busy:
            return
        try:
            events = self.session.play(action)
        except NotPlayable as e:
            self.query_one("#hint", Static).update(Text(str(e), style="red"))
            self.bell()
            return
        await self.tell(events)
        await self.refresh_table()
        self.advance()

    async def action_move(self, step: int) -> None:
        if self.actions:
            self.selected = (self.selected + step) % len(self.actions)
            await self.refresh_table()

    async def action_play_selected(self) -> None:
        if self.actions and self.selected < len(self.actions):
            await self.human(self.actions[self.selected])

    async def action_play_key(self, number: int) -> None:
        if 1 <= number <= len(self.actions):
            self.selected = number - 1
            await self.refresh_table()
            await self.human(self.actions[number - 1])

    def action_fast(self) -> None:
        """F: the bots move at once until your next turn (F again: back to the pace)."""
        if self.busy or self.session.is_over:
            return
        self.fast = not self.fast
        self.query_one("#top", Static).update(self.top_text())
        if self.fast and self.timer is not None and self.draw_deadline is None:
            self.timer.stop()  # move now rather than at the old pace
            self.timer = None
            self.advance()

    def action_log(self, pages: int) -> None:
        """PgUp/PgDn: scroll the announcements of the game (the results of a finished
        game are on top of it)."""
        log = self.screen_stack[0].query_one(RichLog)
        if pages < 0:
            log.scroll_page_up(animate=False)
        else:
            log.scroll_page_down(animate=False)

    async def action_draw(self) -> None:
        await self.human(DRAW)

    def action_hint(self) -> None:
        """H: each legal card's win chance, from your own view only, valued off the UI
        thread (a Textual worker); shown under the cards, and the move you then make is
        noted in the game's record (``hinted``)."""
        if self.busy:
            return
        ask = self.session.ask_hint()
        if ask is None:
            self.query_one("#hint", Static).update(
                Text(_("A hint is for your turn: wait until it is your move."), style="red")
            )
            self.bell()
            return
        if self.hint_ask is not None and self.session.hint_current(self.hint_ask):
            return  # this position's hint is shown or on its way
        self.hint_ask = ask
        self.hint_values = None
        self.query_one("#hint", Static).update(self.hint_text())
        self.value_hint(ask)

    @work(thread=True, exclusive=True, group="hint")
    def value_hint(self, ask: HintAsk) -> None:
        values = ask.values(self.hint_samples)
        self.call_from_thread(self.call_next, self.show_hint, ask, values)

    async def show_hint(self, ask: HintAsk, values: Values) -> None:
        if ask is not self.hint_ask or not self.session.hint_shown(ask):
            return  # the game moved on (or another hint was asked) meanwhile
        self.hint_values = {o.action: o.win for o in values.options}
        await self.refresh_table()

    def action_help(self) -> None:
        if self.busy:
            return
        self.busy = True
        help_keys = "\n".join(
            [
                _(
                    "Keys: 1–9 play that card · ←/→ choose and Enter play · "
                    "D draw (draw penalty) · ? this help · Q quit"
                ),
                _("F: fast-forward: the bots play at once until your next turn"),
                _(
                    "H: hint: each card's chance to win, shown under it (the game's record "
                    "notes the move you make after a hint) · R at the game's end: review it"
                ),
                _("PgUp/PgDn: scroll the announcements"),
                _("N: abandon this game and start a new one with other settings"),
                _("▶ plays now · ×2 must play two cards · ✗ cannot be played now"),
                _("Letter keys work in capitals too."),
            ]
        )
        rules = self.session.rules
        self.push_screen(
            HelpScreen(rules_help(rules) + card_legend(rules), help_keys), self.after_modal
        )

    def action_quit_game(self) -> None:
        if isinstance(self.screen, ConfirmQuit):
            return
        was_busy = self.busy
        self.busy = True

        def done(answer: bool | None) -> None:
            if answer:
                if not self.session.is_over:
                    self.session.abandon()
                    if self.save:
                        self.saved_to = self.save(self.session)
                self.stop_timers()
                self.exit(0)
                return
            self.busy = was_busy
            if not was_busy:
                self.advance()

        self.push_screen(ConfirmQuit(), done)

    def action_new_game(self) -> None:
        """N: abandon this game (asking first, like Q) and choose new settings."""
        if len(self.screen_stack) > 1:  # a dialog is open (GameOver has its own key)
            return
        was_busy = self.busy
        self.busy = True

        def resume() -> None:
            self.busy = was_busy
            if not was_busy:
                self.advance()

        def done(answer: bool | None) -> None:
            if answer:
                self.choose_settings(cancelled=resume)
            else:
                resume()

        self.push_screen(ConfirmNewGame(), done)

    # ------------------------------------------------------------------ errors

    def _handle_exception(self, error: Exception) -> None:
        # Keep tracebacks off the player's screen: the CLI prints one line and
        # keeps the details in a file (see crash_report).
        self.crash = error
        self.crash_report = "".join(traceback.format_exception(error))
        super()._handle_exception(error)

    def _print_error_renderables(self) -> None:
        if self.crash is not None:
            self._exit_renderables.clear()
            return
        super()._print_error_renderables()
