"""The append-only history of an event (EventChange rows)."""

import datetime
import decimal

from django.db.models import Model

from ..models import EventChange


def _plain(value):
    if isinstance(value, Model):
        return str(value)
    if isinstance(value, datetime.datetime | datetime.date | decimal.Decimal):
        return str(value)
    return value


def diff(before: dict, after: dict) -> dict:
    """{field: [old, new]} for the fields whose value changed, as JSON-friendly strings."""
    return {
        name: [_plain(before.get(name)), _plain(after.get(name))]
        for name in after
        if _plain(before.get(name)) != _plain(after.get(name))
    }


def record(event, user, action, *, reason="", details=None, status_before=None):
    return EventChange.objects.create(
        event=event,
        user=user if user is not None and user.is_authenticated else None,
        action=action,
        status_before=status_before if status_before is not None else event.status,
        status_after=event.status,
        reason=reason,
        details=details or {},
    )
