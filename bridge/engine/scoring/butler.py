"""IMP pairs scoring (Law 78B-C): Butler against a datum, cross-IMPs, and total points.

Scores are NS points; the IMPs returned are NS's, EW's are their negatives.
"""

from collections import Counter
from collections.abc import Sequence
from decimal import Decimal
from enum import StrEnum

from bridge.engine.scoring.imps import imps
from bridge.engine.scoring.matchpoints import HUNDREDTH, WHOLE, round_half_up

TEN = Decimal(10)


class DatumMethod(StrEnum):
    TRIMMED_MEAN = "trimmed"  # drop the highest and lowest result(s), then average
    MEAN = "mean"


def datum(scores: Sequence[int], method: DatumMethod = DatumMethod.TRIMMED_MEAN, trim: int = 1) -> int:
    """The board's datum: the (trimmed) mean NS score, rounded to the nearest 10 (5 away from zero).

    Trimming needs something left over, so with 2 x trim results or fewer the plain mean is used.
    """
    if not scores:
        raise ValueError("a datum needs at least one score")
    kept = sorted(scores)
    if DatumMethod(method) == DatumMethod.TRIMMED_MEAN and len(kept) > 2 * trim:
        kept = kept[trim:-trim]
    mean = Decimal(sum(kept)) / len(kept)
    return int(round_half_up(mean / TEN, WHOLE) * TEN)


def butler_imps(
    scores: Sequence[int], method: DatumMethod = DatumMethod.TRIMMED_MEAN, trim: int = 1
) -> list[int]:
    """NS IMPs of each score against the board's datum."""
    board_datum = datum(scores, method, trim)
    return [imps(score - board_datum) for score in scores]


def cross_imp_sums(scores: Sequence[int]) -> list[int]:
    """NS IMPs of each score against every other score on the board, summed.

    Computed per distinct score (a board has a few dozen at most), so the cost does not grow with the
    square of the number of tables.
    """
    counts = Counter(scores)
    sum_of = {
        score: sum(count * imps(score - other) for other, count in counts.items() if other != score)
        for score in counts
    }
    return [sum_of[score] for score in scores]


def cross_imps(scores: Sequence[int]) -> list[Decimal]:
    """Cross-IMPs averaged over the comparisons each result took part in (PBN's IMP;Cross2), to hundredths."""
    comparisons = len(scores) - 1
    if comparisons < 1:
        return [Decimal(0) for _ in scores]
    return [round_half_up(Decimal(total) / comparisons, HUNDREDTH) for total in cross_imp_sums(scores)]


def total_points(scores: Sequence[int]) -> int:
    """Law 78C: total-points scoring just adds the scores."""
    return sum(scores)
