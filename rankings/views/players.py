"""A player's page: his awards, superseded awards, list positions and rating history."""

import datetime

from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from federation.models import Federation, Person

from .. import charts
from ..engine import rating as rating_engine
from ..models import ListEntry, ListKind, PlayerRating
from ..services.history import award_history, rating_history, superseded_awards


def player(request, code, person_id):
    federation = get_object_or_404(Federation, code=code)
    person = get_object_or_404(Person, pk=person_id)
    history = award_history(person, federation)
    year = timezone.localdate().year
    positions = {
        (e.kind, e.year): e
        for e in ListEntry.objects.filter(person=person, federation=federation).filter(year__in=[0, year])
    }
    mp_chart = ""
    if history:
        points = [(history[0].date - datetime.timedelta(days=1), 0)] + [
            (a.date, a.running_total) for a in history
        ]
        mp_chart = mark_safe(charts.step_chart(points, title=_("Running total of masterpoints")))
    rating = PlayerRating.objects.filter(person=person, federation=federation).first()
    ratings = list(rating_history(person, federation)) if federation.game == Federation.ULTI else []
    rating_chart = ""
    if ratings:
        rating_chart = mark_safe(  # charts escapes every text it writes
            charts.step_chart(
                [(r.date, r.display) for r in ratings],
                title=_("Rating after each event"),
                step=False,
                start_at_zero=False,
            )
        )
    membership = person.memberships.filter(federation=federation).select_related("club").first()
    return render(
        request,
        "rankings/player.html",
        {
            "federation": federation,
            "person": person,
            "membership": membership,
            "history": list(reversed(history)),
            "total": history[-1].running_total if history else 0,
            "superseded": superseded_awards(person, federation)[:50],
            "annual": positions.get((ListKind.ANNUAL, year)),
            "alltime": positions.get((ListKind.ALLTIME, 0)),
            "rating_entry": positions.get((ListKind.RATING, 0)),
            "rating": rating,
            "ratings": list(reversed(ratings)),
            "mp_chart": mp_chart,
            "rating_chart": rating_chart,
            "year": year,
            "provisional_tables": rating_engine.PROVISIONAL_TABLES,
        },
    )
