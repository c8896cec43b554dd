"""What follows an event's final (or changed) result: awards, ratings, the season; in Celery after the commit.

Entry point other apps use: ``results_changed(event_id, reason)`` (re-exported by ``rankings.services``).
"""

from __future__ import annotations

from django.db import transaction

from federation.models import Federation
from tournaments.models import Event

from .. import sources
from ..models import RatedEvent, Season
from . import jobs
from .ledger import record_result
from .rating import update_ratings

SEASON_CLASSES = ("nub_qualifier", "nub_semifinal", "nub_final", "team_regional", "sport_ulti")


def results_changed(event_id: int, reason: str = "") -> None:
    """Tell the rankings that an event's results became final or changed; work happens after the commit.

    ``reason``: "correction" or "appeal" (the first final result is recorded as "final" whatever it says).
    """
    transaction.on_commit(lambda: _process_event_results(event_id, reason))


def _process_event_results(event_id: int, reason: str) -> None:
    """Publish the rankings' share of a changed result; when the broker cannot take it, do the work here.

    Nothing else would bring it back: the recompute that calls this is already stamped done, so the results
    sweeper will not run it again. The work is idempotent, so doing it in the caller (in production, the
    worker that just recomputed) is safe.
    """
    if not jobs.publish_now("process_event_results", event_id, reason):
        process_event(event_id, reason)


def process_event(event_id: int, reason: str = "") -> dict:
    """Everything that follows an event's final (or changed) result; safe to run twice."""
    event = Event.objects.select_related("federation").get(pk=event_id)
    result = sources.result_for(event)
    if result is None:
        return {"awarded": False, "rated": False}
    version = record_result(event, result, reason)
    rated = False
    if result.tables or RatedEvent.objects.filter(event=event).exists():
        rated = update_ratings(event, result)
    if result.event_class in SEASON_CLASSES and event.federation.game == Federation.ULTI:
        year = result.season or result.date.year
        with transaction.atomic():
            season, _created = Season.objects.get_or_create(federation=event.federation, year=year)
            jobs.enqueue("recompute_season", season.pk)
    return {"awarded": version is not None, "rated": rated}
