"""Aligned text tables for the terminal (``ono99 arena``, ``ono99 review``)."""

from __future__ import annotations

from rich.cells import cell_len

__all__ = ["columns", "pad"]


def pad(text: str, width: int, right: bool) -> str:
    """``text`` padded to ``width`` terminal cells (Tamil, Burmese... take fewer cells
    than characters, so ``str.ljust`` would misalign them)."""
    fill = " " * max(0, width - cell_len(text))
    return fill + text if right else text + fill


def columns(rows: list[list[str]], widths: list[int]) -> list[str]:
    """Rows of cells as aligned lines: the first column left, the others right; each
    column as wide as ``widths`` asks or its widest cell."""
    widths = [max(w, *(cell_len(row[i]) for row in rows)) for i, w in enumerate(widths)]
    return [
        " ".join(pad(cell, w, i > 0) for i, (cell, w) in enumerate(zip(row, widths, strict=True)))
        for row in rows
    ]
