"""Score a whole pairs session from plain data: per-board scores, pair totals and the ranking.

This is the one entry point the portal's Celery task and the offline PBN scorer call. Input is a mapping
board -> entries (one per table: NS pair, EW pair, and either the NS score or an artificial award, with an
optional deal-group id when the board was fouled). Nothing here touches a database.

Matchpoint sessions follow VSz 26-29: the top is the same on every board (2 x (N - 1) with N the most
results any board has), boards with fewer real results are scaled by Neuberg, fouled boards are scored per
group of identical deals, and artificial awards are percentages of the top, average-plus using the pair's
session average. Totals are ranked per direction in a Mitchell and together in a Howell.
"""

from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from typing import Any, NamedTuple

from bridge.scoring.adjusted import (
    AWARD_IMPS,
    ArtificialScore,
    Award,
    Penalty,
    award_percentage,
    session_average,
)
from bridge.scoring.butler import DatumMethod, butler_imps, cross_imps
from bridge.scoring.fouled import (
    LINE_PERCENT_SUM,
    SMALLEST_MATCHPOINTED_GROUP,
    neuberg_from_raw,
    small_group_percentages,
)
from bridge.scoring.matchpoints import (
    HUNDREDTH,
    WHOLE,
    Rounding,
    check_scale,
    percent_of_top,
    percentage,
    raw_matchpoints,
    raw_percentage,
    round_board,
    round_total,
)
from bridge.scoring.ranking import Placed, rank, ranking_groups
from bridge.scoring.tiebreak import TieBreak, played_results
from bridge.scoring.tiebreak import tie_break as announced_tie_break

ZERO = Decimal(0)


class Method(StrEnum):
    MATCHPOINTS = "mp"
    CROSS_IMPS = "cross-imps"
    BUTLER = "butler"


@dataclass(frozen=True)
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
    boards: dict[Hashable, list[EntryScore]]
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

    tally = _Tally(check_scale(scale) / 2)
    if method == Method.MATCHPOINTS:
        scorer = _MatchpointScorer(full, rounding, tally)
        scored = scorer.score(boards)
        _apply_board_penalties(scored, penalties, scorer.top, rounding, tally)
        board_top, averages = scorer.top, scorer.averages
    else:
        if penalties:
            raise ValueError("penalties in percent of the top apply to matchpoint scoring only")
        datum = DatumMethod(datum_method)
        scored = {
            board: _imp_board(board, entries, method, datum, tally) for board, entries in boards.items()
        }
        board_top, averages = None, {}

    pairs = _pair_totals(tally, board_top, rounding, penalties)
    if isinstance(tie_break, str):
        tie_break = announced_tie_break(tie_break, played_results(scored.values()))
    ranking = _rank(pairs, method, rounding, tie_break)
    return SessionScore(method, scored, pairs, ranking, board_top, full, averages)


class _Tally:
    """Running per-pair sums, filled while boards are scored so totals need no second pass."""

    def __init__(self, factor: Decimal) -> None:
        self.factor = factor  # matchpoints per scale-2 unit
        self.normal_raw: dict[str, int] = defaultdict(int)  # scale-2 matchpoints from complete boards
        self.normal_exact: dict[str, Decimal] = defaultdict(Decimal)  # Neuberg-scaled matchpoints
        self.fixed_boards: Counter[str] = Counter()  # boards not "played normally" (VSz 29): fixed scores
        self.other: dict[str, Decimal] = defaultdict(Decimal)  # fixed percentages, awards, IMPs
        self.penalty: dict[str, Decimal] = defaultdict(Decimal)
        self.as_ns: Counter[str] = Counter()
        self.as_ew: Counter[str] = Counter()

    def seat(self, board: Hashable, entries: Sequence[Entry]) -> None:
        """Count who sat where; refuse a pair listed twice on a board."""
        ns = [entry.ns for entry in entries]
        ew = [entry.ew for entry in entries]
        if len(set(ns + ew)) != 2 * len(entries):
            seen: set[str] = set()
            for pair in ns + ew:
                if pair in seen:
                    raise ValueError(f"board {board}: pair {pair} appears more than once")
                seen.add(pair)
        self.as_ns.update(ns)
        self.as_ew.update(ew)

    def normal_boards(self) -> dict[str, int]:
        return {
            pair: played
            for pair in self.as_ns.keys() | self.as_ew.keys()
            if (played := self.as_ns[pair] + self.as_ew[pair] - self.fixed_boards[pair])
        }


def _check_entry(board: Hashable, entry: Entry) -> None:
    if (entry.score is None) == (entry.artificial is None):
        raise ValueError(f"board {board}: {entry.ns}-{entry.ew} needs either a score or an artificial award")


