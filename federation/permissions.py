"""The portal's one permission mechanism: `rules` predicates over per-object roles.

Every app declares its permissions in its own `rules.py` from these predicates; pages check them with
`rules.contrib.views.PermissionRequiredMixin` (or `user.has_perm(name, obj)`), the API with
`federation.api_permissions.RulesPermission`. A predicate receives the object being acted on and finds its
federation / club / event by duck typing, so one predicate serves every model that belongs to one.
"""

import rules

from .models import Role


def _roles(user):
    """(kind, federation_id, club_id, event_id) of the user's roles, loaded once per user object."""
    if not user or not user.is_authenticated:
        return frozenset()
    cached = getattr(user, "_portal_roles", None)
    if cached is None:
        cached = frozenset(
            Role.objects.filter(user=user).values_list("kind", "federation_id", "club_id", "event_id")
        )
        user._portal_roles = cached
    return cached


def forget_roles(user):
    if hasattr(user, "_portal_roles"):
        del user._portal_roles


def federation_id_of(obj):
    from .models import Federation

    if obj is None:
        return None
    if isinstance(obj, Federation):
        return obj.pk
    if hasattr(obj, "federation_id"):
        return obj.federation_id
    for parent in ("event", "club"):
        if hasattr(obj, parent):
            return federation_id_of(getattr(obj, parent))
    return None


def club_id_of(obj):
    from .models import Club

    if obj is None:
        return None
    if isinstance(obj, Club):
        return obj.pk
    if hasattr(obj, "club_id"):
        return obj.club_id
    if hasattr(obj, "event"):
        return club_id_of(obj.event)
    return None


def event_id_of(obj):
    from tournaments.models import Event

    if obj is None:
        return None
    if isinstance(obj, Event):
        return obj.pk
    if hasattr(obj, "event_id"):
        return obj.event_id
    if hasattr(obj, "event"):
        return event_id_of(obj.event)
    return None


def has_role(user, kind, *, federation_id=None, club_id=None, event_id=None):
    return (kind, federation_id, club_id, event_id) in _roles(user)


@rules.predicate
def is_federation_staff(user, obj=None):
    """Staff of the federation the object belongs to (any federation when there is no object)."""
    if obj is None:
        return any(r[0] == Role.FEDERATION_STAFF for r in _roles(user))
    fid = federation_id_of(obj)
    return fid is not None and has_role(user, Role.FEDERATION_STAFF, federation_id=fid)


@rules.predicate
def is_club_admin(user, obj=None):
    """Administrator of the club the object belongs to (any club when there is no object)."""
    if obj is None:
        return any(r[0] == Role.CLUB_ADMIN for r in _roles(user))
    cid = club_id_of(obj)
    return cid is not None and has_role(user, Role.CLUB_ADMIN, club_id=cid)


@rules.predicate
def is_event_director(user, obj=None):
    if obj is None:
        return any(r[0] == Role.DIRECTOR for r in _roles(user))
    eid = event_id_of(obj)
    return eid is not None and has_role(user, Role.DIRECTOR, event_id=eid)


@rules.predicate
def is_appeals_member(user, obj=None):
    if obj is None:
        return any(r[0] == Role.APPEALS for r in _roles(user))
    eid = event_id_of(obj)
    return eid is not None and has_role(user, Role.APPEALS, event_id=eid)


@rules.predicate
def is_ethics_member(user, obj=None):
    if obj is None:
        return any(r[0] == Role.ETHICS for r in _roles(user))
    fid = federation_id_of(obj)
    return fid is not None and has_role(user, Role.ETHICS, federation_id=fid)


@rules.predicate
def is_self(user, person):
    return person is not None and user.is_authenticated and getattr(person, "user_id", None) == user.pk


is_superuser = rules.is_superuser
is_authenticated = rules.is_authenticated
