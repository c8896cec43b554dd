"""What the director records on the day: the event started, a session ended, a player intends to appeal."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class EventStart(models.Model):
    """The director started the event; tournaments has no started flag of its own, only session times."""

    event = models.OneToOneField("tournaments.Event", on_delete=models.CASCADE, related_name="appeals_start")
    started_at = models.DateTimeField(_("started at"), default=timezone.now)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = _("event start")
        verbose_name_plural = _("event starts")

    def __str__(self):
        return f"{self.event_id} {self.started_at:%Y-%m-%d %H:%M}"


class SessionEnd(models.Model):
    """When a session ended; the appeal deadline runs from here (tournaments sessions only have a start)."""

    session = models.OneToOneField(
        "tournaments.Session", on_delete=models.CASCADE, related_name="appeals_end"
    )
    ended_at = models.DateTimeField(_("ended at"), default=timezone.now)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = _("session end")
        verbose_name_plural = _("session ends")

    def __str__(self):
        return f"{self.session_id} {self.ended_at:%Y-%m-%d %H:%M}"

    @property
    def event_id(self):
        return self.session.event_id


class Intention(models.Model):
    """The intention to appeal, told to the director before the session ended (VSz 22).

    Either the director ticks it or a player of the entry declares it online; both rows are kept.
    """

    class Source(models.TextChoices):
        DIRECTOR = "director", _("recorded by the director")
        APPELLANT = "appellant", _("declared by the player")

    session = models.ForeignKey("tournaments.Session", on_delete=models.CASCADE, related_name="+")
    entry = models.ForeignKey(
        "tournaments.Entry",
        on_delete=models.CASCADE,
        related_name="appeal_intentions",
        verbose_name=_("entry"),
    )
    board_number = models.PositiveSmallIntegerField(_("board"), null=True, blank=True)
    note = models.CharField(_("note"), max_length=300, blank=True)
    source = models.CharField(_("source"), max_length=10, choices=Source.choices)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(_("recorded at"), default=timezone.now)

    class Meta:
        ordering = ["recorded_at", "pk"]
        verbose_name = _("intention to appeal")
        verbose_name_plural = _("intentions to appeal")

    def __str__(self):
        return f"{self.entry_id} @ {self.session_id} ({self.source})"

    @property
    def event_id(self):
        return self.entry.event_id
