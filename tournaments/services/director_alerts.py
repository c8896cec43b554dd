"""Alerts for an event's directors beyond the control room (issue #18): when a table disputes a result (a
bridge board East disputes, an ulti round's forints a player disputes), the event's directors are mailed
once (through `federation.services.notifications.notify`, the outbox) and the navbar counts the alert until
one of them opens the page that handles it (the control room).

Once per dispute: the game names the dispute by a `key` (unique), a second call with it changes nothing.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from federation.models import Role
from federation.services.notifications import absolute_url, addresses_of, notify

from ..models import DirectorAlert, Event


def directors_of(event_id: int):
    return [r.user for r in Role.objects.filter(kind=Role.DIRECTOR, event_id=event_id).select_related("user")]


def raise_alert(
    event: Event, *, key: str, game: str, table: int, round: int, board=None, note="", url_name, url_args
) -> DirectorAlert | None:
    """Record the dispute and mail the event's directors, once per `key`; None when it was raised before."""
    path = reverse(url_name, args=url_args)
    if DirectorAlert.objects.filter(key=key).exists():
        return None
    try:
        with transaction.atomic():
            alert = DirectorAlert.objects.create(
                event=event,
                key=key,
                game=game,
                table=table,
                round=round,
                board=board,
                note=str(note or "")[:300],
                path=path,
            )
    except IntegrityError:  # raised by a request running beside this one
        return None
    if board is not None:
        text = _("Table %(table)s disputes board %(board)s (round %(round)s) at %(event)s.")
    else:
        text = _("Table %(table)s disputes the result of round %(round)s at %(event)s.")
    body = text % {"table": table, "board": board, "round": round, "event": event.title}
    if alert.note:
        body += "\n" + _("The player's note: %(note)s") % {"note": alert.note}
    body += "\n" + absolute_url(url_name, *url_args)
    notify(
        addresses_of(directors_of(event.pk)),
        _("Disputed result: %(event)s, table %(table)s") % {"event": event.title, "table": table},
        body,
        federation=event.federation_id,
    )
    return alert


def open_alerts(user):
    """The alerts not yet seen of the events the user directs (newest first)."""
    if not user.is_authenticated:
        return DirectorAlert.objects.none()
    events = Role.objects.filter(user=user, kind=Role.DIRECTOR).values("event_id")
    return DirectorAlert.objects.filter(event_id__in=events, seen_at__isnull=True)


def recent_alerts(user, limit: int = 50) -> list[DirectorAlert]:
    events = Role.objects.filter(user=user, kind=Role.DIRECTOR).values("event_id")
    return list(DirectorAlert.objects.filter(event_id__in=events).select_related("event")[:limit])


def mark_seen(path: str, user) -> int:
    """A director opened the page that handles these alerts: they are no longer counted."""
    return DirectorAlert.objects.filter(path=path, seen_at__isnull=True).update(
        seen_at=timezone.now(), seen_by=user
    )
