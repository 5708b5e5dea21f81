"""The page's words from the engine: ``GET /api/i18n/{lang}`` and ``GET /api/presets``.

The page holds no rule fact: a preset's title, player range (R-SET-5), options with their
defaults and labels (R-SET-6), card names and rules help come from
:func:`ono99.texts.preset_words`, told in the language asked for. The catalog answer
carries the presets too, so a page that keeps its catalog (the companion, offline) keeps
the card names with it.

>>> [p["players"] for p in presets_json("en")["presets"]]
[[2, 6], [2, 8], [2, 8]]
>>> presets_json("ta")["presets"][0]["cards"]["R"]
'ரிவர்ஸ்'
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from fastapi import APIRouter, Request

from ono99.i18n import LANGUAGES, N_
from ono99.texts import preset_words
from ono99.web.announce import catalog_json, pick_language, presets_json, speaking
from ono99.web.errors import WebError

__all__ = ["presets_json", "preset_json", "catalog_json", "make_router"]

#: the longest ``?options=`` text taken (a form's options are a few dozen bytes)
OPTIONS_LIMIT = 1000


def preset_json(preset: str, options: dict[str, Any], lang: str) -> dict[str, Any]:
    """One preset with ``options`` (its rules help for them), in ``lang`` (``PresetOut``);
    :class:`~ono99.errors.RulesError` for a bad preset or options."""
    with speaking(lang):
        return preset_words(preset, options)


def _options(text: str | None) -> dict[str, Any]:
    """``?options=`` as an object; a one-line 400 for anything else (too long included:
    a form's options are a few dozen bytes)."""
    if text is None or not text.strip():
        return {}
    value = None
    if len(text) <= OPTIONS_LIMIT:
        with contextlib.suppress(ValueError, RecursionError):
            value = json.loads(text)
    if not isinstance(value, dict):
        raise WebError(400, N_("'options' must be a JSON object"))
    return value


def make_router() -> APIRouter:
    """A FastAPI router with the page's words: ``GET /api/i18n/{lang}`` (404 for an
    unknown language), ``GET /api/presets?lang=L`` and ``GET /api/presets/{P}?options=JSON``
    (400 for a bad preset or options)."""
    router = APIRouter()

    def lang_of(request: Request, lang: str | None) -> str:
        return pick_language(lang or request.headers.get("accept-language"))

    @router.get("/api/i18n/{lang}")
    async def i18n_catalog(lang: str) -> dict[str, Any]:
        if lang not in LANGUAGES:
            raise WebError(404, N_("unknown language {lang}"), lang=repr(lang[:10]))
        return catalog_json(lang)

    @router.get("/api/presets")
    async def presets(request: Request, lang: str | None = None) -> dict[str, Any]:
        return presets_json(lang_of(request, lang))

    @router.get("/api/presets/{preset}")
    async def preset(
        request: Request, preset: str, options: str | None = None, lang: str | None = None
    ) -> dict[str, Any]:
        return preset_json(preset, _options(options), lang_of(request, lang))

    return router
