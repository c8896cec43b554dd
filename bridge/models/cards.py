"""Convention cards (VSz 15): what a pair puts on the table, uploaded as a file or filled in as a short form.

Append-only: a pair's current card is its latest; the earlier ones stay, so the director can see what was
on the table when a ruling was asked for.
"""

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from federation.immutable import AppendOnly


def card_path(instance, filename):
    # A random name: the uploader's file name never reaches the file system, only the sniffed extension.
    extension = filename.rsplit(".", 1)[-1]
    return f"bridge/cards/{instance.pair_id}/{uuid.uuid4().hex}.{extension if extension in ('png', 'jpg', 'pdf') else 'bin'}"


class ConventionCard(AppendOnly):
    class CardClass(models.TextChoices):
        # VSz 15: the simplified card at club events and 0-3 masterpoint-multiplier events, the detailed
        # (WBF) card everywhere else.
        SIMPLIFIED = "simplified", _("simplified convention card")
        DETAILED = "detailed", _("detailed convention card")

    pair = models.ForeignKey("bridge.Pair", on_delete=models.PROTECT, related_name="convention_cards")
    card_class = models.CharField(_("card class"), max_length=12, choices=CardClass.choices)
    file = models.FileField(upload_to=card_path, max_length=200, blank=True)
    original_name = models.CharField(_("file name"), max_length=200, blank=True)
    content_type = models.CharField(_("type"), max_length=40, blank=True)
    size = models.PositiveIntegerField(_("size (bytes)"), null=True, blank=True)
    sha256 = models.CharField(max_length=64, blank=True)
    system = models.CharField(_("bidding system"), max_length=100, blank=True)
    notrump_range = models.CharField(_("1NT opening range"), max_length=40, blank=True)
    openings = models.TextField(_("openings"), max_length=1000, blank=True)
    carding = models.CharField(_("signals (carding)"), max_length=200, blank=True)
    leads = models.CharField(_("opening leads"), max_length=200, blank=True)
    notes = models.TextField(_("notes"), max_length=2000, blank=True)
    submitted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    submitted_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["pair", "-pk"]
        verbose_name = _("convention card")
        verbose_name_plural = _("convention cards")

    def __str__(self):
        return f"{self.pair_id}: {self.card_class}"

    @property
    def event(self):
        return self.pair.event
