"""The director's rule-book pages (issue #22): fouled boards (VSz 27) and the psych register (VSz 17).
Each checks `bridge.manage_results` on the session; the services decide."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from federation.access import object_or_deny
from federation.models import Federation

from ..services import adjustments, fouled, psychs
from ..services.exports import pair_labels
from .common import MANAGE, event_or_deny, session_context, session_or_deny
from .forms import PsychForm


def fouled_board(request, pk, board):
    session = session_or_deny(request, pk, MANAGE)
    labels = pair_labels(session)
    rows = fouled.board_rows(session, board)
    errors = []
    if request.method == "POST":
        groups = {}
        for r in rows:
            value = (request.POST.get(f"group-{r['ns_id']}-{r['ew_id']}") or "").strip()
            if value and not value.isdigit():
                errors.append(
                    _("Table %(table)s: the deal group is a number.") % {"table": r["table"] or "—"}
                )
            groups[(r["ns_id"], r["ew_id"])] = int(value) if value.isdigit() else None
        duplicated = [v for v in request.POST.getlist("duplicated") if v.isdigit()]
        unnoticed = [v for v in request.POST.getlist("unnoticed") if v.isdigit()]
        if not errors:
            try:
                version = fouled.mark(
                    session,
                    board,
                    groups,
                    duplicated_by=duplicated,
                    unnoticed_by=unnoticed,
                    reason=request.POST.get("reason", "")[:500],
                    user=request.user,
                )
            except fouled.FouledBoardError as error:
                errors = error.messages
            else:
                messages.success(
                    request,
                    _("Version %(number)s saved; the standings are being computed.")
                    % {"number": version.number},
                )
                return redirect("bridge_fouled_board", session.pk, board)
    pairs = sorted({p for r in rows for p in (r["ns_id"], r["ew_id"])}, key=lambda p: labels.get(p, ""))
    return render(
        request,
        "bridge/fouled_board.html",
        session_context(
            request,
            session,
            board=board,
            rows=[
                {
                    **r,
                    "ns": labels.get(r["ns_id"], ""),
                    "ew": labels.get(r["ew_id"], ""),
                    "key": f"{r['ns_id']}-{r['ew_id']}",
                }
                for r in rows
            ],
            pairs=[(p, labels.get(p, "")) for p in pairs],
            groups=fouled.scored_groups(session, board),
            fouled_boards=fouled.fouled_boards(session),
            boards=sorted(adjustments.session_boards(session)),
            errors=errors,
            posted=request.POST if request.method == "POST" else {},
        ),
        status=400 if errors else 200,
    )


def psych_register(request, pk):
    session = session_or_deny(request, pk, MANAGE)
    form = PsychForm(request.POST or None, session=session)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            psychs.record(
                session, data["board"], data["pair"], data["call"], note=data["note"], user=request.user
            )
        except psychs.PsychError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("Psych recorded."))
            return redirect("bridge_psychs", session.pk)
    return render(
        request,
        "bridge/psychs.html",
        session_context(
            request,
            session,
            form=form,
            records=psychs.of_session(session),
            repeated=psychs.repeated(session.event),
        ),
        status=400 if request.method == "POST" else 200,
    )


def federation_psychs(request, pk):
    """The staff's view across the federation's events: players with repeated psychs (VSz 17 c)."""
    federation = object_or_deny(request, Federation, "bridge.view_psych_register", pk=pk)
    return render(
        request,
        "bridge/federation_psychs.html",
        {"federation": federation, "players": psychs.repeated_players(federation)},
    )


def event_psychs(request, pk):
    """The event's whole register, pairs with repeated psychs first: for the director and the staff."""
    event = event_or_deny(request, pk, MANAGE)
    return render(
        request,
        "bridge/event_psychs.html",
        {
            "event": event,
            "repeated": psychs.repeated(event),
            "records": psychs.of_event(event),
            "staff": request.user.has_perm("bridge.view_psych_register", event.federation),
        },
    )
