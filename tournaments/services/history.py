"""The append-only history of an event (EventChange rows)."""

import datetime
import decimal

from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.db.models import Model
from django.utils import formats, timezone
from django.utils.translation import gettext

from ..models import Event, EventChange


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


def _field(name):
    try:
        return Event._meta.get_field(name)
    except FieldDoesNotExist:
        return None


def _shown(field, value) -> str:
    """A stored value as people read it: local Hungarian-format times, choice labels, decimal comma."""
    if value in (None, ""):
        return "—"
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(field, models.DateTimeField):
        try:
            moment = datetime.datetime.fromisoformat(str(value))
        except ValueError:
            return str(value)
        if timezone.is_aware(moment):
            moment = timezone.localtime(moment)
        return formats.date_format(moment, "Y. m. d. H:i")
    if isinstance(field, models.DateField):
        try:
            return formats.date_format(datetime.date.fromisoformat(str(value)), "Y. m. d.")
        except ValueError:
            return str(value)
    if field is not None and field.choices:
        return str(dict(field.flatchoices).get(value, value))
    if isinstance(field, models.DecimalField | models.FloatField):
        return formats.number_format(decimal.Decimal(str(value)), use_l10n=True)
    return str(value)


def readable_changes(change) -> list[tuple[str, str, str | None]]:
    """(field label, old value, new value) of a history row; new is None for a one-value detail
    (the director assigned)."""
    rows = []
    for name, values in (change.details or {}).items():
        if name == "director":
            rows.append((gettext("Tournament director"), str(values), None))
            continue
        field = _field(name)
        label = str(field.verbose_name) if field is not None else name
        old, new = values if isinstance(values, list | tuple) and len(values) == 2 else (None, values)
        rows.append((label[:1].upper() + label[1:], _shown(field, old), _shown(field, new)))
    return rows
