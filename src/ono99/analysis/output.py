"""The files of an analysis: ``report.html``, ``summary.json``, ``games.jsonl``,
``games.csv`` and ``records.jsonl`` in one folder."""

from __future__ import annotations

import csv
import errno
import io
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ono99.analysis.collect import GameData
from ono99.analysis.report import render

__all__ = ["FILES", "CSV_COLUMNS", "check_folder", "write_outputs"]

FILES = ("report.html", "summary.json", "games.jsonl", "games.csv", "records.jsonl")

#: the columns of games.csv (lists joined with spaces)
CSV_COLUMNS = (
    "index", "seed", "bots", "winners", "moves", "plays", "rounds", "turns", "busts",
    "out", "places", "reshuffles", "floor_hits", "negative_plays", "min_total", "four99",
    "draws_lost",
)  # fmt: skip


def check_folder(out: Path) -> None:
    """Check, creating nothing, that ``out`` is a folder or can be made one and that files
    can be written there; raises OSError otherwise. (The folder itself is made only when
    the files are written, so a run that fails or is stopped leaves nothing behind.)"""
    base = out
    while not base.exists() and base.parent != base:  # the nearest part that exists
        if base.is_symlink():  # a dangling link: mkdir would fail on it
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(base))
        base = base.parent
    if not base.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(base))
    # a file made and removed at once (os.access cannot tell a read-only file system,
    # nor answer for root)
    probe = base / f".ono99-analyze-probe-{os.getpid()}"
    probe.write_bytes(b"")
    probe.unlink()


def _csv(games: Sequence[GameData]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for g in games:
        row: dict[str, Any] = g.row()
        row["busts"] = len(g.busts)
        w.writerow(
            " ".join(map(str, v)) if isinstance(v, list) else v
            for v in (row[c] for c in CSV_COLUMNS)
        )
    return buf.getvalue()


def write_outputs(out: Path, summary: Mapping[str, Any], games: Sequence[GameData]) -> list[Path]:
    """Write every file into ``out`` (made if missing); returns their paths."""
    out.mkdir(parents=True, exist_ok=True)
    texts = {
        "summary.json": json.dumps(summary, ensure_ascii=False, indent=1) + "\n",
        "games.jsonl": "".join(json.dumps(g.row()) + "\n" for g in games),
        "games.csv": _csv(games),
        "records.jsonl": "".join(json.dumps(g.record) + "\n" for g in games),
        "report.html": render(summary, FILES[1:]),
    }
    paths = []
    for name in FILES:
        path = out / name
        path.write_text(texts[name], encoding="utf-8")
        paths.append(path)
    return paths
