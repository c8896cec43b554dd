"""Permissions of the rankings app (see federation/predicates.py for the mechanism)."""

import rules

from federation.predicates import is_federation_staff, is_superuser


@rules.predicate
def is_invited_player(user, qualification):
    """The player a NUB invitation is addressed to."""
    if qualification is None or not user.is_authenticated:
        return False
    return getattr(qualification.person, "user_id", None) == user.pk


# Award schemes, seasons and prize payments belong to one federation: only its staff act on them.
rules.add_perm("rankings.change_scheme", is_superuser | is_federation_staff)
rules.add_perm("rankings.manage_season", is_superuser | is_federation_staff)
rules.add_perm("rankings.view_prize_payments", is_superuser | is_federation_staff)
rules.add_perm("rankings.recompute", is_superuser | is_federation_staff)
rules.add_perm("rankings.respond_qualification", is_invited_player)
