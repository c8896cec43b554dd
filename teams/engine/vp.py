"""IMP margin -> victory points: the WBF 2013 continuous 20-VP scale, discrete tables, and a registry.

The continuous scale follows the WBF Scoring Panel's technical report (Bavin, Bethe, Bramley, Buchen):

    VP(I) = 10 + 10 * (1 - tau ** (3 * I / X)) / (1 - tau ** 3),   capped at 20 for I >= X,

where tau = (sqrt(5) - 1) / 2 is the golden-ratio constant, I the integer IMP margin and X = 15 * sqrt(boards)
the blitz margin.  Values are rounded to two decimals half-up; where rounding would make an extra IMP worth
more than the previous one (breaking the "each IMP is worth no more than the last" promise), the panel
raises the middle value by 0.01 until the table is concave again.  The winner gets v, the loser 20 - v.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, localcontext
from functools import lru_cache
from typing import Protocol

from teams.engine.options import merge_options

CENT = Decimal("0.01")
TWENTY = Decimal("20.00")


def _to_cents(value: Decimal) -> Decimal:
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


def blitz_margin(boards: int) -> Decimal:
    """The WBF blitz margin X = 15 * sqrt(boards); an IMP margin of X or more earns 20.00 - 0.00."""
    if boards < 1:
        raise ValueError("a match has at least one board")
    with localcontext() as ctx:
        ctx.prec = 40
        return Decimal(15) * Decimal(boards).sqrt()


def _raw_vp(margin: int, boards: int) -> Decimal:
    """Unrounded winner's VP for a non-negative integer margin (exact to ~35 digits, no float involved)."""
    with localcontext() as ctx:
        ctx.prec = 40
        blitz = blitz_margin(boards)
        if margin >= blitz:
            return Decimal(20)
        tau = (Decimal(5).sqrt() - 1) / 2
        r = tau**3
        term = (Decimal(margin) / blitz * r.ln()).exp()
        return Decimal(10) + Decimal(10) * (1 - term) / (1 - r)


@lru_cache(maxsize=256)
def wbf_continuous_table(boards: int) -> tuple[Decimal, ...]:
    """Winner's VPs for margins 0, 1, ... up to the first margin that reaches 20.00 (the published table).

    The concavity repair walks the table exactly as the WBF panel describes: whenever the gain of IMP k
    exceeds the gain of IMP k-1, the value at k-1 goes up by a cent, and the walk starts again.
    """
    top = math.ceil(blitz_margin(boards))
    table = [_to_cents(_raw_vp(i, boards)) for i in range(top + 1)]
    while True:
        bumped = False
        for k in range(2, len(table)):
            if table[k] - table[k - 1] > table[k - 1] - table[k - 2]:
                table[k - 1] += CENT
                bumped = True
                break
        if not bumped:
            return tuple(table)


def _split(winner_vp: Decimal, margin_sign: int) -> tuple[Decimal, Decimal]:
    loser_vp = TWENTY - winner_vp
    return (winner_vp, loser_vp) if margin_sign >= 0 else (loser_vp, winner_vp)


def wbf_vp(margin: int | Decimal, boards: int) -> tuple[Decimal, Decimal]:
    """(VP of the team whose margin is given, VP of its opponent) on the WBF continuous scale.

    A fractional margin (a carry-over or a weighted adjustment in half IMPs) is interpolated linearly
    between the two neighbouring integer margins and rounded half-up; the pair still totals 20.00.
    """
    margin = Decimal(margin)
    sign = -1 if margin < 0 else 1
    size = abs(margin)
    table = wbf_continuous_table(boards)
    whole = int(size)
    if whole >= len(table) - 1:
        return _split(TWENTY, sign)
    low, high = table[whole], table[whole + 1]
    winner = _to_cents(low + (high - low) * (size - whole))
    return _split(winner, sign)


@dataclass(frozen=True)
class DiscreteRow:
    """Margins up to and including `imp_upper_bound` (and above the previous row's bound) earn these VPs."""

    imp_upper_bound: int | None  # None: every larger margin (the blitz row)
    vp_winner: Decimal
    vp_loser: Decimal


