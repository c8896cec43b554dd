"""Where final results come from: a registry the game apps fill, and the plain data they hand over.

The bridge and ulti apps own their scoring; this app only needs each event's final placings (and, for
ulti rating, the players' places at every table of every round). A game app registers one function per
game in its ``AppConfig.ready``::

    from rankings.sources import register_source
    register_source("ulti", ulti_final_result)   # fn(event) -> EventResult | None

and calls ``rankings.services.results_changed(event_id)`` whenever an event's results become final or
change (a correction, an appeal decision). Nothing here imports Django models, so the dataclasses can be
built in tests and engines alike; ``event_facts`` reads the announcement fields of an ``Event`` with
``getattr`` so that a source needs to fill only the placings.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

__all__ = [
    "PlayerShare",
    "FinalPlacing",
    "TablePlaces",
    "EventResult",
    "register_source",
    "unregister_source",
    "registered_games",
    "result_for",
    "event_facts",
]


@dataclass(frozen=True)
class PlayerShare:
    """One player of an entry and his right to the entry's award (VSz 25).

    Give either ``has_rights`` (ulti: everybody who played) or ``boards_played_fraction`` (bridge: the
    share of the entry's boards this player played; under one half means no rights). ``substitute_for``
    names the original entrant a substitute replaced: of the two, the one who played more boards gets
    the rights, the original one when equal. Neither given: the player played the whole event.
    """

    person_id: int
    boards_played_fraction: Fraction | Decimal | float | None = None
    has_rights: bool | None = None
    substitute_for: int | None = None


@dataclass(frozen=True)
class FinalPlacing:
    """An entry's final place; ``place_from < place_to`` when the place is shared ("3-4")."""

    entry_key: str
    place_from: int
    place_to: int
    players: tuple[PlayerShare, ...] | list[PlayerShare]
    points: Decimal | int | None = None  # ulti: table points (season tables)
    forint: int | None = None  # ulti: forint result, the second criterion
    name: str = ""  # team name, shown in the team championship table
    score: str = (
        ""  # the entry's score as its results page shows it ("57,32%", "112 VP"), for the player page
    )


@dataclass(frozen=True)
class TablePlaces:
    """Ulti rating: the players' places (1-3, ties share the better place) at one table of one round."""

    round: int
    table: str
    places: dict[int, int]


@dataclass(frozen=True)
class EventResult:
    """An event's final result as the rankings need it."""

    event_id: int
    federation_code: str
    event_class: str
    field_size: int  # entries (pairs, teams, players) that were ranked
    masterpoint_multiplier: Decimal | None
    rating_earning: bool
    in_calendar: bool
    date: datetime.date
    version: str  # the source's id of this result version (e.g. the upload / correction row id)
    placings: tuple[FinalPlacing, ...] | list[FinalPlacing]
    tables: tuple[TablePlaces, ...] | list[TablePlaces] = field(default_factory=tuple)
    club_event: bool = False  # organised by a club (the 20-player rule of MAUSZ III applies)
    region_code: str | None = None  # ulti regional events
    season: int | None = None
    series_number: int | None = None  # NUB: the qualifier (1-5) or semifinal (1-2) number


# game -> [(formats or None for every format, fn)]; a later registration for the same formats replaces it.
_SOURCES: dict[str, list[tuple[frozenset[str] | None, Callable]]] = {}


def register_source(game: str, fn: Callable, formats=None) -> None:
    """Register ``fn(event) -> EventResult | None`` for one game ("bridge" or "ulti").

    ``formats`` narrows it to those event formats (bridge pairs and bridge teams are scored by different
    apps); without it the function serves every event of the game not claimed by a narrower one.
    """
    key = frozenset(formats) if formats else None
    entries = [(f, existing) for f, existing in _SOURCES.get(game, []) if f != key]
    entries.append((key, fn))
    # Narrow registrations first, so they win over the catch-all.
    entries.sort(key=lambda entry: entry[0] is None)
    _SOURCES[game] = entries


def unregister_source(game: str, formats=None) -> None:
    key = frozenset(formats) if formats else None
    remaining = [(f, fn) for f, fn in _SOURCES.get(game, []) if f != key]
    if remaining:
        _SOURCES[game] = remaining
    else:
        _SOURCES.pop(game, None)


def registered_games() -> list[str]:
    return sorted(_SOURCES)


def source_for(event) -> Callable | None:
    for formats, fn in _SOURCES.get(event.federation.game, []):
        if formats is None or event.format in formats:
            return fn
    return None


def result_for(event) -> EventResult | None:
    """The final result of an event from its game's source; None while not final or no source."""
    fn = source_for(event)
    return fn(event) if fn is not None else None


def event_facts(event) -> dict:
    """EventResult keyword arguments read from an Event's announcement, guarded for missing fields."""
    event_class = getattr(event, "event_class", "") or ""
    rating_classes = ("rating", "nub_qualifier", "nub_semifinal", "nub_final")
    region = getattr(event, "region", None) if getattr(event, "region_id", None) else None
    season = getattr(event, "season", None) or event.start_date.year
    return {
        "event_id": event.pk,
        "federation_code": event.federation.code,
        "event_class": event_class,
        "masterpoint_multiplier": getattr(event, "masterpoint_multiplier", None),
        "rating_earning": bool(getattr(event, "earns_rating", False)) or event_class in rating_classes,
        "in_calendar": bool(getattr(event, "in_federation_calendar", True)),
        "date": event.start_date,
        "club_event": getattr(event, "club_id", None) is not None,
        "region_code": region.code if region is not None else None,
        "season": season,
        "series_number": getattr(event, "qualifier_number", None),
    }
