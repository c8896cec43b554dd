"""Places from totals (VSz 26): higher total first, equal totals share the place ("3-4").

"Equal" is judged at the resolution the totals are kept in: 0.01 by computer, 1 by hand. A tie-break
announced in advance may separate equal totals; the order among pairs still equal is by pair id, so the
result never depends on the order the pairs were given in.
"""

import re
from collections.abc import Callable, Hashable, Mapping
from decimal import ROUND_HALF_UP, Decimal
from itertools import compress, groupby, repeat
from operator import ne
from typing import Any, NamedTuple

from bridge.engine.scoring.matchpoints import HUNDREDTH


class Placed(NamedTuple):
    pair: str
    total: Decimal
    place: str  # "3", or "3-4" for a shared place
    direction: str | None = None


_PARTS = re.compile(r"(\d+)|(\D+)")


def natural_key(pair: Hashable) -> tuple:
    """Sort key that puts pair '2' before '10' and 'A2' before 'A10'."""
    text = str(pair)
    if text.isdigit():
        return ((0, int(text), ""),)
    return tuple(
        [(0, int(digits), "") if digits else (1, 0, other) for digits, other in _PARTS.findall(text)]
    )


def rank(
    totals: Mapping[str, Decimal],
    *,
    resolution: Decimal = HUNDREDTH,
    tie_break: Callable[[str], Any] | None = None,
    direction: str | None = None,
) -> list[Placed]:
    """Rank pairs by total, best first. `tie_break(pair)` returns a key where higher wins.

    A tie-break that depends on who is tied with whom (head-to-head) has an `among(tied)` method instead,
    returning such a key for every pair of one group of equal totals; it is asked once per group.
    """
    # round_half_up of each total, mapped in C: Decimal.quantize(total, resolution, ROUND_HALF_UP)
    exact = map(Decimal, totals.values())
    rounded = dict(
        zip(totals, map(Decimal.quantize, exact, repeat(resolution), repeat(ROUND_HALF_UP)), strict=True)
    )
    order = sorted(rounded, key=rounded.__getitem__, reverse=True)
    count = len(order)
    places = list(map(str, range(1, count + 1)))
    values = list(map(rounded.__getitem__, order))
    # Positions where a lower total starts; between two of them the totals are equal.
    bounds = [0, *compress(range(1, count), map(ne, values[1:], values[:-1])), count]
    if len(bounds) <= count:  # some totals are equal
        for start, end in zip(bounds, bounds[1:], strict=False):
            if end - start > 1:
                share_places(order, places, start, end, tie_break)
    new = tuple.__new__  # Placed._make without its Python-level length check
    exact = map(Decimal, map(totals.__getitem__, order))
    return list(map(new, repeat(Placed), zip(order, exact, places, repeat(direction))))


def share_places(order: list[str], places: list[str], start: int, end: int, tie_break) -> None:
    """Equal totals at order[start:end]: put them in pair order, separate them by the announced tie-break
    if there is one, and give each group still equal one shared place ("3-4")."""
    equal = sorted(order[start:end], key=natural_key)  # stable: same key keeps the order given
    keys = _tie_break_keys(tie_break, equal)
    groups = [equal]
    if keys is not None:
        equal.sort(key=keys.__getitem__, reverse=True)  # stable: still-equal pairs keep pair order
        groups = [list(tied) for _, tied in groupby(equal, key=keys.__getitem__)]
    at = start
    for tied in groups:
        first, last = at + 1, at + len(tied)
        order[at:last] = tied
        places[at:last] = [str(first) if first == last else f"{first}-{last}"] * len(tied)
        at = last


def _tie_break_keys(tie_break, equal: list[str]) -> dict[str, Any] | None:
    if tie_break is None or len(equal) < 2:
        return None
    among = getattr(tie_break, "among", None)
    if among is not None:
        return dict(among(equal))
    return {pair: tie_break(pair) for pair in equal}


def ranking_groups(directions: Mapping[str, str | None]) -> list[tuple[str | None, list[str]]]:
    """The fields that get their own winner: NS and EW in a Mitchell (every pair kept to one direction),
    everybody together otherwise (a Howell, or an arrow-switched Mitchell)."""
    if directions and set(directions.values()) <= {"NS", "EW"}:
        lines = list(directions.values())
        return [(line, list(compress(directions, map(line.__eq__, lines)))) for line in ("NS", "EW")]
    return [(None, list(directions))]


def rank_field(
    totals: Mapping[str, Decimal],
    directions: Mapping[str, str | None],
    *,
    resolution: Decimal = HUNDREDTH,
    tie_break: Callable[[str], Any] | None = None,
) -> list[Placed]:
    """Rank each field of `ranking_groups` separately; each pair keeps its own direction (None if both)."""
    placed: list[Placed] = []
    for line, pairs in ranking_groups({pair: directions.get(pair) for pair in totals}):
        ranked = rank({pair: totals[pair] for pair in pairs}, resolution=resolution, tie_break=tie_break)
        placed.extend(Placed(p.pair, p.total, p.place, line or directions.get(p.pair)) for p in ranked)
    return placed
