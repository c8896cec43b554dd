"""The cases a user may see, as one queryset: the list twin of `appeals.view_appeal` in rules.py."""

from django.db.models import Q

from federation.models import Role
from tournaments.models import public_events_q

from .models import Appeal, FederationSettings


def published_q():
    return Q(status__in=Appeal.PUBLISHED) & public_events_q("event__")


def visible_appeals(user):
    cases = Appeal.objects.select_related("event__federation", "session", "entry", "respondent_entry")
    if user.is_authenticated and user.is_superuser:
        return cases
    q = published_q()
    if user.is_authenticated:
        roles = Role.objects.filter(user=user)
        directed = roles.filter(kind=Role.DIRECTOR).values("event_id")
        federations = roles.filter(kind__in=(Role.FEDERATION_STAFF, Role.ETHICS)).values("federation_id")
        q |= Q(event_id__in=directed) | Q(event__federation_id__in=federations)
        q |= Q(panel__member__user=user)
        person = getattr(user, "person", None)
        if person is not None:
            q |= Q(entry__members__person=person) | Q(respondent_entry__members__person=person)
    return cases.filter(pk__in=Appeal.objects.filter(q).values("pk"))


def anonymised_for(user, appeal) -> bool:
    """Whether this reader gets the case without names (a published case, a reader from outside it)."""
    if user.has_perm("appeals.view_case_file", appeal):
        return False
    return FederationSettings.for_federation(appeal.event.federation).anonymise_public
