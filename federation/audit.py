"""The audit log: every change to entries, roles, results and appeal or disciplinary decisions.

django-auditlog writes one `auditlog.LogEntry` per create / update / delete of a registered model, with the
changed fields (old and new values), the acting user (its middleware, for web and API requests; Celery
workers have no request, so their writes carry no actor) and the remote address. Results are append-only,
so for them the creations are the record: each upload, correction, adjustment or appeal ruling is a new
version row. Bulky payloads (uploaded files, deal lists) are left out; their sha256 is kept.

Each log row is stamped with the federation its object belongs to (`additional_data["federation"]`, through
the `get_additional_data` hook auditlog calls, which `register_models` gives every audited model), found
while the object still exists, so federation staff can read their own federation's log even for deleted
rows (`federation.views.audit`). `register_models()` runs from `FederationConfig.ready()`.
"""

import logging

import rules
from auditlog.middleware import AuditlogMiddleware
from auditlog.registry import auditlog
from django.apps import apps
from django.utils.functional import SimpleLazyObject

from .models import Federation
from .predicates import is_federation_staff, is_superuser

log = logging.getLogger(__name__)

# (app_label.Model, fields left out of the recorded changes)
AUDITED = [
    # entries
    ("tournaments.Entry", []),
    ("tournaments.EntryMember", []),
    # roles, and who made an account act as a member (the member's mailed confirmation or an approval)
    ("federation.Role", []),
    ("federation.LinkRequest", []),
    # the register of qualified directors (VSz 9): additions, renewals, revocations
    ("federation.QualifiedDirector", []),
    # personal data: erasure requests (the request, never the erased values); licences and their fees,
    # member requests decided; region notices and the board's consent
    ("federation.ErasureRequest", []),
    ("federation.PrivacyConsent", []),
    ("federation.Licence", []),
    ("federation.LicenceFee", []),
    ("federation.MemberRequest", []),
    ("tournaments.RegionNotice", []),
    # results: uploads, corrections, adjustments (all append-only versions) and what leads to them
    ("bridge.ResultVersion", ["raw", "deals"]),
    ("bridge.ResultPenalty", []),
    ("bridge.CorrectionRequest", []),
    ("bridge.Substitution", []),
    ("bridge.Withdrawal", []),
    ("teams.MatchUpload", []),
    ("teams.LineUp", []),
    ("ulti.RoundUpload", ["raw"]),
    ("ulti.ScoreSheet", ["deals"]),
    ("ulti.SheetDraft", ["deals"]),
    # decisions: appeals (both instances, the committee's votes) and discipline
    ("appeals.Decision", []),
    ("appeals.Vote", []),
    ("appeals.SecondAppeal", []),
    ("appeals.Measure", []),
    ("appeals.DisciplinaryReport", []),
    ("appeals.DisciplinaryDecision", []),
]

# Foreign keys followed (in this order) to find an object's federation when it has no federation of its own.
_PARENTS = (
    "federation",
    "event",
    "club",
    "entry",
    "appeal",
    "decision",
    "report",
    "session",
    "match",
    "round",
    "table",
    "upload",
    "version",
    "pair",
    "group",
    "stage",
)


def federation_of(obj, depth=0):
    """The id of the federation an audited object belongs to, or None (walks up its parents)."""
    if obj is None or depth > 6:
        return None
    if isinstance(obj, Federation):
        return obj.pk
    if getattr(obj, "federation_id", None):
        return obj.federation_id
    for name in _PARENTS:
        try:
            field = obj._meta.get_field(name)
        except Exception:  # noqa: BLE001 - this model has no such field
            continue
        if not (field.is_relation and (field.many_to_one or field.one_to_one) and field.concrete):
            continue
        parent = getattr(obj, name, None)
        found = federation_of(parent, depth + 1)
        if found:
            return found
    return None


def _additional_data(instance):
    """`get_additional_data` of every audited model: django-auditlog stores it on the log row it writes."""
    try:
        federation_id = federation_of(instance)
    except Exception:  # noqa: BLE001 - never let the stamp break the write being logged
        log.exception("could not find the federation of %r for its audit row", instance)
        return None
    return {"federation": federation_id} if federation_id else None


VIEW_AUDIT_LOG = "federation.view_audit_log"


def register_models():
    if not rules.perm_exists(VIEW_AUDIT_LOG):
        # Any federation's staff (they see their own federation's rows) and superusers (all rows).
        rules.add_perm(VIEW_AUDIT_LOG, is_superuser | is_federation_staff)
    for label, exclude in AUDITED:
        model = apps.get_model(label)
        if getattr(model, "get_additional_data", None) is None:
            model.get_additional_data = _additional_data
        if not auditlog.contains(model):
            # Only the model's own columns: left to itself auditlog also records every reverse relation
            # (an entry's appeals, participants...) as "appeals.Appeal.None" on each creation.
            own = [f.name for f in model._meta.concrete_fields if f.name not in exclude]
            auditlog.register(model, include_fields=own)


class AuditActorMiddleware(AuditlogMiddleware):
    """auditlog's middleware, but the actor is read when a log row is written, not when the request starts.

    API clients authenticate with a token inside the DRF view (DRF then sets the request's user), after
    the middleware has run; read at request start, their changes would be logged without an actor.
    """

    @staticmethod
    def _get_actor(request):
        def actor():
            user = getattr(request, "user", None)
            return user if user is not None and user.is_authenticated else None

        return SimpleLazyObject(actor)
