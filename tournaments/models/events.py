"""Events of the calendar (VSz 4): the announcement, its sessions, divisions, history and region notices."""

import datetime

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator, RegexValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from federation.engine.text import search_key
from federation.immutable import AppendOnly
from federation.models import Club, Federation, Person, Region

from .. import scoring_programs
from ..engine import eligibility, fees, formats
from ..session_starts import refusal


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
        PROPOSED = "proposed", _("proposed")
        APPROVED = "approved", _("approved")
        CANCELLED = "cancelled", _("cancelled")

    class EventClass(models.TextChoices):
        # MBSz VSz 2
        NATIONAL = "national", _("national or international event")
        CHAMPIONSHIP = "championship", _("championship")
        ANNOUNCED = "announced", _("masterpoint event announced to the federation")
        REGIONAL = "regional", _("regional championship")
        CLUB = "club", _("club masterpoint event")
        SELECTION = "selection", _("selection match")
        # MAUSZ II-V
        NUB_QUALIFIER = "nub_qualifier", _("NUB qualifier")
        NUB_SEMIFINAL = "nub_semifinal", _("NUB semifinal")
        NUB_FINAL = "nub_final", _("NUB final")
        RATING = "rating", _("rating tournament")
        TEAM_REGIONAL = "team_regional", _("team championship, regional event")
        TEAM_FINAL = "team_final", _("team championship, final")
        SPORT_ULTI = "sport_ulti", _("sport ulti championship")

    class Gender(models.TextChoices):
        OPEN = "open", _("open")
        WOMEN = "women", _("women")
        MEN = "men", _("men")
        MIXED = "mixed", _("mixed pairs")

    class Age(models.TextChoices):
        OPEN = "open", _("open")
        JUNIOR = "junior", _("juniors")
        SENIOR = "senior", _("seniors")

    BRIDGE_FORMATS = (Format.INDIVIDUAL, Format.PAIRS, Format.TEAMS)
    ULTI_FORMATS = (Format.ULTI_INDIVIDUAL, Format.ULTI_TEAM, Format.SPORT_ULTI)
    BRIDGE_CLASSES = (
        EventClass.NATIONAL,
        EventClass.CHAMPIONSHIP,
        EventClass.ANNOUNCED,
        EventClass.REGIONAL,
        EventClass.CLUB,
        EventClass.SELECTION,
    )
    ULTI_CLASSES = (
        EventClass.NUB_QUALIFIER,
        EventClass.NUB_SEMIFINAL,
        EventClass.NUB_FINAL,
        EventClass.RATING,
        EventClass.TEAM_REGIONAL,
        EventClass.TEAM_FINAL,
        EventClass.SPORT_ULTI,
    )
    # Statuses the public sees in the calendar (a cancelled event stays visible once it was published).
    PUBLIC_STATUSES = (Status.APPROVED, Status.PROPOSED)

    federation = models.ForeignKey(
        Federation, on_delete=models.PROTECT, related_name="events", verbose_name=_("federation")
    )
    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, null=True, blank=True, related_name="events", verbose_name=_("club")
    )
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

    # Calendar place
    event_class = models.CharField(_("event class"), max_length=20, choices=EventClass.choices, blank=True)
    in_federation_calendar = models.BooleanField(_("in the federation calendar"), default=True)
    region = models.ForeignKey(
        Region,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="events",
        verbose_name=_("region"),
        help_text=_("Ulti regional events: players of other regions need a recorded notice."),
    )
    season = models.PositiveSmallIntegerField(
        _("season"), null=True, blank=True, help_text=_("Empty: the year of the start date.")
    )
    qualifier_number = models.PositiveSmallIntegerField(
        _("round of the series"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text=_("NUB: the number of the qualifier (1-5) or of the semifinal (1-2) in the season."),
    )
    published_at = models.DateTimeField(_("published"), null=True, blank=True, editable=False)

    # The announcement (VSz 4)
    movement = models.CharField(_("movement / structure"), max_length=200, blank=True)
    boards = models.PositiveSmallIntegerField(_("number of boards or deals"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    venue_address = models.CharField(_("venue address"), max_length=200, blank=True)
    organiser_name = models.CharField(_("organiser"), max_length=200, blank=True)
    organiser_address = models.CharField(_("organiser's address"), max_length=200, blank=True)
    organiser_phone = models.CharField(_("organiser's phone"), max_length=40, blank=True)
    director_name = models.CharField(_("tournament director"), max_length=200, blank=True)
    # The pick from the federation's register (VSz 9); its person's account holds the event's director role
    # (tournaments.services.directors). director_name follows it; older events have the name alone.
    director = models.ForeignKey(
        "federation.QualifiedDirector",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="events",
        verbose_name=_("tournament director (register)"),
    )
    entry_fee = models.PositiveIntegerField(
        _("entry fee (Ft per player)"), default=0, help_text=_("Integer forints per player.")
    )
    junior_entry_fee = models.PositiveIntegerField(
        _("junior entry fee (Ft per player)"),
        null=True,
        blank=True,
        help_text=_("Empty: no junior discount (VSz 7)."),
    )
    meal_fee = models.PositiveIntegerField(_("meal cost (Ft per player)"), default=0)
    meal_compulsory = models.BooleanField(
        _("meals are compulsory"), default=False, help_text=_("Charged to every player with the fee (VSz 7).")
    )
    lodging = models.TextField(_("lodging and its cost"), blank=True)
    entry_deadline = models.DateTimeField(_("entry deadline"), null=True, blank=True)
    masterpoint_multiplier = models.DecimalField(
        _("masterpoint multiplier"), max_digits=4, decimal_places=2, null=True, blank=True
    )
    scoring_program = models.CharField(
        _("scoring program"),
        max_length=100,
        blank=True,
        help_text=_(
            "The program that scores the event (VSz 26: for a masterpoint event, one the federation has "
            "tested). Empty: the portal scores it."
        ),
    )
    earns_rating = models.BooleanField(_("earns rating (értékszám)"), default=False)
    prizes = models.TextField(_("prizes"), blank=True)
    notes = models.TextField(_("other information"), blank=True)
    rule_set = models.CharField(
        _("rule set"),
        max_length=40,
        blank=True,
        validators=[RegexValidator(r"^[a-z0-9][a-z0-9_-]*$", _("Lower-case letters, digits, - and _."))],
        help_text=_('Ulti: "mausz", "szolnok" or the key of a club\'s rule set.'),
    )

    # Who may enter (VSz 2-3, 6; MAUSZ 9, 12)
    members_only = models.BooleanField(_("members only"), default=False)
    citizens_only = models.BooleanField(_("Hungarian citizens only"), default=False)
    residency_required = models.BooleanField(
        _("foreign players must live in Hungary"),
        default=False,
        help_text=_("Budapest championships, National Pairs and Cups (VSz 2)."),
    )
    gender_restriction = models.CharField(
        _("gender restriction"), max_length=10, choices=Gender.choices, default=Gender.OPEN
    )
    age_restriction = models.CharField(
        _("age restriction"), max_length=10, choices=Age.choices, default=Age.OPEN
    )
    licence_required = models.BooleanField(
        _("ulti licence required"),
        default=False,
        help_text=_("Sport ulti and NUB from the third qualifier require it anyway."),
    )
    capacity = models.PositiveIntegerField(
        _("capacity (entries)"), null=True, blank=True, help_text=_("Empty: unlimited.")
    )

    # Appeals (VSz 9, 22): used by the appeals pages.
    appeal_deadline_minutes = models.PositiveIntegerField(
        _("appeal deadline (minutes after the session)"), default=30
    )
    appeal_deposit = models.PositiveIntegerField(_("appeal deposit (Ft)"), default=0)
    # The title and venue folded by federation.engine.text.search_key on every save (the search's column).
    search_title = models.CharField(max_length=420, blank=True, editable=False)

    class Meta:
        ordering = ["start_date", "title"]
        indexes = [models.Index(fields=["federation", "status", "start_date"])]
        verbose_name = _("event")
        verbose_name_plural = _("events")

    def __str__(self):
        return f"{self.title} ({self.start_date:%Y-%m-%d})"

    def save(self, *args, **kwargs):
        self.search_title = search_key(f"{self.title} {self.venue}")
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], "search_title"}
        super().save(*args, **kwargs)

    def clean(self):
        errors = {}
        game = self.federation.game if self.federation_id else None
        if game == Federation.BRIDGE:
            if self.format and self.format not in self.BRIDGE_FORMATS:
                errors["format"] = _("This format is not a bridge format.")
            if self.event_class and self.event_class not in self.BRIDGE_CLASSES:
                errors["event_class"] = _("This event class belongs to ulti.")
            if self.masterpoint_multiplier and self.scoring_program:
                problem = scoring_programs.problem(self.federation_id, self.scoring_program)
                if problem:
                    errors["scoring_program"] = problem
        elif game == Federation.ULTI:
            if self.format and self.format not in self.ULTI_FORMATS:
                errors["format"] = _("This format is not an ulti format.")
            if self.event_class and self.event_class not in self.ULTI_CLASSES:
                errors["event_class"] = _("This event class belongs to bridge.")
            expected = formats.FORMAT_OF_ULTI_CLASS.get(self.event_class)
            if expected and self.format and self.format != expected:
                errors["format"] = _("A %(cls)s is played in the %(fmt)s format.") % {
                    "cls": self.get_event_class_display(),
                    "fmt": Event.Format(expected).label,
                }
            if self.masterpoint_multiplier is not None:
                errors["masterpoint_multiplier"] = _("Ulti events earn rating, not masterpoints.")
        if self.club_id and self.federation_id and self.club.federation_id != self.federation_id:
            errors["club"] = _("The club belongs to another federation.")
        if self.region_id and self.federation_id and self.region.federation_id != self.federation_id:
            errors["region"] = _("The region belongs to another federation.")
        if self.end_date and self.start_date and self.end_date < self.start_date:
            errors["end_date"] = _("The end date is before the start date.")
        if self.entry_deadline and self.start_date:
            if timezone.localdate(self.entry_deadline) > self.last_day:
                errors["entry_deadline"] = _("The entry deadline is after the event.")
        if self.event_class == self.EventClass.RATING and self.entry_fee < fees.RATING_LEVY:
            errors["entry_fee"] = _(
                "A rating tournament's fee must cover the %(levy)s Ft federation levy."
            ) % {"levy": fees.RATING_LEVY}
        if errors:
            raise ValidationError(errors)

    @property
    def last_day(self) -> datetime.date:
        return self.end_date or self.start_date

    @property
    def season_year(self) -> int:
        return self.season or self.start_date.year

    @property
    def is_public(self) -> bool:
        return self.status in self.PUBLIC_STATUSES or (
            self.status == self.Status.CANCELLED and self.published_at is not None
        )

    @property
    def needs_licence(self) -> bool:
        return eligibility.licence_required(
            self.format, self.event_class, self.qualifier_number, self.licence_required
        )

    @property
    def shape(self) -> formats.Shape:
        return formats.shape_of(self.format)

    def first_session_start(self):
        # Reads the prefetched sessions when the caller has them.
        return min((s.starts_at for s in self.sessions.all()), default=None)

    def play_started(self, now=None) -> bool:
        """Play has started once the first session began (or the start date arrived, without sessions)."""
        now = now or timezone.now()
        first = self.first_session_start()
        if first is not None:
            return first <= now
        return self.start_date <= timezone.localdate(now)

    def has_results(self) -> bool:
        """Any result uploaded for the event (a game app's recompute state has a version)."""
        return self.recompute_states.filter(latest_version__gt=0).exists()

    def has_started(self, now=None) -> bool:
        """Play is under way or over: the first session began, or results exist already. From then on an
        entry is not withdrawn by its players but recorded as a no-show or a withdrawal during play
        (VSz 7, 25), and no waiting entry moves into the field."""
        return self.play_started(now) or self.has_results()

    def deadline_passed(self, now=None) -> bool:
        return self.entry_deadline is not None and (now or timezone.now()) > self.entry_deadline

    def is_open_for_entry(self, now=None) -> bool:
        return (
            self.status == self.Status.APPROVED
            and not self.deadline_passed(now)
            and not self.play_started(now)
        )

    def active_entries(self):
        return self.entries.filter(status=self.entries.model.Status.ACTIVE)

    @property
    def scoring_program_shown(self) -> str:
        """The program named, or the portal when none is (the portal scores the event)."""
        return self.scoring_program or scoring_programs.PORTAL

    def waiting_entries(self):
        return self.entries.filter(status=self.entries.model.Status.WAITING).order_by("waiting_since", "pk")

    def places_left(self):
        if self.capacity is None:
            return None
        return max(0, self.capacity - self.active_entries().count())


def public_events_q(prefix=""):
    """Events the public sees: approved and proposed ones, and cancelled ones that had been published."""
    return Q(**{f"{prefix}status__in": Event.PUBLIC_STATUSES}) | Q(
        **{f"{prefix}status": Event.Status.CANCELLED, f"{prefix}published_at__isnull": False}
    )


class Session(models.Model):
    """A session (bridge) or round (ulti) with its announced start time."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="sessions")
    name = models.CharField(_("name"), max_length=100, blank=True)
    starts_at = models.DateTimeField(_("starts at"))

    class Meta:
        ordering = ["starts_at"]
        verbose_name = _("session")
        verbose_name_plural = _("sessions")

    def __str__(self):
        return self.name or f"{timezone.localtime(self.starts_at):%Y-%m-%d %H:%M}"

    def save(self, *args, **kwargs):
        # The last net behind the form and workflow checks: a sealed session's start never moves back.
        reason = refusal(self, self.starts_at)
        if reason:
            raise ValidationError({"starts_at": reason})
        super().save(*args, **kwargs)

    def clean(self):
        reason = refusal(self, self.starts_at)
        if reason:
            raise ValidationError({"starts_at": reason})


class Division(models.Model):
    """A strength group (csoport, VSz 5) the players choose on entry."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="divisions")
    name = models.CharField(_("name"), max_length=100)
    order = models.PositiveSmallIntegerField(_("order"), default=0)

    class Meta:
        ordering = ["order", "name"]
        constraints = [models.UniqueConstraint(fields=["event", "name"], name="unique_division_name")]
        verbose_name = _("division")
        verbose_name_plural = _("divisions")

    def __str__(self):
        return self.name


class EventChange(AppendOnly):
    """One step of an event's history: who did what, when and why. Never changed or deleted."""

    class Action(models.TextChoices):
        CREATED = "created", _("created")
        EDITED = "edited", _("edited")
        SUBMITTED = "submitted", _("submitted")
        PROPOSED = "proposed", _("included in the proposed calendar")
        APPROVED = "approved", _("approved")
        RETURNED = "returned", _("returned")
        MOVED = "moved", _("date moved")
        CANCELLED = "cancelled", _("cancelled")
        DIRECTOR = "director", _("director assigned")
        RELEASED = "released", _("director released")
        RESTORED = "restored", _("director given back")

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(_("when"), default=timezone.now)
    action = models.CharField(_("action"), max_length=12, choices=Action.choices)
    status_before = models.CharField(_("status before"), max_length=12, blank=True)
    status_after = models.CharField(_("status after"), max_length=12, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    details = models.JSONField(_("what changed"), default=dict, blank=True)

    class Meta:
        ordering = ["at", "pk"]
        verbose_name = _("event change")
        verbose_name_plural = _("event changes")

    def __str__(self):
        return f"{self.event_id} {self.action} {self.at:%Y-%m-%d %H:%M}"


class RegionNotice(models.Model):
    """A player's notice that he plays a season in another region than his club's (MAUSZ 9 (2))."""

    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="region_notices")
    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="+")
    region = models.ForeignKey(Region, on_delete=models.PROTECT, related_name="+", verbose_name=_("region"))
    season = models.PositiveSmallIntegerField(_("season"))
    note = models.TextField(_("note"), blank=True)
    board_consent = models.BooleanField(
        _("board consent"),
        default=False,
        help_text=_("Needed when switching after playing in another region."),
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-season", "person"]
        constraints = [
            models.UniqueConstraint(
                fields=["person", "federation", "season"], name="one_region_notice_per_season"
            )
        ]
        verbose_name = _("region notice")
        verbose_name_plural = _("region notices")

    def __str__(self):
        return f"{self.person} → {self.region} ({self.season})"

    def clean(self):
        if self.region_id and self.federation_id and self.region.federation_id != self.federation_id:
            raise ValidationError({"region": _("The region belongs to another federation.")})
