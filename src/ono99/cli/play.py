"""``ono99 play``: a game against bots in the terminal (CONTRACTS.md "CLI").

Imported by :func:`ono99.cli._register` after the language is chosen, so the
help texts below are translated.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Annotated, Any

import typer

from ono99.bots import BOTS
from ono99.cli.base import app, fail, use_language
from ono99.cli.options import check_seed_option, parse_options
from ono99.errors import Ono99Error
from ono99.i18n import LANGUAGES, _, os_reason, translate_error
from ono99.termsafe import terminal_safe
from ono99.tui.session import (
    DEFAULT_DRAW_SECONDS,
    DEFAULT_LEVEL,
    LEVELS,
    NewGame,
    Session,
    check_draw_seconds,
    parse_pace,
    resolve_level,
)

__all__ = ["play", "RecordSaver", "check_record_path"]


class RecordSaver:
    """``save(session)`` for ``--record FILE``: one file per game. The first game goes
    to FILE, the next to ``stem-2.json``, ``stem-3.json``... beside it (saving the same
    game again rewrites its own file); returns where it went, or None when it could not
    be written (the reason in :attr:`errors`, printed now unless ``quiet``)."""

    def __init__(self, path: str, quiet: bool = False) -> None:
        self.path = Path(path)
        self.quiet = quiet
        self.errors: list[str] = []
        #: where each game saved so far went, in order (said when the terminal game ends)
        self.saved: list[str] = []
        self._games: list[Session] = []

    def path_of(self, game: int) -> Path:
        """Where the ``game``-th game (0 first) goes."""
        if game == 0:
            return self.path
        return self.path.with_name(f"{self.path.stem}-{game + 1}{self.path.suffix}")

    def __call__(self, session: Session) -> str | None:
        if not session.is_over:
            session.abandon()  # saving a game still being played ends it (its seed shown)
        k = next((i for i, seen in enumerate(self._games) if seen is session), None)
        if k is None:
            k = len(self._games)
            self._games.append(session)
        path = self.path_of(k)
        error = None
        try:
            if holds_no_other_file(path):  # the next game's file may be someone's
                with path.open("w", encoding="utf-8") as f:
                    f.write(json.dumps(session.record()) + "\n")
            else:
                error = not_a_record(path)
        except OSError as e:
            error = _("cannot save the game record to {path}: {reason}").format(
                path=str(path), reason=translate_error(os_reason(e))
            )
        if error is not None:
            self.errors.append(error)
            if not self.quiet:
                print("ono99: error: " + terminal_safe(error), file=sys.stderr)
            return None
        if str(path) not in self.saved:
            self.saved.append(str(path))
        return str(path)


def _never_save(session: Session) -> None:
    return None


def holds_no_other_file(path: Path) -> bool:
    """Whether ``--record`` may write ``path``: it is not a regular file, or it is empty,
    or it holds an ono99 game record (an earlier game's). Any other file is kept: a
    mistyped name must not destroy someone's work."""
    from ono99.records import RECORD_LIMIT, parse_record, record_json
    from ono99.tracking import is_tracking_record

    if not path.is_file():
        return True
    with path.open("rb") as f:
        data = f.read(RECORD_LIMIT + 1)
    if not data.strip():
        return True
    if len(data) > RECORD_LIMIT:
        return False
    try:
        record = record_json(data.decode("utf-8"))
        if not is_tracking_record(record):  # a companion's game is a record too
            parse_record(record)
    except (Ono99Error, UnicodeDecodeError):
        return False
    return True


def not_a_record(path: Path) -> str:
    return _("{path} is not an ono99 game record; --record does not overwrite it").format(
        path=str(path)
    )


def check_record_path(path: str) -> None:
    """Fail (one line, exit status 2) unless a game record can be written to ``path``,
    before the game starts. Nothing is written to an existing file: it is opened for
    appending and closed; a device (``/dev/full``) gets an empty write; a new file is
    created and removed again. An existing file that is not a game record is refused."""
    if not path.strip():
        raise fail(_("--record needs a file name"))
    p = Path(path)
    if p.is_dir():
        raise fail(_("{path} is a folder; --record needs a file name").format(path=path))
    if not p.parent.exists() and str(p.parent) not in ("", "."):
        raise fail(_("no folder {folder} for the game record").format(folder=str(p.parent)))
    try:
        if not p.exists():
            with p.open("x", encoding="utf-8"):
                pass
            p.unlink()
        elif p.is_file():
            with p.open("a", encoding="utf-8"):
                pass
            if not holds_no_other_file(p):
                raise fail(not_a_record(p))
        else:  # a device or pipe: try it, never waiting for a reader
            fd = os.open(p, os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK)
            try:
                os.write(fd, b"")
            finally:
                os.close(fd)
    except OSError as e:
        raise fail(
            _("cannot save the game record to {path}: {reason}").format(
                path=path, reason=translate_error(os_reason(e))
            )
        ) from None


@app.command(
    help=_(
        "Play a game against bots in the terminal.\n\n"
        "Keys: 1-9 or arrows and Enter play a card, D draws (draw penalty), ? shows the "
        "rules, Q quits.\n\n"
        "--plain (used whenever input is not a terminal) is a line mode for screen readers "
        "and scripts: before each prompt it prints 'total: N' and 'hand: c1 c2 ...', then "
        "'> '; answer a card code, 99x4, draw, help or quit (end of input quits). With the "
        "draw_penalty option there are no timers in plain mode: after your play the prompt "
        "comes again offering draw; an empty line or any card answer skips the draw."
    )
    + "\n\n"
    + _("N starts a new game with other settings (rules, players, bots, options, seed).")
    + "\n\n"
    + _(
        "F fast-forwards: the bots play at once until your next turn. Letter keys work in "
        "capitals too."
    )
)
def play(
    rules: Annotated[
        str,
        typer.Option("--rules", help=_("Rules: mattel2022, classic1980, gamerules or mini.")),
    ] = "mattel2022",
    players: Annotated[
        int, typer.Option("--players", help=_("Number of players, you included."))
    ] = 4,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            # TRANSLATORS: {levels} and {bots} are lists of names, kept in English
            help=_("Bot level ({levels}) or bot ({bots}).").format(
                levels=", ".join(LEVELS),
                bots=", ".join(
                    [*sorted(set(BOTS) - set(LEVELS)), "ismcts:N", "policy:PATH", "policy:zoo/NAME"]
                ),
            ),
        ),
    ] = DEFAULT_LEVEL,
    seed: Annotated[
        int | None, typer.Option("--seed", help=_("Seed for the same deal and bots again."))
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option("--lang", help=_("Language: {codes}.").format(codes=", ".join(LANGUAGES))),
    ] = None,
    plain: Annotated[
        bool, typer.Option("--plain", help=_("Line mode for screen readers and scripts."))
    ] = False,
    record: Annotated[
        str | None,
        typer.Option(
            "--record", help=_("Save the game record (JSON) to this file at the end or on quit.")
        ),
    ] = None,
    pace: Annotated[
        str,
        typer.Option(
            "--pace",
            help=_(
                "How fast the bots play: slow, normal, fast, or the seconds a bot move "
                "takes (0 to 30)."
            ),
        ),
    ] = "normal",
    draw_seconds: Annotated[
        float,
        typer.Option(
            "--draw-seconds",
            help=_(
                "Draw penalty: seconds you have to draw after your play before the next "
                "player plays (at most 30; counted down on screen; plain mode has no timer)."
            ),
        ),
    ] = DEFAULT_DRAW_SECONDS,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            help=_(
                "Rule option key=value, repeatable. classic1980: scoring=tokens|points, "
                "target=N, points_mode=elimination|lowest, zero_ending_99=true, "
                "draw_penalty=true; gamerules: draw_penalty=true."
            ),
        ),
    ] = None,
) -> None:
    use_language(lang)  # None: already chosen from the locale by ono99.cli.main
    if bots.strip().startswith("policy:"):
        try:  # registers policy:PATH, a learned policy (docs/learning.md), as arena does
            import ono99.envs.policy  # noqa: F401
        except ImportError as e:
            raise fail(str(e)) from None
    try:
        bot_name, note = resolve_level(bots.strip())
    except ValueError as e:
        raise fail(translate_error(e)) from None
    try:
        bot_seconds = parse_pace(pace)
        check_draw_seconds(draw_seconds)
    except ValueError as e:
        raise fail(str(e)) from None
    if record is not None:
        check_record_path(record)
    try:
        check_seed_option(seed)
        settings = NewGame(
            rules,
            players,
            bot_name,
            parse_options(option),
            seed,
            pace=bot_seconds,
            draw_seconds=draw_seconds,
        )
        first = settings.session()
    except Ono99Error as e:
        raise fail(translate_error(e)) from None

    def new_session(k: int) -> Session:
        """Play again: the same settings; the next seed of a series the user seeded, else a
        fresh unguessable one (never derived from the last game's, R-SET-1)."""
        return first if k == 0 else settings.next_game(k).session()

    line_mode = plain or not sys.stdin.isatty() or not sys.stdout.isatty()
    # the full-screen game hides stderr: its save errors are printed after it ends
    saver = None if record is None else RecordSaver(record, quiet=not line_mode)
    save = _never_save if saver is None else saver
    if line_mode:
        _utf8_streams()
        if note:
            print(note, file=sys.stderr)
        status = _run_plain(first, save)
    else:
        status = _run_app(new_session, save, note, settings)
        for where in saver.saved if saver is not None else []:  # the screen is gone: say it
            print(_("Game record saved to {path}").format(path=terminal_safe(where)))
    if saver is not None and saver.errors:
        if saver.quiet:
            for error in saver.errors:
                print("ono99: error: " + terminal_safe(error), file=sys.stderr)
        status = status or 1  # a game whose record was asked for and not saved
    raise typer.Exit(status)


