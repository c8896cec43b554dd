"""The session's results as numpy columns and per-pair sums (`_Tally`), and a board's scored rows built from
them when first read (`BoardResults`): the arrays behind bridge.engine.scoring.session."""

from collections import Counter, defaultdict
from collections.abc import Hashable, Iterator, Mapping, MutableSequence, Sequence
from decimal import Decimal
from itertools import chain, count, repeat
from typing import TYPE_CHECKING, Any

import numpy as np

from bridge.engine.scoring.entries import Entry, EntryScore

if TYPE_CHECKING:  # a type only: the matchpoint scorer fills these columns
    from bridge.engine.scoring.mp_boards import _MatchpointScorer


class _Tally:
    """The session's results as columns, and per-pair sums filled while boards are scored.

    Every pair gets a position (`index`, in order of first appearance, NS pairs first); counts and the
    matchpoints of results scored normally (complete boards, Neuberg groups) are numpy arrays by position.
    Those matchpoints are kept as whole hundredths: every such value is already rounded (VSz 26), so their
    sums are exact integers.
    """

    def __init__(self, factor: Decimal, boards: Mapping[Hashable, Sequence[Entry]]) -> None:
        self.factor = factor  # matchpoints per scale-2 unit
        self.boards = list(boards)
        self.sizes = [len(entries) for entries in boards.values()]
        tables = boards.values()
        self.ns = [entry.ns for entries in tables for entry in entries]
        self.ew = [entry.ew for entries in tables for entry in entries]
        # NS scores, None for a result that is not plain (an award, a result in a group of a fouled board)
        self.scores = [
            e.score if e.artificial is e.group is None else None for entries in tables for e in entries
        ]
        self.plain_field = None not in self.scores  # the usual session: every board scored in arrays
        # Each pair's first position in NS-then-EW order, in one pass; then numbered 0, 1, 2... in that order.
        first: dict[str, int] = {}
        seats = len(self.ns)
        codes = np.fromiter(map(first.setdefault, chain(self.ns, self.ew), count()), np.intp, 2 * seats)
        self.pairs = list(first)
        number = np.empty(2 * seats, dtype=np.intp)
        number[np.fromiter(first.values(), np.intp, len(first))] = np.arange(len(first))
        codes = number[codes]
        self.ns_at, self.ew_at = codes[:seats], codes[seats:]
        self.index = dict(zip(self.pairs, range(len(self.pairs)), strict=True))
        self.as_ns = np.bincount(self.ns_at, minlength=len(self.pairs))
        self.as_ew = np.bincount(self.ew_at, minlength=len(self.pairs))
        self.first_duplicate = self._first_duplicate()
        self.normal = np.zeros(len(self.pairs), dtype=np.int64)  # hundredths, by position
        self.normal_h: dict[str, int] = defaultdict(int)  # hundredths from boards scored one by one
        self.fixed_boards: Counter[str] = Counter()  # boards not "played normally" (VSz 29): fixed scores
        self.other: dict[str, Decimal] = defaultdict(Decimal)  # fixed percentages, awards, IMPs
        self.penalty: dict[str, Decimal] = defaultdict(Decimal)
        self._hundredths: dict[int, Decimal] = {}
        self.total_keys: Any = None  # matchpoint totals and percentages in whole hundredths (_pair_totals)
        self.percentage_keys: Any = None

    def _first_duplicate(self) -> int | None:
        """Position of the first board that lists a pair twice, or None."""
        pairs, sizes = len(self.pairs), np.array(self.sizes, dtype=np.int64)
        if not pairs:
            return None
        board_of = np.repeat(np.arange(len(sizes), dtype=np.int64) * pairs, sizes)
        seats = np.concatenate((board_of + self.ns_at, board_of + self.ew_at))
        if len(sizes) * pairs <= 16 * len(seats) + 2**16:
            repeated = np.flatnonzero(np.bincount(seats) > 1)
        else:
            ordered = np.sort(seats)
            repeated = ordered[1:][ordered[1:] == ordered[:-1]]
        return int(repeated.min()) // pairs if len(repeated) else None

    def check_seats(self, position: int) -> None:
        """Refuse a pair listed twice on a board, as if boards were checked one by one in order: raises
        once `position` has reached the first such board."""
        first = self.first_duplicate
        if first is None or position < first:
            return
        start = sum(self.sizes[:first])
        end = start + self.sizes[first]
        seen: set[str] = set()
        for pair in self.ns[start:end] + self.ew[start:end]:
            if pair in seen:
                raise ValueError(f"board {self.boards[first]}: pair {pair} appears more than once")
            seen.add(pair)

    def hundredths(self, values: list[int]) -> Iterator[Decimal]:
        """Decimals of whole hundredths (Decimal(1234).scaleb(-2) is 12.34), each value built once: a
        pair's percentage is usually its session average too, and percentages repeat in a big field."""
        made = self._hundredths
        missing = set(values).difference(made)
        made.update(zip(missing, map(Decimal.scaleb, map(Decimal, missing), repeat(-2)), strict=True))
        return map(made.__getitem__, values)

    def normal_hundredths(self, pair: str) -> int:
        return int(self.normal[self.index[pair]])


