"""Rescoring a pairs session one board at a time: when a table's result arrives, only its board is scored.

`LiveSession` keeps, per board, what `score_session` computes for it - its rows, each pair's matchpoints
from its real results, the fixed scores and awards that wait for the session averages, its penalties - and
the session's running sums. `set_board` replaces one board's entries (an added, changed or removed result;
no entries removes the board) and scores that board again; `score()` then builds totals, averages and the
ranking from the sums with the same functions `score_session` uses. So after any sequence of changes
`live.score()` equals `score_session(live.boards, ...)` with the same settings (a property test checks).

What a change reaches, and nothing more:
- its board, scored alone against the session's N (the results a complete board has);
- the session averages (VSz 29) of the pairs on it: the artificial scores and small fouled groups of those
  pairs on other boards wait for them, so those boards get their second pass again;
- the totals of the pairs on it, and the ranking (a sort of the totals).
When N changes (a board now has more results than any had, or the fullest board lost one) every board's
Neuberg factor and the top change: then every board is scored again, as `score_session` would.

Pure: no Django.
"""

from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

import numpy as np

from bridge.engine.scoring.adjusted import Penalty
from bridge.engine.scoring.butler import DatumMethod
from bridge.engine.scoring.entries import Entry, Method, SessionScore
from bridge.engine.scoring.matchpoints import Rounding, check_scale
from bridge.engine.scoring.mp_boards import _apply_board_penalties, _MatchpointScorer
from bridge.engine.scoring.session import _imp_board, _pair_totals, _rank, score_session
from bridge.engine.scoring.tally import BoardResults, _Tally
from bridge.engine.scoring.tiebreak import TieBreak, played_results
from bridge.engine.scoring.tiebreak import tie_break as announced_tie_break


@dataclass
class _Board:
    """One board as scored alone (its own tally), with what it adds to the session's sums."""

    entries: tuple[Entry, ...]
    penalties: tuple[Penalty, ...]
    tally: _Tally
    first: list  # rows after the first pass (None where a score waits for the averages)
    deferred: list  # the scorer's deferred scores of this board
    rows: BoardResults | None = None
    normal: dict[str, int] = field(default_factory=dict)  # pair -> hundredths from real results
    fixed: Counter = field(default_factory=Counter)  # pair -> its results here not played normally
    waiting: frozenset[str] = frozenset()  # pairs whose session average a deferred score needs
    other: dict[str, Decimal] = field(default_factory=dict)  # pair -> fixed scores, awards, IMPs here
    penalty: dict[str, Decimal] = field(default_factory=dict)  # pair -> penalties on this board


