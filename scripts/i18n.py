#!/usr/bin/env python3
"""Message catalogs of ono99 (gettext domain ``ono99``), kept with Babel.

    python scripts/i18n.py extract   # source -> src/ono99/locale/ono99.pot
    python scripts/i18n.py update    # ono99.pot -> every <lang>/LC_MESSAGES/ono99.po
    python scripts/i18n.py compile   # every .po -> .mo (committed: installs need no Babel)
    python scripts/i18n.py all       # extract, update, compile
    python scripts/i18n.py status    # per language: messages, untranslated, fuzzy

After ``update``, translate the new (empty) and fuzzy entries of each .po, then ``compile``.
``tests/test_i18n.py`` fails while any message lacks a translation or a file is stale.
English needs no catalog: the source text is English.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "ono99"
LOCALE_DIR = PACKAGE / "locale"
DOMAIN = "ono99"
POT = LOCALE_DIR / f"{DOMAIN}.pot"
MAPPING = ROOT / "babel.cfg"
#: the translated languages (English is the source language)
LANGUAGES = ("ta", "gu", "uz", "my", "kn")
KEYWORDS = ("_", "ngettext:1,2", "N_")


def _pybabel(*args: str) -> None:
    from babel.messages.frontend import CommandLineInterface

    status = CommandLineInterface().run(["pybabel", "--quiet", *args])  # type: ignore[no-untyped-call]
    if status:
        raise SystemExit(status)


def _version() -> str:
    import tomllib

    with (ROOT / "pyproject.toml").open("rb") as f:
        return str(tomllib.load(f)["project"]["version"])


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def extract_to(output: Path) -> None:
    """Extract the messages of the source tree into ``output`` (a .pot file)."""
    import os

    # babel.cfg's extractor of the pages' markup (scripts/page_strings.py) lives beside us
    here = str(Path(__file__).resolve().parent)
    if here not in sys.path:
        sys.path.insert(0, here)

    args = ["extract", "-F", str(MAPPING), "-o", str(output), "--no-default-keywords"]
    for k in KEYWORDS:
        args += ["-k", k]
    args += [
        "--add-location=file",
        "--no-wrap",
        "--add-comments=TRANSLATORS:",
        "--project=ono99",
        f"--version={_version()}",
        "--copyright-holder=the ono99 authors",
        "--header-comment=# Messages of ono99. Regenerate with: python scripts/i18n.py extract",
        str(PACKAGE.relative_to(ROOT)),
    ]
    prev = Path.cwd()
    os.chdir(ROOT)  # locations relative to the repository root
    try:
        _pybabel(*args)
    finally:
        os.chdir(prev)


def _same_messages(a: Path, b: Path) -> bool:
    """Whether two .pot files hold the same messages (ids, locations, comments, flags)."""
    from babel.messages.pofile import read_po

    def key(path: Path) -> list[tuple[object, ...]]:
        with path.open("rb") as f:
            cat = read_po(f)
        return [
            (m.id, sorted(m.locations), m.auto_comments, sorted(m.flags), m.context)
            for m in cat
            if m.id
        ]

    return key(a) == key(b)


def extract() -> None:
    """Re-extract the template; leave the file alone when no message changed (no date churn)."""
    LOCALE_DIR.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        new = Path(tmp) / f"{DOMAIN}.pot"
        extract_to(new.resolve())
        if POT.exists() and _same_messages(POT, new):
            print(f"{POT.relative_to(ROOT)}: unchanged")
            return
        POT.write_bytes(new.read_bytes())
    print(f"{POT.relative_to(ROOT)}: written")


def update() -> None:
    """Merge the template into every language's .po (creating missing ones)."""
    for lang in LANGUAGES:
        po = po_path(lang)
        if not po.exists():
            _pybabel(
                "init", "-i", str(POT), "-d", str(LOCALE_DIR), "-D", DOMAIN, "-l", lang,
                "--no-wrap",
            )  # fmt: skip
        _pybabel(
            "update", "-i", str(POT), "-d", str(LOCALE_DIR), "-D", DOMAIN, "-l", lang,
            "--no-wrap", "--ignore-obsolete", "--ignore-pot-creation-date",
        )  # fmt: skip
    status()


def compile_() -> None:
    """Compile every .po into its .mo."""
    for lang in LANGUAGES:
        _pybabel("compile", "-d", str(LOCALE_DIR), "-D", DOMAIN, "-l", lang)
    print(f"compiled: {', '.join(LANGUAGES)}")


def _forms(string: object) -> list[str]:
    """A message's translations: one, or one per plural form."""
    if isinstance(string, tuple | list):
        return [str(s or "") for s in string]
    return [str(string or "")]


def status() -> int:
    """Print per language how many messages are translated; 1 if any is missing."""
    from babel.messages.pofile import read_po

    missing = 0
    for lang in LANGUAGES:
        with po_path(lang).open("rb") as f:
            cat = read_po(f)
        msgs = [m for m in cat if m.id]
        empty = [m for m in msgs if not all(_forms(m.string))]
        fuzzy = [m for m in msgs if m.fuzzy]
        missing += len(empty) + len(fuzzy)
        print(f"{lang}: {len(msgs)} messages, {len(empty)} untranslated, {len(fuzzy)} fuzzy")
    return 1 if missing else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("command", choices=["extract", "update", "compile", "all", "status"])
    cmd = parser.parse_args(argv).command
    if cmd in ("extract", "all"):
        extract()
    if cmd in ("update", "all"):
        update()
    if cmd in ("compile", "all"):
        compile_()
    if cmd == "status":
        return status()
    return 0


if __name__ == "__main__":
    sys.exit(main())
