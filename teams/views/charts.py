"""Places over rounds as a server-rendered inline SVG (no JavaScript): one line per team, 1st at the top.

Coordinates leave here as strings: the template would otherwise localise them (Hungarian "40,5").
"""

from dataclasses import dataclass

# Twenty colours that stay apart on white (Tableau 20, darker half first).
PALETTE = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf", "#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94",
    "#f7b6d2", "#c7c7c7", "#dbdb8d", "#9edae5",
]  # fmt: skip

LEFT, RIGHT, TOP, BOTTOM = 40, 190, 20, 50
STEP_Y = 24


@dataclass
class Line:
    name: str
    colour: str
    points: str
    dots: list
    label_y: float
    place: int


def places_chart(rounds: list[int], places: dict[int, dict[int, int]], names: dict[int, str]) -> dict | None:
    """`places[team][round]` -> SVG geometry for the template; None with fewer than one round."""
    if not rounds or not places:
        return None
    teams = len(places)
    width = max(560, LEFT + RIGHT + 110 * len(rounds))
    height = TOP + BOTTOM + STEP_Y * (teams - 1)
    span = width - LEFT - RIGHT

    def x(i):
        return LEFT + (span * i / (len(rounds) - 1) if len(rounds) > 1 else span / 2)

    def y(place):
        return TOP + STEP_Y * (place - 1)

    last = rounds[-1]
    order = sorted(places, key=lambda team: places[team][last])
    lines = []
    for index, team in enumerate(order):
        dots = [(_n(x(i)), _n(y(places[team][r]))) for i, r in enumerate(rounds) if r in places[team]]
        lines.append(
            Line(
                name=names[team],
                colour=PALETTE[index % len(PALETTE)],
                points=" ".join(f"{a},{b}" for a, b in dots),
                dots=dots,
                label_y=_n(y(places[team][last]) + 4),
                place=places[team][last],
            )
        )
    return {
        "width": width,
        "height": height,
        "lines": lines,
        "x_ticks": [(_n(x(i)), r) for i, r in enumerate(rounds)],
        "y_ticks": [(_n(y(p) + 4), p) for p in range(1, teams + 1)],
        "axis_y": _n(height - BOTTOM + 14),
        "label_x": _n(x(len(rounds) - 1) + 10),
        "grid_bottom": _n(height - BOTTOM + 4),
        "tick_x": _n(LEFT - 8),
        "round_label_x": _n(LEFT + span / 2),
        "round_label_y": _n(height - BOTTOM + 30),
    }


def _n(value: float) -> str:
    return f"{value:.1f}".removesuffix(".0")
