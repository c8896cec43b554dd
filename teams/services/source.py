"""The final result of a team event for the rankings app: places, and each player's share of the boards.

Rights follow VSz 25 as the rankings app applies it: a player who played under half of his team's
boards gets no masterpoints; the fraction is handed over and the rankings engine draws the line.
"""

from fractions import Fraction

from rankings import sources
from tournaments.models import Event

from ..models import FinalPlace, PlayerBoards, Progress


def team_event_result(event):
    """`rankings.sources.EventResult` of a finished team event; None while it is not final."""
    if event.format != Event.Format.TEAMS:
        return None
    progress = Progress.objects.filter(event=event, is_final=True).first()
    if progress is None:
        return None
    shares: dict[int, list] = {}
    for row in PlayerBoards.objects.filter(event=event):
        fraction = Fraction(row.boards, row.team_boards) if row.team_boards else Fraction(0)
        shares.setdefault(row.team_id, []).append(
            sources.PlayerShare(row.person_id, boards_played_fraction=fraction)
        )
    placings = [
        sources.FinalPlacing(
            entry_key=str(place.team.entry_id),
            place_from=place.place_from,
            place_to=place.place_to,
            players=tuple(shares.get(place.team_id, ())),
            name=place.team.name,
        )
        for place in FinalPlace.objects.filter(event=event).select_related("team")
    ]
    return sources.EventResult(
        field_size=len(placings),
        version=f"teams-{progress.version}",
        placings=placings,
        **sources.event_facts(event),
    )


def register():
    """Serve bridge team events to the rankings app (pair events have their own source)."""
    sources.register_source("bridge", team_event_result, formats=[Event.Format.TEAMS])
    return True
