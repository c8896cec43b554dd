"""The confirmation step of an upload that covers decisions in force (results.upload_decisions), shared by the
team and ulti pages.

The upload is kept server-side in the session (nothing is stored yet) under a one-time token, with the
version it was checked against; the page lists the decisions and asks keep / re-confirm / set aside (with a
reason). Confirming calls the service again with the choices (it refuses when the results changed since);
cancelling or leaving the page stores nothing.
"""

import uuid

from django.shortcuts import render
from django.utils.translation import gettext as _

from .upload_decisions import Action

SESSION_KEY = "pending_uploads"


def stash(request, kind: str, owner: int, payload: dict) -> str:
    """Keep an upload waiting for the director's choices; returns its token."""
    token = uuid.uuid4().hex
    pending = dict(request.session.get(SESSION_KEY, {}))
    pending[f"{kind}:{owner}"] = {**payload, "token": token}
    request.session[SESSION_KEY] = pending
    return token


def waiting(request, kind: str, owner: int, token: str | None) -> dict | None:
    """The waiting upload of this owner if the token matches (else None: out of date or abandoned)."""
    payload = request.session.get(SESSION_KEY, {}).get(f"{kind}:{owner}")
    if payload is None or not token or payload.get("token") != token:
        return None
    return payload


def drop(request, kind: str, owner: int) -> None:
    pending = dict(request.session.get(SESSION_KEY, {}))
    if pending.pop(f"{kind}:{owner}", None) is not None:
        request.session[SESSION_KEY] = pending


def choices_of(post) -> tuple[dict, dict]:
    """(decisions, reasons) as the confirmation form posts them: decision_<id> and reason_<id>; the
    service checks every id against the decisions the upload covers."""
    decisions, reasons = {}, {}
    for name, value in post.items():
        if name.startswith("decision_"):
            key = name.removeprefix("decision_")
            decisions[key] = value
            reasons[key] = post.get(f"reason_{key}", "")
    return decisions, reasons


def confirm_page(
    request, *, event, title, back_url, action_url, token, affected, errors=(), post=None, **extra
):
    for item in affected:
        key = str(item["id"])
        item["chosen"] = (post or {}).get(f"decision_{key}", Action.KEPT)
        item["reason_given"] = (post or {}).get(f"reason_{key}", "")
    context = {
        "event": event,
        "title": title,
        "back_url": back_url,
        "action_url": action_url,
        "token": token,
        "affected": affected,
        "errors": list(errors),
        "choices": [
            (Action.KEPT, _("keep (re-applied on top of the upload)")),
            (Action.RECONFIRMED, _("re-confirm")),
            (Action.SET_ASIDE, _("set aside")),
        ],
        **extra,
    }
    return render(request, "results/confirm_decisions.html", context, status=400 if errors else 200)
