"""What every result pipeline shares: versioned uploads and the per-event recompute state.

Bridge pairs, bridge teams and ulti each keep their own upload and standings models; these pieces make them
behave alike: an upload is an append-only version (who, when, why), and standings carry the version they
were computed from, so a page can say "processing" while a newer version waits for its recompute.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

BRIDGE_PAIRS_ONLY = ("usebio", "table")


class VersionedUpload(models.Model):
    """Abstract base of an upload or correction: never edited, a change is a new row with the next number."""

    class Source(models.TextChoices):
        PBN = "pbn", _("PBN file")
        USEBIO = "usebio", _("USEBIO file")
        CSV = "csv", _("CSV file")
        FORM = "form", _("web form")
        CORRECTION = "correction", _("correction")
        ADJUSTMENT = "adjustment", _("adjusted score")
        APPEAL = "appeal", _("appeal decision")
        RESTORE = "restore", _("restored version")
        TABLE = "table", _("table entry")

    number = models.PositiveIntegerField(_("version"))
    # USEBIO files and table entry are the bridge games' own: the bridge pairs and teams models widen the
    # choices (`source_with_usebio`).
    source = models.CharField(
        _("source"), max_length=12, choices=[c for c in Source.choices if c[0] not in BRIDGE_PAIRS_ONLY]
    )
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    uploaded_at = models.DateTimeField(_("uploaded at"), auto_now_add=True)
    note = models.CharField(_("note"), max_length=500, blank=True)
    file_name = models.CharField(_("file name"), max_length=200, blank=True)
    sha256 = models.CharField(max_length=64, blank=True)

    class Meta:
        abstract = True
        ordering = ["number"]


def source_with_usebio(*, table: bool = True) -> models.CharField:
    """The `source` field of an upload model that also takes USEBIO files (bridge pairs sessions and team
    matches) and, with `table`, table entries (bridge pairs only)."""
    skip = () if table else ("table",)
    choices = [c for c in VersionedUpload.Source.choices if c[0] not in skip]
    return models.CharField(_("source"), max_length=12, choices=choices)


class RecomputeState(models.Model):
    """One row per (event, scope): the latest version uploaded and the one the stored standings reflect.

    Its row lock serialises recomputes of one event: two tasks for the same event never interleave.
    A row left behind (the recompute was never published, or its worker was lost) is picked up by the
    periodic sweeper in results/tasks.py.
    """

    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="recompute_states")
    scope = models.CharField(max_length=40, help_text="e.g. 'bridge-pairs', 'bridge-teams', 'ulti'")
    latest_version = models.PositiveIntegerField(default=0)
    computed_version = models.PositiveIntegerField(default=0)
    computed_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True)
    # When latest_version last moved (the sweeper waits a grace period after it) and when the sweeper last
    # re-enqueued this row's recompute (so it does not publish the same recompute every minute).
    marked_at = models.DateTimeField(null=True, blank=True)
    swept_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "scope"], name="one_state_per_event_scope")]

    def __str__(self):
        return f"{self.event_id}/{self.scope}: {self.computed_version}/{self.latest_version}"

    @property
    def processing(self) -> bool:
        return self.computed_version < self.latest_version
