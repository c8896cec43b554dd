"""Ulti rating: the rated tables of each event, replayed in date order into every player's rating.

Entry point other apps use: ``live_ratings(person_ids)`` (re-exported by ``rankings.services``), the current
rating of each player for round-1 seeding of ulti events.
"""

from __future__ import annotations

import datetime
from collections import defaultdict

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from federation.models import Federation

from .. import sources
from ..engine import rating as rating_engine
from ..models import ListKind, PlayerRating, RatedEvent, RatingHistory
from .state import data_changed, state_for_update


def live_ratings(person_ids, federation=None) -> dict[int, int]:
    """The current displayed rating of each player; a player never rated gets the starting value."""
    fed = federation or Federation.objects.filter(game=Federation.ULTI).order_by("pk").first()
    ids = [int(p) for p in person_ids]
    result = dict.fromkeys(ids, rating_engine.Rating().display)
    if fed is not None and ids:
        rows = PlayerRating.objects.filter(federation=fed, person_id__in=ids).values_list(
            "person_id", "display"
        )
        result.update(dict(rows))
    return result


def _rounds_of(result: sources.EventResult) -> list[list[dict[str, int]]]:
    by_round: dict[int, list] = defaultdict(list)
    for table in sorted(result.tables, key=lambda t: (t.round, str(t.table))):
        by_round[table.round].append({str(pid): int(place) for pid, place in sorted(table.places.items())})
    return [by_round[r] for r in sorted(by_round)]


def update_ratings(event, result: sources.EventResult) -> bool:
    """Record an event's tables and replay the ratings from it onward; False when nothing changed."""
    rounds = _rounds_of(result)
    players = {int(pid) for tables in rounds for table in tables for pid in table}
    players |= {s.person_id for p in result.placings for s in p.players}
    counted = bool(rounds) and rating_engine.counts_for_rating(
        rating_earning=result.rating_earning,
        in_calendar=result.in_calendar,
        club_event=result.club_event,
        players=len(players),
    )
    federation = event.federation
    with transaction.atomic():
        state_for_update(federation.pk)
        rated = RatedEvent.objects.filter(event=event).first()
        facts = dict(
            federation=federation,
            date=result.date,
            result_version=str(result.version),
            counted=counted,
            players=len(players),
            tables=rounds,
        )
        if rated is not None and all(getattr(rated, k) == v for k, v in facts.items()):
            return False
        start = (result.date, event.pk)
        if rated is not None:
            start = min(start, (rated.date, event.pk))
            for key, value in facts.items():
                setattr(rated, key, value)
            rated.processed_at = timezone.now()
            rated.save()
        else:
            if not counted:
                RatedEvent.objects.create(event=event, **facts)
                return False
            RatedEvent.objects.create(event=event, **facts)
        replay_ratings(federation, start)
        data_changed(federation.pk, [(ListKind.RATING, 0)])
    return True


def _after(key) -> Q:
    date, event_id = key
    return Q(date__gt=date) | Q(date=date, event_id__gte=event_id)


def replay_ratings(federation: Federation, start: tuple[datetime.date, int]) -> int:
    """Recompute every rating from the event at ``start`` (date, event id) on; returns events applied."""
    later_history = RatingHistory.objects.filter(federation=federation).filter(_after(start))
    touched = set(later_history.values_list("person_id", flat=True))
    to_apply = list(
        RatedEvent.objects.filter(federation=federation, counted=True)
        .filter(_after(start))
        .order_by("date", "event_id")
    )
    for rated in to_apply:
        touched |= {int(pid) for tables in rated.tables for table in tables for pid in table}
    later_history.delete()

    # The state just before ``start``: the latest history row of each touched player.
    state: dict[int, rating_engine.Rating] = {}
    last_date: dict[int, datetime.date] = {}
    ids = sorted(touched)
    for i in range(0, len(ids), 2000):
        rows = (
            RatingHistory.objects.filter(federation=federation, person_id__in=ids[i : i + 2000])
            .order_by("person_id", "date", "event_id")
            .values_list("person_id", "mu", "sigma", "tables", "events", "date")
        )
        for pid, mu, sigma, tables, events, date in rows:
            state[pid] = rating_engine.Rating(mu, sigma, tables, events)
            last_date[pid] = date

    for rated in to_apply:
        rounds = [
            [{int(pid): place for pid, place in table.items()} for table in tables] for tables in rated.tables
        ]
        new = rating_engine.rate_event(state, rounds)
        RatingHistory.objects.bulk_create(
            RatingHistory(
                federation=federation,
                person_id=pid,
                event_id=rated.event_id,
                date=rated.date,
                mu=r.mu,
                sigma=r.sigma,
                display=r.display,
                tables=r.tables,
                events=r.events,
            )
            for pid, r in sorted(new.items())
        )
        state.update(new)
        for pid in new:
            last_date[pid] = rated.date

    existing = {r.person_id: r for r in PlayerRating.objects.filter(federation=federation, person_id__in=ids)}
    gone = [pid for pid in ids if pid not in state and pid in existing]
    PlayerRating.objects.filter(federation=federation, person_id__in=gone).delete()
    create, update = [], []
    for pid in ids:
        if pid not in state:
            continue
        r = state[pid]
        row = existing.get(pid) or PlayerRating(federation=federation, person_id=pid)
        row.mu, row.sigma, row.display = r.mu, r.sigma, r.display
        row.tables, row.events, row.provisional = r.tables, r.events, r.provisional
        row.last_date = last_date.get(pid)
        (update if row.pk else create).append(row)
    PlayerRating.objects.bulk_create(create)
    PlayerRating.objects.bulk_update(
        update, ["mu", "sigma", "display", "tables", "events", "provisional", "last_date"], batch_size=1000
    )
    return len(to_apply)
