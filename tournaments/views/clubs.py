"""A club's page: contacts, its upcoming and past events, its iCalendar feed, and its members as privacy
allows (the names of active members for logged-in users; anonymous visitors see only how many there are).

It lives here rather than in federation because it lists events, which the bottom layer may not import.
"""

import datetime

from django.db.models import Q
from django.shortcuts import get_object_or_404, render

from federation.models import Club

from ..models import Event, public_events_q

PAST_LIMIT = 50


def club_detail(request, pk):
    club = get_object_or_404(Club.objects.select_related("federation", "region", "county"), pk=pk)
    today = datetime.date.today()
    events = Event.objects.filter(club=club).filter(public_events_q()).select_related("federation")
    over = Q(end_date__lt=today) | Q(end_date__isnull=True, start_date__lt=today)
    members = club.members.filter(is_active=True, federation=club.federation)
    context = {
        "club": club,
        "upcoming": events.exclude(over).order_by("start_date", "pk"),
        "past": events.filter(over).order_by("-start_date", "-pk")[:PAST_LIMIT],
        "member_count": members.count(),
        "members": (
            members.select_related("person").order_by("person__last_name", "person__first_name")
            if request.user.is_authenticated
            else None
        ),
    }
    return render(request, "federation/club_detail.html", context)
