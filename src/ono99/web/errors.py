"""What a web request or message is refused with: one line, in the client's language."""

from __future__ import annotations

from typing import Any

from ono99 import names
from ono99.errors import Ono99Error
from ono99.i18n import N_
from ono99.web.announce import catalog

__all__ = ["WebError", "no_table", "clean_name", "one_line", "NO_TABLE"]


class WebError(Exception):
    """A request the table refuses: HTTP ``status`` and a message template (``N_``)."""

    def __init__(self, status: int, message: str, **params: Any) -> None:
        super().__init__(message.format(**params) if params else message)
        self.status = status
        self.template = message
        self.params = params

    def text(self, lang: str) -> str:
        msg = catalog(lang).gettext(self.template)
        try:
            return msg.format(**self.params) if self.params else msg
        except (KeyError, IndexError, ValueError):
            return str(self)


NO_TABLE = N_("no such table")


def no_table() -> WebError:
    """The answer to an unknown table and to a wrong token alike."""
    return WebError(404, NO_TABLE)


def clean_name(name: str) -> str:
    """A player name by the one rule of :mod:`ono99.names`; WebError 400 with its reason."""
    try:
        return names.clean_name(name)
    except Ono99Error as e:
        raise WebError(400, e.template, **e.params) from None


def one_line(text: str) -> str:
    """``text`` on one line, as valid UTF-8 (a client's lone surrogate becomes "?")."""
    return " ".join(text.split()).encode("utf-8", "replace").decode("utf-8")
