"""The director's appeals desk of an event: the committee, the start, the end of sessions, intentions, cases."""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.models import Session

from ..forms import CommitteeMemberForm, IntentionForm, LeaveForm
from ..models import CommitteeMember, Intention, SessionEnd
from ..services import committee, filing
from .common import act, event_or_404


@login_required
def event_desk(request, pk):
    event = event_or_404(request, pk, "appeals.view_event_desk")
    sessions = list(event.sessions.all())
    ends = {e.session_id: e for e in SessionEnd.objects.filter(session__in=sessions)}
    for session in sessions:
        session.end = ends.get(session.pk)
        session.deadline = filing.filing_deadline(session) if session.end else None
    try:
        committee.check_can_start(event)
        start_problem = ""
    except ValidationError as error:
        start_problem = " ".join(error.messages)
    context = {
        "event": event,
        "committee": committee.committee_of(event),
        "needs_committee": committee.needs_committee(event),
        "started": committee.started(event),
        "start_problem": start_problem,
        "sessions": sessions,
        "intentions": Intention.objects.filter(session__event=event).select_related("session", "recorded_by"),
        "cases": event.appeals.select_related("entry", "session").order_by("number"),
        "member_form": CommitteeMemberForm(),
        "leave_form": LeaveForm(),
        "my_seat": CommitteeMember.objects.filter(
            committee__event=event, user=request.user, left_at__isnull=True
        ).first(),
        "history": committee.history(found) if (found := committee.committee_of(event)) else [],
        "intention_form": IntentionForm(event=event),
        "can_manage": request.user.has_perm("appeals.manage_committee", event),
        "can_run": request.user.has_perm("appeals.run_session", event),
        "can_start": request.user.has_perm("appeals.start_event", event),
        "can_consent_to_leave": request.user.has_perm("appeals.consent_to_leave", event),
    }
    return render(request, "appeals/event_desk.html", context)


@login_required
@require_POST
def committee_add(request, pk):
    event = event_or_404(request, pk, "appeals.manage_committee")
    form = CommitteeMemberForm(request.POST)
    return act(
        request,
        form,
        lambda: committee.add_member(
            event, form.cleaned_data["email"], is_alternate=form.cleaned_data["is_alternate"], by=request.user
        ),
        _("Committee member added."),
        "appeals_event",
        event.pk,
    )


@login_required
@require_POST
def committee_remove(request, pk, member_pk):
    event = event_or_404(request, pk, "appeals.manage_committee")
    member = get_object_or_404(CommitteeMember, pk=member_pk, committee__event=event)
    return act(
        request,
        None,
        lambda: committee.remove_member(member, request.user),
        _("Committee member removed."),
        "appeals_event",
        event.pk,
    )


@login_required
@require_POST
def committee_leave(request, pk):
    """A committee member asks the director's consent to leave (VSz 9)."""
    event = event_or_404(request, pk, "appeals.leave_committee")
    member = get_object_or_404(
        CommitteeMember, committee__event=event, user=request.user, left_at__isnull=True
    )
    form = LeaveForm(request.POST)
    return act(
        request,
        form,
        lambda: committee.request_leave(member, request.user, form.cleaned_data["reason"]),
        _("Your request to leave is sent to the director."),
        "appeals_event",
        event.pk,
    )


@login_required
@require_POST
def committee_leave_decide(request, pk, member_pk):
    """The director consents to (consents=1) or refuses a member's leaving."""
    event = event_or_404(request, pk, "appeals.consent_to_leave")
    member = get_object_or_404(CommitteeMember, pk=member_pk, committee__event=event)
    consents = request.POST.get("consents") == "1"
    return act(
        request,
        None,
        lambda: committee.decide_leave(member, request.user, consents),
        _("The member has left; the committee is updated.") if consents else _("The member stays."),
        "appeals_event",
        event.pk,
    )


@login_required
@require_POST
def event_start(request, pk):
    event = event_or_404(request, pk, "appeals.start_event")
    return act(
        request,
        None,
        lambda: committee.start_event(event, request.user),
        _("The event has started."),
        "appeals_event",
        event.pk,
    )


@login_required
@require_POST
def session_end(request, pk, session_pk):
    event = event_or_404(request, pk, "appeals.run_session")
    session = get_object_or_404(Session, pk=session_pk, event=event)
    return act(
        request,
        None,
        lambda: filing.end_session(session, request.user),
        _("The end of the session is recorded; the appeal deadline runs."),
        "appeals_event",
        event.pk,
    )


@login_required
@require_POST
def intention_record(request, pk):
    event = event_or_404(request, pk, "appeals.run_session")
    form = IntentionForm(request.POST, event=event)
    return act(
        request,
        form,
        lambda: filing.record_intention(
            form.cleaned_data["session"],
            form.cleaned_data["entry"],
            request.user,
            source=Intention.Source.DIRECTOR,
            board_number=form.cleaned_data["board_number"],
            note=form.cleaned_data["note"],
        ),
        _("Intention to appeal recorded."),
        "appeals_event",
        event.pk,
    )
