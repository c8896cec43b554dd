"""Matchpoint scoring of a session's boards (VSz 26-29): real results first in integer arrays, then what
depends on session averages (average-plus), and the board penalties in percent of the top."""

from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from decimal import Decimal
from itertools import chain, compress, repeat
from typing import Any

import numpy as np

from bridge.engine.scoring.adjusted import (
    Award,
    Penalty,
    award_percentage,
)
from bridge.engine.scoring.entries import ZERO, Entry, EntryScore
from bridge.engine.scoring.fouled import (
    LINE_PERCENT_SUM,
    SMALLEST_MATCHPOINTED_GROUP,
    neuberg_from_raw,
    small_group_percentages,
)
from bridge.engine.scoring.matchpoints import (
    FIFTY_PERCENT,
    Rounding,
    percent_of_top,
    percentage,
    raw_matchpoints,
    round_board,
)
from bridge.engine.scoring.tally import BoardResults, _check_entry, _half_up, _PlainColumns, _Tally


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
