"""Who sits out in an odd field: the lowest-ranked team that has had the fewest byes (usually none)."""

from __future__ import annotations

from teams.engine.pairing.standing import TeamStanding


def bye_candidates(ranked: list[TeamStanding]) -> list[TeamStanding]:
    """Candidates in order of preference: fewest byes first, then from the bottom of the ranking up."""
    by_position = list(enumerate(ranked))
    by_position.sort(key=lambda item: (item[1].byes, -item[0]))
    return [team for _, team in by_position]


def bye_explanation(team: TeamStanding, preferred: TeamStanding, ranked: list[TeamStanding]) -> str:
    place = ranked.index(team) + 1
    if team.byes:
        return f"bye at rank {place}: every team has already had a bye, this one has the fewest"
    if team is preferred:
        return f"bye: lowest-ranked team (rank {place}) without a bye so far"
    return (
        f"bye moved up to rank {place}: with the bye at rank {ranked.index(preferred) + 1} "
        "the rest of the field could not be paired without a rematch"
    )
