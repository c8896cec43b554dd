"""Result versions of a session: append-only snapshots, never edited.

Every upload, traveller form, approved correction, adjusted score or withdrawal writes a new version
holding the session's complete results (the unchanged rows are copied), so one version alone says what
the standings were computed from, and the history keeps every earlier state.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from federation.immutable import AppendOnly
from results.models import VersionedUpload, source_with_usebio


class ResultVersion(AppendOnly, VersionedUpload):
    """One version of a session's results: who made it, when, why and from what."""

    session = models.ForeignKey("bridge.PairSession", on_delete=models.PROTECT, related_name="versions")
    source = source_with_usebio()
    base = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("derived from"),
    )
    event_version = models.PositiveIntegerField(
        _("event version"), default=0, help_text=_("The event's recompute counter this version raised.")
    )
    deals = models.JSONField(_("deals"), default=dict, blank=True, help_text=_("Board number -> PBN deal."))
    raw = models.TextField(_("uploaded text"), blank=True)
    # Copy on write: a version stores the rows of the boards it changed; for each board whose rows are
    # those of a version before, the number of the board -> the pk of the version that stores them (never
    # a version that inherits them itself). Empty: every row is stored here. Versions are append-only and
    # protected, so a holder never goes away. Read the rows through bridge.services.versions only.
    sources = models.JSONField(
        _("boards kept from earlier versions"),
        default=dict,
        blank=True,
        help_text=_("Board number -> the earlier version that stores the board's rows."),
    )

    class Meta(VersionedUpload.Meta):
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="bridge_one_version_number")
        ]
        verbose_name = _("result version")
        verbose_name_plural = _("result versions")

    def __str__(self):
        return f"{self.session} v{self.number}"

    @property
    def event(self):
        return self.session.event


class BoardResult(AppendOnly):
    """One table's result on a board in one version: a played contract or an artificial award."""

    # The (version, board) index serves every read; more indexes would only slow the bulk writes.
    version = models.ForeignKey(
        ResultVersion, on_delete=models.PROTECT, related_name="results", db_index=False
    )
    board = models.PositiveSmallIntegerField(_("board"))
    table = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    ns = models.ForeignKey("bridge.SessionPair", on_delete=models.PROTECT, related_name="+", db_index=False)
    ew = models.ForeignKey("bridge.SessionPair", on_delete=models.PROTECT, related_name="+", db_index=False)
    contract = models.CharField(_("contract"), max_length=6, blank=True)
    declarer = models.CharField(_("declarer"), max_length=1, blank=True)
    lead = models.CharField(_("lead"), max_length=3, blank=True)
    tricks = models.PositiveSmallIntegerField(_("tricks"), null=True, blank=True)
    score = models.IntegerField(_("N-S score"), null=True, blank=True)
    artificial = models.CharField(
        _("artificial score"), max_length=5, blank=True, help_text="A+, A, A-, A+/A-"
    )
    # VSz 27: on a fouled board, the version of the deal this table played (results of one group are
    # scored among themselves); empty when the board was not fouled.
    deal_group = models.PositiveSmallIntegerField(_("deal group"), null=True, blank=True)

    class Meta:
        ordering = ["version", "board", "table", "pk"]
        indexes = [models.Index(fields=["version", "board"])]
        verbose_name = _("board result")
        verbose_name_plural = _("board results")

    def __str__(self):
        return f"{self.board}: {self.ns_id}-{self.ew_id} {self.contract or self.artificial} {self.score}"


class ResultPenalty(AppendOnly):
    """A procedural penalty in percent of the top (VSz 32): on one board, or on the session total."""

    version = models.ForeignKey(ResultVersion, on_delete=models.PROTECT, related_name="penalties")
    pair = models.ForeignKey("bridge.SessionPair", on_delete=models.PROTECT, related_name="+")
    board = models.PositiveSmallIntegerField(_("board"), null=True, blank=True)
    percent = models.DecimalField(_("percent of the top"), max_digits=5, decimal_places=2)
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    # The offence of the catalogue (bridge.engine.scoring.adjusted.PENALTY_CATALOGUE); empty: given before
    # the catalogue, or "other" with a free percentage.
    code = models.CharField(_("offence"), max_length=32, blank=True)

    class Meta:
        ordering = ["version", "pk"]
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")

    def __str__(self):
        return f"{self.pair_id} -{self.percent}% ({self.board or '-'})"


class VersionDecision(AppendOnly):
    """Which decisions a version reflects (part of issue #14): written with every upload or restore.

    A decision is a version made by a correction, a director's adjustment (an adjusted or artificial
    score, a penalty, a withdrawal) or an appeal decision. A whole-file upload replaces the rows; every
    decision still in force is re-applied on top of it (carried silently when the upload does not touch its
    rows, kept or re-confirmed by the director when it does) or set aside by the director with a reason.
    A decision version itself needs no row: it is in force with whatever its base carries.
    """

    class Action(models.TextChoices):
        CARRIED = "carried", _("carried")
        KEPT = "kept", _("kept")
        RECONFIRMED = "reconfirmed", _("re-confirmed")
        SET_ASIDE = "set_aside", _("set aside")

    version = models.ForeignKey(ResultVersion, on_delete=models.PROTECT, related_name="decisions")
    decision = models.ForeignKey(
        ResultVersion, on_delete=models.PROTECT, related_name="+", verbose_name=_("decision")
    )
    action = models.CharField(_("action"), max_length=12, choices=Action.choices)
    reason = models.CharField(_("reason"), max_length=500, blank=True)

    class Meta:
        ordering = ["version", "decision__number"]
        constraints = [
            models.UniqueConstraint(fields=["version", "decision"], name="bridge_one_record_per_decision")
        ]
        verbose_name = _("decision of a version")
        verbose_name_plural = _("decisions of a version")

    def __str__(self):
        return f"{self.version} {self.action} {self.decision}"
