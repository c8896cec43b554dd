"""The announcement form and the workflow steps (submit, propose, approve, return, move, cancel)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from federation.access import check
from federation.models import Federation, Role

from ..forms import DirectorForm, DivisionFormSet, EventForm, MoveForm, ReasonForm, SessionFormSet
from ..models import Event
from ..queries import managed_q
from ..refusals import Refused
from ..services import workflow
from .common import event_or_deny, show_refusal


def _edit(request, event):
    creating = event.pk is None
    data = request.POST if request.method == "POST" else None
    form = EventForm(data, instance=event, user=request.user)
    sessions = SessionFormSet(data, instance=event, prefix="sessions")
    divisions = DivisionFormSet(data, instance=event, prefix="divisions")
    if data is not None:
        if form.is_valid() and sessions.is_valid() and divisions.is_valid():
            event = workflow.save_announcement(request.user, form, [sessions, divisions])
            messages.success(
                request, _("The announcement is saved.") if creating else _("The changes are saved.")
            )
            return redirect("event_detail", event.pk)
        messages.error(request, _("Correct the marked fields; nothing was saved."))
    return render(
        request,
        "tournaments/event_form.html",
        {
            "form": form,
            "sessions": sessions,
            "divisions": divisions,
            "event": event if not creating else None,
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def event_create(request):
    check(request, "tournaments.add_event", None)
    return _edit(request, Event())


@login_required
@require_http_methods(["GET", "POST"])
def event_edit(request, pk):
    event = event_or_deny(request, pk, "tournaments.change_event")
    if not workflow.can_edit(request.user, event):
        messages.error(request, _("Once submitted, only the federation can change the announcement."))
        return redirect("event_detail", event.pk)
    return _edit(request, event)


STEPS = {
    "submit": (workflow.submit, _("The announcement was submitted to the federation.")),
    "propose": (workflow.propose, _("The event is in next year's proposed calendar.")),
    "approve": (workflow.approve, _("The event is approved and in the public calendar.")),
}


@login_required
@require_POST
def event_step(request, pk, step):
    event = get_object_or_404(Event, pk=pk)
    service, done = STEPS[step]
    try:
        service(event.pk, request.user)
    except Refused as refused:
        show_refusal(request, refused)
    else:
        messages.success(request, done)
    return redirect("event_detail", event.pk)


REASON_STEPS = {
    "return": ("tournaments.review_event", _("Return the announcement"), _("The announcement was returned.")),
    "cancel": (
        "tournaments.cancel_event",
        _("Cancel the event"),
        _("The event is cancelled; entrants are notified."),
    ),
    "move": (
        "tournaments.review_event",
        _("Move the event"),
        _("The event was moved; entrants are notified."),
    ),
}


@login_required
@require_http_methods(["GET", "POST"])
def event_reason_step(request, pk, step):
    perm, title, done = REASON_STEPS[step]
    event = event_or_deny(request, pk, perm)
    form_class = MoveForm if step == "move" else ReasonForm
    initial = {"start_date": event.start_date, "end_date": event.end_date} if step == "move" else None
    form = form_class(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            if step == "move":
                workflow.move(event.pk, request.user, d["start_date"], d.get("end_date"), d["reason"])
            elif step == "return":
                workflow.return_event(event.pk, request.user, d["reason"])
            else:
                workflow.cancel(event.pk, request.user, d["reason"])
        except Refused as refused:
            show_refusal(request, refused)
        else:
            messages.success(request, done)
            return redirect("event_detail", event.pk)
    confirm = _("Cancel the event? Every entry becomes void and the entrants are notified.")
    return render(
        request,
        "tournaments/event_step.html",
        {"event": event, "form": form, "title": title, "confirm": confirm if step == "cancel" else ""},
    )


@login_required
@require_POST
def event_assign_director(request, pk):
    event = event_or_deny(request, pk, "tournaments.assign_director")
    form = DirectorForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give a valid e-mail address."))
        return redirect("event_detail", event.pk)
    try:
        workflow.assign_director(event.pk, request.user, form.cleaned_data["email"])
    except Refused as refused:
        show_refusal(request, refused)
    else:
        messages.success(request, _("The director role is assigned."))
    return redirect("event_detail", event.pk)


@login_required
@require_http_methods(["GET"])
def approval_queue(request):
    """Federation staff: the announcements waiting for their federation's decision (VSz 4)."""
    check(request, "tournaments.review_event", None)
    user = request.user
    events = Event.objects.filter(status__in=[Event.Status.SUBMITTED, Event.Status.PROPOSED])
    if not user.is_superuser:
        events = events.filter(
            federation__in=Role.objects.filter(user=user, kind=Role.FEDERATION_STAFF).values("federation")
        )
    events = events.select_related("federation", "club").order_by("start_date", "title", "pk")
    return render(request, "tournaments/approval_queue.html", {"events": events})


@login_required
def organiser_events(request):
    """The events the user runs: drafts, what waits for the federation's decision, the coming ones."""
    user = request.user
    managed = Event.objects.filter(managed_q(user)).select_related("federation", "club")
    staff_feds = Federation.objects.filter(
        pk__in=Role.objects.filter(user=user, kind=Role.FEDERATION_STAFF).values("federation")
    )
    if user.is_superuser:
        staff_feds = Federation.objects.all()
    pending = [Event.Status.SUBMITTED, Event.Status.PROPOSED]
    to_review = managed.filter(federation__in=staff_feds, status__in=pending)
    context = {
        "to_review": to_review,
        "drafts": managed.filter(status__in=[Event.Status.DRAFT, Event.Status.RETURNED, *pending]).exclude(
            pk__in=to_review.values("pk")
        ),
        "upcoming": managed.filter(status=Event.Status.APPROVED, start_date__gte=timezone.localdate()),
        "staff_feds": staff_feds,
        "year": timezone.localdate().year,
        "can_create": user.has_perm("tournaments.add_event"),
    }
    return render(request, "tournaments/organiser_events.html", context)
