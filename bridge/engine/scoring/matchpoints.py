"""Matchpoints (Law 78A), percentages and the VSz 26 rounding rules.

Scale 2 (the VSz default) gives 2 for every result beaten and 1 for every equal one, so the top on a board
played n times is 2(n - 1); scale 1 halves everything. Matchpoints are counted in scale-2 units as plain
integers first (exact, fast) and become Decimals only at the end.
"""

from collections import Counter
from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum

HUNDREDTH = Decimal("0.01")
TENTH = Decimal("0.1")
WHOLE = Decimal("1")
HUNDRED = Decimal(100)
FIFTY_PERCENT = Decimal(50)


class Rounding(StrEnum):
    """VSz 26: by computer everything to hundredths; by hand boards to tenths and session totals whole."""

    COMPUTER = "computer"
    HAND = "hand"


def round_half_up(value: Decimal, step: Decimal) -> Decimal:
    # VSz 26 says 0.005 (by hand 0.5) "already rounds up": half-up, never the banker's half-even.
    return value.quantize(step, rounding=ROUND_HALF_UP)


def round_board(value: Decimal, rounding: Rounding = Rounding.COMPUTER) -> Decimal:
    """Round a board's matchpoints, a penalty or an artificial score."""
    return round_half_up(value, HUNDREDTH if rounding == Rounding.COMPUTER else TENTH)


def round_total(value: Decimal, rounding: Rounding = Rounding.COMPUTER) -> Decimal:
    """Round a session total (by hand to whole matchpoints, 0.5 up)."""
    return round_half_up(value, HUNDREDTH if rounding == Rounding.COMPUTER else WHOLE)


def check_scale(scale: int) -> Decimal:
    if scale not in (1, 2):
        raise ValueError(f"matchpoint scale must be 1 or 2 per result beaten, not {scale!r}")
    return Decimal(scale)


def top(results: int, scale: int = 2) -> Decimal:
    """The most a result can earn on a board played `results` times."""
    return check_scale(scale) * max(results - 1, 0)


def raw_matchpoints(scores: Sequence[int]) -> list[int]:
    """NS matchpoints in scale-2 units (2 per NS score beaten, 1 per equal one), in input order.

    Sort-based: each distinct score is valued once, so a board played 500 times costs a sort, not 250,000
    comparisons.
    """
    counts = Counter(scores)
    value_of: dict[int, int] = {}
    below = 0
    for score in sorted(counts):
        equal = counts[score]
        value_of[score] = 2 * below + (equal - 1)
        below += equal
    return [value_of[score] for score in scores]


def matchpoints(scores: Sequence[int], scale: int = 2) -> list[Decimal]:
    """NS matchpoints of each NS score (Law 78A); EW gets the top minus this."""
    factor = check_scale(scale) / 2
    return [raw * factor for raw in raw_matchpoints(scores)]


def percentage(mp: Decimal, board_top: Decimal) -> Decimal:
    """Matchpoints as a percentage of the top, to hundredths; a board nobody could be compared on is 50%."""
    if not board_top:
        return FIFTY_PERCENT
    return round_half_up(mp * HUNDRED / board_top, HUNDREDTH)


def raw_percentage(raw: int, raw_top: int) -> Decimal:
    """`percentage` for whole scale-2 matchpoints, in integer arithmetic (the hot path of a big field)."""
    if not raw_top:
        return FIFTY_PERCENT
    hundredths, remainder = divmod(raw * 10_000, raw_top)
    if 2 * remainder >= raw_top:
        hundredths += 1
    return Decimal(hundredths).scaleb(-2)


def percent_of_top(percent: Decimal, board_top: Decimal, rounding: Rounding = Rounding.COMPUTER) -> Decimal:
    """Matchpoints worth `percent` of the top (artificial scores, fouled-board groups, penalties)."""
    return round_board(Decimal(percent) * board_top / HUNDRED, rounding)
