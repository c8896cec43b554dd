"""Federations, regions, clubs, people, memberships, licences, suspensions and roles.

One module per kind of record; everything is re-exported here so `from federation.models import X` keeps working.
"""

from .accounts import EmailVerification, LinkRequest, Notification
from .directors import QualifiedDirector
from .organisations import Club, County, Federation, Region
from .people import Licence, LicenceFee, Membership, Person, Suspension
from .privacy import ErasureRequest, MailPreference, PrivacyConsent
from .roles import MemberRequest, Role

__all__ = [
    "Federation",
    "Region",
    "County",
    "Club",
    "Person",
    "Membership",
    "Licence",
    "LicenceFee",
    "Suspension",
    "Role",
    "MemberRequest",
    "Notification",
    "EmailVerification",
    "LinkRequest",
    "QualifiedDirector",
    "PrivacyConsent",
    "ErasureRequest",
    "MailPreference",
]
