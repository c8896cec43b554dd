"""The register of qualified tournament directors (VSz 9): federation staff add, renew and revoke.

Each change is a save of a `QualifiedDirector` row, which the audit log records (federation.audit); a
revoked qualification stays in the register, marked, so the events that named it keep their record. Every
change follows through to the events (`federation.director_releases`): a revocation, or a renewal that
shortens the validity or lowers the level, releases the director from the events not yet finished that it no
longer covers; a renewal or a restored revocation that covers such an event again gives it back (unless the
organiser named somebody else meanwhile)."""

import datetime

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import director_releases
from ..engine.text import search_key
from ..models import Federation, Person, QualifiedDirector

MANAGE = "federation.manage_directors"


def _check_dates(valid_from: datetime.date, valid_until: datetime.date):
    if valid_until < valid_from:
        raise ValidationError(_("The qualification cannot end before it starts."))


def members_matching(federation: Federation, query: str, limit: int = 20):
    """The federation's active members whose name contains the folded `query` (the register's add search)."""
    key = search_key(query or "")
    if len(key) < 2:
        return Person.objects.none()
    return Person.objects.filter(
        memberships__federation=federation, memberships__is_active=True, search_name__contains=key
    ).order_by("last_name", "first_name", "pk")[:limit]


@transaction.atomic
def add(
    user, federation: Federation, person_id: int, level: str, valid_from, valid_until
) -> QualifiedDirector:
    if not user.has_perm(MANAGE, federation):
        raise PermissionDenied
    # The id comes from the client: only a member of this federation can enter its register.
    person = Person.objects.filter(
        pk=person_id, memberships__federation=federation, memberships__is_active=True
    ).first()
    if person is None:
        raise ValidationError(_("Only an active member of the federation can be entered in its register."))
    if level not in QualifiedDirector.RANK:
        raise ValidationError(_("Choose a qualification."))
    _check_dates(valid_from, valid_until)
    return QualifiedDirector.objects.create(
        federation=federation,
        person=person,
        level=level,
        valid_from=valid_from,
        valid_until=valid_until,
        created_by=user,
    )


def _locked(user, qualification_id) -> QualifiedDirector:
    row = QualifiedDirector.objects.select_for_update().select_related("federation", "person")
    row = row.get(pk=qualification_id)
    if not user.has_perm(MANAGE, row):
        raise PermissionDenied
    return row


def _follow(row: QualifiedDirector, user) -> QualifiedDirector:
    """The events follow the changed qualification: released where it no longer covers them, given back
    where it covers them again. The numbers are on the row (`released_events`, `restored_events`)."""
    row.released_events = director_releases.release(row, user)
    row.restored_events = director_releases.give_back(row, user)
    return row


@transaction.atomic
def renew(user, qualification_id: int, valid_until: datetime.date, level: str | None = None):
    """A new end of validity (later or earlier) and level; the events follow (`_follow`)."""
    row = _locked(user, qualification_id)
    if row.revoked_at:
        raise ValidationError(_("A revoked qualification cannot be renewed; restore it or enter a new one."))
    _check_dates(row.valid_from, valid_until)
    row.valid_until = valid_until
    if level:
        if level not in QualifiedDirector.RANK:
            raise ValidationError(_("Choose a qualification."))
        row.level = level
    row.save(update_fields=["valid_until", "level"])
    return _follow(row, user)


@transaction.atomic
def restore(user, qualification_id: int):
    """Undo a revocation (made in error, or set aside): the qualification is valid again for its dates, the
    audit log keeps the revocation, and the events it was released from get it back (`_follow`)."""
    row = _locked(user, qualification_id)
    if not row.revoked_at:
        raise ValidationError(_("This qualification is not revoked."))
    row.revoked_at, row.revoked_by, row.revoke_reason = None, None, ""
    row.save(update_fields=["revoked_at", "revoked_by", "revoke_reason"])
    return _follow(row, user)


@transaction.atomic
def revoke(user, qualification_id: int, reason: str):
    """Revoke the qualification; the events it covered that have not finished lose the director, in the same
    transaction (`director_releases`: the role, the organiser's and the staff's mail, the event's history).
    The number of those events is on the row as `released_events`."""
    row = _locked(user, qualification_id)
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError(_("Give the reason of the revocation."))
    if row.revoked_at:
        raise ValidationError(_("This qualification is already revoked."))
    row.revoked_at, row.revoked_by, row.revoke_reason = timezone.now(), user, reason
    row.save(update_fields=["revoked_at", "revoked_by", "revoke_reason"])
    row.released_events = director_releases.release(row, user)
    return row