def _run_plain(session: Session, save: Any) -> int:
    from ono99.tui.plain import run_plain

    try:
        return run_plain(session, sys.stdin, sys.stdout, save)
    except BrokenPipeError:
        return 1
    except Exception as e:  # a bug: one line, the details in a file, never a traceback
        report = _write_report(traceback.format_exc())
        save(session)
        _internal_error(e, report)
        return 1


def _write_report(text: str) -> str:
    path = Path(tempfile.gettempdir()) / "ono99-crash.txt"
    try:
        path.write_text(text, encoding="utf-8")
    except OSError:
        return ""
    return str(path)


def _internal_error(error: BaseException, report: str) -> None:
    print(
        "ono99: error: "
        + _("the game stopped because of an internal error ({error}). Details: {file}").format(
            error=type(error).__name__, file=report
        ),
        file=sys.stderr,
    )


def _utf8_streams() -> None:
    """Never crash on a character the terminal's encoding lacks."""
    for stream in (sys.stdin, sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="replace")


def _run_app(new_session: Any, save: Any, note: str | None, settings: NewGame) -> int:
    from ono99.tui.app import OnoApp

    game = OnoApp(
        new_session,
        start=NewGame.session,
        save=save,
        note=note,
        bot_delay=settings.pace,
        draw_window=settings.draw_seconds,
    )
    try:
        status = game.run()
    except Exception as e:  # the app failed to start or stop
        game.crash = e
        game.crash_report = traceback.format_exc()
        status = 1
    if game.crash is not None:
        if not game.session.is_over and game.saved_to is None:
            save(game.session)
        _internal_error(game.crash, _write_report(game.crash_report or ""))
        return 1
    return int(status or 0)
