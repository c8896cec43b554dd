"""Bridge individual events: the standings, the travellers, a player's boards, and the director's upload
and publication, the director's decisions (corrections, adjusted scores, appeal decisions) and the
confirmation of an upload that touches one (the pairs' page, `views.decisions`). Every page loads the event through `federation.access` with the permission checked on
its `IndividualEvent` (the published results of a public event for everybody, the rest for its director
and its federation's staff)."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.query import column_range, query_int
from federation.access import check
from federation.models import Membership
from results.page_cache import by_event, cache_public_page
from results.upload_input import UploadInputError
from tournaments.models import Event

from ..models import (
    IndividualBoardScore,
    IndividualEvent,
    IndividualSubstitution,
    IndividualVersion,
    IndividualVersionDecision,
)
from ..services import decisions, individual, individual_pages, roster, uploads
from . import decisions as decision_views
from .common import MANAGE, VIEW, visible
from .forms import IndividualDecisionForm, IndividualSubstitutionForm, IndividualUploadForm


def individual_or_deny(request, pk, perm=VIEW) -> IndividualEvent:
    """The event's individual scoring row (unsaved when nothing is uploaded yet) if the user has `perm`."""
    event = get_object_or_404(
        Event.objects.select_related("federation", "club"), pk=pk, format=Event.Format.INDIVIDUAL
    )
    found = IndividualEvent.objects.filter(event=event).first() or IndividualEvent(event=event)
    check(request, perm, found, visible=visible)
    return found


def _context(request, setup: IndividualEvent, tab: str, **extra) -> dict:
    event = setup.event
    can_manage = request.user.has_perm(MANAGE, setup)
    return {
        "event": event,
        "setup": setup,
        "tab": tab,
        "can_manage": can_manage,
        "processing": individual_pages.processing(event.pk),
        "recompute_error": individual_pages.recompute_error(event.pk) if can_manage else "",
        **extra,
    }


@cache_public_page(by_event)
def standings(request, pk):
    setup = individual_or_deny(request, pk)
    rows, earned = individual_pages.standings(setup.event)
    return render(
        request,
        "bridge/individual.html",
        _context(
            request,
            setup,
            "standings",
            rows=rows,
            earned=earned,
            version=individual_pages.version_shown(setup.event),
        ),
    )


@cache_public_page(by_event, params=("board",))
def boards(request, pk):
    setup = individual_or_deny(request, pk)
    board = query_int(request.GET, "board", *column_range(IndividualBoardScore._meta.get_field("board")))
    return render(
        request,
        "bridge/individual_boards.html",
        _context(
            request,
            setup,
            "boards",
            travellers=individual_pages.travellers(setup.event, board),
            boards=individual_pages.boards_of(setup.event),
        ),
    )


@cache_public_page(by_event)
def player(request, pk, number):
    setup = individual_or_deny(request, pk)
    found = individual_pages.players_of(setup.event).get(number)
    if found is None:
        raise Http404
    return render(
        request,
        "bridge/individual_player.html",
        _context(
            request, setup, "standings", player=found, rows=individual_pages.score_card(setup.event, number)
        ),
    )


def upload(request, pk):
    setup = individual_or_deny(request, pk, MANAGE)
    form = IndividualUploadForm(request.POST or None, request.FILES or None)
    errors = []
    if request.method == "POST" and form.is_valid():
        if setup.pk is None:
            setup = individual.setup_for(setup.event)
        try:
            version = uploads.submit(
                setup,
                form.cleaned_data["format"],
                user=request.user,
                file=form.cleaned_data["file"],
                note=form.cleaned_data["note"],
            )
        except (uploads.UploadError, UploadInputError) as error:
            errors = error.messages
        except decisions.DecisionsPending as pending:
            return decision_views.stash(
                request, setup, pending, key=_pending_key(setup), to="bridge_individual_upload_confirm"
            )
        else:
            messages.success(
                request,
                _("Version %(number)s saved; the standings are being computed.") % {"number": version.number},
            )
            return redirect("bridge_individual", setup.event_id)
    return render(
        request,
        "bridge/individual_upload.html",
        _context(request, setup, "upload", form=form, errors=errors, **_history(setup)),
        status=400 if errors else 200,
    )


def _history(setup: IndividualEvent) -> dict:
    """The versions, newest first, each with what it did with the decisions, and the decisions in force."""
    if setup.pk is None:
        return {"versions": [], "in_force": []}
    versions = list(
        IndividualVersion.objects.filter(event=setup.event).select_related("uploaded_by").order_by("-number")
    )
    labels: dict[int, str] = {}
    records: dict[int, list] = {}
    for record in IndividualVersionDecision.objects.filter(version__event=setup.event).select_related(
        "decision"
    ):
        if record.decision_id not in labels:
            decision = record.decision
            labels[decision.pk] = decisions.label_of(
                decision, decisions.kind_of(decision, decisions.delta_of(decision))
            )
        record.label = labels[record.decision_id]
        records.setdefault(record.version_id, []).append(record)
    for version in versions:
        version.records = records.get(version.pk, [])
        version.is_decision = version.source in decisions.DECISION_SOURCES
    return {"versions": versions, "in_force": decisions.summary(versions[0]) if versions else []}


