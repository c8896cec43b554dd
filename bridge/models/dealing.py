"""Computer-dealt sets (VSz 21): a secret seed, kept sealed until the session starts."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from federation.immutable import AppendOnly


class DealSet(models.Model):
    """A set of deals for a session. Only the seed is stored (masked with the server key); the deals are
    derived from it, and only once the session has started. The seed hash is unique: a set is never reused.
    """

    session = models.ForeignKey("bridge.PairSession", on_delete=models.PROTECT, related_name="deal_sets")
    boards = models.PositiveSmallIntegerField(_("boards"))
    set_id = models.CharField(_("set"), max_length=80, unique=True)
    sealed_seed = models.CharField(max_length=80, editable=False)
    seed_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["session", "-created_at", "-pk"]
        verbose_name = _("set of deals")
        verbose_name_plural = _("sets of deals")

    def __str__(self):
        return self.set_id

    @property
    def event(self):
        return self.session.event


class SessionStart(AppendOnly):
    """The fact that a session has started, recorded once and never changed or cleared (issue #15).

    Deal secrecy reads this row, never the announced start time, which staff can still move: the first
    results of the session, the director's "start the session" or the beat task seeing the announced start
    pass (on the server's clock at that moment) records it.
    """

    class Source(models.TextChoices):
        RESULTS = "results", _("results uploaded")
        DIRECTOR = "director", _("started by the director")
        CLOCK = "clock", _("announced start passed")

    session = models.OneToOneField(
        "bridge.PairSession",
        on_delete=models.PROTECT,
        related_name="start",
        verbose_name=pgettext_lazy("bridge", "session"),
    )
    at = models.DateTimeField(_("started at"))
    source = models.CharField(_("recorded by"), max_length=10, choices=Source.choices)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = _("session start")
        verbose_name_plural = _("session starts")

    def __str__(self):
        return f"{self.session_id} @ {self.at:%Y-%m-%d %H:%M}"