@dataclass(frozen=True)
class DiscreteScale:
    """A configurable stepped VP table, e.g. an old 25-VP scale or the WBF discrete 20-VP scales.

    The first row holds the draw (margin 0), so its two values must be equal; margins beyond a closed
    last row are read from that row.
    """

    name: str
    rows: tuple[DiscreteRow, ...]

    def __post_init__(self) -> None:
        if not self.rows:
            raise ValueError("a discrete VP scale needs at least one row")
        bounds = [row.imp_upper_bound for row in self.rows]
        if any(b is None for b in bounds[:-1]):
            raise ValueError("only the last row may be open-ended")
        finite = [b for b in bounds if b is not None]
        if finite != sorted(finite) or len(set(finite)) != len(finite) or any(b < 0 for b in finite):
            raise ValueError("IMP upper bounds must be distinct, non-negative and ascending")
        if self.rows[0].vp_winner != self.rows[0].vp_loser:
            raise ValueError("the first row includes a drawn match, so both teams get the same VPs there")
        winners = [row.vp_winner for row in self.rows]
        losers = [row.vp_loser for row in self.rows]
        if winners != sorted(winners) or losers != sorted(losers, reverse=True):
            raise ValueError("winner VPs must not fall and loser VPs must not rise as the margin grows")

    @classmethod
    def from_rows(cls, name: str, rows: Sequence[tuple[int | None, object, object]]) -> DiscreteScale:
        """Build from plain (imp upper bound, vp winner, vp loser) triples, as stored in event settings."""
        return cls(
            name=name,
            rows=tuple(
                DiscreteRow(bound, _to_cents(Decimal(str(win))), _to_cents(Decimal(str(lose))))
                for bound, win, lose in rows
            ),
        )

    def convert(self, margin: int | Decimal, boards: int | None = None) -> tuple[Decimal, Decimal]:
        size = abs(Decimal(margin))
        chosen = next(
            (row for row in self.rows if row.imp_upper_bound is None or size <= row.imp_upper_bound),
            self.rows[-1],
        )
        if margin < 0:
            return chosen.vp_loser, chosen.vp_winner
        return chosen.vp_winner, chosen.vp_loser


class VPScale(Protocol):
    def convert(self, margin: int | Decimal, boards: int) -> tuple[Decimal, Decimal]: ...


class WBFContinuousScale:
    """Registry adapter for the continuous scale (boards must be known: the blitz depends on them)."""

    name = "wbf_continuous"

    def convert(self, margin: int | Decimal, boards: int) -> tuple[Decimal, Decimal]:
        return wbf_vp(margin, boards)


VP_OPTION_DEFAULTS: Mapping[str, object] = {
    "scale": "wbf_continuous",  # a registry key
    "table": None,  # rows for the "discrete" scale: [(imp upper bound or None, vp winner, vp loser), ...]
}

VP_SCALES: Mapping[str, str] = {
    "wbf_continuous": "WBF 2013 continuous 20-VP scale (two decimals)",
    "discrete": "stepped table given in the event's options",
}


def vp_scale(options: Mapping[str, object] | None = None) -> VPScale:
    """The scale an event's options select; unknown option keys or scale names are errors."""
    opts = merge_options(VP_OPTION_DEFAULTS, options)
    name = opts["scale"]
    if name == "wbf_continuous":
        if opts["table"] is not None:
            raise ValueError("'table' only applies to the discrete scale")
        return WBFContinuousScale()
    if name == "discrete":
        if not opts["table"]:
            raise ValueError("the discrete scale needs a 'table' of (imp upper bound, vp winner, vp loser)")
        return DiscreteScale.from_rows("discrete", opts["table"])
    raise ValueError(f"unknown VP scale {name!r}; known: {', '.join(sorted(VP_SCALES))}")


def match_vp(
    margin: int | Decimal, boards: int, options: Mapping[str, object] | None = None
) -> tuple[Decimal, Decimal]:
    """VPs of (team with this margin, opponent) under the event's chosen scale."""
    return vp_scale(options).convert(margin, boards)
