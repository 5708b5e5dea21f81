"""The new-game screen of ``ono99 play``: rules preset, players, bots and their pace,
options, the draw window, seed.

What a preset takes comes from :mod:`ono99.rules` itself: the player range of
:func:`~ono99.rules.make_rules` (R-SET-5) and the options it resolves (R-SET-6);
the chosen settings are validated by ``make_rules`` before the screen closes, so
an invalid combination gives a one-line message here and nothing starts.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from ono99.errors import Ono99Error
from ono99.i18n import _, translate_error
from ono99.records import SEED_LIMIT
from ono99.rules import (
    CHOICES,
    OPTIONS,
    POINTS_OPTIONS,
    PRESETS,
    TARGET_LIMIT,
    make_rules,
    option_defaults,
)
from ono99.texts import choice_label, option_label, preset_title
from ono99.tui.session import LEVELS, PACES, NewGame, check_draw_seconds

__all__ = ["NewGameScreen", "level_label"]

#: every option of R-SET-6 (classic1980's, then mini's size), in the form's order
ALL_OPTIONS = tuple(dict.fromkeys(name for preset in PRESETS for name in OPTIONS[preset]))
#: the fields of the form, in order; each sits in a row ``#row-<name>``
FIELDS = ("rules", "players", "bots", "pace", *ALL_OPTIONS, "draw_seconds", "seed")


def pace_choices(current: float) -> list[tuple[str, float]]:
    """The pace list: slow, normal, fast, and the current pace when it is another."""
    labels = {"slow": _("slow"), "normal": _("normal"), "fast": _("fast")}
    choices = [
        (_("{pace} ({seconds} s a move)").format(pace=labels[name], seconds=seconds), seconds)
        for name, seconds in PACES.items()
    ]
    if current not in PACES.values():
        choices.append((_("{seconds} s a move").format(seconds=f"{current:g}"), current))
    return choices


def level_label(level: str) -> str:
    """A bot level in words (other bot names stay as they are)."""
    labels = {"easy": _("easy"), "medium": _("medium"), "hard": _("hard"), "expert": _("expert")}
    return labels.get(level, level)


class OptionCheck(Checkbox, inherit_bindings=False):
    """An on/off option: Space toggles (Enter starts the game); the label says on or off."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "toggle_button", show=False),
    ]

    def __init__(self, value: bool, *, id: str) -> None:
        super().__init__(self.word(value), value, compact=True, id=id)

    @staticmethod
    def word(value: bool) -> str:
        return _("on") if value else _("off")

    def watch_value(self) -> None:
        super().watch_value()  # posts Changed
        self.label = self.word(self.value)


