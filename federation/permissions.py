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
