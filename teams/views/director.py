"""The director's pages: the event's setup, generating / editing / publishing rounds, uploads, line-ups.

Every action is checked with `teams.run_event` on the event (its director or its federation's staff)
and done by a service; a refusal is shown as it is, and changes nothing.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from bridge.services.upload_readers import file_kind
from results import decision_views
from results.upload_decisions import DecisionsPending
from results.upload_input import UploadInputError

from ..engine.parsed import UploadError
from ..forms import DecisionForm, FileUploadForm, ImpsForm, LineUpForm, ScorecardForm, SetupForm, SwapForm
from ..models import minimum_refusal
from ..services import Refused, uploads
from ..services import pairing as pairing_service
from ..services import results as results_service
from ..services.setup import setup_of
from .common import RUN_EVENT, common_context, runner_match, runner_round, team_event_or_deny


def _refused(request, error):
    for message in error.messages:
        messages.error(request, message)


@login_required
def setup_page(request, pk):
    event = team_event_or_deny(request, pk, RUN_EVENT)
    try:
        setup = setup_of(event)
    except Refused as error:
        _refused(request, error)
        return redirect("teams_event", event.pk)
    form = SetupForm(request.POST or None, instance=setup)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("The team event's options are saved."))
        return redirect("teams_event", event.pk)
    return render(request, "teams/setup.html", common_context(request, event, form=form, tab="event"))


@login_required
@require_POST
def generate(request, pk):
    event = team_event_or_deny(request, pk, RUN_EVENT)
    try:
        round_ = pairing_service.generate_round(event, request.user)
    except Refused as error:
        _refused(request, error)
        return redirect("teams_event", event.pk)
    messages.info(
        request, _("Round %(n)s generated as a preview: check it, then publish.") % {"n": round_.number}
    )
    return redirect("teams_round", event.pk, round_.number)


@login_required
@require_POST
def publish(request, pk):
    round_ = runner_round(request, pk)
    pairing_service.publish_round(round_, request.user)
    messages.success(request, _("Round %(n)s is published.") % {"n": round_.number})
    return redirect("teams_round", round_.event_id, round_.number)


@login_required
@require_POST
def swap(request, pk):
    round_ = runner_round(request, pk)
    form = SwapForm(request.POST, teams=round_.event.teams.all())
    if form.is_valid():
        try:
            warnings = pairing_service.swap_teams(
                round_, form.cleaned_data["team_a"], form.cleaned_data["team_b"], request.user
            )
        except Refused as error:
            _refused(request, error)
        else:
            for warning in warnings:
                messages.warning(request, warning)
            messages.success(request, _("The pairing was changed."))
    return redirect("teams_round", round_.event_id, round_.number)


def _first_board(match):
    """Boards are numbered from 1 in each round unless an earlier version says otherwise."""
    last = match.uploads.filter(imps_only=False).order_by("-number").first()
    board = last.boards.order_by("board").first() if last else None
    return board.board if board else 1


@login_required
def upload(request, pk):
    match = runner_match(request, pk)
    event = match.round.event
    boards = match.round.boards
    file_form = FileUploadForm(prefix="file")
    imps_form = ImpsForm(prefix="imps")
    card_form = ScorecardForm(prefix="card", boards=boards, first_board=_first_board(match))
    errors = []
    if request.method == "POST":
        kind = request.POST.get("kind")
        try:
            if kind == "file":
                file_form = FileUploadForm(request.POST, request.FILES, prefix="file")
                if file_form.is_valid():
                    data = file_form.cleaned_data
                    fmt = data["kind"] or file_kind(data["file"].name)
                    return _upload(request, match, fmt, file=data["file"], note=data["note"])
            elif kind == "imps":
                imps_form = ImpsForm(request.POST, prefix="imps")
                if imps_form.is_valid():
                    data = imps_form.cleaned_data
                    parsed = results_service.imps_result(
                        data["home_imps"], data["away_imps"], data["boards_played"]
                    )
                    return _upload(request, match, uploads.FORM, parsed=parsed, note=data["note"])
            elif kind == "card":
                card_form = ScorecardForm(request.POST, prefix="card", boards=boards)
                if card_form.is_valid():
                    parsed = card_form.parsed()
                    return _upload(
                        request, match, uploads.FORM, parsed=parsed, note=card_form.cleaned_data["note"]
                    )
        except (UploadError, UploadInputError) as error:
            errors = error.messages
    context = common_context(request, event, tab="rounds")
    context.update(match=match, file_form=file_form, imps_form=imps_form, card_form=card_form, errors=errors)
    return render(request, "teams/upload.html", context, status=400 if errors else 200)


def _uploaded(request, match):
    messages.success(request, _("The result is saved as a new version; the standings follow shortly."))
    return redirect("teams_match", match.pk)


PENDING = "teams-match"


def _upload(request, match, fmt, **upload):
    """Store the upload, or (it covers decisions in force) keep it in the session and ask the director."""
    try:
        uploads.upload_match(match, request.user, fmt, **upload)
    except uploads.WaitingForDecisions as pending:
        payload = {**pending.upload.to_json(), "based_on": pending.based_on}
        token = decision_views.stash(request, PENDING, match.pk, payload)
        return _confirm_page(request, match, token, pending.affected)
    return _uploaded(request, match)


def _confirm_page(request, match, token, affected, errors=(), post=None):
    return decision_views.confirm_page(
        request,
        event=match.round.event,
        title=_("Upload the result") + f": {match.home.name} – {match.away.name}",
        back_url=reverse("teams_upload", args=[match.pk]),
        action_url=reverse("teams_upload_confirm", args=[match.pk]),
        token=token,
        affected=affected,
        errors=errors,
        post=post,
    )


@login_required
@require_POST
def upload_confirm(request, pk):
    """The director's choices on the decisions the waiting upload covers; only then is it stored."""
    match = runner_match(request, pk)
    payload = decision_views.waiting(request, PENDING, match.pk, request.POST.get("token"))
    if payload is None:
        messages.warning(request, _("This confirmation is out of date: nothing was saved. Upload again."))
        return redirect("teams_upload", match.pk)
    if request.POST.get("cancel"):
        decision_views.drop(request, PENDING, match.pk)
        messages.info(request, _("The upload was cancelled: nothing was saved."))
        return redirect("teams_match", match.pk)
    upload = uploads.MatchInput.from_json(payload)
    parsed = upload.parsed
    decisions, reasons = decision_views.choices_of(request.POST)
    try:
        uploads.store(
            match, request.user, upload, based_on=payload["based_on"], decisions=decisions, reasons=reasons
        )
    except DecisionsPending as pending:  # a decision the form did not answer
        return _confirm_page(request, match, payload["token"], pending.affected, post=request.POST)
    except UploadError as error:
        return _refused_choice(request, match, payload, parsed, error)
    decision_views.drop(request, PENDING, match.pk)
    return _uploaded(request, match)


