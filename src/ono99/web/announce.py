"""Announcements for one connection: events filtered for a seat, told in its language.

The engine's narration (:func:`ono99.narrate.narrate`) translates through
:mod:`ono99.i18n`, whose language a ``speaking(lang)`` block sets for the current thread
or task only: a server has many languages at once. The server never calls
:func:`ono99.i18n.set_language`.
"""

from __future__ import annotations

import functools
import gettext
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Protocol

from ono99 import i18n
from ono99.cards import action_code
from ono99.errors import Ono99Error
from ono99.events import Event
from ono99.i18n import _
from ono99.narrate import card_name, narrate
from ono99.rules import PRESETS, Rules
from ono99.texts import preset_words

__all__ = [
    "catalog", "catalog_json", "presets_json", "speaking", "event_json", "by_bot_text", "translate",
    "pick_language", "request_language",
]  # fmt: skip


@functools.cache
def catalog(lang: str) -> gettext.NullTranslations:
    """The catalog of ``lang`` (English if it is unknown or not installed)."""
    try:
        return i18n.translator(lang)
    except (ValueError, OSError):
        return gettext.NullTranslations()


def presets_json(lang: str) -> dict[str, Any]:
    """Every preset with its default options, in ``lang`` (``PresetsOut``)."""
    with speaking(lang):
        return {"lang": lang, "presets": [preset_words(p) for p in PRESETS]}


def catalog_json(lang: str) -> dict[str, Any]:
    """``lang``'s catalog for the page, and the presets in it (``GET /api/i18n/{lang}``,
    and ``i18n/{lang}.json`` of the companion's static site)."""
    messages: dict[str, str] = {}
    plurals: dict[str, list[str]] = {}
    raw = getattr(catalog(lang), "_catalog", {})
    for key, value in raw.items():
        if isinstance(key, tuple):
            singular, index = key
            forms = plurals.setdefault(singular, [])
            while len(forms) <= index:
                forms.append("")
            forms[index] = value
        elif key:
            messages[key] = value
    return {
        "lang": lang,
        "dir": "ltr",
        "messages": messages,
        "plurals": plurals,
        "presets": presets_json(lang)["presets"],
    }


def pick_language(value: str | None) -> str:
    """A language code from ``?lang=`` or an Accept-Language header; ``en`` by default."""
    for part in (value or "").split(","):
        code = part.split(";")[0].strip().split("-")[0].split("_")[0].lower()
        if code in i18n.LANGUAGES:
            return code
    return "en"


class _Request(Protocol):
    """What :func:`request_language` reads of a request (Starlette's ``HTTPConnection``;
    no web library is imported here: this module also runs in the browser, Pyodide)."""

    @property
    def query_params(self) -> Mapping[str, str]: ...

    @property
    def headers(self) -> Mapping[str, str]: ...


def request_language(request: _Request) -> str:
    """The language a request asks for: ``?lang=``, else its Accept-Language header."""
    return pick_language(request.query_params.get("lang") or request.headers.get("accept-language"))


@contextmanager
def speaking(lang: str) -> Iterator[gettext.NullTranslations]:
    """Narrate in ``lang`` for the length of the block (this thread or task only)."""
    code = lang if lang in i18n.LANGUAGES else "en"
    try:
        i18n.translator(code)
    except OSError:  # a catalog missing from a broken install: English
        code = "en"
    with i18n.speaking(code):
        yield catalog(code)


def translate(error: BaseException, lang: str) -> str:
    """A one-line error message in ``lang``."""
    if isinstance(error, Ono99Error):
        text = error.translated(catalog(lang).gettext)
    else:
        text = catalog(lang).gettext(str(error))
    return " ".join(text.split())


def _cards(value: Any) -> Any:
    if isinstance(value, list):
        return [_cards(v) for v in value]
    if isinstance(value, int) and not isinstance(value, bool):
        return action_code(value)
    return value


def event_json(
    event: Event, names: Sequence[str], rules: Rules, seat: int | None, lang: str | None
) -> dict[str, Any]:
    """One event (already filtered for ``seat`` by ``Game.events_for``) as JSON with card
    codes and its announcement in ``lang`` (None: in the language of the ``speaking``
    block around the call, cheaper for many events at once)."""
    info: dict[str, Any] | None = None
    if event.info is not None:
        info = {}
        for k, v in event.info.items():
            info[k] = _cards(v) if k in ("cards", "hands") else v
    if lang is None:
        text = narrate(event, names, rules, you=seat)
    else:
        with speaking(lang):
            text = narrate(event, names, rules, you=seat)
    return {
        "kind": event.kind,
        "seat": event.seat,
        "card": None if event.card is None else action_code(event.card),
        "total": event.total,
        "info": info,
        "text": text,
    }


def by_bot_text(event: Event, rules: Rules) -> str:
    """A card a bot played for the reader's seat while they were away or out of time,
    told to them as the bot's (in the language of the ``speaking`` block)."""
    assert event.card is not None
    # TRANSLATORS: a card a bot played for the reader while they were away or out of time
    return _("A bot plays {card} for you — total {total}").format(
        card=card_name(event.card, rules), total=event.total
    )
