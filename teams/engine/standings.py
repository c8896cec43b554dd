"""Standings of a stage (Danish, Swiss, hybrid, round robin) after every round, with places (VSz 33).

Places use the same ranking the pairing uses (VP, IMPs, then start number or the previous round's
place), so the table a team reads is the order the next round was paired from.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from teams.engine.pairing.ranking import final_table
from teams.engine.pairing.standing import TeamStanding

ZERO = Decimal(0)


@dataclass(frozen=True)
class ScoredMatch:
    """A scored stage match (away None: a bye, scored `home_vp` and no IMPs)."""

    round_no: int
    home: Hashable
    away: Hashable | None
    home_vp: Decimal
    away_vp: Decimal
    home_imps: Decimal
    away_imps: Decimal


@dataclass(frozen=True)
class Row:
    team: Hashable
    place: int
    vp: Decimal
    imps_won: Decimal
    imps_lost: Decimal
    played: int

    @property
    def imps(self) -> Decimal:
        return self.imps_won - self.imps_lost


def standings_by_round(
    start_numbers: dict[Hashable, int],
    matches: Iterable[ScoredMatch],
    complete_rounds: Sequence[int],
    tiebreak: str = "start_number",
) -> dict[int, list[Row]]:
    """{round: rows best first} after each round in `complete_rounds` (every match of it scored)."""
    by_round: dict[int, list[ScoredMatch]] = {}
    for match in matches:
        by_round.setdefault(match.round_no, []).append(match)
    totals = {team: [ZERO, ZERO, ZERO, 0] for team in start_numbers}  # vp, won, lost, played
    previous: dict[Hashable, int] = {}
    out: dict[int, list[Row]] = {}
    for round_no in sorted(complete_rounds):
        for m in by_round.get(round_no, []):
            _add(totals[m.home], m.home_vp, m.home_imps, m.away_imps, m.away is not None)
            if m.away is not None:
                _add(totals[m.away], m.away_vp, m.away_imps, m.home_imps, True)
        ranked = final_table(
            (
                TeamStanding(team, start_numbers[team], t[0], t[1] - t[2], previous.get(team))
                for team, t in totals.items()
            ),
            {"tiebreak": tiebreak},
        )
        rows = [Row(r.team.team_id, r.place, *totals[r.team.team_id]) for r in ranked]
        out[round_no] = rows
        previous = {row.team: row.place for row in rows}
    return out


def _add(total: list, vp: Decimal, won: Decimal, lost: Decimal, played: bool) -> None:
    total[0] += vp
    total[1] += won
    total[2] += lost
    total[3] += 1 if played else 0
