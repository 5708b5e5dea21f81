"""The Typer app every ``ono99`` command attaches itself to, and the one-line error every
command reports with (:func:`fail`): below the commands, which import it, and below the
package's :func:`ono99.cli.main`, which registers them."""

from __future__ import annotations

import sys

import typer

from ono99.i18n import LANGUAGES, N_, _, get_language, set_language
from ono99.termsafe import terminal_safe

__all__ = ["APP_HELP", "app", "fail", "use_language"]

APP_HELP = N_("ONO 99 (Mattel 2022) and O'NO 99 (1980): play, replay, benchmark, bot arena.")

app = typer.Typer(
    name="ono99",
    help=APP_HELP,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def fail(message: str, status: int = 2) -> typer.Exit:
    """Print ``message`` as one line on stderr; return the Exit to raise."""
    line = terminal_safe(" ".join(str(message).split()))
    print(f"ono99: error: {line}", file=sys.stderr)
    return typer.Exit(status)


def use_language(lang: str | None) -> None:
    """Switch to ``lang`` (None: keep the current one); an unknown or uninstalled
    language is a one-line error with exit status 2."""
    if lang is None or lang == get_language():
        return
    if lang.lower() in LANGUAGES:  # TA, Ta: the code in any case
        lang = lang.lower()
    if lang not in LANGUAGES:
        raise fail(
            _("unknown language {lang} (choose {choices})").format(
                lang=repr(lang), choices=", ".join(LANGUAGES)
            )
        )
    try:
        set_language(lang)
    except OSError:
        raise fail(
            _("the {lang} translation is not installed").format(lang=LANGUAGES[lang])
        ) from None
