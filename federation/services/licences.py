"""Ulti licences (versenyengedély): issued and revoked by the federation's staff, or bought by the player
on entering an event that needs one (MAUSZ V.11 (3)); a bought licence is owed (`LicenceFee`) until the
staff record its payment. Every change is in the audit log (federation.audit)."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Federation, Licence, LicenceFee


def _check_ulti(federation):
    if federation.game != Federation.ULTI:
        raise ValidationError(_("Only the ulti federation issues competition licences."))


def issue(person, federation, year, by, number="", today=None):
    """A valid licence of `person` for `year`; a revoked one of the same year is restored."""
    _check_ulti(federation)
    with transaction.atomic():
        licence = (
            Licence.objects.select_for_update()
            .filter(person=person, federation=federation, year=year)
            .first()
        )
        if licence is not None and licence.revoked_at is None:
            raise ValidationError(
                _("%(person)s already has a licence for %(year)s.") % {"person": person, "year": year}
            )
        if licence is None:
            licence = Licence(person=person, federation=federation, year=year)
        licence.number = number or licence.number
        licence.issued_on = today or timezone.localdate()
        licence.issued_by = by
        licence.revoked_at, licence.revoked_by, licence.revoke_reason = None, None, ""
        licence.save()
    return licence


def revoke(licence, by, reason):
    if not reason.strip():
        raise ValidationError(_("Give the reason of the revocation."))
    with transaction.atomic():
        licence = Licence.objects.select_for_update().get(pk=licence.pk)
        if licence.revoked_at is not None:
            raise ValidationError(_("This licence is already revoked."))
        licence.revoked_at, licence.revoked_by, licence.revoke_reason = timezone.now(), by, reason.strip()
        licence.save(update_fields=["revoked_at", "revoked_by", "revoke_reason"])
    return licence


def buy_on_entry(person, federation, year, entry, by):
    """The licence a player buys with an entry: valid at once, its fee owed until paid. Call inside the
    entry's transaction. A licence the staff revoked is not bought back this way."""
    _check_ulti(federation)
    existing = (
        Licence.objects.select_for_update().filter(person=person, federation=federation, year=year).first()
    )
    if existing is not None:
        if existing.revoked_at is not None:
            raise ValidationError(
                _(
                    "%(person)s's licence for %(year)s was revoked; only the federation's staff can restore it."
                )
                % {"person": person, "year": year}
            )
        return existing
    licence = Licence.objects.create(person=person, federation=federation, year=year, issued_by=by)
    LicenceFee.objects.create(licence=licence, amount=federation.licence_fee, entry=entry)
    return licence


def record_payment(fee, by):
    with transaction.atomic():
        updated = LicenceFee.objects.filter(pk=fee.pk, paid_at__isnull=True).update(
            paid_at=timezone.now(), paid_recorded_by=by
        )
    if not updated:
        raise ValidationError(_("This licence fee is already paid."))
    fee.refresh_from_db()
    return fee
