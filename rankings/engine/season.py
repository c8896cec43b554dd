"""The National Ulti Championship season (NUB, MAUSZ II): pure rules, no Django.

Qualifier table: per player the qualifiers attended (both regions combined); the best three results count,
compared by points, then forint; at least three attended to be eligible. The top ``places`` eligible
players qualify, every other eligible player is on the reserve list in order. Players equal on points
and forint share a place. A shared place that straddles the cut line is a tie to resolve (II. 10. (5): the
rule book names no further tie-break): its players are ``tied``, neither qualified nor reserve, until the
staff choose exactly as many of them as there are seats left (``resolved``); the others of the place head
the reserve list. Nobody is admitted over the number and nobody is picked by display order.

Stage table (semifinal): everybody starts from zero, all the stage's rounds count, the best ``places``
reach the final, the rest are the reserve list.

Replacement: a qualified player who has not confirmed by his deadline (or who declined) is replaced by the
first reserve who has not been invited yet; a replacement who does not confirm is replaced in turn.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from .standings_list import rank

__all__ = [
    "EventScore",
    "TieAtCut",
    "tie_at_cut",
    "PlayerResults",
    "SeasonLine",
    "counted_results",
    "qualifier_table",
    "stage_table",
    "Invitation",
    "Replacement",
    "replacements",
    "sport_ulti_invitations",
]

QUALIFIED, RESERVE, INELIGIBLE, TIED = "qualified", "reserve", "ineligible", "tied"


@dataclass(frozen=True)
class EventScore:
    event_key: int | str
    points: Decimal | int
    forint: int


@dataclass(frozen=True)
class PlayerResults:
    person_id: int
    results: tuple[EventScore, ...]
    order_key: tuple = ()  # display order inside a shared place (e.g. name); the id is appended


@dataclass(frozen=True)
class SeasonLine:
    person_id: int
    attended: int
    counted: tuple[int | str, ...]  # event keys of the counted results
    points: Decimal | int
    forint: int
    eligible: bool
    position: int | None  # 1.. among the eligible, in display order
    place_from: int | None
    place_to: int | None
    status: str  # qualified / reserve / ineligible
    reserve_position: int | None


def counted_results(results: Iterable[EventScore], best: int | None) -> tuple[EventScore, ...]:
    """The results that count: the best ``best`` by points then forint (all when ``best`` is None)."""
    ordered = sorted(results, key=lambda r: (-r.points, -r.forint, str(r.event_key)))
    return tuple(ordered if best is None else ordered[:best])


@dataclass(frozen=True)
class TieAtCut:
    """The shared place the cut line goes through: ``tied`` players (display order), ``seats`` of them fit."""

    places: int
    tied: tuple[int, ...]
    seats: int


def tie_at_cut(lines: Iterable[SeasonLine], places: int) -> TieAtCut | None:
    """The tie at the cut after ``places`` in a table's lines, or None when the cut falls between places."""
    eligible = [line for line in lines if line.eligible]
    through = sum(1 for line in eligible if line.place_to <= places)
    tied = tuple(line.person_id for line in eligible if line.place_from <= places < line.place_to)
    return TieAtCut(places, tied, places - through) if tied else None


