"""A player's history: his awards with a running total, superseded awards, his rating over time."""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from federation.models import Federation, Person

from .. import charts
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


def masterpoint_chart(history, title: str | None = None) -> SafeString:
    """The running total of ``award_history`` rows (each carries ``running_total``) as an SVG step line,
    starting from zero the day before the first award; empty without rows."""
    if not history:
        return mark_safe("")
    points = [(history[0].date - datetime.timedelta(days=1), 0)] + [
        (a.date, a.running_total) for a in history
    ]
    # charts escapes every text it writes
    return mark_safe(charts.step_chart(points, title=title or _("Running total of masterpoints")))


def rating_chart(ratings) -> SafeString:
    """The rating after each event (``rating_history`` rows) as an SVG line; empty without rows."""
    if not ratings:
        return mark_safe("")
    return mark_safe(  # charts escapes every text it writes
        charts.step_chart(
            [(r.date, r.display) for r in ratings],
            title=_("Rating after each event"),
            step=False,
            start_at_zero=False,
        )
    )
