"""Corrections of obvious clerical errors (VSz 12): requested by a pair, countersigned by the director.

The window is the server's to enforce: until 30 minutes after the results (frequency sheets) are
published, and in a multi-session event at the latest 15 minutes before the next session starts.
"""

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from bridge.engine.csv_upload import Problem, result_of
from federation.models import MailPreference, Role
from federation.services.notifications import absolute_url, address_of, addresses_of, notify
from results.models import VersionedUpload

from ..models import CorrectionRequest, PairSession, SessionPair
from . import versions
from .upload_errors import explain

AFTER_PUBLICATION = datetime.timedelta(minutes=30)
BEFORE_NEXT_SESSION = datetime.timedelta(minutes=15)


class CorrectionRefused(Exception):
    pass


def correction_deadline(session: PairSession) -> datetime.datetime | None:
    """When requests close; None while the results are not published."""
    if session.published_at is None:
        return None
    following = next_start(session)
    if following is not None:
        return following - BEFORE_NEXT_SESSION
    return session.published_at + AFTER_PUBLICATION


def next_start(session: PairSession) -> datetime.datetime | None:
    """The announced start of the event's next session (the announcement's times, VSz 4)."""
    if session.starts_at is not None:
        later = session.event.sessions.filter(starts_at__gt=session.starts_at).order_by("starts_at").first()
        return later.starts_at if later else None
    following = session.next_session()
    return following.starts_at if following is not None else None


SHORT_BEFORE_NEXT = datetime.timedelta(minutes=30)


def publish_warning(session: PairSession, now=None) -> str:
    """What the director must hear when results go out less than 30 minutes before the next session: the
    correction window (VSz 12, 26) then ends 15 minutes before that session, not 30 minutes after now."""
    following = next_start(session)
    now = now or timezone.now()
    if following is None or following - now >= SHORT_BEFORE_NEXT:
        return ""
    closes = following - BEFORE_NEXT_SESSION
    times = {
        "start": timezone.localtime(following).strftime("%H:%M"),
        "closes": timezone.localtime(closes).strftime("%H:%M"),
    }
    if closes <= now:
        return (
            _(
                "The next session starts at %(start)s: the correction window (VSz 12) closed at %(closes)s, "
                "15 minutes before it; published now, these results can no longer be corrected on request."
            )
            % times
        )
    return (
        _(
            "The next session starts at %(start)s: the correction window (VSz 12) ends 15 minutes before it, "
            "at %(closes)s, not 30 minutes after publication."
        )
        % times
    )


def window_open(session: PairSession, now=None) -> bool:
    deadline = correction_deadline(session)
    return deadline is not None and (now or timezone.now()) <= deadline


def _find(rows: list[dict], board: int, ns: SessionPair, ew: SessionPair) -> dict | None:
    return next(
        (r for r in rows if r["board"] == board and r["ns_id"] == ns.pk and r["ew_id"] == ew.pk), None
    )


