"""The case pages: the list, one case, filing, the partner's answer, the deposit and the attachments."""

import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db import transaction
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from federation.models import Federation, Role
from tournaments.models import Entry, Event

from ..forms import (
    AttachmentForm,
    DecisionForm,
    FileAppealForm,
    IntentionForm,
    SecondAppealForm,
    StatementForm,
    VoteForm,
    WithdrawProposalForm,
)
from ..models import Attachment, Intention, PanelSeat
from ..queries import anonymised_for, visible_appeals
from ..services import attachments, filing, second_instance
from ..services.decision import tally
from .common import act, appeal_or_404, error_by_field, event_or_404, show_errors


def _playing_today(user):
    """The user's entries in events going on now (from the day before to the day after): where he may appeal."""
    person = getattr(user, "person", None) if user.is_authenticated else None
    if person is None:
        return []
    today = timezone.localdate()
    return list(
        Entry.objects.filter(
            members__person=person,
            status=Entry.Status.ACTIVE,
            event__start_date__lte=today + datetime.timedelta(days=1),
            event__start_date__gte=today - datetime.timedelta(days=7),
        ).select_related("event")
    )


def appeal_list(request):
    cases = visible_appeals(request.user).order_by("-filed_at", "-pk")
    published = [a for a in cases if a.is_published]
    open_cases = [a for a in cases if not a.is_published]
    page = Paginator(published, 25).get_page(request.GET.get("page"))
    for appeal in page:
        appeal.anonymised = anonymised_for(request.user, appeal)
    desks, boards = [], []
    if request.user.is_authenticated:
        roles = Role.objects.filter(user=request.user)
        desks = list(
            Event.objects.filter(role__in=roles.filter(kind__in=(Role.DIRECTOR, Role.APPEALS))).distinct()
        )
        boards = list(Federation.objects.filter(role__in=roles.filter(kind=Role.FEDERATION_STAFF)).distinct())
    context = {
        "page": page,
        "open_cases": open_cases,
        "playing": _playing_today(request.user),
        "desks": desks,
        "disciplinary_boards": boards,
    }
    return render(request, "appeals/list.html", context)


