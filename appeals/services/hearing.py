"""The hearing (meghallgatás): the panel records the director's and each party's statement (VSz 9)."""

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from ..models import Appeal, Statement, TimelineEntry
from .common import lock_appeal, require_status
from .panel import seated_users
from .timeline import record


@transaction.atomic
def record_statement(appeal, user, *, speaker, speaker_name, text) -> Statement:
    appeal = lock_appeal(appeal)
    require_status(appeal, Appeal.Status.HEARING)
    if user.pk not in seated_users(appeal):
        raise PermissionDenied
    if speaker not in Statement.Speaker.values:
        raise ValidationError(_("Unknown speaker."))
    statement = Statement.objects.create(
        appeal=appeal, speaker=speaker, speaker_name=speaker_name, text=text, recorded_by=user
    )
    record(appeal, TimelineEntry.Action.STATEMENT, user, f"{statement.get_speaker_display()}: {speaker_name}")
    return statement


def heard(appeal) -> set[str]:
    """The kinds of speaker the panel has heard so far."""
    return set(Statement.objects.filter(appeal=appeal).values_list("speaker", flat=True))
