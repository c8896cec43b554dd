"""Fixtures of the rankings tests: fake result sources, events and result builders."""

import datetime
from decimal import Decimal

import pytest

from federation.models import Licence
from rankings import sources
from rankings.sources import EventResult, FinalPlacing, PlayerShare, TablePlaces
from tournaments.models import Event

EVENT_FIELDS = {f.name for f in Event._meta.get_fields()}


@pytest.fixture
def fake_sources():
    """A dict event_id -> EventResult served through the registry as both games' source."""
    saved = {game: list(entries) for game, entries in sources._SOURCES.items()}
    # Only the fakes: the apps' own sources (narrowed to pairs or teams) would win over a catch-all.
    sources._SOURCES.clear()
    results = {}

    def source(event):
        return results.get(event.pk)

    sources.register_source("bridge", source)
    sources.register_source("ulti", source)
    yield results
    sources._SOURCES.clear()
    sources._SOURCES.update(saved)


@pytest.fixture
def make_event(db):
    counter = {"n": 0}

    def make(federation, *, event_class="club", date=datetime.date(2026, 3, 1), fmt=None, **extra):
        counter["n"] += 1
        fmt = fmt or ("pairs" if federation.game == "bridge" else "ulti_individual")
        fields = {"event_class": event_class, **extra}
        return Event.objects.create(
            federation=federation,
            title=extra.pop("title", f"Verseny {counter['n']}"),
            format=fmt,
            start_date=date,
            status="approved",
            **{k: v for k, v in fields.items() if k in EVENT_FIELDS and k != "title"},
        )

    return make


def result(event, placings, *, multiplier=None, version="1", tables=(), **facts):
    """An EventResult for ``event`` from [(place_from, place_to, [person or PlayerShare, ...]), ...]."""
    built = []
    for row in placings:
        place_from, place_to, players = row[:3]
        points, forint = (row[3], row[4]) if len(row) > 3 else (None, None)
        shares = tuple(p if isinstance(p, PlayerShare) else PlayerShare(p.pk) for p in players)
        key = "-".join(str(s.person_id) for s in sorted(shares, key=lambda s: s.person_id))
        built.append(FinalPlacing(key, place_from, place_to, shares, points, forint))
    base = sources.event_facts(event)
    base.update(facts)
    if multiplier is not None:
        base["masterpoint_multiplier"] = Decimal(str(multiplier))
    base.setdefault("masterpoint_multiplier", None)
    return EventResult(
        field_size=facts.pop("field_size", None) or len(built),
        version=version,
        placings=built,
        tables=tuple(tables),
        **{k: v for k, v in base.items() if k != "field_size"},
    )


def tables_of(rounds):
    """TablePlaces from [[{person: place, ...}, ...] per round]."""
    return tuple(
        TablePlaces(
            round=r + 1,
            table=str(t + 1),
            places={p.pk if hasattr(p, "pk") else p: pl for p, pl in table.items()},
        )
        for r, tables in enumerate(rounds)
        for t, table in enumerate(tables)
    )


@pytest.fixture
def licence(db):
    def grant(person, federation, year=None):
        year = year or datetime.date.today().year
        return Licence.objects.create(person=person, federation=federation, year=year)

    return grant


@pytest.fixture
def ulti_clubs(mausz, regions):
    from federation.models import Club

    dt, ft = regions
    return (
        Club.objects.create(federation=mausz, name="Budapesti Ulti Klub", city="Budapest", region=dt),
        Club.objects.create(federation=mausz, name="Debreceni Ulti Egyesület", city="Debrecen", region=ft),
    )


@pytest.fixture
def build_result():
    return result


@pytest.fixture
def build_tables():
    return tables_of
