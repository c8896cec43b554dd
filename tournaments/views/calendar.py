"""The public calendar, the event page and the iCalendar feeds."""

import itertools

from django.db.models import Prefetch, Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.dates import MONTHS
from django.utils.translation import gettext as _

from config.query import DATE_PART_RANGES
from federation.models import Club, Federation, Region, Role
from results.page_cache import cache_public_page, calendar_scope

from .. import ical, results_pages
from ..engine import fees
from ..filters import CalendarFilter
from ..models import Entry, EntryMember, Event
from ..queries import public_events
from ..rule_sets import rule_set_name
from ..services import history, ledger, workflow
from ..services.entries import can_withdraw
from ..services.entry_changes import offers_replacement
from .common import event_or_deny

# The query parameters of the calendar filter form; with any other the page is not served from the cache.
CALENDAR_PARAMS = ("federation", "region", "club", "event_format", "event_class", "division", "open")


@cache_public_page(calendar_scope, params=CALENDAR_PARAMS)
def calendar(request, year=None, month=None):
    today = timezone.localdate()
    year = year or today.year
    if (
        month is not None
        and not 1 <= month <= 12
        or not DATE_PART_RANGES["year"][0] <= year <= DATE_PART_RANGES["year"][1]
    ):
        raise Http404
    events = public_events().filter(start_date__year=year)
    if month:
        events = events.filter(start_date__month=month)
    filterset = CalendarFilter(request.GET or None, queryset=events)
    events = filterset.qs.select_related("federation", "club", "region").prefetch_related(
        "divisions", "sessions"
    )
    groups = [
        (MONTHS[m], list(items)) for m, items in itertools.groupby(events, key=lambda e: e.start_date.month)
    ]
    query = request.GET.urlencode()
    feeds = [(_("Whole calendar"), reverse("calendar_ics"))] + [
        (f.short_name, reverse("calendar_ics_federation", args=[f.code])) for f in Federation.objects.all()
    ]
    data = filterset.form.cleaned_data if filterset.is_bound and filterset.form.is_valid() else {}
    if data.get("club"):
        feeds.append((str(data["club"]), reverse("calendar_ics_club", args=[data["club"].pk])))
    if data.get("region"):
        feeds.append((str(data["region"]), reverse("calendar_ics_region", args=[data["region"].pk])))
    # A filter value the form refuses (a region id beyond any row, say) is ignored by the list and shown as
    # the form's error; the answer says 400 so that clients see it (config.query).
    refused = filterset.is_bound and not filterset.is_valid()
    return render(
        request,
        "tournaments/calendar.html",
        {
            "year": year,
            "month": month,
            "month_name": MONTHS.get(month),
            "months": list(MONTHS.items()),
            "filter": filterset,
            "groups": groups,
            "count": len(events),
            "query": f"?{query}" if query else "",
            "feeds": feeds,
            "today": today,
        },
        status=400 if refused else 200,
    )


def event_detail(request, pk):
    event = event_or_deny(request, pk)
    user = request.user
    members = Prefetch("members", queryset=EntryMember.objects.select_related("person", "home_club"))
    entries = list(
        event.entries.filter(status__in=[Entry.Status.ACTIVE, Entry.Status.WAITING])
        .select_related("division")
        .prefetch_related(members)
        .order_by("waiting_since", "entered_at", "pk")
    )
    person = getattr(user, "person", None) if user.is_authenticated else None
    mine = [e for e in entries if person and any(m.person_id == person.pk for m in e.members.all())]
    terms = ledger.fee_terms(event)
    can = {
        "edit": workflow.can_edit(user, event),
        "change": user.has_perm("tournaments.change_event", event),
        "review": user.has_perm("tournaments.review_event", event),
        "cancel": user.has_perm("tournaments.cancel_event", event) and event.status != Event.Status.CANCELLED,
        "manage": user.has_perm("tournaments.manage_entries", event),
        "director": user.has_perm("tournaments.assign_director", event),
        "history": user.has_perm("tournaments.view_history", event),
    }
    status = event.status
    context = {
        "event": event,
        "sessions": event.sessions.all(),
        "divisions": event.divisions.all(),
        "active": [e for e in entries if e.status == Entry.Status.ACTIVE],
        "waiting": [e for e in entries if e.status == Entry.Status.WAITING],
        "mine": [
            (
                e,
                can_withdraw(user, e),
                any(m.person_id == person.pk and not m.confirmed_at for m in e.members.all()),
                offers_replacement(user, e),
            )
            for e in mine
        ],
        "fee": fees.player_fee(terms, junior=False),
        "junior_fee": fees.player_fee(terms, junior=True) if event.junior_entry_fee is not None else None,
        "can": can,
        "can_submit": can["change"] and status in (Event.Status.DRAFT, Event.Status.RETURNED),
        "can_decide": can["review"] and status in (Event.Status.SUBMITTED, Event.Status.PROPOSED),
        "can_propose": can["review"]
        and status == Event.Status.SUBMITTED
        and event.start_date.year > timezone.localdate().year,
        "gaps": workflow.announcement_gaps(event)
        if can["change"] and status != Event.Status.APPROVED
        else [],
        # Each format's own results page (tournaments.results_pages); none for a format nothing scores yet.
        "event_results_url": results_pages.results_url(event),
        "rule_set_name": rule_set_name(event.rule_set),
        "open": event.is_open_for_entry(),
        "places_left": event.places_left(),
        "history": [(c, history.readable_changes(c)) for c in event.changes.select_related("user")]
        if can["history"]
        else [],
        "directors": Role.objects.filter(kind=Role.DIRECTOR, event=event).select_related("user")
        if can["manage"]
        else [],
    }
    return render(request, "tournaments/event_detail.html", context)


def _ics(request, events, name, filename="versenynaptar.ics"):
    body = ical.build(
        events.select_related("federation", "club").prefetch_related("sessions", "changes"),
        name=name,
        url_of=lambda e: request.build_absolute_uri(reverse("event_detail", args=[e.pk])),
    )
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def _feed(request, events, name):
    events = events.filter(status=Event.Status.APPROVED, start_date__year__gte=timezone.localdate().year - 1)
    return _ics(request, events, name)


def event_ics(request, pk):
    """One approved event as an iCalendar file (the event page's "Add to calendar")."""
    event = event_or_deny(request, pk)
    if event.status != Event.Status.APPROVED:
        raise Http404
    return _ics(request, Event.objects.filter(pk=event.pk), event.title, f"verseny-{event.pk}.ics")


def calendar_ics(request):
    return _feed(request, Event.objects.all(), _("Versenyportál calendar"))


def calendar_ics_federation(request, code):
    federation = get_object_or_404(Federation, code=code)
    return _feed(
        request,
        Event.objects.filter(federation=federation),
        _("%(name)s calendar") % {"name": federation.short_name},
    )


def calendar_ics_club(request, pk):
    club = get_object_or_404(Club, pk=pk)
    return _feed(request, Event.objects.filter(club=club), _("%(name)s calendar") % {"name": club.name})


def calendar_ics_region(request, pk):
    region = get_object_or_404(Region, pk=pk)
    events = Event.objects.filter(Q(region=region) | Q(club__region=region))
    return _feed(request, events, _("%(name)s calendar") % {"name": region.name})
