"""The masterpoint ledger: award schemes, award versions and their rows, prize payments.

The ledger (``Award`` rows grouped in ``AwardVersion``s) is the one source every list is derived from:
re-awarding an event writes a new version and marks the older one superseded, never deleting or changing
an amount.
"""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from federation.models import Federation, Person, Region

from ..engine import awards as award_engine


class Reason(models.TextChoices):
    FINAL = "final", _("results final")
    CORRECTION = "correction", _("result corrected")
    APPEAL = "appeal", _("appeal decision")
    SCHEME = "scheme", _("award scheme changed")
    MANUAL = "manual", _("recomputed by the staff")


class AwardScheme(models.Model):
    """One version of a federation's award scheme. Never edited: a change is a new version."""

    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="award_schemes")
    version = models.PositiveIntegerField(_("version"))
    valid_from = models.DateField(
        _("valid from"), help_text=_("Events on or after this day are awarded by this version.")
    )
    rules = models.JSONField(_("rules"))
    note = models.TextField(_("reason for the change"), blank=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["federation", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["federation", "version"], name="unique_scheme_version")
        ]
        verbose_name = _("award scheme")
        verbose_name_plural = _("award schemes")

    def __str__(self):
        return f"{self.federation} v{self.version}"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise TypeError("Award scheme versions are immutable; create a new version.")
        super().save(*args, **kwargs)

    def clean(self):
        try:
            award_engine.scheme_from_dict(self.rules)
        except award_engine.SchemeError as error:
            raise ValidationError({"rules": str(error)})

    @property
    def scheme(self) -> award_engine.Scheme:
        return award_engine.scheme_from_dict(self.rules)


class RankingState(models.Model):
    """Per federation: the data version (bumped by every change a list depends on) and the lock row."""

    federation = models.OneToOneField(
        Federation, on_delete=models.CASCADE, primary_key=True, related_name="ranking_state"
    )
    data_version = models.BigIntegerField(default=0)

    class Meta:
        verbose_name = _("ranking state")
        verbose_name_plural = _("ranking states")

    def __str__(self):
        return f"{self.federation_id}: {self.data_version}"


class AwardVersion(models.Model):
    """One version of an event's final result as the rankings saw it, and the awards made from it.

    ``snapshot`` keeps the placings (with points, forint and the players' rights) so that a scheme change
    or a season table can be recomputed without asking the game app again.
    """

    event = models.ForeignKey("tournaments.Event", on_delete=models.PROTECT, related_name="award_versions")
    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="+")
    version = models.PositiveIntegerField(_("version"))
    date = models.DateField(_("date"))
    event_class = models.CharField(_("event class"), max_length=20, blank=True)
    field_size = models.PositiveIntegerField(_("field size"))
    multiplier = models.DecimalField(_("masterpoint multiplier"), max_digits=5, decimal_places=2, default=1)
    season = models.PositiveSmallIntegerField(_("season"), null=True, blank=True)
    series_number = models.PositiveSmallIntegerField(_("round of the series"), null=True, blank=True)
    region = models.ForeignKey(Region, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    result_version = models.CharField(_("result version"), max_length=64, blank=True)
    scheme = models.ForeignKey(
        AwardScheme, on_delete=models.PROTECT, null=True, blank=True, related_name="award_versions"
    )
    reason = models.CharField(_("reason"), max_length=12, choices=Reason.choices, default=Reason.FINAL)
    note = models.TextField(_("note"), blank=True)
    snapshot = models.JSONField(default=dict)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    is_current = models.BooleanField(_("current"), default=True)
    superseded_at = models.DateTimeField(_("superseded"), null=True, blank=True)

    class Meta:
        ordering = ["event", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["event", "version"], name="unique_award_version"),
            models.UniqueConstraint(
                fields=["event"], condition=models.Q(is_current=True), name="one_current_award_version"
            ),
        ]
        indexes = [models.Index(fields=["federation", "is_current", "date"])]
        verbose_name = _("award version")
        verbose_name_plural = _("award versions")

    def __str__(self):
        return f"{self.event_id} v{self.version}"

    def placing_of(self, entry_key: str = "", person_id: int | None = None) -> str:
        for p in self.snapshot.get("placings", []):
            if (entry_key and p["entry_key"] == entry_key) or (
                person_id is not None and any(s["person_id"] == person_id for s in p["players"])
            ):
                return p["place"]
        return ""


