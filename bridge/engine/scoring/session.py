"""Score a whole pairs session from plain data: per-board scores, pair totals and the ranking.

This is the one entry point the portal's Celery task and the offline PBN scorer call. Input is a mapping
board -> entries (one per table: NS pair, EW pair, and either the NS score or an artificial award, with an
optional deal-group id when the board was fouled). Nothing here touches a database.

Matchpoint sessions follow VSz 26-29: the top is the same on every board (2 x (N - 1) with N the most
results any board has), boards with fewer real results are scaled by Neuberg, fouled boards are scored per
group of identical deals, and artificial awards are percentages of the top, average-plus using the pair's
session average. Totals are ranked per direction in a Mitchell and together in a Howell.

The usual boards (every result real, not fouled) are scored all at once in numpy integer arrays: raw
matchpoints from sorted (board, score) keys, Neuberg and percentages in whole hundredths rounded half up,
pair totals by bincount; Decimals are made only at the end (VSz 26 rounding is exact in integers). Each
board's `EntryScore` rows are built from those arrays when the board is first read (`BoardResults`).
"""

from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterator, Mapping, MutableSequence, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from itertools import chain, compress, count, repeat
from operator import attrgetter
from typing import Any, NamedTuple

import numpy as np

from bridge.engine.scoring.adjusted import (
    AWARD_IMPS,
    ArtificialScore,
    Award,
    Penalty,
    award_percentage,
)
from bridge.engine.scoring.butler import DatumMethod, butler_imps, cross_imps
from bridge.engine.scoring.fouled import (
    LINE_PERCENT_SUM,
    SMALLEST_MATCHPOINTED_GROUP,
    neuberg_from_raw,
    small_group_percentages,
)
from bridge.engine.scoring.matchpoints import (
    FIFTY_PERCENT,
    HUNDREDTH,
    WHOLE,
    Rounding,
    check_scale,
    percent_of_top,
    percentage,
    raw_matchpoints,
    round_board,
    round_total,
)
from bridge.engine.scoring.ranking import Placed, rank, ranking_groups, share_places
from bridge.engine.scoring.tiebreak import TieBreak, played_results
from bridge.engine.scoring.tiebreak import tie_break as announced_tie_break

ZERO = Decimal(0)


class Method(StrEnum):
    MATCHPOINTS = "mp"
    CROSS_IMPS = "cross-imps"
    BUTLER = "butler"


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


def score_session(
    boards: Mapping[Hashable, Sequence[Entry]],
    *,
    method: Method | str = Method.MATCHPOINTS,
    scale: int = 2,
    rounding: Rounding | str = Rounding.COMPUTER,
    full_results: int | None = None,
    penalties: Sequence[Penalty] = (),
    tie_break: Callable[[str], Any] | TieBreak | str | None = None,
    datum_method: DatumMethod | str = DatumMethod.TRIMMED_MEAN,
) -> SessionScore:
    """Score a session. `full_results` is N, the results a complete board has (default: the most any has).

    `tie_break` is a `ranking.rank` tie-break, or the name of an announced method (`tiebreak.TieBreak`)
    applied to this session's boards.
    """
    method, rounding = Method(method), Rounding(rounding)
    largest = max((len(entries) for entries in boards.values()), default=0)
    full = full_results or largest
    if full < largest:
        raise ValueError(f"full_results {full} is smaller than the {largest} results on a board")

    tally = _Tally(check_scale(scale) / 2, boards)
    if method == Method.MATCHPOINTS:
        scorer = _MatchpointScorer(full, rounding, tally)
        scored = scorer.score(boards)
        _apply_board_penalties(scored, penalties, scorer.top, rounding, tally)
        board_top, averages = scorer.top, scorer.averages
    else:
        if penalties:
            raise ValueError("penalties in percent of the top apply to matchpoint scoring only")
        datum = DatumMethod(datum_method)
        scored = {}
        for position, (board, entries) in enumerate(boards.items()):
            tally.check_seats(position)
            scored[board] = BoardResults(_imp_board(board, entries, method, datum, tally))
        tally.check_seats(len(scored))
        board_top, averages = None, {}

    pairs = _pair_totals(tally, board_top, rounding, penalties)
    if isinstance(tie_break, str):  # equal totals share the place: no boards to look at
        tie_break = (
            None
            if TieBreak(tie_break) == TieBreak.SHARED
            else announced_tie_break(tie_break, played_results(scored.values()))
        )
    ranking = _rank(pairs, method, rounding, tie_break, tally if board_top is not None else None)
    return SessionScore(method, scored, pairs, ranking, board_top, full, averages)


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


