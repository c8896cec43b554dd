"""The National Ulti Championship (NUB) season: its tables, the team final and the qualifications."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from federation.models import Federation, Person, Region


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

    QUALIFIED, RESERVE, INELIGIBLE, INVITED, TIED = "qualified", "reserve", "ineligible", "invited", "tied"
    STATUSES = [
        (QUALIFIED, _("qualified")),
        (RESERVE, _("reserve list")),
        (INELIGIBLE, _("not eligible")),
        (INVITED, _("invited")),
        (TIED, _("tied at the cut line")),
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


class SeasonTieChoice(models.Model):
    """The staff's choice at a tie on a cut line (II. 10. (5)): players equal on points and forint share the
    place the cut goes through and only some of them fit; the rule book names no tie-break, so the staff
    choose who goes on. Never changed: a new choice is a new row, the latest for the table applies, and only
    while the tie is the one it was made for (the same players, the same seats)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="tie_choices")
    stage = models.CharField(max_length=12, choices=Stage.choices)  # the table: qualifier or semifinal
    person_ids = models.JSONField(_("players chosen"), default=list)
    reason = models.TextField(_("how the tie was resolved"))
    chosen_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    chosen_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["season", "stage", "-chosen_at", "-pk"]
        verbose_name = _("choice at a tie on the cut line")
        verbose_name_plural = _("choices at ties on the cut line")

    def __str__(self):
        return f"{self.season} {self.stage}: {self.person_ids}"
