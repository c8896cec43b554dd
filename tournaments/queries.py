"""Which events a user sees and manages."""

from django.db.models import Q

from federation.models import Role

from .models import Event, public_events_q


def managed_q(user) -> Q:
    """Events the user runs: staff of their federation, admin of their club, director of the event."""
    if not user.is_authenticated:
        return Q(pk__in=[])
    if user.is_superuser:
        return Q()
    roles = list(Role.objects.filter(user=user).values_list("kind", "federation_id", "club_id", "event_id"))
    q = Q(pk__in=[r[3] for r in roles if r[0] == Role.DIRECTOR])
    q |= Q(federation_id__in=[r[1] for r in roles if r[0] == Role.FEDERATION_STAFF])
    q |= Q(club_id__in=[r[2] for r in roles if r[0] == Role.CLUB_ADMIN])
    return q


def visible_events(user):
    """The public calendar plus whatever the user manages (drafts included)."""
    return Event.objects.filter(public_events_q() | managed_q(user))


def public_events():
    return Event.objects.filter(public_events_q())
