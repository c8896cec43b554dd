"""Masterpoint ledger, award schemes, prize payments, ulti ratings, materialised lists and NUB seasons.

The ledger (``Award`` rows grouped in ``AwardVersion``s) is the one source every list is derived from:
re-awarding an event writes a new version and marks the older one superseded, never deleting or changing
an amount. ``ListEntry`` rows are materialised by Celery and stamped (``ListStamp``) with the data version
they reflect; pages never compute a list per request.
"""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from federation.models import Club, Federation, Person, Region

from .engine import awards as award_engine


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


# --- Ulti rating -----------------------------------------------------------------------------------------


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


# --- Materialised lists -----------------------------------------------------------------------------------


class ListKind(models.TextChoices):
    ANNUAL = "annual", _("annual masterpoint list")
    ALLTIME = "alltime", _("all-time masterpoint list")
    RATING = "rating", _("rating list")


class ListStamp(models.Model):
    """Which data version a stored list reflects; stale while below ``needs_version``."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=8, choices=ListKind.choices)
    year = models.PositiveSmallIntegerField(default=0)  # 0: all-time and rating lists
    data_version = models.BigIntegerField(default=-1)
    needs_version = models.BigIntegerField(default=0)
    licence_year = models.PositiveSmallIntegerField(null=True, blank=True)  # the year licences were checked
    computed_at = models.DateTimeField(null=True, blank=True)
    rows = models.PositiveIntegerField(default=0)
    counts = models.JSONField(default=dict)  # rows per category: all, junior, senior, open, women

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["federation", "kind", "year"], name="unique_list_stamp")
        ]
        verbose_name = _("list stamp")
        verbose_name_plural = _("list stamps")

    def __str__(self):
        return f"{self.federation_id} {self.kind} {self.year}: {self.data_version}"

    @property
    def is_stale(self):
        return self.data_version < self.needs_version


class ListEntry(models.Model):
    """One row of a stored list, rebuilt as a whole by Celery (never computed per request)."""

    federation = models.ForeignKey(
        Federation, on_delete=models.DO_NOTHING, db_constraint=False, db_index=False, related_name="+"
    )
    kind = models.CharField(max_length=8, choices=ListKind.choices)
    year = models.PositiveSmallIntegerField(default=0)
    position = models.PositiveIntegerField()
    place_from = models.PositiveIntegerField()
    place_to = models.PositiveIntegerField()
    age_position = models.PositiveIntegerField()  # display order within the age category
    age_place_from = models.PositiveIntegerField()
    age_place_to = models.PositiveIntegerField()
    women_position = models.PositiveIntegerField(null=True)
    women_place_from = models.PositiveIntegerField(null=True)
    women_place_to = models.PositiveIntegerField(null=True)
    person = models.ForeignKey(
        Person, on_delete=models.DO_NOTHING, db_constraint=False, db_index=False, related_name="+"
    )
    name = models.CharField(max_length=201)
    search_key = models.CharField(max_length=240)
    member_number = models.CharField(max_length=20, blank=True)
    club = models.ForeignKey(
        Club, on_delete=models.DO_NOTHING, db_constraint=False, db_index=False, null=True, related_name="+"
    )
    club_name = models.CharField(max_length=200, blank=True)
    region = models.ForeignKey(
        Region, on_delete=models.DO_NOTHING, db_constraint=False, db_index=False, null=True, related_name="+"
    )
    age_category = models.CharField(max_length=6)  # junior / senior / open
    is_female = models.BooleanField()
    total = models.DecimalField(max_digits=12, decimal_places=2)  # masterpoints, or the rating
    events = models.PositiveIntegerField()  # events (masterpoints) or rated tables (rating)
    provisional = models.BooleanField(default=False)
    qualification = models.CharField(max_length=20, blank=True)
    data_version = models.BigIntegerField()

    class Meta:
        ordering = ["position"]
        indexes = [
            models.Index(fields=["federation", "kind", "year", "position"], name="list_pos_idx"),
            models.Index(fields=["federation", "kind", "year", "club", "position"], name="list_club_idx"),
            models.Index(
                fields=["federation", "kind", "year", "age_category", "age_position"], name="list_age_idx"
            ),
            models.Index(
                fields=["federation", "kind", "year", "is_female", "women_position"], name="list_women_idx"
            ),
            # Search: a trigram GIN index on search_key on PostgreSQL (migration 0002).
            models.Index(fields=["person", "federation", "kind"], name="list_person_idx"),
        ]
        verbose_name = _("list entry")
        verbose_name_plural = _("list entries")

    def __str__(self):
        return f"{self.kind} {self.year} {self.position}. {self.name}"


# --- National Ulti Championship -------------------------------------------------------------------------


class Season(models.Model):
    """A NUB season: both regions' qualifiers, two semifinal rounds and the final."""

    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="nub_seasons")
    year = models.PositiveSmallIntegerField(_("year"))
    best_of = models.PositiveSmallIntegerField(_("results counted"), default=3)
    min_attended = models.PositiveSmallIntegerField(_("qualifiers needed"), default=3)
    qualifiers_per_region = models.PositiveSmallIntegerField(_("qualifiers per region"), default=5)
    semifinal_places = models.PositiveSmallIntegerField(_("semifinal places"), default=60)
    final_places = models.PositiveSmallIntegerField(_("final places"), default=21)
    team_final_places = models.PositiveSmallIntegerField(_("team final places"), default=15)
    team_per_region = models.PositiveSmallIntegerField(_("team final places per region"), default=7)
    sport_ulti_from_list = models.PositiveSmallIntegerField(
        _("sport ulti invitations from last year's list"), default=21
    )
    sport_ulti_open_places = models.PositiveSmallIntegerField(_("sport ulti open places"), default=9)
    semifinal_deadline = models.DateTimeField(_("semifinal confirmation deadline"), null=True, blank=True)
    final_deadline = models.DateTimeField(_("final confirmation deadline"), null=True, blank=True)
    replacement_days = models.PositiveSmallIntegerField(_("days a replacement has to confirm"), default=3)
    computed_at = models.DateTimeField(null=True, blank=True)
    computed_version = models.BigIntegerField(default=0)

    class Meta:
        ordering = ["-year"]
        constraints = [models.UniqueConstraint(fields=["federation", "year"], name="one_season_per_year")]
        verbose_name = _("NUB season")
        verbose_name_plural = _("NUB seasons")

    def __str__(self):
        return f"{self.federation} NUB {self.year}"


