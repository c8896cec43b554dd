"""Who actually played: substitutes (with the boards they played) and withdrawn pairs (VSz 25)."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Substitution(models.Model):
    """A substitute approved by the director played these boards of this session instead of `original`."""

    session = models.ForeignKey("bridge.PairSession", on_delete=models.PROTECT, related_name="substitutions")
    pair = models.ForeignKey("bridge.Pair", on_delete=models.PROTECT, related_name="substitutions")
    original = models.ForeignKey("federation.Person", on_delete=models.PROTECT, related_name="+")
    substitute = models.ForeignKey("federation.Person", on_delete=models.PROTECT, related_name="+")
    boards = models.JSONField(_("boards played by the substitute"), default=list)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(default=timezone.now)
    note = models.CharField(_("note"), max_length=300, blank=True)

    class Meta:
        ordering = ["session", "pair", "pk"]
        verbose_name = _("substitution")
        verbose_name_plural = _("substitutions")

    def __str__(self):
        return f"{self.substitute} for {self.original} ({len(self.boards)})"

    @property
    def event(self):
        return self.session.event


class Withdrawal(models.Model):
    """A pair left the event during (or before) `session` and plays no further board (VSz 25)."""

    pair = models.OneToOneField("bridge.Pair", on_delete=models.PROTECT, related_name="withdrawal")
    session = models.ForeignKey("bridge.PairSession", on_delete=models.PROTECT, related_name="withdrawals")
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["session", "pk"]
        verbose_name = _("withdrawal")
        verbose_name_plural = _("withdrawals")

    def __str__(self):
        return f"{self.pair} ({self.session})"

    @property
    def event(self):
        return self.session.event


class Exclusion(models.Model):
    """The director excluded a pair (VSz 23) from a session, a part of it (the boards it no longer plays), or
    the whole event (with the Appeals Committee's consent). Every recompute applies it
    (`engine.scoring.exclusion`), so a re-upload keeps it; the decision versions it wrote stand in each
    session's layers."""

    SESSION, EVENT = "session", "event"
    SCOPES = [(SESSION, _("from the session (or the boards named)")), (EVENT, _("from the whole event"))]

    pair = models.ForeignKey("bridge.Pair", on_delete=models.PROTECT, related_name="exclusions")
    session = models.ForeignKey("bridge.PairSession", on_delete=models.PROTECT, related_name="exclusions")
    scope = models.CharField(_("excluded"), max_length=10, choices=SCOPES)
    boards = models.JSONField(_("boards it no longer plays"), default=list, blank=True)
    reason = models.TextField(_("reason"))
    committee_consent = models.CharField(_("consent of the Appeals Committee"), max_length=300, blank=True)
    versions = models.ManyToManyField("bridge.ResultVersion", related_name="exclusions", blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["session", "pk"]
        verbose_name = _("exclusion")
        verbose_name_plural = _("exclusions")

    def __str__(self):
        return f"{self.pair} ({self.get_scope_display()}, {self.session})"

    @property
    def event(self):
        return self.session.event
