"""A team match from the two rooms' results: IMPs per board (Law 78B), totals, carry-over, VPs.

The home team sits North-South in the open room and East-West in the closed room, so on every board
its gain is open-room NS score minus closed-room NS score, converted with `imps()`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal

from bridge.engine.scoring.imps import imps
from teams.engine.vp import match_vp


@dataclass(frozen=True)
class BoardScore:
    """NS scores of one board in both rooms; `adjusted_imps` (home's view) replaces them when set.

    A board not played in one room (None) and not adjusted scores nothing: the director must assign
    an artificial score (e.g. +3 / -3 IMPs) through `adjusted_imps`.
    """

    board: int
    open_ns: int | None
    closed_ns: int | None
    adjusted_imps: Decimal | int | None = None


@dataclass(frozen=True)
class BoardImps:
    board: int
    difference: int | None  # total points, home's view
    home: Decimal  # IMPs won by home on this board (0 if lost)
    away: Decimal
    status: str  # "played", "adjusted" or "unscored"


@dataclass(frozen=True)
class MatchResult:
    boards: tuple[BoardImps, ...]
    carry_over_home: Decimal
    carry_over_away: Decimal
    adjustment_home: Decimal  # signed IMP adjustments (e.g. procedural penalties, negative)
    adjustment_away: Decimal

    @property
    def board_imps_home(self) -> Decimal:
        return sum((b.home for b in self.boards), Decimal(0))

    @property
    def board_imps_away(self) -> Decimal:
        return sum((b.away for b in self.boards), Decimal(0))

    @property
    def home_imps(self) -> Decimal:
        """Home's IMP total: board IMPs won + carry-over + adjustments."""
        return self.board_imps_home + self.carry_over_home + self.adjustment_home

    @property
    def away_imps(self) -> Decimal:
        return self.board_imps_away + self.carry_over_away + self.adjustment_away

    @property
    def margin(self) -> Decimal:
        """Net IMPs from home's view (positive: home leads)."""
        return self.home_imps - self.away_imps

    @property
    def unscored_boards(self) -> tuple[int, ...]:
        return tuple(b.board for b in self.boards if b.status == "unscored")

    def victory_points(
        self, boards: int | None = None, options: Mapping[str, object] | None = None
    ) -> tuple[Decimal, Decimal]:
        """(home VP, away VP) under the event's scale; `boards` defaults to the boards listed."""
        return match_vp(self.margin, boards if boards is not None else len(self.boards), options)


def board_imps(score: BoardScore) -> BoardImps:
    if score.adjusted_imps is not None:
        value = Decimal(score.adjusted_imps)
        return BoardImps(score.board, None, max(value, Decimal(0)), max(-value, Decimal(0)), "adjusted")
    if score.open_ns is None or score.closed_ns is None:
        return BoardImps(score.board, None, Decimal(0), Decimal(0), "unscored")
    difference = score.open_ns - score.closed_ns
    value = imps(difference)
    return BoardImps(score.board, difference, Decimal(max(value, 0)), Decimal(max(-value, 0)), "played")


def score_match(
    boards: Iterable[BoardScore],
    carry_over: tuple[Decimal | int, Decimal | int] = (0, 0),
    adjustments: tuple[Decimal | int, Decimal | int] = (0, 0),
) -> MatchResult:
    """Score a match (or one segment of it; add segments with `combine`)."""
    scored = tuple(board_imps(score) for score in boards)
    numbers = [b.board for b in scored]
    if len(set(numbers)) != len(numbers):
        raise ValueError("a board appears twice in the match")
    return MatchResult(
        scored,
        Decimal(carry_over[0]),
        Decimal(carry_over[1]),
        Decimal(adjustments[0]),
        Decimal(adjustments[1]),
    )


def combine(segments: Iterable[MatchResult]) -> MatchResult:
    """A whole match from its halves or stages (results agreed after each, VSz 33)."""
    segments = list(segments)
    if not segments:
        raise ValueError("no segments")
    boards = tuple(b for s in segments for b in s.boards)
    numbers = [b.board for b in boards]
    if len(set(numbers)) != len(numbers):
        raise ValueError("a board appears in two segments")

    def total(attr: str) -> Decimal:
        return sum((getattr(s, attr) for s in segments), Decimal(0))

    return MatchResult(
        boards,
        total("carry_over_home"),
        total("carry_over_away"),
        total("adjustment_home"),
        total("adjustment_away"),
    )