class _MatchpointScorer:
    """Two passes: real results first, then what depends on session averages (VSz 29 average-plus).

    Plain boards (every result real and in one group: complete boards and boards played fewer times) are
    scored together with numpy in integers: matchpoints from sorted ranks, Neuberg in whole hundredths
    rounded half up, totals by pair with bincount. Fouled boards and boards with artificial awards go
    through the per-result code below, in Decimal.
    """

    def __init__(self, full_results: int, rounding: Rounding, tally: _Tally):
        self.full = full_results
        self.factor = tally.factor
        self.top = self.factor * 2 * max(full_results - 1, 0)
        self.top_units = int(self.top)  # the top in matchpoints is a whole number on either scale
        self.unit = int(self.factor * 100)  # hundredths of a matchpoint per scale-2 unit: 100 or 50
        self.step = 1 if rounding == Rounding.COMPUTER else 10  # board rounding in hundredths (VSz 26)
        self.rounding = rounding
        self.tally = tally
        self.averages: dict[str, Decimal | None] = {}

    def score(self, boards: Mapping[Hashable, Sequence[Entry]]) -> dict[Hashable, "BoardResults"]:
        scored = self.first_pass(boards)
        self.averages = self._session_averages()
        self.second_pass(scored)
        return scored

    def first_pass(self, boards: Mapping[Hashable, Sequence[Entry]]) -> dict[Hashable, "BoardResults"]:
        """Every real result; what waits for the session averages is left in `deferred` (and the gaps)."""
        tally = self.tally
        plain = [True] * len(tally.boards) if tally.plain_field else self._plain_boards(boards)
        scored: dict[Hashable, BoardResults] = {}
        # Scores that wait for the session averages: (board, index, entry, NS %, EW %, NS holds the group's
        # best result, EW does). Artificial awards start at 0% and get their percentage in pass 2.
        self.deferred: list[tuple[Hashable, int, Entry, Decimal, Decimal, bool, bool]] = []
        for position, (board, entries) in enumerate(boards.items()):
            if plain[position]:
                scored[board] = BoardResults()  # keeps the board order; filled by _score_plain
            else:
                tally.check_seats(position)
                scored[board] = BoardResults(self._incomplete_board(board, entries))
        tally.check_seats(len(plain))
        self._score_plain(plain, scored)
        for pair, hundredths in tally.normal_h.items():
            tally.normal[tally.index[pair]] += hundredths
        return scored

    def second_pass(self, scored: dict[Hashable, "BoardResults"]) -> None:
        """The deferred scores, with `averages` (VSz 29) set."""
        for board, index, entry, ns_pct, ew_pct, ns_best, ew_best in self.deferred:
            scored[board][index] = self._fixed(entry, ns_pct, ew_pct, ns_best, ew_best)

    @staticmethod
    def _plain_boards(boards: Mapping[Hashable, Sequence[Entry]]) -> list[bool]:
        """Per board: every result real and in one group (a complete board, or one played fewer times)."""
        return [
            all(e.score is not None and e.artificial is None and e.group is None for e in entries)
            for entries in boards.values()
        ]

    def _score_plain(self, plain: list[bool], scored: dict[Hashable, "BoardResults"]) -> None:
        """Every plain board at once: raw matchpoints by sorting, Neuberg, percentages and totals in integer
        arrays. The rows are built from these columns when a board is first read (`BoardResults`)."""
        tally = self.tally
        if all(plain):
            sizes, ns, ew, scores = tally.sizes, tally.ns, tally.ew, tally.scores
            ns_at, ew_at = tally.ns_at, tally.ew_at
        else:
            sizes = list(compress(tally.sizes, plain))
            keep = list(chain.from_iterable(map(repeat, plain, tally.sizes)))
            ns, ew = list(compress(tally.ns, keep)), list(compress(tally.ew, keep))
            scores = list(compress(tally.scores, keep))
            selected = np.array(keep, dtype=bool)
            ns_at, ew_at = tally.ns_at[selected], tally.ew_at[selected]
        if not scores:
            return
        sizes_array = np.array(sizes, dtype=np.int64)
        raw = _raw_matchpoints(scores, sizes_array)
        n = np.repeat(sizes_array, sizes_array)  # results on each result's board
        full, unit, step = self.full, self.unit, self.step
        # VSz 28 (Neuberg) in hundredths, rounded half up to the board step; with n = N it is exact, unchanged.
        mp_ns = step * _half_up(unit * (full * raw + full - n), n * step)
        mp_ew = step * _half_up(unit * (full * (2 * (n - 1) - raw) + full - n), n * step)
        top = max(self.top_units, 1)
        pct_ns, pct_ew = _half_up(100 * mp_ns, top), _half_up(100 * mp_ew, top)  # VSz 26: to hundredths
        pairs = len(tally.pairs)
        # bincount adds in float64: exact for integers this small (a total stays far below 2**53)
        totals = np.bincount(ns_at, mp_ns, pairs) + np.bincount(ew_at, mp_ew, pairs)
        tally.normal += totals.astype(np.int64)

        columns = _PlainColumns(self, ns, ew, scores, n, raw, mp_ns, mp_ew, pct_ns, pct_ew)
        start = 0
        for board, size in zip(compress(tally.boards, plain), sizes, strict=True):
            scored[board] = BoardResults(columns=columns, start=start, end=start + size)
            start += size

    def _plain_tail(self, n: int, raw: int, mp_ns: int, mp_ew: int, pct_ns: int, pct_ew: int) -> tuple:
        """The EntryScore fields after ns, ew and score of a plain board's result, from its integers."""
        if n == self.full:  # a complete board: plain Law 78A matchpoints, no rounding needed
            ns_mp = raw * self.factor
            ew_mp = self.top - ns_mp
        elif self.step == 1:
            ns_mp, ew_mp = Decimal(mp_ns).scaleb(-2), Decimal(mp_ew).scaleb(-2)
        else:
            ns_mp, ew_mp = Decimal(mp_ns // 10).scaleb(-1), Decimal(mp_ew // 10).scaleb(-1)
        if self.top_units:
            ns_pct, ew_pct = Decimal(pct_ns).scaleb(-2), Decimal(pct_ew).scaleb(-2)
        else:  # a one-result field: nobody could be compared
            ns_pct = ew_pct = FIFTY_PERCENT
        return (None, ns_mp, ew_mp, ns_pct, ew_pct, None, None, ZERO, ZERO)

    def _session_averages(self) -> dict[str, Decimal | None]:
        """VSz 29: each pair's percentage on the boards it played normally, for every pair that did."""
        tally = self.tally
        boards = tally.as_ns + tally.as_ew
        for pair, fixed in tally.fixed_boards.items():
            boards[tally.index[pair]] -= fixed
        played = (boards > 0).tolist()
        if not self.top_units:
            return dict.fromkeys(compress(tally.pairs, played))
        hundredths = _half_up(100 * tally.normal, self.top_units * np.maximum(boards, 1))
        averages = tally.hundredths(list(compress(hundredths.tolist(), played)))
        return dict(zip(compress(tally.pairs, played), averages, strict=False))

    def _incomplete_board(self, board: Hashable, entries: Sequence[Entry]) -> list[EntryScore]:
        """A board with artificial scores or fouled into groups of identical deals."""
        row: list[EntryScore | None] = [None] * len(entries)
        groups: dict[Hashable, list[int]] = defaultdict(list)
        for index, entry in enumerate(entries):
            _check_entry(board, entry)
            if entry.score is None:
                self._defer(board, index, entry, ZERO, False, False)
            else:
                groups[entry.group].append(index)
        fouled = len(groups) > 1
        for indices in groups.values():
            scores = [entries[i].score for i in indices]
            if fouled and len(indices) < SMALLEST_MATCHPOINTED_GROUP:
                best_ns, best_ew = max(scores), min(scores)
                for i, score, ns_pct in zip(indices, scores, small_group_percentages(scores), strict=True):
                    self._defer(board, i, entries[i], ns_pct, score == best_ns, score == best_ew)
            else:
                for i, result in zip(indices, self._scaled_group([entries[i] for i in indices]), strict=True):
                    row[i] = result
        return row  # type: ignore[return-value]  # the gaps are filled in pass 2

    def _defer(
        self, board: Hashable, index: int, entry: Entry, ns_pct: Decimal, ns_best: bool, ew_best: bool
    ):
        self.tally.fixed_boards.update((entry.ns, entry.ew))
        self.deferred.append((board, index, entry, ns_pct, LINE_PERCENT_SUM - ns_pct, ns_best, ew_best))

    def _scaled_group(self, entries: list[Entry]) -> list[EntryScore]:
        """A group of identical deals, or the real results of a board with awards: scaled by Neuberg."""
        n = len(entries)
        results = []
        for entry, raw in zip(entries, raw_matchpoints([entry.score for entry in entries]), strict=True):
            mp_ns = round_board(neuberg_from_raw(raw, n, self.full) * self.factor, self.rounding)
            mp_ew = round_board(
                neuberg_from_raw(2 * (n - 1) - raw, n, self.full) * self.factor, self.rounding
            )
            pct_ns, pct_ew = percentage(mp_ns, self.top), percentage(mp_ew, self.top)
            self.tally.normal_h[entry.ns] += int(mp_ns * 100)
            self.tally.normal_h[entry.ew] += int(mp_ew * 100)
            results.append(EntryScore(entry.ns, entry.ew, entry.score, None, mp_ns, mp_ew, pct_ns, pct_ew))
        return results

    def _fixed(
        self, entry: Entry, ns_pct: Decimal, ew_pct: Decimal, ns_best: bool, ew_best: bool
    ) -> EntryScore:
        """An artificial award, or a small fouled group's fixed percentage."""
        if entry.artificial is not None:
            ns_pct = award_percentage(entry.artificial.ns, self.averages.get(entry.ns))
            ew_pct = award_percentage(entry.artificial.ew, self.averages.get(entry.ew))
        else:
            # VSz 27: the best result of a small group (shared or alone) gets average-plus if that is higher.
            if ns_best:
                ns_pct = max(ns_pct, award_percentage(Award.AVERAGE_PLUS, self.averages.get(entry.ns)))
            if ew_best:
                ew_pct = max(ew_pct, award_percentage(Award.AVERAGE_PLUS, self.averages.get(entry.ew)))
        mp_ns = percent_of_top(ns_pct, self.top, self.rounding)
        mp_ew = percent_of_top(ew_pct, self.top, self.rounding)
        self.tally.other[entry.ns] += mp_ns
        self.tally.other[entry.ew] += mp_ew
        pct_ns, pct_ew = percentage(mp_ns, self.top), percentage(mp_ew, self.top)
        return EntryScore(entry.ns, entry.ew, entry.score, entry.artificial, mp_ns, mp_ew, pct_ns, pct_ew)


def _raw_matchpoints(scores: list[int], sizes: Any) -> Any:
    """Scale-2 NS matchpoints of every result of several boards (2 per score beaten, 1 per equal one).

    One sort for all boards: each score is keyed by (board, score); the distinct keys with their counts
    give every result the number of results below it and equal to it on its own board.
    """
    boards = len(sizes)
    try:
        values = np.array(scores, dtype=np.int64)
    except OverflowError:  # scores no contract can make; still scored, just not in int64
        ends = np.cumsum(sizes).tolist()
        by_board = [scores[end - size : end] for end, size in zip(ends, sizes.tolist(), strict=True)]
        return np.array(list(chain.from_iterable(map(raw_matchpoints, by_board))), dtype=np.int64)
    low, high = int(values.min()), int(values.max())
    span = high - low + 1
    if boards * span < 2**62:
        values = values - low
    else:  # too wide to key directly: use each score's rank among all distinct scores
        distinct, values = np.unique(values, return_inverse=True)
        span = len(distinct)
    first = np.cumsum(sizes) - sizes  # results on the boards before each board: all keyed lower
    keys = np.repeat(np.arange(boards, dtype=np.int64) * span, sizes) + values
    _distinct, at, equal = np.unique(keys, return_inverse=True, return_counts=True)
    below = np.cumsum(equal) - equal  # results keyed lower than each distinct key
    return 2 * (below[at] - np.repeat(first, sizes)) + equal[at] - 1


def _apply_board_penalties(
    scored: dict[Hashable, "BoardResults"],
    penalties: Sequence[Penalty],
    top: Decimal,
    rounding: Rounding,
    tally: _Tally,
) -> None:
    for penalty in penalties:
        if penalty.board is None:
            continue
        rows = scored.get(penalty.board)
        if rows is None:
            raise ValueError(f"penalty for pair {penalty.pair} on unknown board {penalty.board}")
        amount = percent_of_top(penalty.percent, top, rounding)
        for i, row in enumerate(rows):
            if penalty.pair == row.ns:
                mp = row.mp_ns - amount
                rows[i] = row._replace(
                    mp_ns=mp, pct_ns=percentage(mp, top), penalty_ns=row.penalty_ns + amount
                )
                break
            if penalty.pair == row.ew:
                mp = row.mp_ew - amount
                rows[i] = row._replace(
                    mp_ew=mp, pct_ew=percentage(mp, top), penalty_ew=row.penalty_ew + amount
                )
                break
        else:
            raise ValueError(f"pair {penalty.pair} has no result on board {penalty.board} to penalise")
        tally.penalty[penalty.pair] += amount


def _imp_board(
    board: Hashable, entries: Sequence[Entry], method: Method, datum_method: DatumMethod, tally: _Tally
) -> list[EntryScore]:
    groups: dict[Hashable, list[int]] = defaultdict(list)
    for index, entry in enumerate(entries):
        _check_entry(board, entry)
        if entry.score is not None:
            groups[entry.group].append(index)
    imps_of: dict[int, Decimal] = {}
    for indices in groups.values():
        scores = [entries[i].score for i in indices]
        if method == Method.BUTLER:
            values = [Decimal(value) for value in butler_imps(scores, datum_method)]
        else:
            values = cross_imps(scores)
        imps_of.update(zip(indices, values, strict=True))
    rows = []
    for index, entry in enumerate(entries):
        if entry.artificial is not None:
            imp_ns, imp_ew = (
                Decimal(AWARD_IMPS[entry.artificial.ns]),
                Decimal(AWARD_IMPS[entry.artificial.ew]),
            )
        else:
            imp_ns = imps_of[index]
            imp_ew = -imp_ns
        tally.other[entry.ns] += imp_ns
        tally.other[entry.ew] += imp_ew
        rows.append(
            EntryScore(entry.ns, entry.ew, entry.score, entry.artificial, imp_ns=imp_ns, imp_ew=imp_ew)
        )
    return rows


def _pair_totals(
    tally: _Tally, board_top: Decimal | None, rounding: Rounding, penalties: Sequence[Penalty]
) -> dict[str, PairTotal]:
    for penalty in penalties:
        if penalty.board is None:
            if penalty.pair not in tally.index:
                raise ValueError(f"penalty for pair {penalty.pair}, who has no result in this session")
            tally.penalty[penalty.pair] += percent_of_top(penalty.percent, board_top, rounding)

    other, penalties_of = tally.other, tally.penalty
    boards = tally.as_ns + tally.as_ew
    # 1 if the pair sat NS, 2 if EW, 3 if both (an arrow switch, a Howell)
    directions = list(map(_DIRECTIONS.__getitem__, ((tally.as_ns > 0) + 2 * (tally.as_ew > 0)).tolist()))
    if board_top is None:
        return {
            pair: PairTotal(pair, direction, other.get(pair, ZERO), None, None, played)
            for pair, direction, played in zip(tally.pairs, directions, boards.tolist(), strict=True)
        }

    # Matchpoints from the boards played normally are whole hundredths: built here in bulk from integers;
    # pairs that also have fixed scores, awards or penalties (Decimals) are added up again below.
    hand = rounding == Rounding.HAND
    hundredths = 100 * _half_up(tally.normal, 100) if hand else tally.normal  # VSz 26: by hand, whole MPs
    tops = boards * int(board_top)
    percentages = _half_up(100 * hundredths, np.maximum(tops, 1))
    if hand:
        totals = map(Decimal, (hundredths // 100).tolist())
    else:
        totals = tally.hundredths(hundredths.tolist())
    played = boards.tolist()
    top_of = {count: board_top * count for count in set(played)}
    pcts = tally.hundredths(percentages.tolist())
    rows = zip(
        tally.pairs,
        directions,
        totals,
        map(top_of.__getitem__, played),
        pcts,
        played,
        repeat(ZERO),
        strict=False,
    )
    # tuple.__new__ is PairTotal._make without its Python-level length check: every field is given.
    pairs = dict(zip(tally.pairs, map(tuple.__new__, repeat(PairTotal), rows), strict=True))
    # Totals and percentages in whole hundredths, by position: what `_rank` sorts on.
    tally.total_keys, tally.percentage_keys = hundredths.copy(), percentages.copy()
    for pair in other.keys() | penalties_of.keys() | (set(tally.pairs) if not board_top else set()):
        row = pairs[pair]
        penalty = penalties_of.get(pair, ZERO)
        normal = Decimal(tally.normal_hundredths(pair)).scaleb(-2)
        total = round_total(normal + other.get(pair, ZERO) - penalty, rounding)
        pairs[pair] = row = row._replace(total=total, percentage=percentage(total, row.top), penalty=penalty)
        at = tally.index[pair]
        tally.total_keys[at], tally.percentage_keys[at] = int(total.scaleb(2)), int(row.percentage.scaleb(2))
    return pairs


_DIRECTIONS = ("EW", "NS", "EW", None)


def _rank(
    pairs: Mapping[str, PairTotal],
    method: Method,
    rounding: Rounding,
    tie_break: Callable[[str], Any] | None,
    tally: _Tally | None = None,
) -> list[Placed]:
    """`ranking.rank` of each field; with the tally of a matchpoint session, the same order and places
    sorted in numpy on the totals' whole hundredths (every total and percentage is rounded to them)."""
    resolution = WHOLE if method == Method.MATCHPOINTS and rounding == Rounding.HAND else HUNDREDTH
    directions = dict(zip(pairs, map(_DIRECTION, pairs.values()), strict=True))
    placed: list[Placed] = []
    for line, field_pairs in ranking_groups(directions):
        rows = list(map(pairs.__getitem__, field_pairs))
        by_percentage = method == Method.MATCHPOINTS and len(set(map(_TOP, rows))) > 1
        # Pairs with scores on different numbers of boards cannot be compared on totals: use percentages.
        values = dict(zip(field_pairs, map(_PERCENTAGE if by_percentage else _TOTAL, rows), strict=True))
        if tally is not None and list(pairs) == tally.pairs:
            keys = tally.percentage_keys if by_percentage else tally.total_keys
            placed.extend(_rank_in_arrays(values, keys, tally, tie_break, line))
        else:
            field_resolution = HUNDREDTH if by_percentage else resolution
            placed.extend(rank(values, resolution=field_resolution, tie_break=tie_break, direction=line))
    return placed


def _rank_in_arrays(values: dict[str, Decimal], keys, tally: _Tally, tie_break, line) -> list[Placed]:
    """`ranking.rank(values)` for values whose whole hundredths are `keys` (by tally position)."""
    order_of = np.fromiter(map(tally.index.__getitem__, values), np.intp, len(values))
    field_keys = keys[order_of]
    by_total = np.argsort(-field_keys, kind="stable")  # stable: equal totals keep the order given
    names = list(values)
    order = list(map(names.__getitem__, by_total.tolist()))
    count = len(order)
    places = list(map(str, range(1, count + 1)))
    ordered = field_keys[by_total]
    bounds = [0, *(np.flatnonzero(ordered[1:] != ordered[:-1]) + 1).tolist(), count]
    if len(bounds) <= count:  # some totals are equal
        for start, end in zip(bounds, bounds[1:], strict=False):
            if end - start > 1:
                share_places(order, places, start, end, tie_break)
    new = tuple.__new__  # Placed._make without its Python-level length check
    return list(map(new, repeat(Placed), zip(order, map(values.__getitem__, order), places, repeat(line))))


_DIRECTION, _TOTAL, _TOP, _PERCENTAGE = map(attrgetter, ("direction", "total", "top", "percentage"))