def _refused_choice(request, match, payload, parsed, error):
    """A choice refused (a set-aside without reason): ask again; the match changed meanwhile: start over."""
    try:
        affected, based_on = results_service.pending_decisions(match, parsed)
    except UploadError as refused:
        affected, based_on, error = [], None, refused
    if based_on != payload["based_on"]:
        decision_views.drop(request, PENDING, match.pk)
        return _out_of_date(request, match, error)
    return _confirm_page(request, match, payload["token"], affected, error.messages, request.POST)


def _out_of_date(request, match, error):
    for message in error.messages:
        messages.error(request, message)
    return redirect("teams_upload", match.pk)


@login_required
def decision(request, pk):
    """The director's decision on the match's result (adjusted score, correction, an appeal's ruling)."""
    match = runner_match(request, pk)
    if match.is_bye:
        return redirect("teams_match", match.pk)
    form = DecisionForm(request.POST or None)
    errors = []
    if request.method == "POST" and form.is_valid():
        try:
            results_service.rule_match(
                match,
                request.user,
                **form.ruling(),
                reason=form.cleaned_data["reason"],
                source=form.cleaned_data["source"],
            )
        except UploadError as error:
            errors = error.messages
        else:
            messages.success(
                request, _("The decision is saved as a new version; later uploads keep it unless set aside.")
            )
            return redirect("teams_match", match.pk)
    context = common_context(request, match.round.event, tab="rounds")
    context.update(match=match, form=form, errors=errors)
    return render(request, "teams/decision.html", context, status=400 if errors else 200)


@login_required
def lineup(request, pk):
    match = runner_match(request, pk)
    if match.is_bye:
        return redirect("teams_match", match.pk)
    event = match.round.event
    try:
        segments = len(results_service.plan_of(match).segments)
    except ValueError as error:
        messages.error(request, minimum_refusal(error))
        return redirect("teams_match", match.pk)
    teams = [match.home, match.away]
    rosters = {t.pk: [m.person for m in t.entry.members.select_related("person")] for t in teams}
    current = {}
    last = match.lineups.order_by("-number").first()
    for seat in last.seats.all() if last else ():
        current.setdefault((seat.segment, seat.team_id, seat.room), []).append(seat.person_id)
    form = LineUpForm(request.POST or None, segments=segments, teams=teams, rosters=rosters, current=current)
    errors = []
    if request.method == "POST" and form.is_valid():
        try:
            results_service.set_lineup(match, request.user, form.seats(), note=form.cleaned_data["note"])
        except UploadError as error:
            errors = error.messages
        else:
            messages.success(request, _("The line-up is saved as a new version."))
            return redirect("teams_match", match.pk)
    context = common_context(request, event, tab="rounds")
    context.update(match=match, form=form, errors=errors)
    return render(request, "teams/lineup.html", context)
