"""The timeline of a case: every step with who and when. Rows are never changed or deleted."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from federation.immutable import AppendOnly


class TimelineEntry(AppendOnly):
    class Action(models.TextChoices):
        INTENTION = "intention", _("intention to appeal recorded")
        FILED = "filed", _("appeal filed")
        AGREED = "agreed", _("partner agreed")
        DECLINED = "declined", _("partner refused")
        DEPOSIT = "deposit", _("deposit received")
        LODGED = "lodged", _("appeal lodged")
        ATTACHMENT = "attachment", _("attachment added")
        PANEL = "panel", _("panel member seated")
        PANEL_REFUSED = "panel_refused", _("panel member refused")
        STATEMENT = "statement", _("statement recorded")
        PROPOSED = "proposed", _("decision proposed")
        VOTED = "voted", _("vote cast")
        REJECTED = "rejected", _("proposed decision rejected")
        PROPOSAL_WITHDRAWN = "prop_withdrawn", _("proposed decision withdrawn")
        NOT_APPLIED = "not_applied", _("decision could not be applied to the results")
        PUBLISHED = "published", _("decision published")
        EFFECT = "effect", _("results changed")
        NO_EFFECT = "no_effect", _("results to be changed by the director")
        SECOND_FILED = "second_filed", _("second-instance appeal filed")
        SECOND_DEPOSIT = "second_deposit", _("second-instance deposit received")
        SECOND_DECIDED = "second_decided", _("second-instance decision published")
        WITHDRAWN = "withdrawn", _("appeal withdrawn")
        LAPSED = "lapsed", _("appeal lapsed")
        MEASURE = "measure", _("measure taken")
        CONSENT = "consent", _("committee's consent")
        REPORTED = "reported", _("reported to the Disciplinary Committee")
        DISCIPLINE = "discipline", _("Disciplinary Committee's decision")
        DEDUCTED = "deducted", _("points deducted from the results")
        LEAVE_ASKED = "leave_asked", _("committee member asked to leave")
        LEAVE_CONSENTED = "leave_ok", _("director consented: committee member left")
        LEAVE_REFUSED = "leave_refused", _("director refused: committee member stays")
        STEPPED_IN = "stepped_in", _("alternate stepped in")

    appeal = models.ForeignKey(
        "appeals.Appeal", on_delete=models.PROTECT, null=True, blank=True, related_name="timeline"
    )
    report = models.ForeignKey(
        "appeals.DisciplinaryReport", on_delete=models.PROTECT, null=True, blank=True, related_name="timeline"
    )
    committee = models.ForeignKey(
        "appeals.Committee", on_delete=models.PROTECT, null=True, blank=True, related_name="timeline"
    )
    measure = models.ForeignKey(
        "appeals.Measure", on_delete=models.PROTECT, null=True, blank=True, related_name="timeline"
    )
    at = models.DateTimeField(_("when"), default=timezone.now)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    action = models.CharField(_("step"), max_length=16, choices=Action.choices)
    note = models.TextField(_("note"), blank=True)
    details = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(appeal__isnull=False)
                | models.Q(report__isnull=False)
                | models.Q(committee__isnull=False)
                | models.Q(measure__isnull=False),
                name="timeline_belongs_to_a_case",
            )
        ]
        verbose_name = _("timeline entry")
        verbose_name_plural = _("timeline entries")

    def __str__(self):
        return f"{self.at:%Y-%m-%d %H:%M} {self.action}"
