"""Message catalogs (``scripts/i18n.py``): every message translated in every language, the
placeholders of English kept, the .mo files compiled from the current .po files, the .pot
extracted from the current source; and the language really switches (narration, CLI help).

When one of these fails after a source change: ``python scripts/i18n.py all``, translate
the new (empty or fuzzy) entries of each .po, then ``python scripts/i18n.py compile``.
"""

from __future__ import annotations

import gettext
import importlib.util
import io
import os
import re
import string
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from ono99 import i18n
from ono99.cards import Card
from ono99.events import Event
from ono99.narrate import card_name, narrate
from ono99.rules import make_rules

ROOT = Path(__file__).resolve().parent.parent
POT = i18n.LOCALE_DIR / f"{i18n.DOMAIN}.pot"
TRANSLATED = [lang for lang in i18n.LANGUAGES if lang != "en"]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ono99_i18n_script", ROOT / "scripts" / "i18n.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _po(lang: str) -> Path:
    return i18n.LOCALE_DIR / lang / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=locale)


def _messages(cat: Catalog) -> dict[str, Message]:
    return {m.id if isinstance(m.id, str) else m.id[0]: m for m in cat if m.id}


def _fields(text: str) -> set[str]:
    """The ``{name}`` placeholders of a format string (ValueError if its braces are broken)."""
    names = set()
    for _literal, field, _spec, _conversion in string.Formatter().parse(text):
        if field is not None:
            names.add(re.split(r"[.\[]", field, maxsplit=1)[0])
    return names


def _forms(m: Message) -> list[str]:
    if isinstance(m.string, tuple | list):
        return [str(s or "") for s in m.string]
    return [m.string or ""]


@pytest.fixture
def english() -> Iterator[None]:
    """Put the language back to English after a test that switches it."""
    yield
    i18n.set_language("en")


def test_template_exists_and_has_messages() -> None:
    assert POT.is_file(), "no message template: run python scripts/i18n.py extract"
    assert len(_messages(_read(POT))) > 20


def test_template_is_current(tmp_path: Path) -> None:
    """The .pot holds exactly the messages of the source (re-extracted to compare)."""
    fresh = tmp_path / "fresh.pot"
    _script().extract_to(fresh)
    want = {m.id if isinstance(m.id, str) else tuple(m.id) for m in _read(fresh) if m.id}
    have = {m.id if isinstance(m.id, str) else tuple(m.id) for m in _read(POT) if m.id}
    assert not want - have, f"messages missing from ono99.pot (run extract): {sorted(map(str, want - have))}"  # fmt: skip
    assert not have - want, f"stale messages in ono99.pot (run extract): {sorted(map(str, have - want))}"  # fmt: skip


@pytest.mark.parametrize("lang", TRANSLATED)
def test_plural_forms_header(lang: str) -> None:
    cat = _read(_po(lang))
    want = get_plural(lang)
    assert cat.num_plurals == want.num_plurals
    assert cat.plural_expr.replace(" ", "") == want.plural_expr.replace(" ", "")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_translated(lang: str) -> None:
    """Every template message is in the catalog, not fuzzy, with every plural form filled."""
    cat = _read(_po(lang))
    have = _messages(cat)
    template = _messages(_read(POT))
    problems = []
    for key, tm in template.items():
        m = have.get(key)
        if m is None or m.id != tm.id:
            problems.append(f"missing (run update): {key!r}")
            continue
        forms = _forms(m)
        if m.fuzzy:
            problems.append(f"fuzzy: {key!r}")
        elif m.pluralizable and len(forms) != cat.num_plurals:
            problems.append(f"{len(forms)} plural forms, not {cat.num_plurals}: {key!r}")
        elif not all(f.strip() for f in forms):
            problems.append(f"untranslated: {key!r}")
    stale = sorted(set(have) - set(template))
    problems += [f"not in the template (run update): {key!r}" for key in stale]
    assert not problems, f"{lang}: {len(problems)} problems:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_placeholders_match_english(lang: str) -> None:
    """Each translation uses exactly the ``{placeholders}`` of its English message."""
    problems = []
    for key, m in _messages(_read(_po(lang))).items():
        forms = [f for f in _forms(m) if f]
        try:
            if isinstance(m.id, str):
                want = [_fields(m.id)] * len(forms)
                allowed = [{frozenset(_fields(m.id))}] * len(forms)
            else:
                singular, plural = _fields(m.id[0]), _fields(m.id[1])
                # a singular form may leave out the count ("one card"); the last form
                # (or the only one) must carry every placeholder of the English plural
                allowed = [{frozenset(singular), frozenset(plural)}] * len(forms)
                if forms:
                    allowed[-1] = {frozenset(plural)}
                want = [plural] * len(forms)
            for form, ok, w in zip(forms, allowed, want, strict=True):
                got = _fields(form)
                if frozenset(got) not in ok:
                    problems.append(f"{key!r}: {form!r} has {sorted(got)}, English {sorted(w)}")
                form.format(**{name: "x" for name in got})
        except (ValueError, IndexError, KeyError) as e:
            problems.append(f"{key!r}: broken format string ({e})")
    assert not problems, f"{lang}:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_mo_is_current(lang: str) -> None:
    """The shipped .mo is what compiling the .po gives now (compiled here, then compared)."""
    po = _po(lang)
    mo = po.with_suffix(".mo")
    assert mo.is_file(), f"no {mo.name} for {lang}: run python scripts/i18n.py compile"
    buf = io.BytesIO()
    write_mo(buf, _read(po, locale=lang))
    buf.seek(0)
    fresh = gettext.GNUTranslations(buf)
    with mo.open("rb") as f:
        shipped = gettext.GNUTranslations(f)
    assert shipped._catalog == fresh._catalog, (  # type: ignore[attr-defined]
        f"{mo} is stale: run python scripts/i18n.py compile"
    )


