"""Places from totals (VSz 26): higher total first, equal totals share the place ("3-4").

"Equal" is judged at the resolution the totals are kept in: 0.01 by computer, 1 by hand. A tie-break
announced in advance may separate equal totals; the order among pairs still equal is by pair id, so the
result never depends on the order the pairs were given in.
"""

import re
from collections.abc import Callable, Hashable, Mapping
from decimal import Decimal
from itertools import groupby
from typing import Any, NamedTuple

from bridge.scoring.matchpoints import HUNDREDTH, round_half_up


class Placed(NamedTuple):
    pair: str
    total: Decimal
    place: str  # "3", or "3-4" for a shared place
    direction: str | None = None


def natural_key(pair: Hashable) -> tuple:
    """Sort key that puts pair '2' before '10' and 'A2' before 'A10'."""
    text = str(pair)
    if text.isdigit():
        return ((0, int(text), ""),)
    return tuple(
        (0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.findall(r"\d+|\D+", text)
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
    rounded = {pair: round_half_up(Decimal(total), resolution) for pair, total in totals.items()}
    order = sorted(totals, key=natural_key)
    order.sort(key=rounded.__getitem__, reverse=True)
    placed: list[Placed] = []
    for _, equal in groupby(order, key=rounded.__getitem__):
        equal = list(equal)
        keys = _tie_break_keys(tie_break, equal)
        groups = [equal]
        if keys is not None:
            equal.sort(key=keys.__getitem__, reverse=True)  # stable: still-equal pairs keep pair order
            groups = [list(tied) for _, tied in groupby(equal, key=keys.__getitem__)]
        for tied in groups:
            first, last = len(placed) + 1, len(placed) + len(tied)
            place = str(first) if first == last else f"{first}-{last}"
            placed.extend(Placed(pair, Decimal(totals[pair]), place, direction) for pair in tied)
    return placed


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
    if directions and all(direction in ("NS", "EW") for direction in directions.values()):
        return [(line, [pair for pair, d in directions.items() if d == line]) for line in ("NS", "EW")]
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