class Award(models.Model):
    """A ledger row: masterpoints of one player for one event in one version. Never changed or deleted;
    a re-award supersedes it (``is_current`` False) with the rows of a new version."""

    version = models.ForeignKey(AwardVersion, on_delete=models.PROTECT, related_name="awards")
    event = models.ForeignKey("tournaments.Event", on_delete=models.PROTECT, related_name="+")
    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="+")
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="masterpoint_awards")
    year = models.PositiveSmallIntegerField(_("year"))
    date = models.DateField(_("date"))
    amount = models.DecimalField(_("masterpoints"), max_digits=10, decimal_places=2)
    reason = models.CharField(_("reason"), max_length=12, choices=Reason.choices)
    entry_key = models.CharField(max_length=64, blank=True)
    place_from = models.PositiveIntegerField()
    place_to = models.PositiveIntegerField()
    event_class = models.CharField(max_length=20, blank=True)
    is_current = models.BooleanField(default=True)

    class Meta:
        ordering = ["date", "event", "person"]
        indexes = [
            models.Index(fields=["federation", "is_current", "year"], name="award_list_idx"),
            models.Index(fields=["person", "federation", "date"], name="award_person_idx"),
        ]
        verbose_name = _("masterpoint award")
        verbose_name_plural = _("masterpoint awards")

    def __str__(self):
        return f"{self.person_id} {self.event_id} {self.amount}"

    @property
    def place(self):
        return (
            str(self.place_from) if self.place_from == self.place_to else f"{self.place_from}-{self.place_to}"
        )


class PrizePayment(models.Model):
    """A cash prize paid out (VSz 9): re-awarding never changes it; a later result change is recorded."""

    event = models.ForeignKey("tournaments.Event", on_delete=models.PROTECT, related_name="prize_payments")
    entry_key = models.CharField(_("entry"), max_length=64, blank=True)
    person = models.ForeignKey(
        Person, on_delete=models.PROTECT, null=True, blank=True, related_name="prize_payments"
    )
    amount = models.PositiveIntegerField(_("amount (Ft)"))
    place = models.CharField(_("place when paid"), max_length=20, blank=True)
    paid_at = models.DateTimeField(_("paid at"), default=timezone.now)
    note = models.TextField(_("note"), blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["event", "paid_at"]
        verbose_name = _("prize payment")
        verbose_name_plural = _("prize payments")

    def __str__(self):
        return f"{self.event_id}: {self.amount} Ft"

    def clean(self):
        if not self.entry_key and not self.person_id:
            raise ValidationError(_("Name the entry or the person the prize was paid to."))


class PaymentResultChange(models.Model):
    """The result changed after a prize had been paid; the payment itself stays as it was (VSz 9)."""

    payment = models.ForeignKey(PrizePayment, on_delete=models.PROTECT, related_name="result_changes")
    award_version = models.ForeignKey(AwardVersion, on_delete=models.PROTECT, related_name="+")
    old_place = models.CharField(_("place when paid"), max_length=20, blank=True)
    new_place = models.CharField(_("new place"), max_length=20, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at"]
        constraints = [
            models.UniqueConstraint(fields=["payment", "award_version"], name="one_change_record_per_version")
        ]
        verbose_name = _("result change after payment")
        verbose_name_plural = _("result changes after payment")

    def __str__(self):
        return f"{self.payment_id}: {self.old_place} -> {self.new_place}"