def _pending_key(setup: IndividualEvent) -> str:
    return f"individual-{setup.event_id}"


def _confirm_context(request, setup, **extra) -> dict:
    return _context(request, setup, "upload", individual=True, **extra)


def upload_confirm(request, pk):
    """An upload that touches a decision in force, kept while the director keeps, re-confirms or sets
    aside each (the pairs' confirmation page)."""
    setup = individual_or_deny(request, pk, MANAGE)
    key = _pending_key(setup)
    payload = decision_views.kept(request, setup, key) if setup.pk else None
    if payload is None:
        messages.info(request, _("No upload is waiting for confirmation."))
        return redirect("bridge_individual_upload", setup.event_id)
    if request.method == "POST" and "abandon" in request.POST:
        decision_views.drop(request, setup, key)
        messages.info(request, _("The upload was abandoned; nothing was saved."))
        return redirect("bridge_individual_upload", setup.event_id)
    title = _("Uploading %(file)s: decisions it touches") % {"file": payload.get("file_name") or "-"}

    def page(pending, **options):
        return decision_views.render_pending(
            request, setup, pending, action="upload", title=title, context=_confirm_context, **options
        )

    try:
        if request.method == "POST":
            version = decision_views.run(
                setup, payload, request.user, **decision_views.answers_from(request.POST)
            )
        else:
            decision_views.run(setup, payload, request.user, dry_run=True, expected_base=payload["base"])
            raise AssertionError("a dry run always raises")  # pragma: no cover
    except decisions.DecisionsPending as pending:
        changed = pending.changed or request.method == "POST"
        return page(pending, changed=changed, status=409 if changed else 200)
    except uploads.UploadError as error:
        try:
            decision_views.run(setup, payload, request.user, dry_run=True)
        except decisions.DecisionsPending as pending:
            now = pending
        except uploads.UploadError:
            now = decisions.DecisionsPending([], individual.latest_version(setup.event))
        return page(now, errors=error.messages, status=400)
    decision_views.drop(request, setup, key)
    messages.success(
        request, _("Version %(number)s saved; the standings are being computed.") % {"number": version.number}
    )
    return redirect("bridge_individual", setup.event_id)


def decide(request, pk):
    """The director's decisions on one table's result: a correction, an adjusted score, an appeal
    decision, each a new version with who, when and why; the list of those in force."""
    setup = individual_or_deny(request, pk, MANAGE)
    substitute = "substitution" in request.POST
    form = IndividualDecisionForm(request.POST if request.method == "POST" and not substitute else None)
    sub_form = IndividualSubstitutionForm(request.POST if substitute else None, prefix="sub")
    errors = []
    if sub_form.is_bound and sub_form.is_valid():
        if _substitute(request, setup, sub_form):
            return redirect("bridge_individual_decide", setup.event_id)
    elif request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if setup.pk is None:
            errors = [_("the event has no results yet: there is nothing for a decision to change")]
        else:
            try:
                version = individual.apply_decision(
                    setup,
                    data["board"],
                    data["table"],
                    source=data["kind"],
                    reason=data["reason"],
                    user=request.user,
                    contract=data["contract"],
                    declarer=data["declarer"],
                    lead=data["lead"],
                    result=data["result"],
                    score=data["score"],
                )
            except individual.DecisionError as error:
                errors = [str(error)]
            else:
                messages.success(
                    request,
                    _("Version %(number)s saved; the standings are being computed.")
                    % {"number": version.number},
                )
                return redirect("bridge_individual_decide", setup.event_id)
    return render(
        request,
        "bridge/individual_decisions.html",
        _context(
            request,
            setup,
            "decisions",
            form=form,
            sub_form=sub_form,
            substitutions=IndividualSubstitution.objects.filter(event=setup.event).select_related(
                "player__person", "substitute", "recorded_by"
            ),
            errors=errors,
            **_history(setup),
        ),
        status=400 if errors or form.errors or sub_form.errors else 200,
    )


def _substitute(request, setup: IndividualEvent, form) -> bool:
    """Record the form's substitute (VSz 25); False with the reason on the form."""
    data = form.cleaned_data
    member = (
        Membership.objects.filter(
            federation_id=setup.event.federation_id, member_number=data["substitute"].strip()
        )
        .select_related("person")
        .first()
    )
    try:
        if setup.pk is None:
            raise ValueError(_("the event has no results yet: there is nothing for a decision to change"))
        if member is None:
            raise ValueError(_("no member with this number"))
        individual.record_substitution(
            setup,
            data["number"],
            member.person,
            roster.parse_boards(data["boards"]),
            request.user,
            data["note"],
        )
    except ValueError as error:
        form.add_error(None, str(error))
        return False
    messages.success(request, _("Substitute recorded."))
    return True


@require_POST
def publish(request, pk):
    setup = individual_or_deny(request, pk, MANAGE)
    if setup.pk is None:
        messages.error(request, _("there are no results to publish"))
        return redirect("bridge_individual", setup.event_id)
    try:
        individual.publish(setup, request.user)
    except individual.IndividualSetupError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Results published."))
    return redirect("bridge_individual", setup.event_id)
