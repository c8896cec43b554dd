"""Tie-break methods an organiser may announce in advance (VSz 26: otherwise equal totals share the place).

Each method turns scored boards into the `tie_break` that `ranking.rank` takes; pairs still equal after it
share the place.

- shared: no tie-break, equal totals share the place ("3-4").
- head_to_head: the matchpoints (IMPs) each tied pair scored on the boards it played against the other
  tied pairs; more wins. Only when every tied pair met every other one: pairs that never met (two pairs of
  one Mitchell line, say) cannot be separated this way and share the place.
- best_boards: more boards scored above 50% (above 0 IMPs), then more tops (100%).

Artificial scores (average-plus against an absent pair, A+/A- awards) are not boards played and count for
neither method. Pure: no Django.
"""

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from decimal import Decimal
from enum import StrEnum
from typing import Any, NamedTuple

FIFTY = Decimal(50)
HUNDRED = Decimal(100)


class TieBreak(StrEnum):
    SHARED = "shared"
    HEAD_TO_HEAD = "head_to_head"
    BEST_BOARDS = "best_boards"


class Played(NamedTuple):
    """One pair's side of a played result: what it scored against whom."""

    pair: str
    opponent: str
    value: Decimal  # matchpoints (after penalties on the board), or IMPs
    percentage: Decimal | None  # None for IMP scoring


def played_results(boards: Iterable[Sequence[Any]]) -> list[Played]:
    """Both sides of every played result; rows are the engine's `EntryScore`s (or anything alike)."""
    out = []
    for rows in boards:
        for row in rows:
            if row.artificial is not None or row.score is None:
                continue
            if row.mp_ns is not None:
                out.append(Played(row.ns, row.ew, row.mp_ns, row.pct_ns))
                out.append(Played(row.ew, row.ns, row.mp_ew, row.pct_ew))
            elif row.imp_ns is not None:
                out.append(Played(row.ns, row.ew, row.imp_ns, None))
                out.append(Played(row.ew, row.ns, row.imp_ew, None))
    return out


def relabel(results: Iterable[Played], labels: Mapping[str, str]) -> list[Played]:
    """The same results under other names (session pair -> event pair); unknown names are dropped."""
    return [
        Played(labels[r.pair], labels[r.opponent], r.value, r.percentage)
        for r in results
        if r.pair in labels and r.opponent in labels
    ]


class HeadToHead:
    """Matchpoints scored against the other tied pairs; asked per group of equal totals (`among`)."""

    def __init__(self, results: Iterable[Played]):
        self.against: dict[tuple[str, str], Decimal] = defaultdict(Decimal)
        for r in results:
            self.against[(r.pair, r.opponent)] += r.value

    def among(self, tied: Sequence[str]) -> dict[str, Decimal]:
        met_all = all((a, b) in self.against for a in tied for b in tied if a != b)
        if not met_all:
            return dict.fromkeys(tied, Decimal(0))  # nothing to compare: the place is shared
        return {a: sum((self.against[(a, b)] for b in tied if b != a), Decimal(0)) for a in tied}

    def __call__(self, pair: str) -> Any:  # pragma: no cover - rank() asks `among`
        raise TypeError("head-to-head depends on the tied group: use among()")


class BestBoards:
    """(boards above 50% (above 0 IMPs), tops) of a pair."""

    def __init__(self, results: Iterable[Played]):
        self.keys: dict[str, tuple[int, int]] = {}
        above: dict[str, int] = defaultdict(int)
        tops: dict[str, int] = defaultdict(int)
        for r in results:
            if r.percentage is None:
                above[r.pair] += r.value > 0
            else:
                above[r.pair] += r.percentage > FIFTY
                tops[r.pair] += r.percentage >= HUNDRED
        for pair in above.keys() | tops.keys():
            self.keys[pair] = (above[pair], tops[pair])

    def __call__(self, pair: str) -> tuple[int, int]:
        return self.keys.get(pair, (0, 0))


def tie_break(method: TieBreak | str, results: Iterable[Played]) -> Callable[[str], Any] | None:
    """The `tie_break` for `ranking.rank` of an announced method; None when equal totals share the place."""
    method = TieBreak(method)
    if method == TieBreak.HEAD_TO_HEAD:
        return HeadToHead(results)
    if method == TieBreak.BEST_BOARDS:
        return BestBoards(results)
    return None