def request_correction(
    session: PairSession,
    *,
    board: int,
    ns: SessionPair,
    ew: SessionPair,
    requester: SessionPair,
    contract: str = "",
    declarer: str = "",
    lead: str = "",
    result: str = "",
    score: str = "",
    reason: str,
    opponents_agree: bool = False,
    user,
    now=None,
) -> CorrectionRequest:
    """File a pair's request (the caller checked that `user` plays in `requester`)."""
    now = now or timezone.now()
    deadline = correction_deadline(session)
    if deadline is None:
        raise CorrectionRefused(_("The results of this session are not published yet."))
    if now > deadline:
        raise CorrectionRefused(
            _("Corrections closed at %(time)s.")
            % {"time": timezone.localtime(deadline).strftime("%Y-%m-%d %H:%M")}
        )
    if requester not in (ns, ew):
        raise CorrectionRefused(_("A pair may ask to correct only its own results."))
    recorded = _find(versions.rows_of(versions.latest_version(session)), board, ns, ew)
    if recorded is None:
        raise CorrectionRefused(
            _("There is no result of %(ns)s against %(ew)s on board %(board)s.")
            % {"ns": ns.number, "ew": ew.number, "board": board}
        )
    try:
        values = result_of(
            board, str(ns.number), str(ew.number), contract, declarer, lead, result, str(score or "")
        )
    except Problem as problem:
        raise CorrectionRefused(_("Board %(board)s: %(error)s") % {"board": board, "error": explain(problem)})
    contract, declarer, lead, tricks, new_score, artificial = values
    if artificial:
        raise CorrectionRefused(_("Artificial scores are the director's to give."))
    if (contract, declarer, tricks, new_score) == (
        recorded["contract"],
        recorded["declarer"],
        recorded["tricks"],
        recorded["score"],
    ) and lead == recorded["lead"]:
        raise CorrectionRefused(_("The requested result is the one already recorded."))
    with transaction.atomic():
        request = CorrectionRequest.objects.create(
            session=session,
            board=board,
            ns=ns,
            ew=ew,
            requester_pair=requester,
            recorded={
                k: recorded[k] for k in ("contract", "declarer", "lead", "tricks", "score", "artificial")
            },
            contract=contract,
            declarer=declarer,
            lead=lead,
            tricks=tricks,
            score=new_score,
            reason=reason,
            opponents_agree=opponents_agree,
            requested_by=user,
            requested_at=now,
        )
        directors = Role.objects.filter(kind=Role.DIRECTOR, event_id=session.event_id).select_related("user")
        notify(
            addresses_of(r.user for r in directors),
            _("Correction request: %(event)s, board %(board)s")
            % {"event": session.event.title, "board": board},
            _("Pair %(pair)s asks to correct board %(board)s (%(ns)s-%(ew)s) of %(session)s: %(reason)s")
            % {
                "pair": requester.number,
                "board": board,
                "ns": ns.number,
                "ew": ew.number,
                "session": session,
                "reason": reason,
            }
            + "\n"
            + absolute_url("bridge_corrections", session.event_id),
            federation=session.event.federation_id,
        )
    return request


def decide(request: CorrectionRequest, *, approve: bool, user, note: str = "") -> CorrectionRequest:
    """Countersign (a new version, then the recompute) or refuse; a request is decided once only."""
    with transaction.atomic():
        versions.lock_event(request.session.event_id)
        request = CorrectionRequest.objects.select_for_update().select_related("session").get(pk=request.pk)
        if request.status != CorrectionRequest.Status.PENDING:
            raise CorrectionRefused(_("This request has already been decided."))
        if approve:
            base = versions.latest_version(request.session)
            rows = versions.rows_of(base)
            row = _find(rows, request.board, request.ns, request.ew)
            if row is None:
                raise CorrectionRefused(_("The result has changed since the request: it is no longer there."))
            row.update(
                contract=request.contract,
                declarer=request.declarer,
                lead=request.lead,
                tricks=request.tricks,
                score=request.score,
                artificial="",
            )
            request.version = versions.write_version(
                request.session,
                rows,
                versions.penalties_of(base),
                source=VersionedUpload.Source.CORRECTION,
                user=user,
                note=_("correction #%(id)s, board %(board)s: %(reason)s")
                % {"id": request.pk, "board": request.board, "reason": request.reason},
                deals=base.deals,
                base=base,
            )
        request.status = CorrectionRequest.Status.APPROVED if approve else CorrectionRequest.Status.REFUSED
        request.decided_by = user
        request.decided_at = timezone.now()
        request.decision_note = note[:500]
        request.save()
        if address_of(request.requested_by):
            notify(
                [address_of(request.requested_by)],
                _("Your correction request: %(status)s") % {"status": request.get_status_display()},
                _("Board %(board)s of %(session)s: %(status)s. %(note)s")
                % {
                    "board": request.board,
                    "session": request.session,
                    "status": request.get_status_display(),
                    "note": note,
                }
                + "\n"
                + absolute_url("bridge_session", request.session_id),
                federation=request.session.event.federation_id,
                category=MailPreference.RESULTS,
            )
    return request
