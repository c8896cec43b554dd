"""The portal's one permission mechanism: `rules` predicates over per-object roles.

Every app declares its permissions in its own `permissions.py` from these predicates; pages check them
through `federation.access` (`object_or_deny`, `check`) or `user.has_perm(name, obj)`, the API with
`federation.api_permissions.RulesPermission`. A predicate receives the object being acted on and finds its
federation / club / event by duck typing, so one predicate serves every model that belongs to one.
"""

import rules

from .models import Club, Federation, Role


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


def staffed_federation_ids(user) -> list[int]:
    """The federations whose staff `user` is, sorted (none for anonymous users)."""
    return sorted({fed for kind, fed, _club, _event in _roles(user) if kind == Role.FEDERATION_STAFF and fed})


def federation_id_of(obj):
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
    if obj is None:
        return None
    # The event model is a higher layer's (tournaments): found through the role's foreign key to it, so that
    # federation imports no other app of the project.
    if isinstance(obj, Role._meta.get_field("event").related_model):
        return obj.pk
    if hasattr(obj, "event_id"):
        return obj.event_id
    if hasattr(obj, "event"):
        return event_id_of(obj.event)
    return None


def has_role(user, kind, *, federation_id=None, club_id=None, event_id=None):
    return (kind, federation_id, club_id, event_id) in _roles(user)


def _role_predicate(name, kind, scope_id_of, scope_key, doc):
    """A predicate: the user holds `kind` for the object's scope (for any scope when there is no object)."""

    def check(user, obj=None):
        if obj is None:
            return any(r[0] == kind for r in _roles(user))
        scope_id = scope_id_of(obj)
        return scope_id is not None and has_role(user, kind, **{scope_key: scope_id})

    check.__name__ = check.__qualname__ = name
    check.__doc__ = doc
    return rules.predicate(check)


is_federation_staff = _role_predicate(
    "is_federation_staff", Role.FEDERATION_STAFF, federation_id_of, "federation_id",
    "Staff of the federation the object belongs to.",
)  # fmt: skip
is_club_admin = _role_predicate(
    "is_club_admin",
    Role.CLUB_ADMIN,
    club_id_of,
    "club_id",
    "Administrator of the club the object belongs to.",
)
is_event_director = _role_predicate(
    "is_event_director", Role.DIRECTOR, event_id_of, "event_id", "Tournament director of the object's event."
)
is_appeals_member = _role_predicate(
    "is_appeals_member",
    Role.APPEALS,
    event_id_of,
    "event_id",
    "Appeals committee member of the object's event.",
)
is_ethics_member = _role_predicate(
    "is_ethics_member", Role.ETHICS, federation_id_of, "federation_id",
    "Rules and Ethics Committee member of the object's federation.",
)  # fmt: skip
is_disciplinary_member = _role_predicate(
    "is_disciplinary_member", Role.DISCIPLINARY, federation_id_of, "federation_id",
    "Disciplinary Committee member of the object's federation.",
)  # fmt: skip


@rules.predicate
def is_self(user, person):
    return person is not None and user.is_authenticated and getattr(person, "user_id", None) == user.pk


is_superuser = rules.is_superuser
is_authenticated = rules.is_authenticated
