"""The portal's home page: the federations, what is live now, the coming approved events and the latest results.

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
    # Results being entered at the tables today (issue #18): a spectator's shortest way to the live pages.
    today_events = list(
        public_events()
        .filter(start_date__lte=today)
        .filter(Q(start_date=today) | Q(end_date__gte=today))
        .select_related("federation", "club")
        .order_by("start_date", "title", "pk")
    )
    links = results_pages.live_links(event.pk for event in today_events)
    live = [(event, links[event.pk]) for event in today_events if event.pk in links]
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
            "live": live,
            "upcoming": upcoming,
            "latest": [(event, results_pages.results_url(event)) for event in latest],
        },
    )
