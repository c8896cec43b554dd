"""The director's word on the decisions an upload or a restore touches (issue #14), and the version history.

An upload whose rows touch a decision in force (a correction, an adjusted or artificial score, a penalty,
an appeal decision) is kept in the Django session, not in the result tables, and the director is shown the
list: keep (the default), re-confirm or set aside with a reason. Confirming re-runs the upload with the
answers and the id of the latest version the director saw: anything changed meanwhile shows the list again.
Abandoning drops the kept upload; nothing was written.
"""

import hashlib

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from ..models import ResultVersion, VersionDecision
from ..services import decisions, uploads, versions
from .common import MANAGE, session_context, session_or_deny

PENDING = "bridge_pending_uploads"


# --- the upload kept while the director decides ---------------------------------------------------------


def stash(
    request, session, pending: decisions.DecisionsPending, *, key: str = "", to="bridge_upload_confirm"
):
    """Keep the upload (the text or traveller lines `uploads.submit` gave the pending decisions, not parsed
    rows) and send the director to the list. `key`: where it is kept (the session's id; an individual
    event's "individual-<event id>"), `to`: the confirmation page."""
    payload = {**pending.submission, "base": pending.base.pk if pending.base else None}
    payload["sha256"] = _digest(payload)
    kept = request.session.get(PENDING, {})
    kept[key or str(session.pk)] = payload
    request.session[PENDING] = kept
    return redirect(to, session.event_id if key else session.pk)


def _digest(payload: dict) -> str:
    body = repr(sorted((k, v) for k, v in payload.items() if k != "sha256"))
    return hashlib.sha256(body.encode()).hexdigest()


def kept(request, session, key: str = "") -> dict | None:
    payload = request.session.get(PENDING, {}).get(key or str(session.pk))
    if not payload or payload.get("sha256") != _digest(payload):
        return None
    return payload


def drop(request, session, key: str = ""):
    kept = request.session.get(PENDING, {})
    if kept.pop(key or str(session.pk), None) is not None:
        request.session[PENDING] = kept


def run(session, payload: dict, user, **answers):
    return uploads.submit(
        session,
        payload["kind"],
        user=user,
        text=payload.get("text"),
        file_name=payload.get("file_name", ""),
        board=payload.get("board"),
        lines=payload.get("lines"),
        note=payload.get("note", ""),
        **answers,
    )


def answers_from(post, pending: decisions.DecisionsPending | None = None) -> dict:
    """The director's choices: decision-<id> = keep / reconfirm / set_aside, reason-<id>."""
    resolutions, reasons = {}, {}
    for name, value in post.items():
        if name.startswith("decision-"):
            resolutions[name.removeprefix("decision-")] = value
        elif name.startswith("reason-"):
            reasons[name.removeprefix("reason-")] = value
    base = post.get("base")
    return {
        "resolutions": resolutions,
        "reasons": reasons,
        "expected_base": int(base) if base and base.isdigit() else None,
    }


def render_pending(
    request,
    session,
    pending,
    *,
    action,
    title,
    errors=(),
    changed=False,
    extra=None,
    status=200,
    context=None,
):
    """The confirmation page; `context(request, session, **values)`: the page's context (a pair session's
    by default; an individual event's pages give theirs)."""
    chosen = request.POST if request.method == "POST" else {}
    items = decisions.describe(session, pending.affected)
    for item in items:
        item["choice"] = chosen.get(f"decision-{item['id']}", decisions.KEEP)
        item["reason_given"] = chosen.get(f"reason-{item['id']}", "")
    return render(
        request,
        "bridge/decisions_confirm.html",
        (context or session_context)(
            request,
            session,
            action=action,
            title=title,
            items=items,
            base=pending.base.pk if pending.base else "",
            errors=list(errors),
            changed=changed or pending.changed,
            warnings=pending.warnings,
            **(extra or {}),
        ),
        status=status,
    )