class _MatchpointScorer:
    """Two passes: real results first, then what depends on session averages (VSz 29 average-plus)."""

    def __init__(self, full_results: int, rounding: Rounding, tally: _Tally):
        self.full = full_results
        self.factor = tally.factor
        self.top = self.factor * 2 * max(full_results - 1, 0)
        self.rounding = rounding
        self.tally = tally
        self.averages: dict[str, Decimal | None] = {}
        # On a complete board raw matchpoints map to the same Decimals on every board: build each once.
        self._complete_values: dict[int, tuple[Decimal, Decimal, Decimal, Decimal]] = {}

    def score(self, boards: Mapping[Hashable, Sequence[Entry]]) -> dict[Hashable, list[EntryScore]]:
        scored: dict[Hashable, list[EntryScore]] = {}
        # Scores that wait for the session averages: (board, index, entry, NS %, EW %, NS holds the group's
        # best result, EW does). Artificial awards start at 0% and get their percentage in pass 2.
        self.deferred: list[tuple[Hashable, int, Entry, Decimal, Decimal, bool, bool]] = []
        for board, entries in boards.items():
            self.tally.seat(board, entries)
            if len(entries) == self.full and all(
                e.score is not None and e.artificial is None and e.group is None for e in entries
            ):
                scored[board] = self._complete_board(entries)
            else:
                scored[board] = self._incomplete_board(board, entries)

        self.averages = {
            pair: self._session_average(pair, count) for pair, count in self.tally.normal_boards().items()
        }
        for board, index, entry, ns_pct, ew_pct, ns_best, ew_best in self.deferred:
            scored[board][index] = self._fixed(entry, ns_pct, ew_pct, ns_best, ew_best)
        return scored

    def _incomplete_board(self, board: Hashable, entries: Sequence[Entry]) -> list[EntryScore]:
        """A board with artificial scores, fewer results than N, or fouled into groups of identical deals."""
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

    def _session_average(self, pair: str, boards: int) -> Decimal | None:
        raw, exact = self.tally.normal_raw.get(pair, 0), self.tally.normal_exact.get(pair)
        if exact is None and self.full > 1:
            return raw_percentage(raw, boards * 2 * (self.full - 1))  # the same value, in integers
        return session_average(raw * self.factor + (exact or ZERO), self.top * boards)

    def _complete_board(self, entries: Sequence[Entry]) -> list[EntryScore]:
        """The hot path: every table played the board, so plain Law 78A matchpoints, no rounding needed."""
        raws = raw_matchpoints([entry.score for entry in entries])
        values = self._complete_values
        for raw in set(raws).difference(values):
            self._complete_value(raw)
        # tuple.__new__ is EntryScore._make without its Python-level length check: every field is given.
        new, row_type = tuple.__new__, EntryScore
        rows = [
            new(row_type, (entry.ns, entry.ew, entry.score, None, *values[raw], None, None, ZERO, ZERO))
            for entry, raw in zip(entries, raws, strict=True)
        ]
        totals, board_top = self.tally.normal_raw, 2 * (len(entries) - 1)
        for entry, raw in zip(entries, raws, strict=True):
            totals[entry.ns] += raw
            totals[entry.ew] += board_top - raw
        return rows

    def _complete_value(self, raw: int) -> tuple[Decimal, Decimal, Decimal, Decimal]:
        mp_ns = raw * self.factor
        mp_ew = self.top - mp_ns
        raw_top = 2 * (self.full - 1)
        value = (mp_ns, mp_ew, raw_percentage(raw, raw_top), raw_percentage(raw_top - raw, raw_top))
        self._complete_values[raw] = value
        return value

    def _scaled_group(self, entries: list[Entry]) -> list[EntryScore]:
        """A group of identical deals, or a board played fewer times: matchpoints scaled up by Neuberg."""
        n = len(entries)
        results = []
        for entry, raw in zip(entries, raw_matchpoints([entry.score for entry in entries]), strict=True):
            mp_ns = round_board(neuberg_from_raw(raw, n, self.full) * self.factor, self.rounding)
            mp_ew = round_board(
                neuberg_from_raw(2 * (n - 1) - raw, n, self.full) * self.factor, self.rounding
            )
            self.tally.normal_exact[entry.ns] += mp_ns
            self.tally.normal_exact[entry.ew] += mp_ew
            pct_ns, pct_ew = percentage(mp_ns, self.top), percentage(mp_ew, self.top)
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


def _apply_board_penalties(
    scored: dict[Hashable, list[EntryScore]],
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
    tally.seat(board, entries)
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
            if penalty.pair not in tally.as_ns and penalty.pair not in tally.as_ew:
                raise ValueError(f"penalty for pair {penalty.pair}, who has no result in this session")
            tally.penalty[penalty.pair] += percent_of_top(penalty.percent, board_top, rounding)

    pairs = {}
    normal_raw, normal_exact, other, penalties_of = (
        tally.normal_raw,
        tally.normal_exact,
        tally.other,
        tally.penalty,
    )
    for pair in tally.as_ns.keys() | tally.as_ew.keys():
        as_ns, as_ew = tally.as_ns.get(pair, 0), tally.as_ew.get(pair, 0)
        direction = None if as_ns and as_ew else ("NS" if as_ns else "EW")
        boards = as_ns + as_ew
        penalty = penalties_of.get(pair, ZERO)
        if board_top is None:
            pairs[pair] = PairTotal(pair, direction, other.get(pair, ZERO), None, None, boards)
            continue
        normal = normal_raw.get(pair, 0) * tally.factor + normal_exact.get(pair, ZERO)
        total = round_total(normal + other.get(pair, ZERO) - penalty, rounding)
        top = board_top * boards
        pairs[pair] = PairTotal(pair, direction, total, top, percentage(total, top), boards, penalty)
    return pairs


def _rank(
    pairs: Mapping[str, PairTotal], method: Method, rounding: Rounding, tie_break: Callable[[str], Any] | None
) -> list[Placed]:
    resolution = WHOLE if method == Method.MATCHPOINTS and rounding == Rounding.HAND else HUNDREDTH
    directions = {pair: total.direction for pair, total in pairs.items()}
    placed: list[Placed] = []
    for line, field_pairs in ranking_groups(directions):
        values = {pair: pairs[pair].total for pair in field_pairs}
        field_resolution = resolution
        if method == Method.MATCHPOINTS and len({pairs[pair].top for pair in field_pairs}) > 1:
            # Pairs with scores on different numbers of boards cannot be compared on totals: use percentages.
            values = {pair: pairs[pair].percentage for pair in field_pairs}
            field_resolution = HUNDREDTH
        placed.extend(rank(values, resolution=field_resolution, tie_break=tie_break, direction=line))
    return placed
