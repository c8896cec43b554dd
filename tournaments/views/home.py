"""The portal's home page: the federations, the coming approved events and the latest results.

It lists events, so it lives here and not in `federation` (the bottom layer, which knows no event)."""

from django.db.models import Q
from django.shortcuts import render
from django.utils import timezone

from federation.models import Federation

from .. import results_pages
from ..models import Event
from ..queries import public_events

LISTED = 8


def home(request):
    today = timezone.localdate()
    # From today: an event running today (started earlier, ends today or later) is still coming.
    upcoming = (
        Event.objects.filter(status=Event.Status.APPROVED)
        .filter(Q(start_date__gte=today) | Q(end_date__gte=today))
        .select_related("federation", "club")
        .order_by("start_date", "title", "pk")[:LISTED]
    )
    latest = (
        public_events()
        .filter(results_pages.published_q(), start_date__lte=today)
        .select_related("federation", "club")
        .order_by("-start_date", "title", "pk")[:LISTED]
    )
    return render(
        request,
        "home.html",
        {
            "federations": Federation.objects.all(),
            "upcoming": upcoming,
            "latest": [(event, results_pages.results_url(event)) for event in latest],
        },
    )
