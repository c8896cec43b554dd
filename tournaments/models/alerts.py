"""Alerts for an event's directors (issue #18): a table disputed a result, in either game."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class DirectorAlert(models.Model):
    """One dispute that calls the event's directors: mailed once (its `key` is unique) and counted in the
    navbar until a director opens the page that handles it (`path`, the control room)."""

    class Game(models.TextChoices):
        BRIDGE = "bridge", _("bridge")
        ULTI = "ulti", _("ulti")

    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="director_alerts")
    key = models.CharField(max_length=80, unique=True)
    game = models.CharField(_("game"), max_length=8, choices=Game.choices)
    table = models.PositiveSmallIntegerField(_("table"))
    round = models.PositiveSmallIntegerField(_("round"))
    board = models.PositiveSmallIntegerField(_("board"), null=True, blank=True)
    note = models.CharField(_("note"), max_length=300, blank=True)
    path = models.CharField(max_length=300)
    created_at = models.DateTimeField(_("raised at"), auto_now_add=True)
    seen_at = models.DateTimeField(_("seen at"), null=True, blank=True)
    seen_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["event", "seen_at"], name="tournaments_alert_open")]
        verbose_name = _("director alert")
        verbose_name_plural = _("director alerts")

    def __str__(self):
        return f"{self.event_id}: {self.key}"
