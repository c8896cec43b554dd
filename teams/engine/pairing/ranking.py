"""VSz 33 ranking: victory points, then IMPs, then start number or better place in the previous round.

The third criterion is announced per event (`tiebreak` option).  For pairing, the order must be total,
so the start number (unique) always closes it; the final table may instead let equal teams share a place.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from teams.engine.options import merge_options
from teams.engine.pairing.standing import TeamStanding

TIEBREAKS = ("start_number", "previous_place", "shared")
RANKING_DEFAULTS: Mapping[str, object] = {"tiebreak": "start_number"}


def _tiebreak(options: Mapping[str, object] | None) -> str:
    opts = merge_options(RANKING_DEFAULTS, options)
    tiebreak = opts["tiebreak"]
    if tiebreak not in TIEBREAKS:
        raise ValueError(f"unknown tiebreak {tiebreak!r}; valid: {', '.join(TIEBREAKS)}")
    return str(tiebreak)


def _key(team: TeamStanding, tiebreak: str) -> tuple:
    if tiebreak == "previous_place":
        # A team with no previous place (round one, late entry) ranks after every placed team.
        placed = team.previous_place is not None
        return (-team.vp, -team.imps, not placed, team.previous_place or 0, team.start_number)
    return (-team.vp, -team.imps, team.start_number)


def rank_for_pairing(teams: Iterable[TeamStanding], options: Mapping[str, object] | None = None):
    """Teams best first, in a strict order (start number decides what nothing else does)."""
    tiebreak = _tiebreak(options)
    teams = list(teams)
    numbers = [t.start_number for t in teams]
    if len(set(numbers)) != len(numbers):
        raise ValueError("start numbers must be unique")
    if len({t.team_id for t in teams}) != len(teams):
        raise ValueError("team ids must be unique")
    return sorted(teams, key=lambda t: _key(t, tiebreak))


@dataclass(frozen=True)
class RankedTeam:
    place: int
    team: TeamStanding
    shared: bool  # the place is shared with another team (only with the "shared" tiebreak)


def final_table(teams: Iterable[TeamStanding], options: Mapping[str, object] | None = None):
    """The ranking list with places; with tiebreak "shared", equal VP and IMPs share the higher place."""
    tiebreak = _tiebreak(options)
    ordered = rank_for_pairing(teams, options)
    if tiebreak != "shared":
        return [RankedTeam(i, team, False) for i, team in enumerate(ordered, start=1)]
    table: list[RankedTeam] = []
    for i, team in enumerate(ordered, start=1):
        level = (team.vp, team.imps)
        if table and (table[-1].team.vp, table[-1].team.imps) == level:
            place = table[-1].place
            table[-1] = RankedTeam(table[-1].place, table[-1].team, True)
            table.append(RankedTeam(place, team, True))
        else:
            table.append(RankedTeam(i, team, False))
    return table
