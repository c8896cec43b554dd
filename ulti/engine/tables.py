"""One table's round: three players' forint results turned into table points.

Every deal is zero-sum across the three players, so a table's round total must be zero too; a table
that does not add up was copied wrongly and is refused rather than scored. Three players sit at a table,
never two and never four (MAUSZ II. 10. (2)).
"""

from __future__ import annotations

from dataclasses import dataclass

from ulti.engine.rulesets import RuleSet

__all__ = ["TableError", "TableResult", "ScoredTable", "outcome_of", "score_table"]

PLAYERS_PER_TABLE = 3


class TableError(ValueError):
    """A table result that cannot be scored; the message names the table."""


@dataclass(frozen=True)
class TableResult:
    """Forint results of one table for one round, in seat order (any order works)."""

    table: str
    players: tuple[str, ...]
    forints: tuple[int, ...]

    def __post_init__(self) -> None:
        label = f"table {self.table}"
        if len(self.players) != len(self.forints):
            raise TableError(f"{label}: {len(self.players)} players but {len(self.forints)} forint results")
        if len(self.players) == 2:
            raise TableError(f"{label}: a table of 2 is impossible; ulti is played by three at a table")
        if len(self.players) != PLAYERS_PER_TABLE:
            raise TableError(
                f"{label}: {len(self.players)} players; a table seats exactly three (no tables of four)"
            )
        if len(set(self.players)) != PLAYERS_PER_TABLE:
            raise TableError(
                f"{label}: the same player is seated twice ({', '.join(map(str, self.players))})"
            )
        for who, ft in zip(self.players, self.forints, strict=True):
            if not isinstance(ft, int) or isinstance(ft, bool):
                raise TableError(f"{label}: forint result of {who} must be a whole number, got {ft!r}")
        total = sum(self.forints)
        if total != 0:
            detail = ", ".join(f"{p}: {f:+d}" for p, f in zip(self.players, self.forints, strict=True))
            raise TableError(f"{label}: forint results sum to {total:+d}, not 0 ({detail})")


@dataclass(frozen=True)
class ScoredTable:
    table: str
    outcome: str  # "places", "tie_first", "tie_last" or "tie_all"
    points: dict[str, int]
    forints: dict[str, int]
    places: dict[str, int]  # 1-3; tied players share the better place


def outcome_of(forints: tuple[int, int, int] | list[int]) -> str:
    """Which tie pattern a table's three forint results show."""
    hi, mid, lo = sorted(forints, reverse=True)
    if hi == mid == lo:
        return "tie_all"
    if hi == mid:
        return "tie_first"
    if mid == lo:
        return "tie_last"
    return "places"


def score_table(result: TableResult, ruleset: RuleSet) -> ScoredTable:
    """Table points for each player of one table under the rule set."""
    outcome = outcome_of(result.forints)
    pts = ruleset.points_for(outcome)
    order = sorted(range(PLAYERS_PER_TABLE), key=lambda i: -result.forints[i])
    points: dict[str, int] = {}
    places: dict[str, int] = {}
    for rank, i in enumerate(order):
        player = result.players[i]
        points[player] = pts[rank]
        # Tied players share the better place: count how many scored strictly more.
        places[player] = 1 + sum(1 for f in result.forints if f > result.forints[i])
    return ScoredTable(
        table=result.table,
        outcome=outcome,
        points=points,
        forints=dict(zip(result.players, result.forints, strict=True)),
        places=places,
    )
