"""The psych register (VSz 17): every psychic bid reported to the director, recorded on the "Blöff-lap"."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from federation.immutable import AppendOnly


class PsychRecord(AppendOnly):
    """One psych: the board, the pair (and which of its players), what was bid. Recording it accuses nobody;
    repeated psychs of one pair are what the director looks at (VSz 17 c)."""

    session = models.ForeignKey("bridge.PairSession", on_delete=models.PROTECT, related_name="psychs")
    board = models.PositiveSmallIntegerField(_("board"))
    pair = models.ForeignKey("bridge.Pair", on_delete=models.PROTECT, related_name="psychs")
    player = models.ForeignKey(
        "federation.Person", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    call = models.CharField(_("psychic call"), max_length=40)
    note = models.CharField(_("note"), max_length=500, blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["session", "board", "pk"]
        verbose_name = _("psych")
        verbose_name_plural = _("psychs")

    def __str__(self):
        return f"{self.session_id}/{self.board}: {self.pair_id} {self.call}"

    @property
    def event(self):
        return self.session.event
