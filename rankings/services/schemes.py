"""Award schemes: the versioned rules that turn a result into masterpoints; a new version re-awards."""

from __future__ import annotations

import datetime

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext

from federation.models import Federation

from ..engine import awards as award_engine
from ..models import AwardScheme
from . import jobs
from .state import state_for_update

# The note of version 1; pages show it as gettext("Default scheme") (see `scheme_note`).
DEFAULT_NOTE = "Default scheme (docs/masterpoints.md)"


def scheme_note(scheme: AwardScheme) -> str:
    """A version's note as shown to people: the default version's stored note is translated."""
    return gettext("Default scheme") if scheme.note == DEFAULT_NOTE else scheme.note


def ensure_default_scheme(federation: Federation) -> AwardScheme:
    """Version 1 (the default of docs/masterpoints.md) when the federation has none yet."""
    scheme = AwardScheme.objects.filter(federation=federation).order_by("-version").first()
    if scheme is None:
        scheme, _created = AwardScheme.objects.get_or_create(
            federation=federation,
            version=1,
            defaults=dict(
                valid_from=datetime.date(2000, 1, 1),
                rules=award_engine.DEFAULT_SCHEMES[federation.game],
                note=DEFAULT_NOTE,
            ),
        )
    return scheme


def scheme_for(federation: Federation, on: datetime.date) -> AwardScheme:
    """The scheme that awards an event on ``on``: the newest version already valid that day."""
    ensure_default_scheme(federation)
    scheme = (
        AwardScheme.objects.filter(federation=federation, valid_from__lte=on).order_by("-version").first()
    )
    return scheme or AwardScheme.objects.filter(federation=federation).order_by("version").first()


def current_scheme(federation: Federation) -> AwardScheme:
    return scheme_for(federation, timezone.localdate())


def change_scheme(federation: Federation, rules: dict, valid_from: datetime.date, note: str, user=None):
    """Save a new scheme version and re-award (in Celery) every event it now governs."""
    award_engine.scheme_from_dict(rules)  # raises SchemeError
    with transaction.atomic():
        state_for_update(federation.pk)
        ensure_default_scheme(federation)
        last = AwardScheme.objects.filter(federation=federation).aggregate(v=Max("version"))["v"] or 0
        scheme = AwardScheme.objects.create(
            federation=federation,
            version=last + 1,
            valid_from=valid_from,
            rules=award_engine.scheme_to_dict(award_engine.scheme_from_dict(rules)),
            note=note,
            created_by=user if user is not None and user.is_authenticated else None,
        )
        jobs.enqueue("reaward_scheme", scheme.pk)
    return scheme
