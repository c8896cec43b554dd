"""Discipline (VSz 23): the director's measures, reports to the Disciplinary Committee and its decisions."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from .decision import PERCENT


class Measure(models.Model):
    """A measure the director takes against a player (or a pair) at an event."""

    class Kind(models.TextChoices):
        WARNING = "warning", _("warning")
        POINT_DEDUCTION = "deduction", _("point deduction")
        SESSION_EXCLUSION = "session_excl", _("exclusion from the session")
        EVENT_EXCLUSION = "event_excl", _("exclusion from the event")
        REFERRAL = "referral", _("referred to the Appeals Committee")
        REPORT = "report", _("reported to the Disciplinary Committee")

    class Status(models.TextChoices):
        IN_FORCE = "in_force", _("in force")
        AWAITING_CONSENT = "awaiting", _("waiting for the committee's consent")
        REFUSED = "refused", _("refused by the committee")

    # VSz 23: the director may exclude from a session alone, from the event only with the committee.
    NEEDS_CONSENT = (Kind.EVENT_EXCLUSION,)

    event = models.ForeignKey(
        "tournaments.Event",
        on_delete=models.PROTECT,
        related_name="discipline_measures",
        verbose_name=_("event"),
    )
    session = models.ForeignKey(
        "tournaments.Session", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    person = models.ForeignKey(
        "federation.Person",
        on_delete=models.PROTECT,
        related_name="discipline_measures",
        verbose_name=_("player concerned"),
    )
    kind = models.CharField(_("measure"), max_length=12, choices=Kind.choices)
    percent = models.DecimalField(
        _("deduction (percent of the top)"),
        max_digits=5,
        decimal_places=2,
        null=True,
        blank=True,
        validators=PERCENT,
    )
    points = models.PositiveSmallIntegerField(
        _("deduction (table points)"), null=True, blank=True, help_text=_("Ulti: table points deducted.")
    )
    reason = models.TextField(_("reason"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.IN_FORCE)
    taken_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    taken_at = models.DateTimeField(default=timezone.now)
    consent_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    consent_at = models.DateTimeField(null=True, blank=True)
    # A point deduction in force is applied to the results as a new version (VSz 23, 32).
    effect = models.CharField(_("result version"), max_length=200, blank=True)

    class Meta:
        ordering = ["-taken_at", "-pk"]
        verbose_name = _("disciplinary measure")
        verbose_name_plural = _("disciplinary measures")

    def __str__(self):
        return f"{self.person}: {self.get_kind_display()}"


class DisciplinaryReport(models.Model):
    """A case sent to the federation's Disciplinary Committee (Fegyelmi Bizottság)."""

    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("case", "open")
        DECIDED = "decided", _("decided")

    federation = models.ForeignKey("federation.Federation", on_delete=models.PROTECT, related_name="+")
    event = models.ForeignKey(
        "tournaments.Event",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="discipline_reports",
    )
    measure = models.OneToOneField(
        Measure, on_delete=models.PROTECT, null=True, blank=True, related_name="report"
    )
    # A bridge pair excluded from the whole event (VSz 23) is reported at once: one case per player, each
    # naming the exclusion (its pair, session, reason and the Appeals Committee's consent).
    bridge_exclusion = models.ForeignKey(
        "bridge.Exclusion",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="discipline_reports",
        verbose_name=_("exclusion from the event"),
    )
    person = models.ForeignKey(
        "federation.Person",
        on_delete=models.PROTECT,
        related_name="discipline_reports",
        verbose_name=_("player concerned"),
    )
    text = models.TextField(_("report"))
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.OPEN)
    reported_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    reported_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-reported_at", "-pk"]
        verbose_name = _("disciplinary report")
        verbose_name_plural = _("disciplinary reports")

    def __str__(self):
        return f"{self.person} ({self.reported_at:%Y-%m-%d})"


class DisciplinaryDecision(models.Model):
    """The Disciplinary Committee's decision; a suspension of playing rights becomes a federation Suspension."""

    class Outcome(models.TextChoices):
        NO_ACTION = "none", _("no further measure")
        WARNING = "warning", _("warning")
        SUSPENSION = "suspension", _("suspension of playing rights")

    report = models.OneToOneField(DisciplinaryReport, on_delete=models.PROTECT, related_name="decision")
    outcome = models.CharField(_("decision"), max_length=10, choices=Outcome.choices)
    text = models.TextField(_("decision text"))
    suspension = models.OneToOneField(
        "federation.Suspension", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(default=timezone.now)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("disciplinary decision")
        verbose_name_plural = _("disciplinary decisions")

    def __str__(self):
        return f"{self.report_id}: {self.get_outcome_display()}"
