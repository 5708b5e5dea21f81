"""Cell widths for Tamil, Gujarati, Kannada and Burmese as terminals draw them.

Rich (and so Textual) counts every combining mark as zero cells wide. Terminals
(xterm, VTE, tmux, Windows Terminal; the ``wcwidth`` tables) give *spacing* marks
(Unicode category Mc, e.g. Kannada ``ಾ``, Gujarati ``ી``) one cell. With Rich's
count a line of Kannada is drawn wider than Textual planned and pushes the
panel borders out of place. :func:`use_terminal_widths` teaches Rich the
terminal's count for the Indic and Myanmar blocks; set ``ONO99_CELL_WIDTHS=rich``
to keep Rich's own.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Sequence

import rich.cells
from rich.cells import CellTable

__all__ = ["use_terminal_widths", "BLOCKS"]

#: Devanagari … Sinhala (Gujarati, Tamil, Kannada among them), Myanmar and its extensions
BLOCKS = ((0x0900, 0x0DFF), (0x1000, 0x109F), (0xA9E0, 0xA9FF), (0xAA60, 0xAA7F))

_done = False


def _width(cp: int, old: int) -> int:
    category = unicodedata.category(chr(cp))
    if category == "Mc":
        return 1
    if category in ("Mn", "Me", "Cf"):
        return 0
    return old


def _patch(widths: Sequence[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    def old_width(cp: int) -> int:
        for start, end, w in widths:
            if start <= cp <= end:
                return w
        return 1

    out: list[tuple[int, int, int]] = []
    for start, end, w in widths:
        pieces = [(start, end)]
        for low, high in BLOCKS:
            kept: list[tuple[int, int]] = []
            for s, e in pieces:
                if e < low or s > high:
                    kept.append((s, e))
                    continue
                if s < low:
                    kept.append((s, low - 1))
                if e > high:
                    kept.append((high + 1, e))
            pieces = kept
        out += [(s, e, w) for s, e in pieces]
    for low, high in BLOCKS:
        for cp in range(low, high + 1):
            w = _width(cp, old_width(cp))
            if w != 1:
                out.append((cp, cp, w))
    out.sort()
    return out


def use_terminal_widths() -> bool:
    """Make Rich measure spacing marks as terminals draw them (once per process).

    Returns whether Rich's measure is now the terminal's."""
    global _done
    if _done:
        return True
    if os.environ.get("ONO99_CELL_WIDTHS", "") == "rich":
        return False
    if not hasattr(rich.cells, "load_cell_table"):  # another Rich: keep its own measure
        return False
    load = rich.cells.load_cell_table
    cache: dict[str, CellTable] = {}

    def patched_load(unicode_version: str = "auto") -> CellTable:
        table = cache.get(unicode_version)
        if table is None:
            base = load(unicode_version)
            table = cache[unicode_version] = base._replace(widths=_patch(base.widths))
        return table

    rich.cells.load_cell_table = patched_load
    rich.cells.get_character_cell_size.cache_clear()
    rich.cells.cached_cell_len.cache_clear()
    _done = True
    return True
