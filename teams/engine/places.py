"""Final places of a knockout (and of a stage followed by one).

A team knocked out in a round shares the band of places below the teams still in: with 8 teams the
quarter-final losers are 5-8 and the semi-final losers 3-4. A consolation bracket, played by the main
draw's first-round losers, orders that band among themselves the same way.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class BracketRound:
    """One round of one bracket: its real matches as (top, bottom) and the winners of each."""

    matches: tuple[tuple[Hashable, Hashable], ...]
    byes: tuple[Hashable, ...] = ()
    winners: tuple[Hashable, ...] = ()


@dataclass(frozen=True)
class Place:
    team: Hashable
    place_from: int
    place_to: int


def bracket_places(rounds: Sequence[BracketRound], offset: int = 0) -> list[Place]:
    """Places of a finished bracket, counted from `offset` + 1 (the best team first)."""
    places: list[Place] = []
    for rnd in rounds:
        winners = set(rnd.winners)
        losers = [team for pair in rnd.matches for team in pair if team not in winners]
        advancing = len(rnd.winners) + len(rnd.byes)
        if losers:
            start = offset + advancing + 1
            places.extend(Place(team, start, start + len(losers) - 1) for team in losers)
    last = rounds[-1]
    if len(last.winners) != 1 or last.byes:
        raise ValueError("the bracket is not finished")
    places.append(Place(last.winners[0], offset + 1, offset + 1))
    return sorted(places, key=lambda p: (p.place_from, str(p.team)))


def knockout_places(
    main: Sequence[BracketRound], consolation: Sequence[BracketRound] | None = None
) -> list[Place]:
    """Main-draw places; the first-round losers' band re-ordered by the consolation bracket when there is one."""
    places = bracket_places(main)
    if not consolation:
        return places
    first = main[0]
    first_losers = {team for pair in first.matches for team in pair} - set(first.winners)
    offset = len(main[0].winners) + len(main[0].byes)
    inner = bracket_places(consolation, offset)
    if {p.team for p in inner} != first_losers:
        raise ValueError("the consolation bracket is not made of the main draw's first-round losers")
    return sorted([p for p in places if p.team not in first_losers] + inner, key=lambda p: p.place_from)


def event_places(knockout: Sequence[Place], stage_order: Sequence[Hashable]) -> list[Place]:
    """The knockout's places first, then every other team in its stage order."""
    inside = {p.team for p in knockout}
    rest = [team for team in stage_order if team not in inside]
    base = len(knockout)
    return list(knockout) + [Place(team, base + i, base + i) for i, team in enumerate(rest, start=1)]
