"""Helpers for the command-line tests: the CLI run as a user runs it, in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from ono99.i18n import translator


def run(
    *args: str, stdin: str | None = None, lang: str = "C.UTF-8"
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    env.update(LC_ALL="C.UTF-8", LANG=lang, PYTHONIOENCODING="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "ono99", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=120,
    )


def one_line_error(p: subprocess.CompletedProcess[str], status: int = 2) -> str:
    assert p.returncode == status, (p.returncode, p.stdout, p.stderr)
    assert "Traceback" not in p.stderr + p.stdout
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ono99: error: "), p.stderr
    return lines[0]


def needs_catalog(lang: str) -> None:
    try:
        translator(lang)
    except OSError:
        pytest.fail(f"no compiled {lang} catalog: the .mo files are committed (scripts/i18n.py)")
