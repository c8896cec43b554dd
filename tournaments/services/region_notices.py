"""Region notices (MAUSZ 9 (2)): a player plays a season in another region than his club's. The staff record
them; a switch after the player already played in another region that season needs the board's consent,
which the staff record here and the entry check (player_facts) asks for."""

import datetime

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Event, RegionNotice
from .player_facts import played_in_other_region


def record(person, federation, region, season, by, note=""):
    if region.federation_id != federation.pk:
        raise ValidationError(_("The region belongs to another federation."))
    try:
        with transaction.atomic():
            return RegionNotice.objects.create(
                person=person, federation=federation, region=region, season=season, note=note, recorded_by=by
            )
    except IntegrityError:
        raise ValidationError(
            _("%(person)s already has a region notice for %(season)s.") % {"person": person, "season": season}
        ) from None


def set_consent(notice, consent: bool, by):
    with transaction.atomic():
        notice = RegionNotice.objects.select_for_update().get(pk=notice.pk)
        notice.board_consent = consent
        notice.recorded_by, notice.recorded_at = by, timezone.now()
        notice.save(update_fields=["board_consent", "recorded_by", "recorded_at"])
    return notice


def needs_consent(notice) -> bool:
    """Whether the player has played in another region this season (up to today): then the notice is a
    switch, which needs the board's consent."""
    probe = Event(
        federation_id=notice.federation_id,
        start_date=min(timezone.localdate(), datetime.date(notice.season, 12, 31)),
        season=notice.season,
    )
    return played_in_other_region(probe, notice.person, notice.region_id)