def _check_entry(board: Hashable, entry: Entry) -> None:
    if (entry.score is None) == (entry.artificial is None):
        raise ValueError(f"board {board}: {entry.ns}-{entry.ew} needs either a score or an artificial award")


def _half_up(numerator, denominator):
    """numerator / denominator rounded half up to a whole number, for non-negative integers (or arrays)."""
    return (2 * numerator + denominator) // (2 * denominator)


class _PlainColumns:
    """The integer columns of the boards scored in arrays, and the EntryScore rows built from them."""

    def __init__(self, scorer: "_MatchpointScorer", ns, ew, scores, n, raw, mp_ns, mp_ew, pct_ns, pct_ew):
        self.scorer = scorer
        self.ns, self.ew, self.scores = ns, ew, scores
        self.keys = n * (2 * scorer.full) + raw  # equal keys (n, raw) give equal Decimals on every board
        self.numbers = (n, raw, mp_ns, mp_ew, pct_ns, pct_ew)
        self.tails: dict[int, tuple] = {}

    def rows(self, start: int, end: int) -> list[EntryScore]:
        keys = self.keys[start:end].tolist()
        tails = self.tails
        for key in set(keys).difference(tails):
            at = start + keys.index(key)
            tails[key] = self.scorer._plain_tail(*(int(column[at]) for column in self.numbers))
        # tuple.__new__ is EntryScore._make without its Python-level length check: every field is given.
        new, row_type = tuple.__new__, EntryScore
        return [
            new(row_type, (ns, ew, score) + tails[key])
            for ns, ew, score, key in zip(
                self.ns[start:end], self.ew[start:end], self.scores[start:end], keys, strict=True
            )
        ]


class BoardResults(MutableSequence):
    """One board's `EntryScore` rows, in the order the entries were given: a list to its readers.

    A board scored in arrays keeps its results as integer columns (every number is computed) and builds its
    row objects when it is first read, so a caller that needs only totals and ranking does not pay for them.
    """

    __slots__ = ("_rows", "_columns", "_start", "_end")

    def __init__(
        self,
        rows: list[EntryScore] | None = None,
        *,
        columns: _PlainColumns | None = None,
        start: int = 0,
        end: int = 0,
    ) -> None:
        self._rows = rows if rows is not None or columns is not None else []
        self._columns, self._start, self._end = columns, start, end

    @property
    def rows(self) -> list[EntryScore]:
        if self._rows is None:
            self._rows = self._columns.rows(self._start, self._end)  # type: ignore[union-attr]
            self._columns = None
        return self._rows

    def __getitem__(self, index):
        return self.rows[index]

    def __setitem__(self, index, value) -> None:
        self.rows[index] = value

    def __delitem__(self, index) -> None:
        del self.rows[index]

    def insert(self, index: int, value: EntryScore) -> None:
        self.rows.insert(index, value)

    def __len__(self) -> int:
        return len(self._rows) if self._rows is not None else self._end - self._start

    def __iter__(self):
        return iter(self.rows)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, BoardResults):
            return self.rows == other.rows
        if isinstance(other, Sequence) and not isinstance(other, str | bytes):
            return self.rows == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, like a list

    def __repr__(self) -> str:
        return f"BoardResults({self.rows!r})"
