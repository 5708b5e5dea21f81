"""The page's words and markup rules, checked on its source (no browser needed)."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

STATIC = Path(__file__).resolve().parents[3] / "src" / "ono99" / "web" / "static"
_S = r'"((?:[^"\\]|\\.)*)"'


def _scripts() -> dict[str, str]:
    return {str(p.relative_to(STATIC)): p.read_text(encoding="utf-8") for p in STATIC.rglob("*.js")}


def _template() -> dict[object, list[str]]:
    """The catalog template's messages: msgid (a (singular, plural) pair for a plural) ->
    the files Babel found it in."""
    with (STATIC.parents[1] / "locale" / "ono99.pot").open("rb") as f:
        return {m.id: [loc for loc, _ in m.locations] for m in read_po(f) if m.id}


def test_every_word_of_the_page_is_extracted_from_the_page() -> None:
    """Each t("..."), tn("...", "...") and data-i18n*="..." of the pages is in the catalog
    template with the page file it is in among its locations: babel.cfg's extractors (Babel's
    javascript one, scripts/page_strings.py) find them, with no copy kept by hand."""
    template = _template()
    found: list[tuple[object, str]] = []
    for name, src in _scripts().items():
        for pair in re.findall(r"\btn\(\s*" + _S + r"\s*,\s*" + _S, src):
            found.append((pair, name))
        for single in re.findall(r"\bt\(\s*" + _S, src):
            found.append((single, name))
    for page in ("index.html", "companion.html"):
        html = (STATIC / page).read_text(encoding="utf-8")
        for single in re.findall(r'data-i18n(?:-label|-placeholder|-title)?="([^"]*)"', html):
            found.append((single, page))
    assert len(found) > 150, "too few strings found: has the pages' source moved?"
    missing = [
        (msgid, where)
        for msgid, where in found
        if f"src/ono99/web/static/{where}" not in template.get(msgid, [])
    ]
    assert missing == []


def test_no_page_string_is_copied_by_hand() -> None:
    """The pages' words come only from their own source: no Python module mirrors them."""
    web = STATIC.parent
    assert not (web / "ui_strings.py").exists()
    assert not (web / "companion_strings.py").exists()


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
