"""Announcements spoken by the server (espeak-ng, where it is installed) for a browser with
no voice for the page's language: the companion plays the sound instead (docs/companion.md).
The text goes to espeak-ng on its standard input, never through a shell; answers are kept
(most recent first) so the totals a table hears over and over cost nothing after the first."""

from __future__ import annotations

import shutil
import subprocess
from collections import OrderedDict
from threading import Lock

__all__ = ["VOICES", "MAX_TEXT", "available", "synthesize"]

#: the espeak-ng voice of each page language (CONTRACTS.md "Languages")
VOICES = {"en": "en-us", "ta": "ta", "gu": "gu", "uz": "uz", "my": "my", "kn": "kn"}
#: the longest text spoken (a round's scores with 8 long names stay below)
MAX_TEXT = 600
_KEEP = 512
_kept: OrderedDict[tuple[str, str], bytes] = OrderedDict()
_lock = Lock()


def _espeak() -> str | None:
    return shutil.which("espeak-ng")


def available() -> list[str]:
    """The page languages the server can speak (none without espeak-ng)."""
    return sorted(VOICES) if _espeak() else []


def synthesize(text: str, lang: str) -> bytes | None:
    """``text`` spoken in ``lang`` as WAV bytes; None without espeak-ng (or when it fails)."""
    key = (lang, text)
    with _lock:
        if key in _kept:
            _kept.move_to_end(key)
            return _kept[key]
    exe = _espeak()
    if exe is None or lang not in VOICES:
        return None
    try:
        run = subprocess.run(
            [exe, "-v", VOICES[lang], "-s", "150", "--stdout"],
            input=text.encode("utf-8"), capture_output=True, timeout=10, check=False,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return None
    if run.returncode != 0 or not run.stdout.startswith(b"RIFF"):
        return None
    with _lock:
        _kept[key] = run.stdout
        while len(_kept) > _KEEP:
            _kept.popitem(last=False)
    return run.stdout
