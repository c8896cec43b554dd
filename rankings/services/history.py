"""A player's history: his awards with a running total, superseded awards, his rating over time."""

from __future__ import annotations

from decimal import Decimal

from federation.models import Federation, Person

from ..models import Award, RatingHistory


def award_history(person: Person, federation: Federation):
    """Current ledger rows with the running total, oldest first."""
    rows = list(
        Award.objects.filter(person=person, federation=federation, is_current=True)
        .select_related("event", "version")
        .order_by("date", "event_id")
    )
    running = Decimal(0)
    for row in rows:
        running += row.amount
        row.running_total = running
    return rows


def superseded_awards(person: Person, federation: Federation):
    return (
        Award.objects.filter(person=person, federation=federation, is_current=False)
        .select_related("event", "version")
        .order_by("-date", "event_id", "-version__version")
    )


def rating_history(person: Person, federation: Federation):
    return (
        RatingHistory.objects.filter(person=person, federation=federation)
        .select_related("event")
        .order_by("date", "event_id")
    )