def upload_confirm(request, pk):
    session = session_or_deny(request, pk, MANAGE)
    payload = kept(request, session)
    if payload is None:
        messages.info(request, _("No upload is waiting for confirmation."))
        return redirect("bridge_upload", session.pk)
    if request.method == "POST" and "abandon" in request.POST:
        drop(request, session)
        messages.info(request, _("The upload was abandoned; nothing was saved."))
        return redirect("bridge_upload", session.pk)
    title = _("Uploading %(file)s: decisions it touches") % {
        "file": payload.get("file_name")
        or _("traveller of board %(board)s") % {"board": payload.get("board")}
    }
    try:
        if request.method == "POST":
            accepted = request.POST.get("accept_warnings") == "1"
            version = run(
                session, payload, request.user, accept_warnings=accepted, **answers_from(request.POST)
            )
        else:
            run(session, payload, request.user, dry_run=True, expected_base=payload["base"])
            raise AssertionError("a dry run always raises")  # pragma: no cover
    except decisions.DecisionsPending as pending:
        if pending.warnings and request.method == "POST" and not accepted:
            unread = [_("Tick that you have read the warnings of the file to save it.")]
            return render_pending(
                request, session, pending, action="upload", title=title, errors=unread, status=400
            )
        changed = pending.changed or (request.method == "POST")
        return render_pending(
            request,
            session,
            pending,
            action="upload",
            title=title,
            changed=changed,
            status=409 if changed else 200,
        )
    except uploads.UploadError as error:
        pending = _pending_now(session, payload, request.user)
        return render_pending(
            request, session, pending, action="upload", title=title, errors=error.messages, status=400
        )
    drop(request, session)
    messages.success(
        request, _("Version %(number)s saved; the standings are being computed.") % {"number": version.number}
    )
    return redirect("bridge_session", session.pk)


def _pending_now(session, payload, user) -> decisions.DecisionsPending:
    try:
        run(session, payload, user, dry_run=True)
    except decisions.DecisionsPending as pending:
        return pending
    except uploads.UploadError:
        pass
    return decisions.DecisionsPending([], versions.latest_version(session))


# --- the history of the versions and the restore ---------------------------------------------------------


def version_history(request, pk):
    session = session_or_deny(request, pk, MANAGE)
    rows = list(
        ResultVersion.objects.filter(session=session).select_related("uploaded_by").order_by("number")
    )
    records: dict[int, list] = {}
    labels: dict[int, str] = {}
    for record in VersionDecision.objects.filter(version__session=session).select_related("decision"):
        if record.decision_id not in labels:
            decision = record.decision
            labels[decision.pk] = decisions.label_of(
                decision, decisions.kind_of(decision, decisions.delta_of(decision))
            )
        record.label = labels[record.decision_id]
        records.setdefault(record.version_id, []).append(record)
    history, previous = [], None
    for version in rows:
        history.append(
            {
                "version": version,
                "records": records.get(version.pk, []),
                "is_decision": version.source in decisions.DECISION_SOURCES,
                "diff": decisions.diff(previous, version),
            }
        )
        previous = version
    history.reverse()
    latest = rows[-1] if rows else None
    return render(
        request,
        "bridge/versions.html",
        session_context(
            request,
            session,
            history=history,
            latest=latest,
            in_force=decisions.summary(latest) if latest else [],
        ),
    )


def version_restore(request, pk, number):
    session = session_or_deny(request, pk, MANAGE)
    target = ResultVersion.objects.filter(session=session, number=number).first()
    if target is None:
        raise Http404
    latest = versions.latest_version(session)
    title = _("Restore version %(number)s") % {"number": number}
    extra = {"target": target, "diff": decisions.diff(latest, target), "restore": True}
    answers = answers_from(request.POST) if request.method == "POST" else {}
    try:
        if request.method != "POST":
            decisions.restore(session, number, user=request.user, dry_run=True)
        version = decisions.restore(
            session, number, user=request.user, note=request.POST.get("note", "").strip(), **answers
        )
    except decisions.DecisionsPending as pending:
        changed = pending.changed
        return render_pending(
            request, session, pending, action="restore", title=title, changed=changed, extra=extra,
            status=409 if changed else 200,
        )  # fmt: skip
    except decisions.ResolutionError as error:
        try:
            decisions.restore(session, number, user=request.user, dry_run=True)
        except decisions.DecisionsPending as pending:
            now = pending
        except decisions.ResolutionError:  # the current version: nothing to restore
            now = decisions.DecisionsPending([], latest)
            extra["current"] = True
        return render_pending(
            request,
            session,
            now,
            action="restore",
            title=title,
            errors=error.messages,
            extra=extra,
            status=400,
        )
    messages.success(
        request,
        _("Version %(number)s restored as version %(new)s; the standings are being computed.")
        % {"number": number, "new": version.number},
    )
    return redirect("bridge_versions", session.pk)
