"""Entries: the entry form, my entries (confirm, decline, withdraw) and the organiser's entry management."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from federation.access import check, object_or_deny

from ..forms import DivisionMoveForm, EntryForm
from ..models import Entry, EntryChange, EntryMember
from ..refusals import Refused
from ..services import entries as service
from ..services import entry_changes, payments
from ..services.player_facts import find_player
from .common import back, event_or_deny, show_refusal

MEMBERS = Prefetch("members", queryset=EntryMember.objects.select_related("person", "home_club"))


@login_required
@require_http_methods(["GET", "POST"])
def entry_create(request, pk):
    event = event_or_deny(request, pk)
    person = getattr(request.user, "person", None)
    if person is None:
        messages.error(request, _("Link your account to your member record before entering."))
        return redirect("link_member")
    if not event.is_open_for_entry():
        messages.error(request, _("%(event)s is not open for entries.") % {"event": event.title})
        return redirect("event_detail", event.pk)
    form = EntryForm(request.POST or None, event=event)
    if request.method == "POST" and form.is_valid():
        try:
            players = [person] + [find_player(event, n) for n in form.member_numbers()]
            entry = service.create_entry(
                event.pk,
                request.user,
                players,
                division_id=form.cleaned_data.get("division") and form.cleaned_data["division"].pk,
                team_name=form.cleaned_data.get("team_name", ""),
                buy_licences=form.cleaned_data.get("buy_licences", False),
                **form.seating(),
            )
        except Refused as refused:
            show_refusal(request, refused)
        else:
            if entry.status == Entry.Status.WAITING:
                messages.warning(
                    request,
                    _("The event is full: your entry is number %(pos)s on the waiting list.")
                    % {"pos": entry.waiting_position()},
                )
            elif not entry.is_confirmed and event.shape.is_team:
                messages.success(request, _("Entry received; it is pending until every member confirms it."))
            elif not entry.is_confirmed:
                messages.success(request, _("Entry received; it is pending until your partner confirms it."))
            else:
                messages.success(request, _("Entry received."))
            fee = payments.confirmation_text(entry) if entry.status == Entry.Status.ACTIVE else ""
            if fee:
                messages.info(request, fee)
            return redirect("my_entries")
    return render(request, "tournaments/entry_form.html", {"event": event, "form": form, "person": person})


@login_required
def my_entries(request):
    person = getattr(request.user, "person", None)
    rows = []
    if person is not None:
        rows = list(
            EntryMember.objects.filter(person=person)
            .select_related("entry__event__federation", "entry__division")
            .prefetch_related(
                Prefetch("entry__members", queryset=EntryMember.objects.select_related("person"))
            )
            .order_by("-entry__event__start_date")
        )
    today = timezone.localdate()
    to_confirm = [m for m in rows if m.confirmed_at is None and m.entry.is_open]
    current = [
        (
            m.entry,
            service.can_withdraw(request.user, m.entry),
            entry_changes.offers_replacement(request.user, m.entry),
        )
        for m in rows
        if m.entry.is_open and m.entry.event.last_day >= today and m not in to_confirm
    ]
    offers = (
        EntryChange.objects.filter(new_person=person, status=EntryChange.Status.PENDING)
        .select_related("entry__event", "old_person")
        .prefetch_related(Prefetch("entry__members", queryset=EntryMember.objects.select_related("person")))
        if person is not None
        else []
    )
    past = [
        m.entry
        for m in rows
        if not (m.entry.is_open and m.entry.event.last_day >= today) and m not in to_confirm
    ]
    return render(
        request,
        "tournaments/my_entries.html",
        {"person": person, "to_confirm": to_confirm, "current": current, "past": past, "offers": offers},
    )


def _entry_step(request, pk, step, done):
    entry = get_object_or_404(Entry, pk=pk)
    try:
        step(entry.pk, request.user)
    except Refused as refused:
        show_refusal(request, refused)
    else:
        messages.success(request, done)
    return back(request, "my_entries")


@login_required
@require_POST
def entry_confirm(request, pk):
    return _entry_step(request, pk, service.confirm, _("You confirmed the entry."))


@login_required
@require_POST
def entry_decline(request, pk):
    return _entry_step(request, pk, service.decline, _("You declined the entry; the entrant is told."))


@login_required
@require_POST
def entry_withdraw(request, pk):
    """Withdraw after a confirmation: the page's script asks and sends confirmed=1; without it (no script)
    the first POST answers with a confirmation page whose form sends it."""
    entry = object_or_deny(
        request, Entry.objects.select_related("event"), "tournaments.withdraw_entry", pk=pk
    )
    if request.POST.get("confirmed") != "1":
        if not entry.is_open:
            messages.error(request, _("This entry is no longer open."))
            return back(request, "my_entries")
        if not service.can_withdraw(request.user, entry):
            messages.error(request, str(service.STARTED_REFUSAL))
            return back(request, "my_entries")
        next_url = request.POST.get("next", "")
        if not url_has_allowed_host_and_scheme(next_url, {request.get_host()}, request.is_secure()):
            next_url = ""
        return render(
            request,
            "tournaments/entry_withdraw_confirm.html",
            {"entry": entry, "started": entry.event.has_started(), "next": next_url},
        )
    try:
        entry = service.withdraw(entry.pk, request.user)
    except Refused as refused:
        show_refusal(request, refused)
    else:
        if entry.withdrawn_during_play:
            messages.success(
                request,
                _(
                    "Recorded as a withdrawal during play (VSz 25): the place is not given to the waiting list."
                ),
            )
        else:
            messages.success(request, _("The entry is withdrawn."))
    return back(request, "my_entries")


@login_required
def manage_entries(request, pk):
    event = event_or_deny(request, pk, "tournaments.manage_entries")
    entries = (
        event.entries.select_related("division").prefetch_related(MEMBERS).order_by("status", "entered_at")
    )
    paid = payments.ledger_with_payments(event).by_entry()
    for entry in entries:
        entry.payment = paid.get(entry.pk)
    groups = [(label, [e for e in entries if e.status == status]) for status, label in Entry.Status.choices]
    return render(
        request,
        "tournaments/manage_entries.html",
        {
            "event": event,
            "groups": groups,
            "seating_requests": [e for e in entries if e.is_open and e.seating_request],
            "form": EntryForm(event=event, by_organiser=True),
            "divisions": event.divisions.all(),
            "started": event.has_started(),
            "today": timezone.localdate(),
        },
    )


@login_required
@require_POST
def entry_add(request, pk):
    event = event_or_deny(request, pk, "tournaments.manage_entries")
    form = EntryForm(request.POST, event=event, by_organiser=True)
    if not form.is_valid():
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else ""
            for error in errors:
                messages.error(request, f"{label}: {error}" if label else error)
        return redirect("manage_entries", event.pk)
    try:
        players = [find_player(event, n) for n in form.member_numbers()]
        entry = service.create_entry(
            event.pk,
            request.user,
            players,
            division_id=form.cleaned_data.get("division") and form.cleaned_data["division"].pk,
            team_name=form.cleaned_data.get("team_name", ""),
            by_organiser=True,
            over_capacity=form.cleaned_data.get("over_capacity", False),
            buy_licences=form.cleaned_data.get("buy_licences", False),
            **form.seating(),
        )
    except Refused as refused:
        show_refusal(request, refused)
    else:
        messages.success(
            request,
            _("%(entry)s entered (%(status)s).")
            % {
                "entry": entry.display_name,
                "status": entry.get_status_display(),
            },
        )
    return redirect("manage_entries", event.pk)


@login_required
@require_POST
def entry_no_show(request, pk):
    entry = get_object_or_404(Entry, pk=pk)
    check(request, "tournaments.manage_entries", entry.event)
    value = request.POST.get("no_show", "1") == "1"
    try:
        service.mark_no_show(entry.pk, request.user, value)
    except Refused as refused:
        show_refusal(request, refused)
    else:
        messages.success(
            request,
            _("Marked as not showing up; the fee is still owed (VSz 7).") if value else _("Mark removed."),
        )
    return redirect("manage_entries", entry.event_id)


@login_required
@require_POST
def entry_move_division(request, pk):
    entry = get_object_or_404(Entry.objects.select_related("event"), pk=pk)
    check(request, "tournaments.manage_entries", entry.event)
    form = DivisionMoveForm(request.POST, event=entry.event)
    if not form.is_valid():
        messages.error(request, _("Choose a division of this event."))
        return redirect("manage_entries", entry.event_id)
    try:
        service.move_division(entry.pk, request.user, form.cleaned_data["division"].pk)
    except Refused as refused:
        show_refusal(request, refused)
    else:
        messages.success(
            request, _("The entry was moved; its players are notified and may withdraw without fee.")
        )
    return redirect("manage_entries", entry.event_id)