def _table(
    players: Iterable[PlayerResults],
    *,
    best: int | None,
    min_attended: int,
    places: int,
    resolved: Iterable[int] = (),
) -> list[SeasonLine]:
    players = list(players)
    if len({p.person_id for p in players}) != len(players):
        raise ValueError("a player appears twice")
    summary = {}
    for p in players:
        attended = len({r.event_key for r in p.results})
        if attended != len(p.results):
            raise ValueError(f"player {p.person_id} has two results for one event")
        counted = counted_results(p.results, best)
        summary[p.person_id] = (
            p,
            attended,
            counted,
            sum((r.points for r in counted), 0),
            sum(r.forint for r in counted),
        )
    eligible = [pid for pid, s in summary.items() if s[1] >= min_attended]
    ranked = rank(
        eligible,
        score=lambda pid: (summary[pid][3], summary[pid][4]),
        order_key=lambda pid: (*summary[pid][0].order_key, pid),
    )
    through = sum(1 for r in ranked if r.place_to <= places)
    tied = {r.item for r in ranked if r.place_from <= places < r.place_to}
    chosen = set(resolved)
    # The staff's choice holds only for the tie it was made for: the same players, exactly the seats left.
    if not (chosen <= tied and len(chosen) == places - through):
        chosen = set()
    lines = []
    reserve = 0
    for r in ranked:
        pid = r.item
        _, attended, counted, points, forint = summary[pid]
        if pid in tied and not chosen:
            status = TIED
        elif r.place_to <= places or pid in chosen:
            status = QUALIFIED
        else:
            status = RESERVE
            reserve += 1
        lines.append(
            SeasonLine(
                person_id=pid,
                attended=attended,
                counted=tuple(c.event_key for c in counted),
                points=points,
                forint=forint,
                eligible=True,
                position=r.position,
                place_from=r.place_from,
                place_to=r.place_to,
                status=status,
                reserve_position=reserve if status == RESERVE else None,
            )
        )
    others = sorted(
        (pid for pid in summary if pid not in set(eligible)),
        key=lambda pid: (-summary[pid][3], -summary[pid][4], *summary[pid][0].order_key, pid),
    )
    for pid in others:
        _, attended, counted, points, forint = summary[pid]
        lines.append(
            SeasonLine(
                person_id=pid,
                attended=attended,
                counted=tuple(c.event_key for c in counted),
                points=points,
                forint=forint,
                eligible=False,
                position=None,
                place_from=None,
                place_to=None,
                status=INELIGIBLE,
                reserve_position=None,
            )
        )
    return lines


def qualifier_table(
    players: Iterable[PlayerResults],
    *,
    best: int = 3,
    min_attended: int = 3,
    places: int = 60,
    resolved: Iterable[int] = (),
) -> list[SeasonLine]:
    """The qualifying table of a season: best ``best`` of the qualifiers, both regions combined;
    ``resolved``: the staff's choice at a tie on the cut line."""
    return _table(players, best=best, min_attended=min_attended, places=places, resolved=resolved)


def stage_table(
    players: Iterable[PlayerResults], *, places: int = 21, resolved: Iterable[int] = ()
) -> list[SeasonLine]:
    """A stage started from zero (the semifinal): all its rounds count, the best ``places`` go on."""
    return _table(players, best=None, min_attended=1, places=places, resolved=resolved)


@dataclass(frozen=True)
class Invitation:
    person_id: int
    status: str  # invited / confirmed / declined / expired
    deadline: datetime.datetime | None
    replaced: bool = False  # a replacement has already been invited for this place


@dataclass(frozen=True)
class Replacement:
    vacated_by: int
    expired: bool  # True: missed the deadline now (was still "invited")
    replacement: int | None  # None: the reserve list is exhausted


def replacements(
    invitations: Sequence[Invitation],
    reserve: Sequence[int],
    now: datetime.datetime,
    *,
    is_available: Callable[[int], bool] = lambda _pid: True,
) -> list[Replacement]:
    """Who is replaced now and by whom: the reserve list in order, skipping anybody invited before."""
    used = {inv.person_id for inv in invitations}
    queue = [pid for pid in reserve if pid not in used and is_available(pid)]
    result = []
    for inv in invitations:
        if inv.replaced or inv.status == "confirmed":
            continue
        expired = inv.status == "invited" and inv.deadline is not None and inv.deadline < now
        if not (expired or inv.status in ("declined", "expired")):
            continue
        nxt = queue.pop(0) if queue else None
        result.append(Replacement(vacated_by=inv.person_id, expired=expired, replacement=nxt))
    return result


def sport_ulti_invitations(
    previous_list: Sequence[int], final_players: Sequence[int], *, from_list: int
) -> list[tuple[int, str]]:
    """Sport ulti invitations (MAUSZ IV): the top ``from_list`` of last year's sport ulti list and this
    year's final players, each once ("list" wins when both apply); open places are added by the caller."""
    invited: dict[int, str] = {}
    for pid in list(previous_list)[:from_list]:
        invited.setdefault(pid, "list")
    for pid in final_players:
        invited.setdefault(pid, "final")
    return list(invited.items())
