"""A player's correction request for his own pair (VSz 12)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from federation.access import check

from ..models import CorrectionRequest, SessionPair
from ..services import corrections, notation, versions
from .common import session_context, session_or_deny
from .forms import CorrectionForm


def _my_seat(request, session) -> SessionPair:
    person = getattr(request.user, "person", None)
    seats = SessionPair.objects.filter(section__session=session).select_related("section", "pair")
    seat = None
    if person is not None:
        seat = seats.filter(Q(pair__player1=person) | Q(pair__player2=person)).first()
        seat = (
            seat
            or seats.filter(
                pair__substitutions__substitute=person, pair__substitutions__session=session
            ).first()
        )
    if seat is None:
        raise PermissionDenied
    check(request, "bridge.request_correction", seat)
    return seat


def _recorded(session, seat, board) -> dict:
    """The pair's recorded result on `board` (?board=N), to correct from, in the page's notation."""
    if not (board or "").isdigit():
        return {}
    row = (
        versions.results_of(versions.latest_version(session), boards=[int(board)])
        .filter(Q(ns=seat) | Q(ew=seat))
        .first()
    )
    if row is None:
        return {"board": int(board)}
    return {
        "board": row.board,
        "contract": notation.contract_value(row.contract),
        "declarer": notation.seat_value(row.declarer),
        "lead": notation.lead_value(row.lead),
        "result": "" if row.tricks is None else row.tricks,
        "score": "" if row.score is None else row.score,
    }


@login_required
def correction_request(request, pk):
    session = session_or_deny(request, pk)
    seat = _my_seat(request, session)
    form = CorrectionForm(request.POST or None, initial=_recorded(session, seat, request.GET.get("board")))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        row = (
            versions.results_of(versions.latest_version(session), boards=[data["board"]])
            .filter(Q(ns=seat) | Q(ew=seat))
            .select_related("ns", "ew")
            .first()
        )
        try:
            if row is None:
                raise corrections.CorrectionRefused(
                    _("Your pair has no result on board %(board)s.") % {"board": data["board"]}
                )
            corrections.request_correction(
                session,
                board=data["board"],
                ns=row.ns,
                ew=row.ew,
                requester=seat,
                contract=data["contract"],
                declarer=data["declarer"],
                lead=data["lead"],
                result=data["result"],
                score=data["score"],
                reason=data["reason"],
                opponents_agree=data["opponents_agree"],
                user=request.user,
            )
        except corrections.CorrectionRefused as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("Your request is with the director."))
            return redirect("bridge_correction_request", session.pk)
    mine = CorrectionRequest.objects.filter(session=session, requester_pair=seat).select_related("decided_by")
    return render(
        request,
        "bridge/correction_request.html",
        session_context(
            request,
            session,
            form=form,
            seat=seat,
            mine=mine,
            deadline=corrections.correction_deadline(session),
            window_open=corrections.window_open(session),
        ),
    )
