"""Small inline SVG charts (no dependency): bars with optional 95 % whiskers and a
reference line, and lines. Each chart scales to the page's width (``viewBox``), with
axes, tick labels and axis titles; colours come from the page's CSS classes.

>>> svg = bar_chart(["a", "b"], [0.25, 0.75], title="t", x_label="x", y_label="y")
>>> svg.startswith("<svg") and svg.count("<rect") == 2
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

__all__ = ["bar_chart", "line_chart", "nice_ticks"]

W, H = 480, 290
LEFT, RIGHT, TOP, BOTTOM = 58, 14, 14, 62


def nice_ticks(high: float, count: int = 5) -> list[float]:
    """Round tick values from 0 to at least ``high``.

    >>> nice_ticks(0.42)
    [0.0, 0.1, 0.2, 0.3, 0.4, 0.5]
    >>> nice_ticks(37)
    [0.0, 10.0, 20.0, 30.0, 40.0]
    """
    if high <= 0:
        return [0.0, 1.0]
    raw = high / count
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    n = math.ceil(high / step - 1e-9)
    return [float(round(i * step, 10)) for i in range(n + 1)]


def _fmt(v: float, percent: bool) -> str:
    if percent:
        return f"{v * 100:g} %"
    return f"{v:g}"


def _frame(title: str, body: list[str]) -> str:
    return (
        f'<svg class="chart" viewBox="0 0 {W} {H}" role="img">'
        f"<title>{escape(title)}</title>" + "".join(body) + "</svg>"
    )


def _axes(ticks: list[float], x_label: str, y_label: str, percent: bool) -> tuple[list[str], float]:
    """The y axis with its grid, and the axis titles; returns the parts and the y scale."""
    top = ticks[-1] or 1.0
    plot_h = H - TOP - BOTTOM
    scale = plot_h / top
    parts = []
    for t in ticks:
        y = H - BOTTOM - t * scale
        parts.append(f'<line class="grid" x1="{LEFT}" y1="{y:.1f}" x2="{W - RIGHT}" y2="{y:.1f}"/>')
        parts.append(
            f'<text class="tick" x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">'
            f"{escape(_fmt(t, percent))}</text>"
        )
    parts.append(
        f'<line class="axis" x1="{LEFT}" y1="{H - BOTTOM}" x2="{W - RIGHT}" y2="{H - BOTTOM}"/>'
    )
    parts.append(
        f'<text class="label" x="{(LEFT + W - RIGHT) / 2:.1f}" y="{H - 8}" '
        f'text-anchor="middle">{escape(x_label)}</text>'
    )
    parts.append(
        f'<text class="label" x="14" y="{(TOP + H - BOTTOM) / 2:.1f}" text-anchor="middle" '
        f'transform="rotate(-90 14 {(TOP + H - BOTTOM) / 2:.1f})">{escape(y_label)}</text>'
    )
    return parts, scale


def _every(count: int, room: float, widest: int) -> int:
    """Label every k-th category so that labels do not overlap."""
    need = max(1, widest) * 7.5 + 4
    return max(1, math.ceil(need / max(room, 1e-9)))


def bar_chart(
    labels: Sequence[str],
    values: Sequence[float],
    *,
    title: str,
    x_label: str,
    y_label: str,
    low: Sequence[float] | None = None,
    high: Sequence[float] | None = None,
    ref: float | None = None,
    percent: bool = False,
) -> str:
    """Vertical bars, one per label; ``low``/``high``: whiskers (95 % intervals);
    ``ref``: a dashed horizontal reference line (e.g. the fair share)."""
    peak = max([*values, *(high or []), ref or 0.0, 0.0])
    ticks = nice_ticks(peak)
    parts, scale = _axes(ticks, x_label, y_label, percent)
    n = max(1, len(values))
    slot = (W - LEFT - RIGHT) / n
    every = _every(n, slot, max((len(lb) for lb in labels), default=1))
    base = H - BOTTOM
    for i, v in enumerate(values):
        x = LEFT + i * slot
        h = v * scale
        parts.append(
            f'<rect class="bar" x="{x + slot * 0.12:.1f}" y="{base - h:.1f}" '
            f'width="{slot * 0.76:.1f}" height="{h:.1f}"><title>{escape(labels[i])}: '
            f"{escape(_fmt(round(v, 4), percent))}</title></rect>"
        )
        if low is not None and high is not None:
            cx = x + slot / 2
            y1, y2 = base - low[i] * scale, base - high[i] * scale
            parts.append(
                f'<path class="whisker" d="M{cx:.1f} {y1:.1f}V{y2:.1f}'
                f'M{cx - 5:.1f} {y1:.1f}h10M{cx - 5:.1f} {y2:.1f}h10"/>'
            )
        if i % every == 0:
            parts.append(
                f'<text class="tick" x="{x + slot / 2:.1f}" y="{base + 17}" '
                f'text-anchor="middle">{escape(labels[i])}</text>'
            )
    if ref is not None:
        y = base - ref * scale
        parts.append(f'<line class="ref" x1="{LEFT}" y1="{y:.1f}" x2="{W - RIGHT}" y2="{y:.1f}"/>')
    return _frame(title, parts)


def line_chart(
    xs: Sequence[float],
    series: Sequence[tuple[str, Sequence[float]]],
    *,
    title: str,
    x_label: str,
    y_label: str,
) -> str:
    """Lines over ``xs`` (one per series, with dots), a legend at the top right."""
    peak = max([v for _, ys in series for v in ys] + [0.0])
    ticks = nice_ticks(peak)
    parts, scale = _axes(ticks, x_label, y_label, False)
    span = (max(xs) - min(xs)) if len(xs) > 1 else 1.0
    x0 = min(xs) if xs else 0.0
    width = W - LEFT - RIGHT - 20

    def px(x: float) -> float:
        return LEFT + 10 + (x - x0) / (span or 1.0) * width

    every = _every(len(xs), width / max(1, len(xs)), max((len(f"{x:g}") for x in xs), default=1))
    for i, x in enumerate(xs):
        if i % every == 0:
            parts.append(
                f'<text class="tick" x="{px(x):.1f}" y="{H - BOTTOM + 17}" '
                f'text-anchor="middle">{x:g}</text>'
            )
    for k, (name, ys) in enumerate(series):
        pts = " ".join(
            f"{px(x):.1f},{H - BOTTOM - y * scale:.1f}" for x, y in zip(xs, ys, strict=True)
        )
        parts.append(f'<polyline class="line s{k}" points="{pts}"/>')
        for x, y in zip(xs, ys, strict=True):
            parts.append(
                f'<circle class="dot s{k}" cx="{px(x):.1f}" cy="{H - BOTTOM - y * scale:.1f}" r="3">'
                f"<title>{escape(name)}: {y:g}</title></circle>"
            )
        ly = TOP + 8 + k * 18
        parts.append(
            f'<line class="line s{k}" x1="{W - RIGHT - 150}" y1="{ly}" x2="{W - RIGHT - 128}" '
            f'y2="{ly}"/><text class="tick" x="{W - RIGHT - 122}" y="{ly + 4}">'
            f"{escape(name)}</text>"
        )
    return _frame(title, parts)
