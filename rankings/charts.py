"""Server-rendered inline SVG line charts (pure: no Django, no JavaScript, nothing from a CDN)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from decimal import Decimal
from html import escape

__all__ = ["step_chart"]


def _nice_ticks(lo: float, hi: float, count: int = 4) -> list[float]:
    if hi <= lo:
        hi = lo + 1
    raw = (hi - lo) / count
    magnitude = 10 ** (len(str(int(raw))) - 1) if raw >= 1 else 1
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    start = (lo // step) * step
    ticks = []
    value = start
    while value <= hi + step * 0.001:
        if value >= lo - step * 0.001:
            ticks.append(value)
        value += step
    return ticks


def step_chart(
    points: Sequence[tuple[datetime.date, float | int | Decimal]],
    *,
    title: str,
    width: int = 720,
    height: int = 240,
    step: bool = True,
    start_at_zero: bool = True,
) -> str:
    """An accessible SVG of values over time (a step line for running totals)."""
    pad_l, pad_r, pad_t, pad_b = 56, 16, 16, 28
    w, h = width - pad_l - pad_r, height - pad_t - pad_b
    label = escape(title)
    if not points:
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{label}" '
            f'viewBox="0 0 {width} {height}" class="rankings-chart"></svg>'
        )
    days = [p[0].toordinal() for p in points]
    values = [float(p[1]) for p in points]
    d0, d1 = min(days), max(days)
    if d1 == d0:
        d0, d1 = d0 - 15, d1 + 15
    lo = min(values + [0.0]) if start_at_zero else min(values)
    hi = max(values)
    ticks = _nice_ticks(lo, hi)
    lo, hi = min(lo, ticks[0]), max(hi, ticks[-1])
    if hi == lo:
        hi = lo + 1

    def x(day: int) -> float:
        return pad_l + (day - d0) / (d1 - d0) * w

    def y(value: float) -> float:
        return pad_t + h - (value - lo) / (hi - lo) * h

    coords = []
    prev = None
    for day, value in zip(days, values, strict=True):
        if step and prev is not None:
            coords.append(f"{x(day):.1f},{y(prev):.1f}")
        coords.append(f"{x(day):.1f},{y(value):.1f}")
        prev = value
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{label}" '
        f'viewBox="0 0 {width} {height}" class="rankings-chart" font-size="11" font-family="sans-serif">',
        f"<title>{label}</title>",
    ]
    for t in ticks:
        ty = y(t)
        text = f"{t:,.0f}".replace(",", " ") if abs(t) >= 10 or t == int(t) else f"{t:g}"
        parts.append(
            f'<line x1="{pad_l}" x2="{pad_l + w}" y1="{ty:.1f}" y2="{ty:.1f}" stroke="#dee2e6"/>'
            f'<text x="{pad_l - 6}" y="{ty + 4:.1f}" text-anchor="end" fill="#6c757d">{escape(text)}</text>'
        )
    first, last = datetime.date.fromordinal(min(days)), datetime.date.fromordinal(max(days))
    years = range(first.year + 1, last.year + 1)
    labels = [(first.toordinal(), first.isoformat())]
    if len(years) <= 12:
        labels += [(datetime.date(yr, 1, 1).toordinal(), str(yr)) for yr in years]
    if last != first:
        labels.append((last.toordinal(), last.isoformat()))
    placed: list[float] = []
    for day, text in labels:
        lx = x(day)
        # Room for a date at the phone's doubled label size (static/css/portal.css): about 130 units.
        if any(abs(lx - p) < 140 for p in placed):
            continue
        placed.append(lx)
        anchor = "start" if lx < pad_l + 30 else "end" if lx > pad_l + w - 30 else "middle"
        parts.append(
            f'<text x="{lx:.1f}" y="{height - 8}" text-anchor="{anchor}" fill="#6c757d">{escape(text)}</text>'
        )
    parts.append(f'<polyline fill="none" stroke="#198754" stroke-width="2" points="{" ".join(coords)}"/>')
    for day, value in zip(days, values, strict=True):
        parts.append(f'<circle cx="{x(day):.1f}" cy="{y(value):.1f}" r="2.5" fill="#198754"/>')
    parts.append("</svg>")
    return "".join(parts)
