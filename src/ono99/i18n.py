"""Message catalogs (gettext, compiled with Babel) for the six languages.

Front ends call :func:`set_language` once and translate with :func:`_` and
:func:`ngettext`. A server speaking many languages at once wraps each piece of work in
``with speaking(lang):`` instead: the language lives in a context variable, so every
thread and asyncio task has its own. The engine never produces words, only events.
"""

from __future__ import annotations

import errno
import functools
import gettext as _gettext
import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from ono99.errors import Ono99Error

__all__ = ["LANGUAGES", "LOCALE_DIR", "set_language", "get_language", "_", "ngettext", "N_",
           "translator", "detect_language", "translate_error", "speaking", "os_reason"]  # fmt: skip

#: code -> name of the language in itself
LANGUAGES: dict[str, str] = {
    "en": "English",
    "ta": "தமிழ்",
    "gu": "ગુજરાતી",
    "uz": "Oʻzbekcha",
    "my": "မြန်မာ",
    "kn": "ಕನ್ನಡ",
}
LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "ono99"

_current: _gettext.NullTranslations = _gettext.NullTranslations()
_lang = "en"
#: (code, catalog) of a ``speaking`` block, overriding the process-wide language
_speaking: ContextVar[tuple[str, _gettext.NullTranslations] | None] = ContextVar(
    "ono99_speaking", default=None
)


@functools.cache
def translator(lang: str) -> _gettext.NullTranslations:
    """The catalog for ``lang`` (English text when ``lang`` is ``en``)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (choose {', '.join(LANGUAGES)})")
    if lang == "en":
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[lang])


def detect_language() -> str:
    """The language from the locale environment (LANGUAGE, LC_ALL, LC_MESSAGES, LANG)."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        for part in value.split(":"):
            code = part.split("_")[0].split(".")[0].lower()
            if code in LANGUAGES:
                return code
    return "en"


def set_language(lang: str | None) -> str:
    """Use ``lang`` (or the locale's language) for every message from now on."""
    global _current, _lang
    code = lang or detect_language()
    _current = translator(code)
    _lang = code
    return code


def get_language() -> str:
    over = _speaking.get()
    return _lang if over is None else over[0]


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Translate into ``lang`` inside the block, in this thread or task only (a server's
    many connections each in their own language); raises ValueError for an unknown code."""
    token = _speaking.set((lang, translator(lang)))
    try:
        yield
    finally:
        _speaking.reset(token)


def _catalog() -> _gettext.NullTranslations:
    over = _speaking.get()
    return _current if over is None else over[1]


def _(message: str) -> str:
    """Translate ``message`` into the current language."""
    return _catalog().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """Translate the singular or plural form of a message, as the language's rules pick for ``n``."""
    return _catalog().ngettext(singular, plural, n)


def translate_error(error: BaseException) -> str:
    """The one-line message of ``error`` in the current language.

    An :class:`~ono99.errors.Ono99Error` is translated from its English template and
    params (the engine raises them in English); any other error is shown as it is."""
    if isinstance(error, Ono99Error):
        return error.translated(_)
    return str(error)


def N_(message: str) -> str:
    """Mark ``message`` for the catalog without translating it yet (for text defined at import
    time, translated later with ``_(message)``)."""
    return message


#: why a file or socket operation failed, by ``errno``, in the catalogs' words (an
#: ``OSError``'s ``strerror`` is the C library's English whatever ``--lang`` says)
_OS_REASONS = {
    errno.ENOENT: N_("no such file or folder"),
    errno.ENOTDIR: N_("not a folder"),
    errno.EISDIR: N_("it is a folder"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("permission denied"),
    errno.EEXIST: N_("it already exists"),
    errno.ENOSPC: N_("no space left on the device"),
    errno.EROFS: N_("the file system is read-only"),
    errno.ENAMETOOLONG: N_("the name is too long"),
    errno.EADDRNOTAVAIL: N_("that address is not one of this machine's"),
}


def os_reason(error: OSError | UnicodeDecodeError) -> Ono99Error:
    """Why ``error`` happened, as a parameter of a message: an :class:`Ono99Error`, so it
    is translated with the message that holds it; in the system's own words where the
    catalogs have none for it.

    >>> str(os_reason(NotADirectoryError(errno.ENOTDIR, "Not a directory")))
    'not a folder'
    """
    if isinstance(error, UnicodeDecodeError):
        return Ono99Error(N_("not UTF-8 text"))
    reason = _OS_REASONS.get(error.errno or 0)
    if reason is not None:
        return Ono99Error(reason)
    return Ono99Error(error.strerror or type(error).__name__)
