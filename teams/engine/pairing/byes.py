"""Who sits out in an odd field: the lowest-ranked team that has had the fewest byes (usually none)."""

from __future__ import annotations

from teams.engine.pairing.pairings import BYE_LOWEST, BYE_MOVED_UP, BYE_REPEATED, Note
from teams.engine.pairing.standing import TeamStanding


def bye_candidates(ranked: list[TeamStanding]) -> list[TeamStanding]:
    """Candidates in order of preference: fewest byes first, then from the bottom of the ranking up."""
    by_position = list(enumerate(ranked))
    by_position.sort(key=lambda item: (item[1].byes, -item[0]))
    return [team for _, team in by_position]


def bye_explanation(team: TeamStanding, preferred: TeamStanding, ranked: list[TeamStanding]) -> Note:
    place = ranked.index(team) + 1
    if team.byes:
        return Note(BYE_REPEATED, rank=place)
    if team is preferred:
        return Note(BYE_LOWEST, rank=place)
    return Note(BYE_MOVED_UP, rank=place, preferred=ranked.index(preferred) + 1)
