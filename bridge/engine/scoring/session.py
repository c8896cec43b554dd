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

from collections import defaultdict
from collections.abc import Callable, Hashable, Mapping, Sequence
from decimal import Decimal
from itertools import repeat
from operator import attrgetter
from typing import Any

import numpy as np

from bridge.engine.scoring.adjusted import (
    AWARD_IMPS,
    Award,
    Penalty,
)
from bridge.engine.scoring.butler import DatumMethod, butler_imps, cross_imps
from bridge.engine.scoring.entries import ZERO, Entry, EntryScore, Method, PairTotal, SessionScore
from bridge.engine.scoring.matchpoints import (
    HUNDREDTH,
    WHOLE,
    Rounding,
    check_scale,
    percent_of_top,
    percentage,
    round_total,
)
from bridge.engine.scoring.mp_boards import _apply_board_penalties, _MatchpointScorer
from bridge.engine.scoring.ranking import Placed, rank, ranking_groups, share_places
from bridge.engine.scoring.tally import BoardResults, _check_entry, _half_up, _Tally
from bridge.engine.scoring.tiebreak import TieBreak, played_results
from bridge.engine.scoring.tiebreak import tie_break as announced_tie_break

# The entry types are defined in entries.py; callers import them from here with score_session.
__all__ = ["Entry", "EntryScore", "Method", "PairTotal", "SessionScore", "score_session"]


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
        if method == Method.TOTAL_POINTS:
            values = [Decimal(score) for score in scores]
        elif method == Method.BUTLER:
            values = [Decimal(value) for value in butler_imps(scores, datum_method)]
        else:
            values = cross_imps(scores)
        imps_of.update(zip(indices, values, strict=True))
    rows = []
    for index, entry in enumerate(entries):
        if entry.artificial is not None and method == Method.TOTAL_POINTS:
            imp_ns, imp_ew = _total_points_award(board, entry)
        elif entry.artificial is not None:
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


def _total_points_award(board: Hashable, entry: Entry) -> tuple[Decimal, Decimal]:
    """Law 78C has no average-plus or -minus in points: an average is 0 to both lines, and a director who
    means more assigns a score instead."""
    if entry.artificial.ns != Award.AVERAGE or entry.artificial.ew != Award.AVERAGE:
        raise ValueError(
            f"board {board}: total-points scoring has no points for {entry.artificial}; "
            "give an average (A) or assign a score"
        )
    return ZERO, ZERO


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
