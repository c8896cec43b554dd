"""A player's place by round as a server-rendered inline SVG: 1st at the top, no JavaScript, no CDN.

Coordinates leave here as strings: the template would otherwise localise them (Hungarian "40,5").
"""

from __future__ import annotations

from dataclasses import dataclass

# Colours that stay apart on white; the highlighted player is drawn last, thick and red.
PALETTE = ["#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]
HIGHLIGHT = "#d62728"
LEFT, RIGHT, TOP, BOTTOM = 44, 200, 16, 34


@dataclass
class Line:
    name: str
    colour: str
    points: str
    dots: list[tuple[str, str, int, int]]  # x, y, round, place
    label_x: str
    label_y: str
    width: str


def _n(value: float) -> str:
    return f"{value:.1f}"


def places_chart(
    rounds: list[int],
    places: dict[int, dict[int, int]],
    names: dict[int, str],
    field_size: int,
    highlight: int | None = None,
    height: int = 300,
) -> dict | None:
    """``places[player][round]`` -> geometry for ``ulti/_chart.html``; None without rounds."""
    if not rounds or not places:
        return None
    width = max(520, LEFT + RIGHT + 70 * len(rounds))
    span_x = width - LEFT - RIGHT
    span_y = height - TOP - BOTTOM
    field_size = max(field_size, 2)

    def x(i: int) -> float:
        return LEFT + (span_x * i / (len(rounds) - 1) if len(rounds) > 1 else span_x / 2)

    def y(place: int) -> float:
        return TOP + span_y * (place - 1) / (field_size - 1)

    order = [p for p in places if p != highlight] + ([highlight] if highlight in places else [])
    lines = []
    for index, player in enumerate(order):
        dots = [
            (_n(x(i)), _n(y(places[player][r])), r, places[player][r])
            for i, r in enumerate(rounds)
            if r in places[player]
        ]
        if not dots:
            continue
        mine = player == highlight
        lines.append(
            Line(
                name=names.get(player, ""),
                colour=HIGHLIGHT if mine else PALETTE[index % len(PALETTE)],
                points=" ".join(f"{a},{b}" for a, b, _r, _p in dots),
                dots=dots,
                label_x=_n(float(dots[-1][0]) + 8),
                label_y=_n(float(dots[-1][1]) + 4),
                width="3" if mine else "1.5",
            )
        )
    _spread_labels(lines, top=TOP, gap=12)
    ticks = sorted({1, field_size, *(k for k in range(5, field_size, 5) if field_size - k >= 3)})
    return {
        "width": width,
        "height": height,
        "lines": lines,
        "x_axis": [(_n(x(i)), r) for i, r in enumerate(rounds)],
        "y_axis": [(_n(y(p)), p) for p in ticks],
        "left": LEFT,
        "right": _n(width - RIGHT),
        "top": TOP,
        "bottom": _n(height - BOTTOM),
        "label_y": _n(height - 8),
    }


def _spread_labels(lines: list[Line], top: float, gap: float) -> None:
    """Move end labels apart so that players with close places stay readable."""
    last = top - gap
    for line in sorted(lines, key=lambda item: float(item.label_y)):
        y = max(float(line.label_y), last + gap)
        line.label_y = _n(y)
        last = y