@pytest.mark.parametrize("lang", TRANSLATED)
def test_narration_in_each_language(lang: str, english: None) -> None:
    rules = make_rules("mattel2022")
    names = ["Ana", "Bo", "Cy"]
    event = Event("play", seat=0, card=Card.REVERSE, total=17)
    assert i18n.set_language("en") == "en"
    english_line = narrate(event, names, rules)
    assert english_line == "Ana plays Reverse — total 17"

    assert i18n.set_language(lang) == lang
    assert i18n.get_language() == lang
    line = narrate(event, names, rules)
    reverse = card_name(Card.REVERSE, rules)
    assert reverse and reverse != "Reverse"
    assert line is not None and line != english_line
    assert reverse in line and "Ana" in line and "17" in line

    hold_rules = make_rules("classic1980")
    hold = card_name(Card.HOLD, hold_rules)
    bust = narrate(Event("bust", seat=1, card=Card.HOLD), names, hold_rules)
    assert bust is not None and hold in bust and "Bo" in bust
    drew = narrate(Event("draw", seat=2, info={"count": 3}), names, rules)
    assert drew is not None and "3" in drew and "Cy" in drew and "draws" not in drew


def test_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown language"):
        i18n.set_language("xx")
    assert i18n.get_language() == "en"


def test_detect_language(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    assert i18n.detect_language() == "en"
    monkeypatch.setenv("LANG", "kn_IN.UTF-8")
    assert i18n.detect_language() == "kn"
    monkeypatch.setenv("LANGUAGE", "fr:my")
    assert i18n.detect_language() == "my"


def test_cli_unknown_lang_is_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    from ono99.cli import main

    for argv in (["--lang", "xx", "bench", "--help"], ["bench", "--lang=xx"], ["bench", "--lang"]):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and err.startswith("ono99: error:")


def _run_cli(args: list[str], env_lang: str | None = None) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env["LANG"] = env_lang or "C.UTF-8"
    env["PYTHONIOENCODING"] = "utf-8"
    env["COLUMNS"] = "300"
    out = subprocess.run(
        [sys.executable, "-c", "from ono99.cli import main; main()", *args],
        capture_output=True, text=True, encoding="utf-8", env=env, timeout=120,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    return out.stdout


# each language reached a different way: --lang before or after the command, --lang=L,
# the locale, and a command that takes --lang itself (replay)
CLI_CASES = [
    ("ta", ["--lang", "ta", "bench", "--help"], None),
    ("gu", ["bench", "--help"], "gu_IN.UTF-8"),
    ("uz", ["bench", "--lang=uz", "--help"], None),
    ("my", ["bench", "--help", "--lang", "my"], "ta_IN.UTF-8"),
    ("kn", ["--lang", "kn", "replay", "--help"], None),
]


@pytest.mark.parametrize(("lang", "args", "env_lang"), CLI_CASES, ids=[c[0] for c in CLI_CASES])
def test_cli_help_in_language(lang: str, args: list[str], env_lang: str | None) -> None:
    tr = i18n.translator(lang)
    out = _run_cli(args, env_lang)
    if "replay" in args:
        want = tr.gettext("Print the final state as JSON.")
    else:
        want = tr.gettext("Number of players.")
    assert want != "Number of players." and want != "Print the final state as JSON."
    assert want in out
