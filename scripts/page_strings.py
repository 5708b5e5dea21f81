"""Babel extractor of the web pages' markup (``babel.cfg``: ``web/static/*.html``).

Every ``data-i18n``, ``data-i18n-label``, ``data-i18n-placeholder`` and ``data-i18n-title``
attribute of the page names a message (i18n.js translates it in the browser), so that
``scripts/i18n.py extract`` puts the pages' markup in the same catalogs as their scripts
(those Babel's ``javascript`` extractor reads: ``t("…")``, ``tn("…", "…")``). A comment
``<!-- TRANSLATORS: … -->`` goes with the messages of the element that follows it.
Only the extraction imports this module; it is not part of the package.
"""

from __future__ import annotations

import html
from collections.abc import Collection, Iterator, Mapping
from html.parser import HTMLParser
from typing import IO, Any

ATTRIBUTES = ("data-i18n", "data-i18n-label", "data-i18n-placeholder", "data-i18n-title")


class _Messages(HTMLParser):
    def __init__(self, comment_tags: Collection[str]) -> None:
        super().__init__(convert_charrefs=True)
        self.comment_tags = tuple(comment_tags)
        self.found: list[tuple[int, str, list[str]]] = []
        self.comments: list[str] = []

    def handle_comment(self, data: str) -> None:
        text = " ".join(data.split())
        if text.startswith(self.comment_tags):
            self.comments.append(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line, _ = self.getpos()
        for name, value in attrs:
            if name in ATTRIBUTES and value:
                self.found.append((line, html.unescape(value), self.comments))
        self.comments = []

    handle_startendtag = handle_starttag


def extract_html(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """Babel's extractor interface: (line, funcname, message, comments) per message."""
    parser = _Messages(comment_tags)
    parser.feed(fileobj.read().decode(str(options.get("encoding", "utf-8"))))
    parser.close()
    for line, message, comments in parser.found:
        yield line, None, message, comments
