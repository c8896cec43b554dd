"""The privacy notice's version, consents, and federation's own sections of the personal-data export."""

from django.db import transaction
from django.utils import timezone

from .. import personal_data
from ..models import (
    ErasureRequest,
    LinkRequest,
    MailPreference,
    MemberRequest,
    PrivacyConsent,
)

# Raise it when the notice (templates/federation/privacy_notice.html) changes in substance: consents record
# the version they were given to.
NOTICE_VERSION = "2026-12"


def record_consent(user, version=NOTICE_VERSION):
    return PrivacyConsent.objects.create(user=user, notice_version=version, given_at=timezone.now())


def has_current_consent(user) -> bool:
    return PrivacyConsent.objects.filter(user=user, notice_version=NOTICE_VERSION).exists()


@transaction.atomic
def record_data_basis(person, basis, by):
    """A club admin or the staff records why the portal may keep a record of a person without an account."""
    person.data_basis = basis
    person.data_basis_recorded_by = by
    person.data_basis_recorded_at = timezone.now()
    person.save(update_fields=["data_basis", "data_basis_recorded_by", "data_basis_recorded_at"])
    return person


def export(person, user) -> dict:
    return personal_data.collect(person, user)


# --- federation's sections -----------------------------------------------------------------------------


def _account(person, user):
    if user is None:
        return []
    return [
        {
            "username": user.username,
            "email": user.email,
            "first_name": user.first_name,
            "last_name": user.last_name,
            "date_joined": user.date_joined,
            "last_login": user.last_login,
            "is_active": user.is_active,
        }
    ]


def _addresses(person, user):
    return [a for a in {getattr(user, "email", ""), getattr(person, "email", "")} if a]


def register_sections():
    sections = {
        "account": _account,
        "privacy_consents": lambda p, u: PrivacyConsent.objects.filter(user=u) if u else [],
        "person": lambda p, u: [p] if p else [],
        "memberships": lambda p, u: p.memberships.select_related("federation", "club", "region") if p else [],
        "licences": lambda p, u: p.licences.select_related("federation") if p else [],
        "licence_fees": lambda p, u: (
            [lic.fee for lic in p.licences.select_related("fee") if hasattr(lic, "fee")] if p else []
        ),
        "suspensions": lambda p, u: p.suspensions.select_related("federation") if p else [],
        "member_requests": lambda p, u: MemberRequest.objects.filter(user=u) if u else [],
        "link_requests": lambda p, u: (
            LinkRequest.objects.filter(user=u).select_related("person") if u else []
        ),
        "erasure_requests": lambda p, u: ErasureRequest.objects.filter(person=p) if p else [],
        "mail_preferences": lambda p, u: MailPreference.objects.filter(address__in=_addresses(p, u)),
    }
    for name, section in sections.items():
        personal_data.register_section(name, section)
