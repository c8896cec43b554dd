"""Decisions are layers on the uploads: what the team and ulti result pipelines share.

A decision is a result version made by a correction, the director's adjustment or ruling, an appeal
decision or a point deduction. Its delta is what it changed against the version before it. A new upload
that covers what a decision in force covers is not stored until the director has said, per decision,
"keep" (re-applied on top, the default), "re-confirm" (kept and recorded as re-confirmed) or "set aside"
(with a reason: the decision no longer applies). Decisions the upload does not touch are carried silently.
The stored version is the upload with the kept decisions re-applied in order, and records each decision
it carries or sets aside (each app's append-only ``UploadDecision``).

A service called without a resolution for every affected decision raises ``DecisionsPending`` before
writing anything; pages show the list and ask, the API answers 409 with it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from federation.immutable import AppendOnly

from .models import VersionedUpload

DECISION_SOURCES = (
    VersionedUpload.Source.CORRECTION,
    VersionedUpload.Source.ADJUSTMENT,
    VersionedUpload.Source.APPEAL,
)


class Action(models.TextChoices):
    CARRIED = "carried", gettext_lazy("carried (not touched by the upload)")
    KEPT = "keep", gettext_lazy("kept")
    RECONFIRMED = "reconfirm", gettext_lazy("re-confirmed")
    SET_ASIDE = "set_aside", gettext_lazy("set aside")


class RecordedDecision(AppendOnly):
    """Abstract: what one new version did with a decision in force (carried, kept, re-confirmed or set aside,
    and why). Each app adds its `upload` and `decision` foreign keys to its own upload model and its Meta."""

    action = models.CharField(gettext_lazy("action"), max_length=10, choices=Action.choices)
    reason = models.CharField(gettext_lazy("reason"), max_length=500, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    decided_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True
        ordering = ["upload", "decision"]
        verbose_name = gettext_lazy("decision carried by an upload")
        verbose_name_plural = gettext_lazy("decisions carried by uploads")

    def __str__(self):
        return f"{self.upload_id}: {self.decision_id} {self.action}"


CHOICES = (Action.KEPT, Action.RECONFIRMED, Action.SET_ASIDE)


class DecisionsPending(Exception):
    """The upload covers decisions in force that have no resolution yet: nothing was written.

    ``affected`` is the list the director is shown (dicts, JSON-ready); ``based_on`` the version number
    the upload would follow (the client sends it back so a change meanwhile is noticed).
    """

    def __init__(self, affected: list[dict], based_on: int):
        self.affected = affected
        self.based_on = based_on
        super().__init__(_("The upload changes results that decisions cover: keep or set each aside."))


class ResolutionError(ValueError):
    def __init__(self, messages):
        self.messages = [str(m) for m in ([messages] if isinstance(messages, str) else messages)]
        super().__init__("; ".join(self.messages))


def resolve(affected_ids, decisions: dict | None, reasons: dict | None) -> dict[int, tuple[str, str]]:
    """The director's choice per affected decision id: {id: (action, reason)}.

    Raises ``ResolutionError`` for an unknown action, an id that is not among the affected decisions
    (every id a client sends is checked) or a set-aside without a reason. Returns None when some affected
    decision has no choice yet (the caller raises ``DecisionsPending``).
    """
    decisions = {str(k).strip(): str(v).strip() for k, v in (decisions or {}).items()}
    reasons = {str(k).strip(): str(v or "").strip() for k, v in (reasons or {}).items()}
    wanted = {str(i) for i in affected_ids}
    errors = []
    for key in sorted(set(decisions) - wanted):
        errors.append(_("Decision %(id)s is not among the decisions this upload covers.") % {"id": key})
    for key, action in sorted(decisions.items()):
        if key in wanted and action not in CHOICES:
            errors.append(
                _("Decision %(id)s: choose keep, reconfirm or set_aside, not %(action)s.")
                % {"id": key, "action": action}
            )
        elif key in wanted and action == Action.SET_ASIDE and not reasons.get(key):
            errors.append(_("Decision %(id)s: setting a decision aside needs a reason.") % {"id": key})
    if errors:
        raise ResolutionError(errors)
    if wanted - set(decisions):
        return None
    return {
        int(k): (decisions[k], reasons.get(k, "")[:500] if decisions[k] != Action.KEPT else "")
        for k in wanted
    }


def described(version, *, kind_of=None) -> dict:
    """The common part of a decision as the director is shown it: id, kind, who, when, why."""
    by = version.uploaded_by
    return {
        "id": version.pk,
        "version": version.number,
        "kind": version.source,
        "kind_label": str(kind_of or version.get_source_display()),
        "by": (by.get_full_name() or by.get_username()) if by else "",
        "at": version.uploaded_at.isoformat(),
        "at_text": timezone.localtime(version.uploaded_at).strftime("%Y-%m-%d %H:%M"),
        "reason": version.note,
    }
