"""What a pairs session is scored from and into: the scoring method, a table's entry, a scored entry, a pair's
total and the whole session's score (bridge.engine.scoring.session scores it)."""

from collections.abc import Hashable
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from typing import TYPE_CHECKING, NamedTuple

from bridge.engine.scoring.adjusted import (
    ArtificialScore,
)
from bridge.engine.scoring.ranking import Placed

if TYPE_CHECKING:  # a type only: tally builds BoardResults from these entries
    from bridge.engine.scoring.tally import BoardResults

ZERO = Decimal(0)


class Method(StrEnum):
    MATCHPOINTS = "mp"
    CROSS_IMPS = "cross-imps"
    BUTLER = "butler"
    TOTAL_POINTS = "total"  # Law 78C: a pair's total is the sum of its scores (kept in the imp fields)


@dataclass(frozen=True, slots=True)
class Entry:
    """One table's result on a board: the NS score, or an artificial award per line."""

    ns: str
    ew: str
    score: int | None = None
    artificial: ArtificialScore | None = None
    group: Hashable | None = None  # identical-deal group when the board was fouled (VSz 27)


class EntryScore(NamedTuple):
    """What an entry earned; matchpoints are after any penalty on this board (also shown on its own).

    A NamedTuple rather than a dataclass: a 1,000-pair field creates tens of thousands of these.
    """

    ns: str
    ew: str
    score: int | None
    artificial: ArtificialScore | None = None
    mp_ns: Decimal | None = None
    mp_ew: Decimal | None = None
    pct_ns: Decimal | None = None
    pct_ew: Decimal | None = None
    imp_ns: Decimal | None = None
    imp_ew: Decimal | None = None
    penalty_ns: Decimal = ZERO
    penalty_ew: Decimal = ZERO


class PairTotal(NamedTuple):
    pair: str
    direction: str | None  # "NS"/"EW" if the pair stayed in one direction, None if it played both
    total: Decimal  # matchpoints (or IMPs), penalties deducted
    top: Decimal | None  # sum of the tops of the boards it has a score on; None for IMP scoring
    percentage: Decimal | None
    boards: int
    penalty: Decimal = ZERO


@dataclass
class SessionScore:
    method: Method
    boards: dict[Hashable, "BoardResults"]  # each a list of EntryScore rows to its readers
    pairs: dict[str, PairTotal]
    ranking: list[Placed]  # Placed.total is the value ranked on (the percentage if tops differ)
    top: Decimal | None = None  # matchpoint top of every board
    full_results: int = 0  # N: the results a complete board has
    averages: dict[str, Decimal | None] = field(default_factory=dict)  # VSz 29 session averages
