"""Ulti rating: the rated tables of each event, every player's rating history and current rating."""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from federation.models import Federation, Person


class RatedEvent(models.Model):
    """An event the rating has seen, with the tables it was rated from (replayed after a correction)."""

    event = models.OneToOneField("tournaments.Event", on_delete=models.PROTECT, related_name="rated_event")
    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="+")
    date = models.DateField()
    result_version = models.CharField(max_length=64, blank=True)
    counted = models.BooleanField(default=True)
    players = models.PositiveIntegerField(default=0)
    tables = models.JSONField(default=list)  # [[{person_id: place}, ...] per round]
    processed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["date", "event"]
        verbose_name = _("rated event")
        verbose_name_plural = _("rated events")

    def __str__(self):
        return f"{self.event_id} ({self.date})"


class RatingHistory(models.Model):
    """A player's rating after one rated event."""

    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="+")
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="rating_history")
    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="+")
    date = models.DateField()
    mu = models.FloatField()
    sigma = models.FloatField()
    display = models.IntegerField(_("rating"))
    tables = models.PositiveIntegerField(_("rated tables"))
    events = models.PositiveIntegerField(_("rated events"))

    class Meta:
        ordering = ["date", "event"]
        constraints = [models.UniqueConstraint(fields=["person", "event"], name="one_rating_per_event")]
        indexes = [models.Index(fields=["federation", "date", "event"])]
        verbose_name = _("rating history")
        verbose_name_plural = _("rating history")

    def __str__(self):
        return f"{self.person_id} {self.date}: {self.display}"


class PlayerRating(models.Model):
    """A player's current live rating (értékszám)."""

    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="+")
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    display = models.IntegerField(_("rating"))
    tables = models.PositiveIntegerField(_("rated tables"), default=0)
    events = models.PositiveIntegerField(_("rated events"), default=0)
    provisional = models.BooleanField(_("provisional"), default=True)
    last_date = models.DateField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-display"]
        constraints = [models.UniqueConstraint(fields=["federation", "person"], name="one_rating_per_player")]
        verbose_name = _("player rating")
        verbose_name_plural = _("player ratings")

    def __str__(self):
        return f"{self.person_id}: {self.display}"
