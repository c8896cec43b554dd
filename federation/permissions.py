"""Permissions of the federation app (see federation/predicates.py for the mechanism)."""

import rules

from .predicates import is_club_admin, is_federation_staff, is_self, is_superuser

# A person's private data (birth date, phone, e-mail): the person and the staff of a federation
# the person is a member of.


@rules.predicate
def is_staff_of_persons_federation(user, person):
    if person is None:
        return False
    return any(is_federation_staff(user, m.federation) for m in person.memberships.all())


@rules.predicate
def is_club_admin_of_persons_club(user, person):
    if person is None:
        return False
    return any(m.club_id and is_club_admin(user, m.club) for m in person.memberships.all())


@rules.predicate
def is_staff_of_requesters_federation(user, erasure_request):
    """Staff of a federation the person asking for erasure is a member of."""
    return erasure_request is not None and is_staff_of_persons_federation(user, erasure_request.person)


@rules.predicate
def is_own_request(user, erasure_request):
    return erasure_request is not None and is_self(user, erasure_request.person)


rules.add_perm("federation.view_person_private", is_superuser | is_self | is_staff_of_persons_federation)
rules.add_perm("federation.change_club", is_superuser | is_federation_staff | is_club_admin)
rules.add_perm("federation.manage_members", is_superuser | is_federation_staff)
rules.add_perm("federation.manage_roles", is_superuser | is_federation_staff)
rules.add_perm("federation.review_member_requests", is_superuser | is_federation_staff)
# Linking an account to a member record without an e-mail: the club admin of the member's club or the staff.
rules.add_perm("federation.review_link_request", is_superuser | is_federation_staff | is_club_admin)
rules.add_perm("federation.view_outbox", is_superuser | is_federation_staff)  # their federations' mail
# The register of qualified directors (VSz 9): the staff of its federation.
rules.add_perm("federation.manage_directors", is_superuser | is_federation_staff)
# Why a record of somebody without an account is kept: his club's admin or the staff record it.
rules.add_perm(
    "federation.record_data_basis",
    is_superuser | is_staff_of_persons_federation | is_club_admin_of_persons_club,
)
# An erasure request: the person sees (and may cancel or carry out) his own; the staff decide.
rules.add_perm(
    "federation.view_erasure_request", is_superuser | is_own_request | is_staff_of_requesters_federation
)
rules.add_perm("federation.decide_erasure", is_superuser | is_staff_of_requesters_federation)
rules.add_perm("federation.review_erasure_requests", is_superuser | is_federation_staff)
# Ulti licences: issued, revoked and marked paid by the staff of the licence's federation.
rules.add_perm("federation.manage_licences", is_superuser | is_federation_staff)