class LiveSession:
    """A session scored board by board; `score()` is what `score_session` gives for `boards`.

    Boards are kept in the order of their keys (the recompute orders them by board number).
    """

    def __init__(
        self,
        boards: Mapping[Hashable, Sequence[Entry]],
        *,
        method: Method | str = Method.MATCHPOINTS,
        scale: int = 2,
        rounding: Rounding | str = Rounding.COMPUTER,
        full_results: int | None = None,
        penalties: Sequence[Penalty] = (),
        tie_break: Callable[[str], Any] | TieBreak | str | None = None,
        datum_method: DatumMethod | str = DatumMethod.TRIMMED_MEAN,
    ) -> None:
        self.method, self.rounding = Method(method), Rounding(rounding)
        self.scale = scale
        self.factor = check_scale(scale) / 2
        self.fixed_full = full_results
        self.tie_break = tie_break
        self.datum = DatumMethod(datum_method)
        self.entries: dict[Hashable, tuple[Entry, ...]] = {
            board: tuple(entries) for board, entries in sorted(boards.items()) if entries
        }
        self.penalties = tuple(penalties)
        if self.method != Method.MATCHPOINTS and self.penalties:
            raise ValueError("penalties in percent of the top apply to matchpoint scoring only")
        self.scored_boards = 0  # boards scored (first pass) since created: what the changes cost
        self._rebuild()

    # --- what the caller sees ------------------------------------------------------------------------

    @property
    def boards(self) -> dict[Hashable, tuple[Entry, ...]]:
        return dict(self.entries)

    def score(self) -> SessionScore:
        return self._score

    def set_board(self, board: Hashable, entries: Iterable[Entry]) -> set[Hashable]:
        """Replace one board's entries (empty: no result on it); returns the boards scored again.

        A ValueError (a pair twice on the board, an entry with neither score nor award, a penalty left
        without its result) leaves the session as it was."""
        return self.change({board: entries})

    def set_penalties(self, penalties: Sequence[Penalty]) -> set[Hashable]:
        return self.change({}, penalties=penalties)

    def change(
        self, boards: Mapping[Hashable, Iterable[Entry]], *, penalties: Sequence[Penalty] | None = None
    ) -> set[Hashable]:
        """Several boards' entries (and the penalties) at once; returns the boards scored again."""
        saved = (self.entries, self.penalties, self._boards, self._score, self.full, self.top, self._sums())
        self.entries, self._boards = dict(self.entries), dict(self._boards)
        changed = set()
        for board, entries in boards.items():
            entries = tuple(entries)
            if entries != self.entries.get(board, ()):
                changed.add(board)
                if entries:
                    self.entries[board] = entries
                else:
                    self.entries.pop(board, None)
        if penalties is not None:
            penalties = tuple(penalties)
            if self.method != Method.MATCHPOINTS and penalties:
                raise ValueError("penalties in percent of the top apply to matchpoint scoring only")
            old = self._board_penalties(self.penalties)
            new = self._board_penalties(penalties)
            changed |= {b for b in old.keys() | new.keys() if old.get(b, ()) != new.get(b, ())}
            self.penalties = penalties
        if not changed and penalties is None:
            return set()
        self.entries = dict(sorted(self.entries.items()))
        try:
            if self._full() != self.full:
                self._rebuild()
                return set(self.entries)
            return self._update(changed)
        except Exception:
            self.entries, self.penalties, self._boards, self._score, self.full, self.top, sums = saved
            self._normal_sum, self._fixed_sum, self.averages = sums
            raise

    # --- scoring ----------------------------------------------------------------------------------------

    def _full(self) -> int:
        largest = max((len(entries) for entries in self.entries.values()), default=0)
        full = self.fixed_full or largest
        if full < largest:
            raise ValueError(f"full_results {full} is smaller than the {largest} results on a board")
        return full

    def _sums(self):
        return defaultdict(int, self._normal_sum), Counter(self._fixed_sum), dict(self.averages)

    def _board_penalties(self, penalties) -> dict[Hashable, tuple[Penalty, ...]]:
        out: dict[Hashable, list[Penalty]] = defaultdict(list)
        for penalty in penalties:
            if penalty.board is not None:
                out[penalty.board].append(penalty)
        return {board: tuple(items) for board, items in out.items()}

    def _rebuild(self) -> None:
        self.full = self._full()
        self.top = self.factor * 2 * max(self.full - 1, 0) if self.method == Method.MATCHPOINTS else None
        self._boards: dict[Hashable, _Board] = {}
        self._normal_sum: dict[str, int] = defaultdict(int)
        self._fixed_sum: Counter = Counter()
        self.averages: dict[str, Decimal | None] = {}
        self._update(set(self.entries), everything=True)

    def _update(self, changed: set[Hashable], everything: bool = False) -> set[Hashable]:
        if not self.entries:
            self._boards.clear()
            self._normal_sum.clear()
            self._fixed_sum.clear()
            self._score = score_session({}, method=self.method, scale=self.scale, rounding=self.rounding)
            return changed
        by_board = self._board_penalties(self.penalties)
        for board in changed:
            old = self._boards.pop(board, None)
            if old is not None:
                self._add(old, -1)
        for board in changed:
            if board not in self.entries:
                continue
            state = self._first_pass(board, self.entries[board], by_board.get(board, ()))
            self._boards[board] = state
            self._add(state, +1)
        self._boards = {board: self._boards[board] for board in self.entries}
        for board in by_board:
            if board not in self._boards:
                raise ValueError(f"penalty for pair {by_board[board][0].pair} on unknown board {board}")
        tally = _Tally(self.factor, self.entries)  # the session's pairs, in score_session's order
        scored = set(changed)
        if self.method == Method.MATCHPOINTS:
            tally.normal = np.fromiter(
                (self._normal_sum.get(pair, 0) for pair in tally.pairs), np.int64, len(tally.pairs)
            )
            tally.fixed_boards = Counter({pair: n for pair, n in self._fixed_sum.items() if n})
            scorer = _MatchpointScorer(self.full, self.rounding, tally)
            averages = scorer._session_averages()
            moved = {
                pair
                for pair in averages.keys() | self.averages.keys()
                if averages.get(pair, _NONE) != self.averages.get(pair, _NONE)
            }
            self.averages = averages
            for board, state in self._boards.items():
                if board in changed or everything or state.waiting & moved:
                    self._boards[board] = self._second_pass(board, state, by_board.get(board, ()))
                    scored.add(board)
        for state in self._boards.values():
            for pair, value in state.other.items():
                tally.other[pair] += value
            for pair, value in state.penalty.items():
                tally.penalty[pair] += value
        session_penalties = [p for p in self.penalties if p.board is None]
        pairs = _pair_totals(tally, self.top, self.rounding, session_penalties)
        rows = {board: state.rows for board, state in self._boards.items()}
        tie_break = self.tie_break
        if isinstance(tie_break, str):
            tie_break = (
                None
                if TieBreak(tie_break) == TieBreak.SHARED
                else announced_tie_break(tie_break, played_results(rows.values()))
            )
        ranking = _rank(pairs, self.method, self.rounding, tie_break, tally if self.top is not None else None)
        self._score = SessionScore(
            self.method,
            rows,
            pairs,
            ranking,
            self.top,
            self.full,
            self.averages if self.top is not None else {},
        )
        return scored

    def _first_pass(self, board: Hashable, entries: tuple[Entry, ...], penalties) -> _Board:
        self.scored_boards += 1
        tally = _Tally(self.factor, {board: entries})
        if self.method != Method.MATCHPOINTS:
            tally.check_seats(0)
            rows = BoardResults(_imp_board(board, entries, self.method, self.datum, tally))
            return _Board(entries, penalties, tally, [], [], rows, other=dict(tally.other))
        scorer = _MatchpointScorer(self.full, self.rounding, tally)
        first = scorer.first_pass({board: entries})[board]
        normal = {pair: int(h) for pair, h in zip(tally.pairs, tally.normal.tolist(), strict=True) if h}
        waiting = frozenset(
            pair for _b, _i, entry, *_rest in scorer.deferred for pair in (entry.ns, entry.ew)
        )
        return _Board(
            entries,
            penalties,
            tally,
            list(first) if scorer.deferred else first,
            scorer.deferred,
            None,
            normal,
            Counter(tally.fixed_boards),
            waiting,
        )

    def _second_pass(self, board: Hashable, state: _Board, penalties) -> _Board:
        """A new state of the board with its deferred scores and penalties (the old one is left as it was)."""
        tally = state.tally
        tally.other = defaultdict(Decimal)
        tally.penalty = defaultdict(Decimal)
        if state.deferred:
            rows = BoardResults(list(state.first))
            scorer = _MatchpointScorer(self.full, self.rounding, tally)
            scorer.averages = self.averages
            scorer.deferred = state.deferred
            scorer.second_pass({board: rows})
        else:
            rows = state.first if not penalties else BoardResults(list(state.first))
        if penalties:
            _apply_board_penalties({board: rows}, penalties, self.top, self.rounding, tally)
        return replace(state, rows=rows, other=dict(tally.other), penalty=dict(tally.penalty))

    def _add(self, state: _Board, sign: int) -> None:
        for pair, hundredths in state.normal.items():
            self._normal_sum[pair] += sign * hundredths
        for pair, count in state.fixed.items():
            self._fixed_sum[pair] += sign * count


_NONE = object()  # no session average at all (not even None)
