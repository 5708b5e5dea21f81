"""The page's words and markup rules, checked on its source (no browser needed)."""

from __future__ import annotations

import re
from pathlib import Path

from ono99.web.ui_strings import UI_PLURALS, UI_STRINGS

STATIC = Path(__file__).resolve().parents[3] / "src" / "ono99" / "web" / "static"
_S = r'"((?:[^"\\]|\\.)*)"'


def _scripts() -> dict[str, str]:
    return {str(p.relative_to(STATIC)): p.read_text(encoding="utf-8") for p in STATIC.rglob("*.js")}


def test_every_word_of_the_page_is_in_the_catalogs() -> None:
    """Each t("..."), tn("...", "...") and data-i18n="..." of the page is marked in
    ono99.web.ui_strings, so the catalogs (and tests/test_i18n.py) cover it."""
    singles: set[str] = set()
    plurals: set[tuple[str, str]] = set()
    for src in _scripts().values():
        plurals.update(re.findall(r"\btn\(\s*" + _S + r"\s*,\s*" + _S, src))
        singles.update(re.findall(r"\bt\(\s*" + _S, src))
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    singles.update(re.findall(r'data-i18n(?:-label|-placeholder|-title)?="([^"]*)"', html))
    assert singles, "no strings found: has the page's source moved?"
    assert sorted(singles - set(UI_STRINGS)) == []
    assert sorted(plurals - set(UI_PLURALS)) == []


def test_the_page_never_inserts_markup() -> None:
    """Names and server texts go into the page as text only: no innerHTML, outerHTML,
    insertAdjacentHTML, document.write or eval anywhere in the page's scripts."""
    for name, src in _scripts().items():
        for bad in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
            assert bad not in src, f"{name} uses {bad}"


def test_page_loads_only_its_own_files() -> None:
    """No build step and nothing from the network: every script and style is a file
    of the package, referenced under /static/."""
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    for ref in re.findall(r'(?:src|href)="([^"]+)"', html):
        assert ref.startswith(("/static/", "/", "#", "data:")), ref
        assert "//" not in ref, ref
        if ref.startswith("/static/"):
            assert (STATIC / ref.removeprefix("/static/")).is_file(), ref