class NewGameScreen(ModalScreen[NewGame | None]):
    """Choose the settings of a new game; dismissed with a :class:`NewGame`, or None (Esc)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", show=False),
        # Enter starts the game from any field (a list opens with Space or the arrows);
        # not on an open list (Enter picks there) nor on the buttons (see check_action)
        Binding("enter", "start", show=False, priority=True),
    ]

    def __init__(self, current: NewGame) -> None:
        super().__init__()
        self.current = current
        self.levels = list(LEVELS)
        if current.bots not in self.levels:
            self.levels.append(current.bots)

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        cur = self.current
        defaults = {**option_defaults("classic1980"), **option_defaults("mini"), **cur.options}

        def row(name: str, label: str) -> Horizontal:
            return Horizontal(Label(label, classes="label"), id=f"row-{name}", classes="row")

        with Vertical(id="dialog", classes="newgame"):
            yield Static(Text(_("New game"), style="bold"), classes="title")
            with VerticalScroll(id="set-fields", can_focus=False):
                with row("rules", _("Rules")):
                    yield Select(
                        [(preset_title(make_rules(p)), p) for p in PRESETS],
                        value=cur.rules, allow_blank=False, compact=True, id="set-rules",
                    )  # fmt: skip
                with row("players", _("Players")):
                    yield Select(
                        self.player_choices(cur.rules),
                        value=cur.players, allow_blank=False, compact=True, id="set-players",
                    )  # fmt: skip
                with row("bots", _("Bots")):
                    yield Select(
                        [(level_label(level), level) for level in self.levels],
                        value=cur.bots, allow_blank=False, compact=True, id="set-bots",
                    )  # fmt: skip
                with row("pace", _("Pace of the bots")):
                    yield Select(
                        pace_choices(cur.pace),
                        value=cur.pace, allow_blank=False, compact=True, id="set-pace",
                    )  # fmt: skip
                with row("scoring", option_label("scoring")):
                    yield self.choice_select("scoring", defaults["scoring"])
                with row("target", option_label("target")):
                    yield Input(
                        str(defaults["target"]), restrict=r"[0-9]*", compact=True,
                        id="set-target",
                    )  # fmt: skip
                with row("points_mode", option_label("points_mode")):
                    yield self.choice_select("points_mode", defaults["points_mode"])
                with row("zero_ending_99", option_label("zero_ending_99")):
                    yield OptionCheck(bool(defaults["zero_ending_99"]), id="set-zero_ending_99")
                with row("draw_penalty", option_label("draw_penalty")):
                    yield OptionCheck(bool(defaults["draw_penalty"]), id="set-draw_penalty")
                with row("size", option_label("size")):
                    yield self.choice_select("size", defaults["size"])
                with row("draw_seconds", _("Seconds to draw")):
                    yield Input(
                        f"{cur.draw_seconds:g}", restrict=r"[0-9.]*", compact=True,
                        id="set-draw_seconds",
                    )  # fmt: skip
                with row("seed", _("Seed")):
                    yield Input(
                        "" if cur.seed is None else str(cur.seed),
                        placeholder=_("empty: a new random deal"), compact=True,
                        id="set-seed",
                    )  # fmt: skip
            yield Static("", id="set-message")
            with Horizontal(id="set-buttons"):
                yield Button(_("Start"), variant="primary", compact=True, id="set-start")
                yield Button(_("Cancel"), compact=True, id="set-cancel")
            yield Static(_("Tab: next field · Enter: start · Esc: cancel"), classes="close")

    def on_mount(self) -> None:
        # the app's breakpoint classes at once (Textual sets them on the first resize, a
        # frame later: a 20-row terminal would see the long form flash by)
        width, height = self.app.size
        self.set_class(width < 72, "-narrow")
        self.set_class(height < 23, "-short")
        self.show_options()
        self.query_one("#set-rules", Select).focus()

    @staticmethod
    def choices(name: str) -> list[tuple[str, str]]:
        """An option's fixed choices (R-SET-6) in words."""
        return [(choice_label(name, value), value) for value in CHOICES[name]]

    def choice_select(self, name: str, value: Any) -> Select[str]:
        """The list of an option of fixed choices (R-SET-6), its id ``set-NAME``."""
        return Select(self.choices(name), value=value, allow_blank=False, compact=True,
                      id=f"set-{name}")  # fmt: skip

    def player_choices(self, preset: str) -> list[tuple[str, int]]:
        """R-SET-5: only the preset's player counts."""
        r = make_rules(preset)
        return [(str(n), n) for n in range(r.min_players, r.max_players + 1)]

    def show_options(self) -> None:
        """Rows for the options this preset takes (R-SET-6); points options only with points."""
        preset = str(self.query_one("#set-rules", Select).value)
        taken = option_defaults(preset)
        points = "scoring" in taken and self.query_one("#set-scoring", Select).value == "points"
        for name in ALL_OPTIONS:
            row = self.query_one(f"#row-{name}")
            row.display = name in taken
            # a hidden row's field is disabled too, so that Tab and the focus skip it
            row.disabled = name not in taken or (name in POINTS_OPTIONS and not points)
        # the draw window (R-DRAW-1) counts only with the draw penalty on
        self.query_one("#row-draw_seconds").display = "draw_penalty" in taken
        self.query_one("#row-draw_seconds").disabled = not self.query_one(
            "#set-draw_penalty", Checkbox
        ).value

    def say(self, message: str) -> None:
        self.query_one("#set-message", Static).update(Text(message, style="bold red"))

    # ------------------------------------------------------------------ events

    @on(Select.Changed, "#set-rules")
    def rules_changed(self, event: Select.Changed) -> None:
        players = self.query_one("#set-players", Select)
        choices = self.player_choices(str(event.value))
        old = players.value
        players.set_options(choices)
        counts = [n for _label, n in choices]
        players.value = old if old in counts else min(max(int(str(old)), counts[0]), counts[-1])
        self.show_options()
        self.say("")

    @on(Select.Changed, "#set-scoring")
    def scoring_changed(self) -> None:
        self.show_options()
        self.say("")

    def on_descendant_focus(self) -> None:
        self.mark_focused_row()

    def on_descendant_blur(self) -> None:
        self.mark_focused_row()

    def mark_focused_row(self) -> None:
        """The row of the field with the focus gets the class ``focused`` (its label is
        drawn in reverse, app.tcss): the only one."""
        focused = self.focused
        for row in self.query(".row"):
            row.set_class(focused is not None and row in focused.ancestors, "focused")

    @on(Checkbox.Changed, "#set-draw_penalty")
    def draw_penalty_changed(self) -> None:
        self.show_options()

    @on(Input.Submitted)
    def submitted(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#set-start")
    def start_pressed(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#set-cancel")
    def cancel_pressed(self) -> None:
        self.action_cancel()

    # ------------------------------------------------------------------ actions

    def settings(self) -> NewGame | str:
        """The chosen settings, validated by rules.py, or a one-line reason why not."""
        preset = str(self.query_one("#set-rules", Select).value)
        taken = option_defaults(preset)
        options: dict[str, Any] = {}
        if "scoring" in taken:
            options["scoring"] = str(self.query_one("#set-scoring", Select).value)
            if options["scoring"] == "points":
                target = self.query_one("#set-target", Input).value.strip()
                if not target.isdigit():
                    return _("The points target must be a whole number above 0.")
                # (no length limit on the field, so nothing is cut: a long number is
                # refused by make_rules as over the limit, never parsed whole)
                options["target"] = int(target) if len(target) <= 18 else TARGET_LIMIT + 1
                options["points_mode"] = str(self.query_one("#set-points_mode", Select).value)
        for name in ("zero_ending_99", "draw_penalty"):
            if name in taken:
                options[name] = self.query_one(f"#set-{name}", Checkbox).value
        if "size" in taken:
            options["size"] = str(self.query_one("#set-size", Select).value)
        seed_text = self.query_one("#set-seed", Input).value.strip()
        seed: int | None = None
        if seed_text:  # as --seed and a record take it (R-REC): 0 to 2**256 - 1, no sign
            digits = seed_text.isascii() and seed_text.isdigit() and len(seed_text) <= 78
            seed = int(seed_text) if digits else -1  # 2**256 has 78 digits
            if not 0 <= seed < SEED_LIMIT:
                return _(
                    "The seed must be a whole number from 0 to 2²⁵⁶ - 1, or empty for a new "
                    "random deal."
                )
        draw_seconds = self.current.draw_seconds
        if options.get("draw_penalty"):
            try:
                draw_seconds = check_draw_seconds(
                    float(self.query_one("#set-draw_seconds", Input).value.strip() or "nan")
                )
            except ValueError:
                return _("The seconds to draw must be a number above 0 and at most 30.")
        pace = self.query_one("#set-pace", Select).value
        players = self.query_one("#set-players", Select).value
        settings = NewGame(
            preset,
            int(str(players)),
            str(self.query_one("#set-bots", Select).value),
            options,
            seed,
            pace=float(str(pace)),
            draw_seconds=draw_seconds,
        )
        try:
            make_rules(preset, options).check_players(settings.players)  # R-SET-6, R-SET-5
        except Ono99Error as e:
            return translate_error(e)
        return settings

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action != "start":
            return True
        focused = self.focused
        if isinstance(focused, Button):
            return False  # Enter presses Start or Cancel itself
        for widget in focused.ancestors_with_self if focused is not None else []:
            if isinstance(widget, Select) and widget.expanded:
                return False  # Enter picks the highlighted choice
        return True

    def action_start(self) -> None:
        settings = self.settings()
        if isinstance(settings, str):
            self.say(settings)
            self.app.bell()
            return
        self.dismiss(settings)

    def action_cancel(self) -> None:
        self.dismiss(None)
