"""Events of the federations' calendars."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from federation.models import Club, Federation


class Event(models.Model):
    """An event (verseny) announced by a club or the federation."""

    class Format(models.TextChoices):
        INDIVIDUAL = "individual", _("individual")
        PAIRS = "pairs", _("pairs")
        TEAMS = "teams", _("teams")
        ULTI_INDIVIDUAL = "ulti_individual", _("ulti individual")
        ULTI_TEAM = "ulti_team", _("ulti team of three")
        SPORT_ULTI = "sport_ulti", _("sport ulti")

    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        SUBMITTED = "submitted", _("submitted")
        RETURNED = "returned", _("returned")
        APPROVED = "approved", _("approved")
        CANCELLED = "cancelled", _("cancelled")

    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="events")
    club = models.ForeignKey(Club, on_delete=models.PROTECT, null=True, blank=True, related_name="events")
    title = models.CharField(_("title"), max_length=200)
    format = models.CharField(_("format"), max_length=20, choices=Format.choices)
    start_date = models.DateField(_("start date"))
    end_date = models.DateField(_("end date"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.DRAFT)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["start_date", "title"]
        indexes = [models.Index(fields=["federation", "status", "start_date"])]
        verbose_name = _("event")
        verbose_name_plural = _("events")

    def __str__(self):
        return f"{self.title} ({self.start_date:%Y-%m-%d})"
