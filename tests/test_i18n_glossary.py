"""The glossary of ``docs/i18n.md`` holds in every catalog: each language's table gives, per
English term, the stem its translation must contain and the words it must not use.

For each language and each row: every message whose English (less its placeholders, options,
quoted keys and plain-mode answers, and less the longer glossary terms that contain this one)
holds one of the row's English words must contain the stem and none of the avoided words. An
avoided word that is the stem of another term of the same message is allowed there (Tamil
டிரா in டிரா பைல், "draw pile", beside "draw"). The rules of the table are written above it in
``docs/i18n.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from ono99 import i18n

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "i18n.md"
TRANSLATED = [lang for lang in i18n.LANGUAGES if lang != "en"]

#: what is taken out of an English message before the terms are looked for
_ENGLISH_NOISE = re.compile(
    r"\{[^{}]*\}"  # placeholders
    r"|--[\w-]+"  # options (--draw-seconds)
    r"|\w+=[\w|]+"  # option values (scoring=tokens|points)
    r"|'[\w ]+'"  # quoted keys ('players') and plain-mode lines ('total: N' keeps its colon)
    r"|'[a-z]+: [^']*'"  # 'hand: c1 c2 ...'
    r"|99x4, draw, help or quit|answer draw|offering draw"  # plain-mode answers: not translated
)


@dataclass(frozen=True)
class Term:
    english: tuple[re.Pattern[str], ...]
    words: tuple[str, ...]  # the English words, lower case, to hide longer terms
    stems: tuple[str, ...]
    avoid: tuple[re.Pattern[str], ...]
    row: str


def _items(cell: str) -> list[str]:
    """A cell's items, split on " / ", each without its bracketed note."""
    out = []
    for item in cell.split(" / "):
        item = item.strip()
        if not item.startswith("`"):
            item = re.sub(r"\s*\(.*\)\s*$", "", item).strip()
        if item:
            out.append(item)
    return out


def _regex(item: str) -> str | None:
    m = re.fullmatch(r"`([^`]+)`.*", item)
    return m.group(1) if m else None


def _english(item: str) -> re.Pattern[str]:
    rx = _regex(item)
    if rx is not None:
        return re.compile(rx)
    flags = 0 if any(c.isupper() for c in item) else re.IGNORECASE
    return re.compile(r"(?<![\w-])" + re.escape(item) + r"(?![\w-])", flags)


def glossary() -> dict[str, list[Term]]:
    """The tables of docs/i18n.md, by language code (the ``### xx — Name`` headings)."""
    tables: dict[str, list[Term]] = {}
    lang = None
    for line in DOC.read_text(encoding="utf-8").splitlines():
        head = re.match(r"### (\w+) — ", line)
        if head:
            lang = head.group(1)
            tables[lang] = []
            continue
        if line.startswith("## "):
            lang = None
        if lang is None or not line.startswith("| ") or line.startswith(("| English", "|---")):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        assert len(cells) == 4, f"{lang}: a glossary row needs 4 cells: {line}"
        english, _use, stem, avoid = cells
        items = _items(english)
        tables[lang].append(
            Term(
                english=tuple(_english(i) for i in items),
                words=tuple(i.lower() for i in items if _regex(i) is None),
                stems=tuple(_items(stem)),
                avoid=tuple(
                    re.compile(_regex(a) or re.escape(a.casefold())) for a in _items(avoid)
                ),
                row=line,
            )
        )
    return tables


def _english_text(msgid: str, term: Term, terms: list[Term]) -> str:
    """The English a term is looked for in: without noise and without longer terms."""
    text = _ENGLISH_NOISE.sub(" ", msgid)
    for other in terms:
        for word in other.words:
            if other is not term and any(w in word and w != word for w in term.words):
                text = re.sub(re.escape(word), " ", text, flags=re.IGNORECASE)
    return text


def _uses(term: Term, msgid: str, terms: list[Term]) -> bool:
    text = _english_text(msgid, term, terms)
    return any(p.search(text) for p in term.english)


def _catalog(lang: str) -> list[tuple[str, list[str]]]:
    """(the message's English, [its English forms..., one translation]) for every form."""
    path = i18n.LOCALE_DIR / lang / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"
    with path.open("rb") as f:
        cat = read_po(f)
    out = []
    for m in cat:
        if not m.id:
            continue
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        strings = [m.string] if isinstance(m.string, str) else list(m.string or ())
        for s in strings:
            if s:
                out.append((ids[-1] if len(ids) > 1 else ids[0], [*ids, s]))
    return out


def test_the_glossary_has_a_table_per_language() -> None:
    tables = glossary()
    assert sorted(tables) == sorted(TRANSLATED)
    for lang, terms in tables.items():
        assert len(terms) >= 20, f"{lang}: only {len(terms)} glossary rows"
        for t in terms:
            assert t.english and t.stems, t.row


def test_the_masks_work() -> None:
    terms = glossary()["ta"]
    draw = next(t for t in terms if "draw" in t.words)
    assert not _uses(draw, "draw pile {count}", terms)
    assert not _uses(draw, "--draw-seconds must be more than 0", terms)
    assert _uses(draw, "Draw your card, then play your second card", terms)
    assert not _uses(draw, "answer a card from your hand, 99x4, draw, help or quit", terms)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_glossary_terms_are_used_consistently(lang: str) -> None:
    terms = glossary()[lang]
    problems = []
    for _key, texts in _catalog(lang):
        *ids, msgstr = texts
        msgid = " ".join(ids)
        present = [t for t in terms if _uses(t, msgid, terms)]
        for term in present:
            label = term.row.split(" | ")[0].strip("| ")
            if not any(stem.casefold() in msgstr.casefold() for stem in term.stems):
                problems.append(
                    f"{label}: {'/'.join(term.stems)} missing in {msgstr!r} ({msgid!r})"
                )
            allowed = re.sub(r"\{[^{}]*\}", " ", msgstr).casefold()  # placeholders are English
            for other in present:
                if other is not term:
                    for stem in other.stems:
                        allowed = allowed.replace(stem.casefold(), " ")
            for bad in term.avoid:
                if bad.search(allowed):
                    problems.append(f"{label}: {bad.pattern} in {msgstr!r} ({msgid!r})")
    assert not problems, f"{lang}: {len(problems)} glossary problems:\n" + "\n".join(problems)
