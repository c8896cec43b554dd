"""The panel's pages: seating the panel, the hearing, the decision and its votes, and the second instance."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ..forms import DecisionForm, SecondAppealForm, StatementForm, VoteForm, WithdrawProposalForm
from ..models import CommitteeMember, Decision
from ..services import decision as decisions
from ..services import hearing, panel, second_instance
from .cases import appeal_detail
from .common import act, appeal_or_404, error_by_field


@login_required
@require_POST
def panel_form(request, pk):
    appeal = appeal_or_404(request, pk, "appeals.form_panel")
    member_pk = request.POST.get("member")
    if member_pk:
        member = get_object_or_404(CommitteeMember, pk=member_pk, committee__event=appeal.event)
        return act(
            request,
            None,
            lambda: panel.seat(appeal, member, request.user),
            _("Panel member seated."),
            "appeal_detail",
            appeal.pk,
        )
    return act(
        request,
        None,
        lambda: panel.form_panel(appeal, request.user),
        _("The panel is seated."),
        "appeal_detail",
        appeal.pk,
    )


@login_required
@require_POST
def statement_add(request, pk):
    appeal = appeal_or_404(request, pk, "appeals.hear_case")
    form = StatementForm(request.POST)
    return act(
        request,
        form,
        lambda: hearing.record_statement(appeal, request.user, **form.cleaned_data),
        _("Statement recorded."),
        "appeal_detail",
        appeal.pk,
    )


@login_required
@require_POST
def decision_propose(request, pk):
    """A refused proposal shows the case page again with the form as posted, each error at its field."""
    appeal = appeal_or_404(request, pk, "appeals.hear_case")
    form = DecisionForm(request.POST, appeal=appeal)
    if form.is_valid():
        try:
            decisions.propose(appeal, request.user, **form.values())
        except ValidationError as error:
            for field, errors in error_by_field(error).items():
                form.add_error(field if field in form.fields else None, errors)
        else:
            messages.success(request, _("Decision proposed; the panel votes."))
            return redirect("appeal_detail", appeal.pk)
    messages.error(request, _("The decision was not proposed: correct the marked fields."))
    return appeal_detail(request, appeal.pk, decision_form=form, status=400)


@login_required
@require_POST
def decision_withdraw(request, pk, decision_pk):
    """The chair withdraws the proposal being voted on (he ticks the confirmation); the panel votes again."""
    appeal = appeal_or_404(request, pk, "appeals.withdraw_proposal")
    decision = get_object_or_404(Decision, pk=decision_pk, appeal=appeal)
    form = WithdrawProposalForm(request.POST)
    return act(
        request,
        form,
        lambda: decisions.withdraw(decision, request.user, form.cleaned_data["reason"]),
        _("The proposal is withdrawn; the panel proposes and votes again."),
        "appeal_detail",
        appeal.pk,
    )


@login_required
@require_POST
def decision_vote(request, pk, decision_pk):
    appeal = appeal_or_404(request, pk, "appeals.hear_case")
    decision = get_object_or_404(Decision, pk=decision_pk, appeal=appeal)
    form = VoteForm(request.POST)
    return act(
        request,
        form,
        lambda: decisions.vote(
            decision, request.user, form.cleaned_data["agrees"], form.cleaned_data["comment"]
        ),
        _("Vote recorded."),
        "appeal_detail",
        appeal.pk,
    )


@login_required
@require_POST
def decision_publish(request, pk, decision_pk):
    appeal = appeal_or_404(request, pk, "appeals.hear_case")
    decision = get_object_or_404(Decision, pk=decision_pk, appeal=appeal)
    return act(
        request,
        None,
        lambda: decisions.publish(decision, request.user),
        _("The decision is published."),
        "appeal_detail",
        appeal.pk,
    )


@login_required
@require_POST
def second_file(request, pk):
    appeal = appeal_or_404(request, pk, "appeals.file_second_instance")
    form = SecondAppealForm(request.POST)
    return act(
        request,
        form,
        lambda: second_instance.file(appeal, request.user, form.cleaned_data["statement"]),
        _("Your appeal to the Rules and Ethics Committee is filed."),
        "appeal_detail",
        appeal.pk,
    )


@login_required
@require_POST
def second_deposit(request, pk):
    appeal = appeal_or_404(request, pk, "appeals.confirm_second_deposit")
    return act(
        request,
        None,
        lambda: second_instance.confirm_deposit(appeal, request.user),
        _("Deposit recorded."),
        "appeal_detail",
        appeal.pk,
    )


@login_required
@require_POST
def second_decide(request, pk):
    appeal = appeal_or_404(request, pk, "appeals.decide_second_instance")
    form = DecisionForm(request.POST, prefix="second")
    return act(
        request,
        form,
        lambda: second_instance.propose(appeal, request.user, **form.values()),
        _("Decision proposed; the Rules and Ethics Committee votes."),
        "appeal_detail",
        appeal.pk,
    )


@login_required
@require_POST
def second_vote(request, pk, decision_pk):
    appeal = appeal_or_404(request, pk, "appeals.decide_second_instance")
    decision = get_object_or_404(Decision, pk=decision_pk, appeal=appeal, instance=Decision.Instance.SECOND)
    form = VoteForm(request.POST)
    return act(
        request,
        form,
        lambda: second_instance.vote(
            decision, request.user, form.cleaned_data["agrees"], form.cleaned_data["comment"]
        ),
        _("Vote recorded."),
        "appeal_detail",
        appeal.pk,
    )
