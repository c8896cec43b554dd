"""A player's page: his awards, superseded awards, list positions and rating history."""

from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from federation.models import Federation, Person

from ..engine import rating as rating_engine
from ..models import ListEntry, ListKind, PlayerRating
from ..services.history import (
    award_history,
    masterpoint_chart,
    rating_chart,
    rating_history,
    superseded_awards,
)


def player(request, code, person_id):
    federation = get_object_or_404(Federation, code=code)
    person = get_object_or_404(Person, pk=person_id)
    history = award_history(person, federation)
    year = timezone.localdate().year
    positions = {
        (e.kind, e.year): e
        for e in ListEntry.objects.filter(person=person, federation=federation).filter(year__in=[0, year])
    }
    mp_chart = masterpoint_chart(history)
    rating = PlayerRating.objects.filter(person=person, federation=federation).first()
    ratings = list(rating_history(person, federation)) if federation.game == Federation.ULTI else []
    rating_svg = rating_chart(ratings)
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
            "rating_chart": rating_svg,
            "year": year,
            "provisional_tables": rating_engine.PROVISIONAL_TABLES,
        },
    )
