"""Erasure of a person's data as anonymisation (GDPR art. 17, with the federations' results kept).

The member record stays, so results, masterpoints and ratings stay attached to it, but it no longer says
who the person was: the name becomes "Törölt játékos #<id>", the e-mail and phone go, the birth date becomes
the placeholder ERASED_BIRTH_DATE (the column is required by the age rules; 1 January 1900 is a date no
living player has), the account is deactivated and stripped of its names and address. Each request is a
row (`ErasureRequest`: who asked, who decided, when, what was erased), and the audit log records it.
What still carries the name or address afterwards is scrubbed too (`erasure_scrub`): the mail outbox, the
audit log's texts, and the files and texts of the apps above (their erasers, `personal_data`).
"""

import datetime

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from .. import personal_data
from ..models import EmailVerification, ErasureRequest, MailPreference, MemberRequest, Person
from ..predicates import staffed_federation_ids
from . import erasure_scrub

ERASED_BIRTH_DATE = datetime.date(1900, 1, 1)
ERASED_FIRST_NAME = "játékos"
ERASED_LAST_NAME = "Törölt"


def request_erasure(person, by, reason=""):
    """File a pending request (one at a time per person)."""
    with transaction.atomic():
        if person.anonymised_at is not None:
            raise ValidationError(_("This record has already been anonymised."))
        pending = ErasureRequest.objects.select_for_update().filter(
            person=person, state=ErasureRequest.PENDING
        )
        if pending.exists():
            return pending.get()
        return ErasureRequest.objects.create(person=person, requested_by=by, reason=reason)


def cancel(req, by):
    with transaction.atomic():
        updated = ErasureRequest.objects.filter(pk=req.pk, state=ErasureRequest.PENDING).update(
            state=ErasureRequest.CANCELLED, decided_by=by, decided_at=timezone.now()
        )
    return bool(updated)


def reject(req, by, note):
    if not note.strip():
        raise ValidationError(_("Say why the request is refused."))
    with transaction.atomic():
        updated = ErasureRequest.objects.filter(pk=req.pk, state=ErasureRequest.PENDING).update(
            state=ErasureRequest.REJECTED, decided_by=by, decided_at=timezone.now(), decision_note=note
        )
    return bool(updated)


def carry_out(req, by, note=""):
    """Anonymise the request's person; the request becomes done. Refused for a request no longer pending."""
    with transaction.atomic():
        req = ErasureRequest.objects.select_for_update().filter(pk=req.pk).first()
        if req is None or req.state != ErasureRequest.PENDING:
            raise ValidationError(_("This request is no longer pending."))
        person = Person.objects.select_for_update().get(pk=req.person_id)
        erased = anonymise(person)
        now = timezone.now()
        req.state, req.decided_by, req.decided_at = ErasureRequest.DONE, by, now
        req.decision_note, req.erased = note, erased
        req.save()
    return req


def anonymise(person) -> list[str]:
    """Strip the record and its account of what identifies the person, then the texts and files that still
    carry his name or address (`erasure_scrub`, the apps' erasers); the names of what was erased."""
    erased = ["first_name", "last_name", "birth_date", "email", "phone"]
    user_id = person.user_id
    user = get_user_model().objects.select_for_update().get(pk=user_id) if user_id is not None else None
    identity = erasure_scrub.identity_of(person, user, f"{ERASED_LAST_NAME} #{person.pk} {ERASED_FIRST_NAME}")
    person.first_name, person.last_name = ERASED_FIRST_NAME, f"{ERASED_LAST_NAME} #{person.pk}"
    person.birth_date = ERASED_BIRTH_DATE
    person.email = person.phone = ""
    person.mail_to = Person.MAIL_TO_ACCOUNT
    person.anonymised_at = timezone.now()
    person.user = None
    person.save()
    if user is not None:
        user.username = f"erased-{person.pk}-{user.pk}"
        user.email = user.first_name = user.last_name = ""
        user.is_active = False
        user.set_unusable_password()
        user.save()
        # What the account asked for carries the person's name and birth date (update(): no audit row
        # repeating them).
        MemberRequest.objects.filter(user=user).update(
            first_name=ERASED_FIRST_NAME, last_name=ERASED_LAST_NAME, birth_date=ERASED_BIRTH_DATE, note=""
        )
        EmailVerification.objects.filter(user=user).delete()
        Token.objects.filter(user=user).delete()
        erased.append("account")
    MailPreference.objects.filter(address__in=identity.addresses).delete()
    if erasure_scrub.scrub_outbox(identity):
        erased.append("outbox")
    if erasure_scrub.scrub_audit_log(identity):
        erased.append("audit_log")
    erased.extend(personal_data.run_erasers(identity))
    return erased


def pending_for(user):
    """The pending requests `user` may decide: of people who are members of a federation he is staff of."""
    pending = ErasureRequest.objects.filter(state=ErasureRequest.PENDING).select_related(
        "person", "requested_by"
    )
    if user.is_superuser:
        return pending
    return pending.filter(person__memberships__federation_id__in=staffed_federation_ids(user)).distinct()
