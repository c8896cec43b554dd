"""The register of qualified tournament directors (VSz 9)."""

import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .organisations import Federation
from .people import Person


class QualifiedDirector(models.Model):
    """One qualification in a federation's register of tournament directors (VSz 9), kept by its staff.

    Renewing moves `valid_until`; revoking stamps `revoked_at`: the row stays, so the audit log and the
    events that named the director keep their record."""

    # The levels in rising order: a level covers every event a lower one does.
    CLUB, NATIONAL, INTERNATIONAL = "club", "national", "international"
    LEVELS = [
        (CLUB, _("club director")),
        (NATIONAL, _("national director")),
        (INTERNATIONAL, _("international director")),
    ]
    RANK = {CLUB: 1, NATIONAL: 2, INTERNATIONAL: 3}

    federation = models.ForeignKey(
        Federation, on_delete=models.PROTECT, related_name="directors", verbose_name=_("federation")
    )
    person = models.ForeignKey(
        Person, on_delete=models.PROTECT, related_name="director_qualifications", verbose_name=_("person")
    )
    level = models.CharField(_("qualification"), max_length=20, choices=LEVELS)
    valid_from = models.DateField(_("valid from"))
    valid_until = models.DateField(_("valid until"))
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    revoke_reason = models.TextField(_("reason of the revocation"), blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["person__last_name", "person__first_name", "-valid_until"]
        verbose_name = _("qualified director")
        verbose_name_plural = _("qualified directors")
        constraints = [
            models.CheckConstraint(
                condition=Q(valid_until__gte=models.F("valid_from")), name="director_valid_range"
            )
        ]

    def __str__(self):
        return f"{self.person} ({self.get_level_display()}, {self.valid_until:%Y.%m.%d.})"

    def covers(self, level: str) -> bool:
        return self.RANK[self.level] >= self.RANK[level]

    def is_valid_on(self, day: datetime.date) -> bool:
        return self.revoked_at is None and self.valid_from <= day <= self.valid_until

    @classmethod
    def valid_q(cls, first_day: datetime.date, last_day: datetime.date | None = None) -> Q:
        """Unrevoked qualifications valid over the whole span (an event's days)."""
        return Q(revoked_at__isnull=True, valid_from__lte=first_day, valid_until__gte=last_day or first_day)
