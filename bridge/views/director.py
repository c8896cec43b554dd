"""The director's pages: setup, uploads (file or traveller), versions, publication, adjusted scores,
guide cards, substitutes and withdrawals, the corrections queue. Every one checks `bridge.manage_results`
on the object."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from bridge.engine import movements
from federation.models import Membership
from results.models import VersionedUpload
from results.upload_input import UploadInputError

from ..models import (
    CorrectionRequest,
    Exclusion,
    PairSession,
    SessionPair,
    Substitution,
    Withdrawal,
)
from ..services import (
    adjustments,
    corrections,
    decisions,
    live,
    notation,
    pages,
    roster,
    seating,
    setup,
    upload_readers,
    uploads,
    versions,
)
from ..services.exports import pair_labels
from . import decisions as decision_views
from .common import MANAGE, event_or_deny, session_context, session_or_deny
from .forms import (
    AdjustForm,
    DecisionForm,
    ExclusionForm,
    SessionForm,
    SettingsForm,
    SubstitutionForm,
    TravellerFormSet,
    TravellerNoteForm,
    UploadForm,
    WithdrawalForm,
)

Source = VersionedUpload.Source


def event_setup(request, pk):
    event = event_or_deny(request, pk, MANAGE)
    settings = setup.pair_event(event)
    settings_form = SettingsForm(instance=settings, prefix="settings")
    session_form = SessionForm(event=event, prefix="session")
    if request.method == "POST" and "settings" in request.POST:
        settings_form = SettingsForm(request.POST, instance=settings, prefix="settings")
        if settings_form.is_valid():
            settings_form.save()
            versions_changed = PairSession.objects.filter(event=event, versions__isnull=False).exists()
            if versions_changed:
                versions.mark_changed(event.pk)
            messages.success(request, _("Scoring settings saved."))
            return redirect("bridge_setup", event.pk)
    elif request.method == "POST":
        session_form = SessionForm(request.POST, event=event, prefix="session")
        if session_form.is_valid():
            data = session_form.cleaned_data
            try:
                session = setup.create_session(
                    event,
                    movement=data["movement"],
                    pairs=setup.pairs_from_entries(event) if data["seat_entries"] else None,
                    announced=data["announced"],
                    sections=data["sections"],
                    boards_per_round=data["boards_per_round"],
                    rounds=data["rounds"],
                    even_method=data["even_method"],
                    arrow_switch_rounds=setup.parse_rounds(data["arrow_switch_rounds"]),
                )
            except setup.SetupError as error:
                session_form.add_error(None, str(error))
            else:
                messages.success(request, _("%(session)s created.") % {"session": session})
                return redirect("bridge_session", session.pk)
    sessions = PairSession.objects.filter(event=event).prefetch_related("sections__pairs").order_by("number")
    return render(
        request,
        "bridge/setup.html",
        {
            "event": event,
            "settings_form": settings_form,
            "session_form": session_form,
            "sessions": sessions,
            "seating_requests": seating.entry_requests(event),
            "mixed": seating.is_mixed(event),
        },
    )


def upload(request, pk):
    session = session_or_deny(request, pk, MANAGE)
    form = UploadForm(request.POST or None, request.FILES or None)
    errors = []
    if request.method == "POST" and form.is_valid():
        try:
            version = uploads.submit(
                session,
                form.cleaned_data["format"],
                user=request.user,
                file=form.cleaned_data["file"],
                note=form.cleaned_data["note"],
            )
        except decisions.DecisionsPending as pending:
            return decision_views.stash(request, session, pending)
        except (uploads.UploadError, UploadInputError) as error:
            errors = error.messages
        else:
            messages.success(
                request,
                _("Version %(number)s saved; the standings are being computed.") % {"number": version.number},
            )
            return redirect("bridge_session", session.pk)
    boards = range(1, session.boards + 1)
    return render(
        request,
        "bridge/upload.html",
        session_context(request, session, form=form, errors=errors, boards=boards),
        status=400 if errors else 200,
    )


def traveller(request, pk, board):
    session = session_or_deny(request, pk, MANAGE)
    labels = pair_labels(session)
    current = [r for r in versions.rows_of(versions.latest_version(session)) if r["board"] == board]
    initial = [
        {
            "ns": labels.get(r["ns_id"], ""),
            "ew": labels.get(r["ew_id"], ""),
            # In the page's notation (the save reads both back).
            "contract": notation.contract_value(r["contract"]),
            "declarer": notation.seat_value(r["declarer"]),
            "lead": notation.lead_value(r["lead"]),
            "result": "" if r["tricks"] is None else r["tricks"],
            "score": r["artificial"] or ("" if r["score"] is None else r["score"]),
        }
        for r in current
    ]
    tables = max(
        session.sections.order_by("-tables").values_list("tables", flat=True).first() or 0, len(initial)
    )
    initial += [{} for _ in range(max(tables + 2 - len(initial), 2))]
    formset = TravellerFormSet(request.POST or None, initial=initial, prefix="line")
    note_form = TravellerNoteForm(request.POST or None)
    errors = []
    if request.method == "POST" and formset.is_valid() and note_form.is_valid():
        lines = [f.cleaned_data for f in formset if f.has_content()]
        note = note_form.cleaned_data["note"] or _("traveller of board %(board)s") % {"board": board}
        try:
            version = uploads.submit(
                session, upload_readers.FORM, user=request.user, board=board, lines=lines, note=note
            )
        except decisions.DecisionsPending as pending:
            return decision_views.stash(request, session, pending)
        except uploads.UploadError as error:
            errors = error.messages
        else:
            messages.success(
                request,
                _("Version %(number)s saved; the standings are being computed.") % {"number": version.number},
            )
            if board < session.boards:
                return redirect("bridge_traveller", session.pk, board + 1)
            return redirect("bridge_session", session.pk)
    return render(
        request,
        "bridge/traveller.html",
        session_context(
            request,
            session,
            board=board,
            formset=formset,
            note_form=note_form,
            errors=errors,
            boards=range(1, max(session.boards, board) + 1),
        ),
        status=400 if errors else 200,
    )


@require_POST
def publish(request, pk):
    session = session_or_deny(request, pk, MANAGE)
    try:
        session, now = live.publish(session, request.user)
    except setup.SetupError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Results published."))
        warning = corrections.publish_warning(session, session.published_at) if now else ""
        if warning:
            messages.warning(request, warning)
    return redirect("bridge_session", session.pk)


def adjust(request, pk):
    session = session_or_deny(request, pk, MANAGE)
    form = AdjustForm(request.POST or None, session=session)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        penalties = []
        if data["penalty_pair"]:
            on_board = data["board"] if data["penalty_on_board"] else None
            penalties.append(
                (data["penalty_pair"], data["penalty_percent"], on_board, data["penalty_offence"])
            )
        try:
            version = adjustments.apply_ruling(
                session,
                data["board"],
                data["ns"],
                data["ew"],
                artificial=data["award"] or None,
                score=data["score"],
                penalties=penalties,
                reason=data["reason"],
                user=request.user,
                source=Source.ADJUSTMENT,
            )
        except adjustments.RulingError as error:
            form.add_error(None, str(error))
        else:
            messages.success(
                request,
                _("Version %(number)s saved; the standings are being computed.") % {"number": version.number},
            )
            return redirect("bridge_adjust", session.pk)
    latest = versions.latest_version(session)
    adjusted = versions.results_of(latest).exclude(artificial="").select_related("ns", "ew")
    penalties = latest.penalties.select_related("pair") if latest else []
    return render(
        request,
        "bridge/adjust.html",
        session_context(request, session, form=form, adjusted=adjusted, penalties=penalties),
    )


def guide_cards(request, pk):
    session = session_or_deny(request, pk, MANAGE)
    mixed = seating.is_mixed(session.event)
    sections = []
    for section in session.sections.all():
        seats = {
            s.number: s
            for s in SessionPair.objects.filter(section=section).select_related(
                "pair__player1", "pair__player2", "pair__entry"
            )
        }
        requests = seating.seating_requests(seats)
        plan = section.plan()
        if plan is None:  # the uploaded results define the movement: VSz 24 over what was played
            findings = pages.movement_findings(None, pages.played_rows(section))
            sections.append({"section": section, "plan": None, "requests": requests, "findings": findings})
            continue
        guide = movements.guide_cards(plan)
        mixed_check = seating.mixed_seating(seats, guide) if mixed else {"findings": [], "who": {}}
        cards = [
            {
                "number": number,
                "seat": seats.get(number),
                "rows": [(e, mixed_check["who"].get(number, {}).get(e.round)) for e in entries],
            }
            for number, entries in sorted(guide.items())
        ]
        sections.append(
            {
                "section": section,
                "plan": plan,
                "note": pages.movement_note(section, plan),
                "check": movements.validate(plan),
                "findings": pages.movement_findings(plan) + mixed_check["findings"],
                "rounds": [plan.round_plan(r) for r in range(1, plan.rounds + 1)],
                "cards": cards,
                "requests": requests,
            }
        )
    return render(
        request,
        "bridge/guide_cards.html",
        session_context(
            request,
            session,
            sections=sections,
            mixed=mixed,
            day_findings=pages.session_day_findings(session.event),  # VSz 24 c, over the event's sessions
        ),
    )


def roster_page(request, pk):
    session = session_or_deny(request, pk, MANAGE)
    sub_form = SubstitutionForm(
        request.POST if "substitution" in request.POST else None, session=session, prefix="sub"
    )
    wd_form = WithdrawalForm(
        request.POST if "withdrawal" in request.POST else None, session=session, prefix="wd"
    )
    ex_form = ExclusionForm(
        request.POST if "exclusion" in request.POST else None, session=session, prefix="ex"
    )
    if request.method == "POST" and sub_form.is_bound and sub_form.is_valid():
        data = sub_form.cleaned_data
        pair = data["pair"]
        original = pair.player1 if data["replaced"] == "1" else pair.player2
        member = (
            Membership.objects.filter(
                federation_id=session.event.federation_id, member_number=data["substitute"].strip()
            )
            .select_related("person")
            .first()
        )
        try:
            if original is None:
                raise ValueError(_("this pair has no such player recorded"))
            if member is None:
                raise ValueError(_("no member with this number"))
            roster.record_substitution(
                session,
                pair,
                original,
                member.person,
                roster.parse_boards(data["boards"]),
                request.user,
                data["note"],
            )
        except ValueError as error:
            sub_form.add_error(None, str(error))
        else:
            messages.success(request, _("Substitute recorded."))
            return redirect("bridge_roster", session.pk)
    if request.method == "POST" and wd_form.is_bound and wd_form.is_valid():
        try:
            roster.record_withdrawal(
                session, wd_form.cleaned_data["pair"], request.user, wd_form.cleaned_data["reason"]
            )
        except ValueError as error:
            wd_form.add_error(None, str(error))
        else:
            messages.success(request, _("Withdrawal recorded; the standings are being computed."))
            return redirect("bridge_roster", session.pk)
    if request.method == "POST" and ex_form.is_bound and ex_form.is_valid():
        data = ex_form.cleaned_data
        try:
            boards = roster.parse_boards(data["boards"]) if data["boards"].strip() else []
            exclusion = roster.record_exclusion(
                session,
                data["pair"],
                request.user,
                data["scope"],
                boards,
                data["reason"],
                data["committee_consent"],
            )
        except ValueError as error:
            ex_form.add_error(None, str(error))
        else:
            messages.success(request, _("Exclusion recorded; the standings are being computed."))
            if getattr(exclusion, "reports", None):
                messages.info(
                    request,
                    _(
                        "Reported to the Disciplinary Committee (VSz 23): the players, the federation's staff "
                        "and the committee were mailed."
                    ),
                )
            return redirect("bridge_roster", session.pk)
    return render(
        request,
        "bridge/roster.html",
        session_context(
            request,
            session,
            sub_form=sub_form,
            wd_form=wd_form,
            substitutions=Substitution.objects.filter(session=session).select_related(
                "pair", "original", "substitute"
            ),
            withdrawals=Withdrawal.objects.filter(pair__event=session.event).select_related(
                "pair", "session"
            ),
            ex_form=ex_form,
            exclusions=Exclusion.objects.filter(pair__event=session.event).select_related(
                "pair", "session", "recorded_by"
            ),
        ),
    )


def corrections_queue(request, pk):
    event = event_or_deny(request, pk, MANAGE)
    requests = (
        CorrectionRequest.objects.filter(session__event=event)
        .select_related("session__announced", "ns", "ew", "requester_pair", "requested_by", "decided_by")
        .order_by("status", "-requested_at")
    )
    return render(
        request,
        "bridge/corrections.html",
        {"event": event, "requests": requests, "form": DecisionForm(), "can_manage": True},
    )


@require_POST
def decide_correction(request, pk):
    correction = get_object_or_404(CorrectionRequest.objects.select_related("session__event"), pk=pk)
    session_or_deny(request, correction.session_id, MANAGE)
    form = DecisionForm(request.POST)
    note = form.cleaned_data["note"] if form.is_valid() else ""
    try:
        corrections.decide(correction, approve="approve" in request.POST, user=request.user, note=note)
    except corrections.CorrectionRefused as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Decision recorded."))
    return redirect("bridge_corrections", correction.session.event_id)