class Stage(models.TextChoices):
    QUALIFIER = "qualifier", _("qualifiers")
    SEMIFINAL = "semifinal", _("semifinal")
    FINAL = "final", _("final")
    SPORT_ULTI = "sport_ulti", _("sport ulti")


class SeasonEntry(models.Model):
    """A stored row of a season table (qualifiers or semifinal), or a sport ulti invitation."""

    QUALIFIED, RESERVE, INELIGIBLE, INVITED = "qualified", "reserve", "ineligible", "invited"
    STATUSES = [
        (QUALIFIED, _("qualified")),
        (RESERVE, _("reserve list")),
        (INELIGIBLE, _("not eligible")),
        (INVITED, _("invited")),
    ]

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="entries")
    stage = models.CharField(max_length=12, choices=Stage.choices)
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="+")
    name = models.CharField(max_length=201)
    region = models.ForeignKey(Region, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    attended = models.PositiveSmallIntegerField(default=0)
    points = models.DecimalField(max_digits=10, decimal_places=2, default=0)
    forint = models.BigIntegerField(default=0)
    eligible = models.BooleanField(default=True)
    position = models.PositiveIntegerField(null=True)
    place_from = models.PositiveIntegerField(null=True)
    place_to = models.PositiveIntegerField(null=True)
    status = models.CharField(max_length=12, choices=STATUSES)
    reserve_position = models.PositiveIntegerField(null=True)
    note = models.CharField(max_length=20, blank=True)  # sport ulti: why invited (list / final)
    results = models.JSONField(default=list)  # [{event_id, number, region, points, forint, counted}]

    class Meta:
        ordering = ["season", "stage", "eligible", "position", "name"]
        verbose_name = _("season table row")
        verbose_name_plural = _("season table rows")

    def __str__(self):
        return f"{self.season} {self.stage} {self.position}. {self.name}"

    @property
    def place(self):
        if self.place_from is None:
            return ""
        return (
            str(self.place_from) if self.place_from == self.place_to else f"{self.place_from}-{self.place_to}"
        )


class SeasonTeamEntry(models.Model):
    """A team of the team championship's regional events: finalist or on its region's reserve list."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="team_entries")
    region = models.ForeignKey(Region, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    region_name = models.CharField(max_length=100, blank=True)
    entry_key = models.CharField(max_length=64)
    name = models.CharField(max_length=200)
    players = models.CharField(max_length=400, blank=True)
    points = models.DecimalField(max_digits=10, decimal_places=2, default=0)
    forint = models.BigIntegerField(default=0)
    region_place_from = models.PositiveIntegerField()
    region_place_to = models.PositiveIntegerField()
    status = models.CharField(max_length=10)  # finalist / reserve
    via = models.CharField(max_length=10, blank=True)  # region / extra
    reserve_position = models.PositiveIntegerField(null=True)

    class Meta:
        ordering = ["season", "region_name", "region_place_from", "name"]
        verbose_name = _("team championship row")
        verbose_name_plural = _("team championship rows")

    def __str__(self):
        return f"{self.season} {self.region_name} {self.name}"


class Qualification(models.Model):
    """An invitation to the semifinal or the final, waiting for the player's confirmation."""

    INVITED, CONFIRMED, DECLINED, EXPIRED = "invited", "confirmed", "declined", "expired"
    STATUSES = [
        (INVITED, _("waiting for confirmation")),
        (CONFIRMED, _("confirmed")),
        (DECLINED, _("declined")),
        (EXPIRED, _("deadline missed")),
    ]
    TABLE, RESERVE = "table", "reserve"
    VIA = [(TABLE, _("by the table")), (RESERVE, _("from the reserve list"))]

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="qualifications")
    stage = models.CharField(max_length=12, choices=Stage.choices)  # the stage the player is invited to
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="nub_qualifications")
    rank = models.PositiveIntegerField(_("position in the table"))
    via = models.CharField(max_length=8, choices=VIA, default=TABLE)
    status = models.CharField(_("status"), max_length=10, choices=STATUSES, default=INVITED)
    invited_at = models.DateTimeField(default=timezone.now)
    deadline = models.DateTimeField(_("confirm by"))
    responded_at = models.DateTimeField(null=True, blank=True)
    replaces = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="replaced_by"
    )

    class Meta:
        ordering = ["season", "stage", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["season", "stage", "person"], name="one_invitation_per_stage")
        ]
        verbose_name = _("qualification")
        verbose_name_plural = _("qualifications")

    def __str__(self):
        return f"{self.season} {self.stage}: {self.person}"
