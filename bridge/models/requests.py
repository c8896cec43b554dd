"""Correction requests (VSz 12): a pair asks, the director countersigns or refuses; all kept."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class CorrectionRequest(models.Model):
    """A request to correct an obvious clerical error in one result; approving it writes a new version."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for the director")
        APPROVED = "approved", _("countersigned")
        REFUSED = "refused", _("refused")

    session = models.ForeignKey("bridge.PairSession", on_delete=models.PROTECT, related_name="corrections")
    board = models.PositiveSmallIntegerField(_("board"))
    ns = models.ForeignKey(
        "bridge.SessionPair", on_delete=models.PROTECT, related_name="+", verbose_name=_("N-S")
    )
    ew = models.ForeignKey(
        "bridge.SessionPair", on_delete=models.PROTECT, related_name="+", verbose_name=_("E-W")
    )
    requester_pair = models.ForeignKey(
        "bridge.SessionPair", on_delete=models.PROTECT, related_name="correction_requests"
    )
    # What the result was when the request was made, and what the pair says it should be.
    recorded = models.JSONField(_("recorded result"), default=dict)
    contract = models.CharField(_("contract"), max_length=6, blank=True)
    declarer = models.CharField(_("declarer"), max_length=1, blank=True)
    lead = models.CharField(_("lead"), max_length=3, blank=True)
    tricks = models.PositiveSmallIntegerField(_("tricks"), null=True, blank=True)
    score = models.IntegerField(_("N-S score"))
    reason = models.TextField(_("what was written wrong"))
    opponents_agree = models.BooleanField(_("the opponents agree"), default=False)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    requested_at = models.DateTimeField(_("requested at"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decision_note = models.CharField(_("director's note"), max_length=500, blank=True)
    version = models.ForeignKey(
        "bridge.ResultVersion", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-requested_at", "-pk"]
        indexes = [models.Index(fields=["session", "status"])]
        verbose_name = _("correction request")
        verbose_name_plural = _("correction requests")

    def __str__(self):
        return f"{self.session} / {self.board}: {self.get_status_display()}"

    @property
    def event(self):
        return self.session.event
