"""Boards played per player of a team, and the masterpoint right that follows (VSz 25: under 50%, none).

A team's boards are the boards of the matches it played (byes do not count). Each segment (half) of a
match credits its boards to the four players of the line-up. A four-player team has no choice to make,
so a segment without a recorded line-up still counts for all four; a larger team's unrecorded segment
credits nobody and is reported as missing.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Segment:
    team: Hashable
    boards: int
    players: tuple[Hashable, ...] | None  # None: no line-up recorded


@dataclass(frozen=True)
class PlayerBoards:
    team: Hashable
    person: Hashable
    boards: int
    team_boards: int

    @property
    def fraction(self) -> Fraction:
        return Fraction(self.boards, self.team_boards) if self.team_boards else Fraction(0)

    @property
    def has_rights(self) -> bool:
        return self.team_boards > 0 and 2 * self.boards >= self.team_boards


def boards_played(
    rosters: Mapping[Hashable, Sequence[Hashable]], segments: Iterable[Segment]
) -> tuple[list[PlayerBoards], int]:
    """(one row per rostered player, number of segments whose line-up is missing)."""
    played = {(team, person): 0 for team, people in rosters.items() for person in people}
    team_boards = dict.fromkeys(rosters, 0)
    missing = 0
    for segment in segments:
        team_boards[segment.team] += segment.boards
        players = segment.players
        if players is None:
            if len(rosters[segment.team]) == 4:
                players = tuple(rosters[segment.team])
            else:
                missing += 1
                continue
        for person in players:
            # Someone who sat but has left the roster since still played those boards.
            played[(segment.team, person)] = played.get((segment.team, person), 0) + segment.boards
    rows = [
        PlayerBoards(team, person, boards, team_boards[team]) for (team, person), boards in played.items()
    ]
    return rows, missing