def appeal_detail(request, pk, *, decision_form=None, status=200):
    """One case; `decision_form` is a refused proposal shown again with its errors."""
    appeal = appeal_or_404(request, pk)
    user = request.user
    insider = user.has_perm("appeals.view_case_file", appeal)
    seats = list(PanelSeat.objects.filter(appeal=appeal).select_related("member__user", "member__person"))
    decisions = list(appeal.decisions.prefetch_related("votes__user__person").order_by("proposed_at", "pk"))
    if not insider:
        decisions = [d for d in decisions if d.published_at]
    for decision in decisions:
        decision.tally = tally(decision)
        decision.my_vote = next((v for v in decision.votes.all() if v.user_id == user.pk), None)
    hearing = user.has_perm("appeals.hear_case", appeal)
    pending = next((d for d in decisions if d.status == "proposed" and d.instance == "first"), None)
    second_pending = next((d for d in decisions if d.status == "proposed" and d.instance == "second"), None)
    ethics = user.has_perm("appeals.decide_second_instance", appeal)
    context = {
        "appeal": appeal,
        "insider": insider,
        "anonymised": anonymised_for(user, appeal),
        "seats": seats if insider else [],
        "decisions": decisions,
        "pending": pending,
        "second_pending": second_pending,
        "second_vote_form": VoteForm() if ethics and second_pending and not second_pending.my_vote else None,
        "statements": appeal.statements.all() if insider else [],
        "attachments": appeal.attachments.all() if insider else [],
        "timeline": appeal.timeline.select_related("actor") if insider else [],
        "consents": appeal.consents.select_related("person") if insider else [],
        "second": getattr(appeal, "second_appeal", None),
        "second_deadline": second_instance.deadline(appeal),
        "deadline": filing.filing_deadline(appeal.session),
        "can": {
            perm: user.has_perm(f"appeals.{perm}", appeal)
            for perm in (
                "respond_to_appeal",
                "confirm_deposit",
                "form_panel",
                "hear_case",
                "add_attachment",
                "file_second_instance",
                "confirm_second_deposit",
                "decide_second_instance",
            )
        },
        "my_consent": appeal.consents.filter(
            person=getattr(user, "person", None), agreed_at__isnull=True
        ).first()
        if user.is_authenticated
        else None,
        "statement_form": StatementForm() if hearing else None,
        "decision_form": (decision_form or DecisionForm(appeal=appeal)) if hearing and not pending else None,
        "withdraw_form": WithdrawProposalForm()
        if pending and user.has_perm("appeals.withdraw_proposal", appeal)
        else None,
        "vote_form": VoteForm() if hearing and pending and not pending.my_vote else None,
        "attachment_form": AttachmentForm(),
        "second_form": SecondAppealForm(),
        "second_decision_form": DecisionForm(appeal=appeal, prefix="second") if not second_pending else None,
        "committee": list(appeal.event.appeals_committee.members.select_related("user", "person"))
        if hasattr(appeal.event, "appeals_committee")
        else [],
    }
    return render(request, "appeals/detail.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def appeal_file(request, pk):
    """A player of the event files an appeal (and, before the session ends, declares the intention)."""
    event = event_or_404(request, pk, "tournaments.view_event")
    person = getattr(request.user, "person", None)
    entry = (
        Entry.objects.filter(event=event, status=Entry.Status.ACTIVE, members__person=person).first()
        if person
        else None
    )
    if entry is None:
        messages.error(request, _("You can only appeal for an entry you play in."))
        return redirect("appeals")
    form = FileAppealForm(request.POST or None, request.FILES or None, event=event, entry=entry)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            # One step: a refused attachment refuses the filing too, so the form can simply be sent again.
            with transaction.atomic():
                appeal = filing.file_appeal(
                    request.user,
                    session=d["session"],
                    entry=entry,
                    board_number=d["board_number"],
                    ruling=d["ruling"],
                    request=d["request"],
                    statement=d["statement"],
                    director=d["director"],
                    director_name=d["director_name"],
                    respondent_entry=d["respondent_entry"],
                    ns_pair=d["ns_pair"],
                    ew_pair=d["ew_pair"],
                    appellant_pair=d["appellant_pair"],
                )
                if d.get("attachment"):
                    attachments.add_attachment(appeal, request.user, d["attachment"])
        except ValidationError as error:
            # At its field (the director, a pair or board number the results do not have), else on top.
            for field, errors in error_by_field(error).items():
                form.add_error(field if field in form.fields else None, errors)
            show_errors(request, error)
        else:
            messages.success(request, _("Appeal filed."))
            return redirect("appeal_detail", appeal.pk)
    intentions = Intention.objects.filter(entry=entry).select_related("session")
    open_sessions = [s for s in event.sessions.all() if not hasattr(s, "appeals_end")]
    context = {
        "event": event,
        "entry": entry,
        "form": form,
        "intentions": intentions,
        "open_sessions": open_sessions,
    }
    return render(request, "appeals/file.html", context)


@login_required
@require_POST
def intention_declare(request, pk):
    """A player tells the director online that his pair intends to appeal (before the session ends)."""
    event = event_or_404(request, pk, "tournaments.view_event")
    form = IntentionForm(request.POST, event=event)
    if form.is_valid():
        d = form.cleaned_data
        try:
            filing.record_intention(
                d["session"],
                d["entry"],
                request.user,
                source=Intention.Source.APPELLANT,
                board_number=d["board_number"],
                note=d["note"],
            )
        except ValidationError as error:
            show_errors(request, error)
        else:
            messages.success(request, _("Your intention to appeal is recorded."))
    return redirect("appeal_file", event.pk)


def _step(request, pk, perm, step, done):
    appeal = appeal_or_404(request, pk, perm)
    return act(request, None, lambda: step(appeal, request.user), done, "appeal_detail", appeal.pk)


@login_required
@require_POST
def appeal_agree(request, pk):
    return _step(request, pk, "appeals.respond_to_appeal", filing.agree, _("You agreed to the appeal."))


@login_required
@require_POST
def appeal_decline(request, pk):
    return _step(request, pk, "appeals.respond_to_appeal", filing.decline, _("You refused the appeal."))


@login_required
@require_POST
def appeal_withdraw(request, pk):
    return _step(request, pk, "appeals.respond_to_appeal", filing.withdraw, _("The appeal is withdrawn."))


@login_required
@require_POST
def appeal_deposit(request, pk):
    return _step(request, pk, "appeals.confirm_deposit", filing.confirm_deposit, _("Deposit recorded."))


@login_required
@require_POST
def attachment_upload(request, pk):
    appeal = appeal_or_404(request, pk, "appeals.add_attachment")
    form = AttachmentForm(request.POST, request.FILES)
    return act(
        request,
        form,
        lambda: attachments.add_attachment(appeal, request.user, form.cleaned_data["file"]),
        _("Attachment added."),
        "appeal_detail",
        appeal.pk,
    )


@login_required
def attachment_download(request, pk, attachment_pk):
    """Only as a download, with the sniffed type: an upload is never rendered by the browser."""
    appeal = appeal_or_404(request, pk, "appeals.view_case_file")
    attachment = get_object_or_404(Attachment, pk=attachment_pk, appeal=appeal)
    try:
        handle = attachment.file.open("rb")
    except FileNotFoundError:
        raise Http404
    # The stored name is only a label: the download gets a safe name ending in the sniffed type's extension.
    name = attachments.display_name(attachment.original_name, attachment.content_type)
    response = FileResponse(handle, as_attachment=True, filename=name)
    response["Content-Type"] = attachments.download_type(attachment)
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = "default-src 'none'; sandbox"
    response["Cache-Control"] = "private, no-store"
    return response
