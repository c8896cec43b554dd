"""Boards scored from fewer results than the field: fouled boards (VSz 27) and Neuberg (VSz 28).

A fouled board's results are split into groups of identical deals. Groups of four or more results, and a
board simply played fewer times, are matchpointed within themselves and scaled up by Neuberg's formula
(VSz 28): P = (N x T + N - n) / n, T the matchpoints within the group, N the results a full board has, n the
results in the group. That formula is written for 2 per result beaten, where a result "ties with itself"
for 1; for a scale s it becomes P = (N x T + s(N - n)/2) / n. With n = N it changes nothing.

Smaller groups get fixed percentages of the full board's top on each line (VSz 27 a-c).
"""

from collections import Counter
from collections.abc import Sequence
from decimal import Decimal

from bridge.engine.scoring.matchpoints import check_scale

# NS percentage for the best, middle and worst result of a group of 1, 2 or 3 (VSz 27 a-c). The EW pair at
# the same table gets 120 minus it: 60-60, 55 against 65, 50 against 70.
_SMALL_GROUP_PERCENTAGES = {
    1: (Decimal(60),),
    2: (Decimal(65), Decimal(55)),
    3: (Decimal(70), Decimal(60), Decimal(50)),
}
LINE_PERCENT_SUM = Decimal(120)
SMALLEST_MATCHPOINTED_GROUP = 4


def neuberg(mp: Decimal, group_results: int, full_results: int, scale: int = 2) -> Decimal:
    """Neuberg-adjusted matchpoints (unrounded) of a result scored `mp` within a group of `group_results`."""
    if not 1 <= group_results <= full_results:
        raise ValueError(f"a group of {group_results} results cannot be scaled to {full_results}")
    s = check_scale(scale)
    return (full_results * Decimal(mp) + s * (full_results - group_results) / 2) / group_results


def neuberg_from_raw(raw: int, group_results: int, full_results: int) -> Decimal:
    """Neuberg on scale-2 integer matchpoints: exactly the VSz 28 formula, with one division."""
    return Decimal(full_results * raw + full_results - group_results) / group_results


def small_group_percentages(ns_scores: Sequence[int]) -> list[Decimal]:
    """NS percentage for each result of a fouled-board group of 1-3 results, in input order.

    Equal results share the percentages of the places they cover (VSz 27 c): two equal better results
    get 65-65-50, two equal worse ones 70-55-55, three equal results (and two equal of two) 60 each.
    """
    table = _SMALL_GROUP_PERCENTAGES.get(len(ns_scores))
    if table is None:
        raise ValueError(f"fixed percentages are for groups of 1 to 3 results, not {len(ns_scores)}")
    counts = Counter(ns_scores)
    percent_of: dict[int, Decimal] = {}
    place = 0
    for score in sorted(counts, reverse=True):
        shared = table[place : place + counts[score]]
        percent_of[score] = sum(shared) / len(shared)
        place += counts[score]
    return [percent_of[score] for score in ns_scores]
