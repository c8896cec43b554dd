"""Entry changes (a player replaced, the newcomer accepting) and the person pickers' name search."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from federation.access import object_or_deny
from federation.services.throttle import throttled

from ..forms import ReplacementForm
from ..models import Entry, EntryChange
from ..refusals import Refused
from ..services import entry_changes as service
from ..services.player_facts import find_player
from ..services.search import members
from .common import back, event_or_deny, show_refusal


@login_required
@require_http_methods(["GET", "POST"])
def entry_replace(request, pk):
    entry = object_or_deny(
        request,
        Entry.objects.select_related("event__federation"),
        "tournaments.change_entry",
        visible="tournaments.withdraw_entry",
        pk=pk,
    )
    organiser = service.is_organiser(request.user, entry.event)
    form = ReplacementForm(request.POST or None, entry=entry, by_organiser=organiser)
    if request.method == "POST" and form.is_valid():
        try:
            newcomer = find_player(entry.event, form.cleaned_data["newcomer"])
            change = service.request_replacement(
                entry.pk, request.user, form.cleaned_data["member"].pk, newcomer
            )
        except Refused as refused:
            show_refusal(request, refused)
        else:
            messages.success(
                request,
                _(
                    "%(new)s is asked to take %(old)s's place; the change is pending until he or she accepts it."
                )
                % {"new": change.new_person.full_name, "old": change.old_person.full_name},
            )
            return back(request, "my_entries")
    changes = entry.changes.select_related("old_person", "new_person", "requested_by").order_by(
        "-requested_at"
    )
    return render(
        request,
        "tournaments/entry_replace.html",
        {"entry": entry, "form": form, "changes": changes, "next": request.GET.get("next", "")},
    )


def _change_step(request, pk, step, done):
    change = object_or_deny(request, EntryChange, "tournaments.respond_to_change", pk=pk)
    try:
        step(change.pk, request.user)
    except Refused as refused:
        show_refusal(request, refused)
    else:
        messages.success(request, done)
    return back(request, "my_entries")


@login_required
@require_POST
def change_accept(request, pk):
    return _change_step(
        request, pk, service.accept_replacement, _("You accepted: you now play in the entry.")
    )


@login_required
@require_POST
def change_decline(request, pk):
    return _change_step(request, pk, service.decline_replacement, _("You declined to play in the entry."))


@login_required
@require_GET
def player_pick(request, pk):
    """Matches for a person picker of event `pk`: name and club of active members only (what the public
    search shows), each with the token the picker's field sends back ("Name (club) #id")."""
    event_or_deny(request, pk)
    wait = throttled([("pick_user", request.user.pk, settings.SEARCH_THROTTLE_PER_MINUTE, 60)])
    if wait:
        response = JsonResponse(
            {"detail": _("Too many searches. Try again in %(seconds)d seconds.") % {"seconds": wait}},
            status=429,
        )
        response["Retry-After"] = str(wait)
        return response
    results = []
    for person in members(request.GET.get("q", "")):
        clubs = ", ".join(
            m.club.short_name or m.club.name for m in person.memberships.all() if m.club_id is not None
        )
        label = f"{person.full_name} ({clubs})" if clubs else person.full_name
        results.append({"label": label, "value": f"{label} #{person.pk}"})
    return JsonResponse({"results": results})
