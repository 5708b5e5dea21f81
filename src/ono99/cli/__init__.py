"""The ``ono99`` command (CONTRACTS.md "CLI").

Every error reaches the user as one line on stderr with exit status 2. ``--lang L``
anywhere on the command line (else the locale) picks the language of help and messages.
"""

from __future__ import annotations

import sys

import typer

from ono99.cli.base import APP_HELP, app, fail, use_language
from ono99.cli.typer_i18n import translate_typer, translate_usage_error
from ono99.errors import Ono99Error
from ono99.i18n import (
    LANGUAGES,
    _,
    detect_language,
    set_language,
    translate_error,
)

__all__ = ["app", "main"]


def _register() -> None:
    # Subcommand modules attach themselves to ``app``; imported here so that
    # heavy front ends load only when used.
    from ono99.cli import bench, companion_site, replay, review  # noqa: F401

    for optional in ("analyze", "arena", "play", "serve"):
        try:
            __import__(f"ono99.cli.{optional}")
        except ModuleNotFoundError as e:
            if e.name != f"ono99.cli.{optional}":
                raise


def _take_lang(argv: list[str]) -> tuple[str | None, list[str]]:
    """``--lang L`` / ``--lang=L`` anywhere before ``--``: the value, and argv without it."""
    lang: str | None = None
    rest: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            rest += argv[i:]
            break
        if arg == "--lang":
            if i + 1 >= len(argv):
                raise fail(
                    _("--lang needs a value: {choices}").format(choices=", ".join(LANGUAGES))
                )
            lang = argv[i + 1]
            i += 2
            continue
        if arg.startswith("--lang="):
            lang = arg.partition("=")[2]
        else:
            rest.append(arg)
        i += 1
    if lang is not None and lang.lower() in LANGUAGES:  # --lang TA: the code in any case
        lang = lang.lower()
    return lang, rest


def _with_lang(argv: list[str], lang: str) -> list[str]:
    """Give ``--lang`` back to a subcommand that takes it itself (``play``, ``replay``)."""
    commands = getattr(typer.main.get_command(app), "commands", {})
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg.startswith("-"):
            continue
        cmd = commands.get(arg)
        if cmd is not None and any("--lang" in p.opts for p in cmd.params):
            return [*argv[: i + 1], "--lang", lang, *argv[i + 1 :]]
        break
    return argv


def _choose_language(argv: list[str]) -> tuple[str | None, list[str]]:
    """Set the language from ``--lang`` (else the locale) before any help text is built.

    Returns the ``--lang`` value given (or None) and argv without it.
    """
    try:
        set_language(detect_language())  # errors about --lang itself in the locale's language
    except OSError:  # a catalog missing from a broken install: English, not a traceback
        set_language("en")
    lang, rest = _take_lang(argv)
    use_language(lang)
    app.info.help = _(APP_HELP)
    translate_typer()
    return lang, rest


def _command_path(error: BaseException, argv: list[str]) -> str:
    """The command a usage error is about (``ono99 replay``), for the help to point to:
    from the error's context, else (Click gives some errors none) the first word of
    ``argv`` when it names a subcommand."""
    ctx = getattr(error, "ctx", None)
    path = getattr(ctx, "command_path", None)
    if isinstance(path, str) and path.split()[:1] == ["ono99"]:
        return path
    commands = getattr(typer.main.get_command(app), "commands", {})
    words = [a for a in argv[: argv.index("--") if "--" in argv else len(argv)]
             if not a.startswith("-")]  # fmt: skip
    if words and words[0] in commands:
        return f"ono99 {words[0]}"
    return "ono99"


def main(argv: list[str] | None = None) -> None:
    """Entry point of the console script."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        lang, args = _choose_language(args)
    except typer.Exit as e:
        sys.exit(e.exit_code)
    _register()
    if lang is not None:
        args = _with_lang(args, lang)
    try:
        result = app(args=args, prog_name="ono99", standalone_mode=False)
    except typer.Exit as e:
        sys.exit(e.exit_code)
    except typer.Abort:
        print("ono99: " + _("aborted"), file=sys.stderr)
        sys.exit(130)
    except typer.TyperException as e:
        if type(e).__name__ == "NoArgsIsHelpError":
            print(e.format_message() if hasattr(e, "format_message") else e)
            sys.exit(0)
        fmt = getattr(e, "format_message", None)
        line = translate_usage_error(" ".join((fmt() if callable(fmt) else str(e)).split()))
        fail(
            _("{message} (see {command} --help)").format(
                message=line, command=_command_path(e, args)
            )
        )
        sys.exit(2)
    except Ono99Error as e:
        fail(translate_error(e))
        sys.exit(2)
    except KeyboardInterrupt:
        print("ono99: " + _("interrupted"), file=sys.stderr)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(1)
    if isinstance(result, int):
        sys.exit(result)
