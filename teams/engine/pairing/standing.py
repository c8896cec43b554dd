"""What a pairing generator knows about a team: plain data, filled by whoever reads the database."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from decimal import Decimal

TeamId = Hashable


@dataclass(frozen=True)
class TeamStanding:
    """A team's rank-relevant totals and its history so far.

    `opponents` holds one entry per round already played, in round order, with None for a bye round;
    keeping the round position lets a stage-limited Swiss ignore meetings from before the stage.
    `imps` is the net IMP difference (won minus lost) the VSz 33 ranking uses after VPs.
    """

    team_id: TeamId
    start_number: int
    vp: Decimal = Decimal(0)
    imps: Decimal = Decimal(0)
    previous_place: int | None = None
    opponents: tuple[TeamId | None, ...] = ()

    @property
    def byes(self) -> int:
        return sum(1 for opponent in self.opponents if opponent is None)

    def met(self, since_round: int = 1) -> dict[TeamId, int]:
        """Opponents met from `since_round` on, each with the first round they met in."""
        meetings: dict[TeamId, int] = {}
        for round_no, opponent in enumerate(self.opponents, start=1):
            if round_no >= since_round and opponent is not None:
                meetings.setdefault(opponent, round_no)
        return meetings
