"""Ulti events as played: stages, groups, rounds of tables, forint results and score sheets.

Results are append-only: every upload of a round (web form, CSV or a saved score sheet) is a new
``RoundUpload`` holding the round's complete results at that moment, so the latest version alone says what
the standings were computed from. ``TableScore``, ``Standing`` and ``TeamStanding`` are materialised by the
recompute task and stamped with the event version (``results.RecomputeState``) they reflect.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from federation.immutable import AppendOnly
from results.models import VersionedUpload
from results.upload_decisions import RecordedDecision
from ulti.engine.rulesets import RuleSet, get_ruleset

SCOPE = "ulti"


class UltiEvent(models.Model):
    """An event's ulti settings: the rule set it is played under (a frozen copy) and the unit's value."""

    event = models.OneToOneField("tournaments.Event", on_delete=models.CASCADE, related_name="ulti")
    rules = models.JSONField(_("rule set"), help_text=_("The rule set as it was when play started."))
    unit_forints = models.PositiveIntegerField(
        _("forint value of one unit"), default=10, help_text=_("Score sheets multiply units by this.")
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("ulti event")
        verbose_name_plural = _("ulti events")

    def __str__(self):
        return str(self.event)

    @property
    def ruleset(self) -> RuleSet:
        try:
            return RuleSet.from_dict(self.rules)
        except (ValueError, TypeError):
            return get_ruleset("mausz")


class Stage(models.Model):
    """Qualifier, semifinal or final of one event; every stage starts from zero (MAUSZ II. 10. (5))."""

    class System(models.TextChoices):
        SWISS = "swiss", _("Swiss pairing")
        ALL_PLAY_ALL = "all_play_all", _("all-play-all")

    class Kind(models.TextChoices):
        MAIN = "main", _("tournament")
        QUALIFIER = "qualifier", _("qualifier")
        FINAL = "final", _("final")

    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="ulti_stages")
    number = models.PositiveSmallIntegerField(_("number"))
    kind = models.CharField(_("stage"), max_length=10, choices=Kind.choices, default=Kind.MAIN)
    name = models.CharField(_("name"), max_length=100, blank=True)
    system = models.CharField(_("pairing system"), max_length=20, choices=System.choices)
    rounds = models.PositiveSmallIntegerField(_("rounds"))
    source = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("qualified from"),
    )
    qualified = models.PositiveSmallIntegerField(_("players qualified"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="ulti_one_stage_number")]
        verbose_name = _("stage")
        verbose_name_plural = _("stages")

    def __str__(self):
        return self.name or str(self.get_kind_display())


class Group(models.Model):
    """Players of one stage who are paired among themselves (sport ulti: several groups on one day)."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="groups")
    name = models.CharField(_("name"), max_length=20, blank=True)
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["stage", "order", "name"]
        constraints = [models.UniqueConstraint(fields=["stage", "name"], name="ulti_one_group_name")]
        verbose_name = _("group")
        verbose_name_plural = _("groups")

    def __str__(self):
        return self.name or str(self.stage)

    @property
    def event(self):
        return self.stage.event

    @property
    def event_id(self):
        return self.stage.event_id


class Participant(models.Model):
    """A person playing in one stage, in one group; the start number is his seed in the group."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="participants")
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="participants")
    person = models.ForeignKey(
        "federation.Person", on_delete=models.PROTECT, related_name="ulti_participations"
    )
    entry = models.ForeignKey(
        "tournaments.Entry", on_delete=models.PROTECT, null=True, blank=True, related_name="ulti_participants"
    )
    line = models.CharField(_("line"), max_length=1, blank=True)
    number = models.PositiveSmallIntegerField(_("start number"))
    rating = models.IntegerField(_("live rating at the draw"), default=0)

    class Meta:
        ordering = ["group", "number"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "person"], name="ulti_one_participant_per_stage"),
            models.UniqueConstraint(fields=["group", "number"], name="ulti_one_start_number"),
        ]
        verbose_name = _("participant")
        verbose_name_plural = _("participants")

    def __str__(self):
        return f"{self.number}. {self.person}"

    @property
    def key(self) -> str:
        """The id the pure engines know this participant by."""
        return str(self.pk)


class Round(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        PUBLISHED = "published", _("published")

    class Method(models.TextChoices):
        SWISS = "swiss", _("Swiss pairing")
        SCHEDULE = "schedule", _("all-play-all schedule")
        MANUAL = "manual", _("edited by hand")

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("round"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.DRAFT)
    method = models.CharField(_("drawn by"), max_length=10, choices=Method.choices)
    notes = models.JSONField(_("explanations"), default=list, blank=True)
    repeats = models.PositiveSmallIntegerField(_("repeat meetings"), default=0)
    generated_at = models.DateTimeField(auto_now_add=True)
    generated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    edited_at = models.DateTimeField(null=True, blank=True)
    edited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    published_at = models.DateTimeField(null=True, blank=True)
    # A round played with table codes is "live, provisional" on the public pages until the director
    # publishes its results (issue #18; ulti.services.live).
    results_published_at = models.DateTimeField(_("results published at"), null=True, blank=True)
    results_published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["group", "number"]
        constraints = [models.UniqueConstraint(fields=["group", "number"], name="ulti_one_round_number")]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")

    def __str__(self):
        return f"{self.group.stage} {self.group.name} {self.number}".replace("  ", " ")

    @property
    def event(self):
        return self.group.stage.event

    @property
    def event_id(self):
        return self.group.stage.event_id

    @property
    def is_published(self) -> bool:
        return self.status == self.Status.PUBLISHED


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="ulti_one_table_number")]
        verbose_name = _("table")
        verbose_name_plural = _("tables")

    def __str__(self):
        return f"{self.round} / {self.number}"

    @property
    def event(self):
        return self.round.event

    @property
    def event_id(self):
        return self.round.event_id


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    participant = models.ForeignKey(Participant, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField(_("seat"))

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="ulti_one_player_per_seat"),
            models.UniqueConstraint(fields=["table", "participant"], name="ulti_one_seat_per_player"),
        ]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")

    def __str__(self):
        return f"{self.table}: {self.position}. {self.participant_id}"


class Bye(models.Model):
    """Sitting out a round (erőnyerő): scores the rule set's bye points."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    participant = models.ForeignKey(Participant, on_delete=models.PROTECT, related_name="byes")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "participant"], name="ulti_one_bye_per_round")
        ]
        verbose_name = _("bye")
        verbose_name_plural = _("byes")

    def __str__(self):
        return f"{self.round}: {self.participant_id}"


class RoundUpload(AppendOnly, VersionedUpload):
    """One version of a round's forint results (every table that has a result at that moment)."""

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="uploads")
    # Ulti takes table entry too (a table's phones, issue #18); USEBIO files stay bridge's own.
    source = models.CharField(
        _("source"), max_length=12, choices=[c for c in VersionedUpload.Source.choices if c[0] != "usebio"]
    )
    event_version = models.PositiveIntegerField(_("event version"), default=0)
    raw = models.TextField(_("uploaded text"), blank=True)

    class Meta(VersionedUpload.Meta):
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="ulti_one_upload_number")]
        verbose_name = _("round result version")
        verbose_name_plural = _("round result versions")

    def __str__(self):
        return f"{self.round} v{self.number}"


class ForintResult(AppendOnly):
    upload = models.ForeignKey(RoundUpload, on_delete=models.PROTECT, related_name="lines")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    participant = models.ForeignKey(Participant, on_delete=models.PROTECT, related_name="+")
    forint = models.IntegerField(_("forint result"))

    class Meta:
        ordering = ["upload", "table", "pk"]
        verbose_name = _("forint result")
        verbose_name_plural = _("forint results")

    def __str__(self):
        return f"{self.upload}: {self.participant_id} {self.forint:+d}"


class PointDeduction(AppendOnly):
    """Table points taken from a participant by a ruling: a director's measure or a frivolous appeal's
    punishment. It rides on the round version it was recorded with (who, when, why: that version's author,
    time and note) and counts in the standings from that round on, whatever later versions of any round say."""

    upload = models.ForeignKey(RoundUpload, on_delete=models.PROTECT, related_name="deductions")
    participant = models.ForeignKey(Participant, on_delete=models.PROTECT, related_name="deductions")
    points = models.PositiveIntegerField(_("points deducted"))
    reason = models.CharField(_("reason"), max_length=500, blank=True)

    class Meta:
        ordering = ["upload", "pk"]
        verbose_name = _("point deduction")
        verbose_name_plural = _("point deductions")

    def __str__(self):
        return f"{self.upload}: {self.participant_id} -{self.points}"


class UploadDecision(RecordedDecision):
    """What a round's new version did with a decision in force (results.upload_decisions): carried it (the
    upload did not touch its table), kept it (re-applied on top), re-confirmed it, or set it aside (why)."""

    upload = models.ForeignKey(RoundUpload, on_delete=models.PROTECT, related_name="decisions_recorded")
    decision = models.ForeignKey(RoundUpload, on_delete=models.PROTECT, related_name="later_actions")

    class Meta(RecordedDecision.Meta):
        constraints = [
            models.UniqueConstraint(fields=["upload", "decision"], name="ulti_one_action_per_decision")
        ]


class ScoreSheet(AppendOnly):
    """A table's round entered deal by deal (pontozólap); saving it writes the round's next version."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="sheets")
    number = models.PositiveIntegerField(_("version"))
    deals = models.JSONField(_("deals"))
    unit_forints = models.PositiveIntegerField(_("forint value of one unit"))
    totals = models.JSONField(_("forint totals"), help_text=_("Participant id -> forints."))
    upload = models.ForeignKey(RoundUpload, on_delete=models.PROTECT, related_name="sheets")
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    entered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="ulti_one_sheet_number")]
        verbose_name = _("score sheet")
        verbose_name_plural = _("score sheets")

    def __str__(self):
        return f"{self.table} v{self.number}"

    @property
    def event(self):
        return self.table.event


class SheetDraft(models.Model):
    """A score sheet saved part-way through the round: the deals entered so far, one working copy per table.

    Not a result: no round version is written until the sheet is finished (`services.sheets.save`), which
    removes the draft."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="sheet_draft")
    deals = models.JSONField(_("deals"), help_text=_("[row number, deal record] of the rows entered so far."))
    saved_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    saved_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("score sheet saved part-way")
        verbose_name_plural = _("score sheets saved part-way")

    def __str__(self):
        return f"{self.table} ({len(self.deals)})"

    @property
    def event(self):
        return self.table.event


class TableScore(models.Model):
    """A seat's result as scored from the latest version: forints, table points and place at the table."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="scores")
    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="table_scores")
    forint = models.IntegerField()
    points = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField()
    event_version = models.PositiveIntegerField()

    class Meta:
        ordering = ["table", "place", "participant"]
        constraints = [
            models.UniqueConstraint(fields=["table", "participant"], name="ulti_one_score_per_seat")
        ]

    def __str__(self):
        return f"{self.table}: {self.participant_id} {self.points}"


class Standing(models.Model):
    """A participant's standing after a round, in one group or (group empty) over the whole stage."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="standings")
    group = models.ForeignKey(Group, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="standings")
    after_round = models.PositiveSmallIntegerField()
    place = models.CharField(max_length=12)
    place_from = models.PositiveIntegerField()
    place_to = models.PositiveIntegerField()
    order = models.PositiveIntegerField()
    points = models.IntegerField()
    forint = models.IntegerField()
    tables = models.PositiveSmallIntegerField()
    byes = models.PositiveSmallIntegerField()
    round_points = models.JSONField(default=list)
    event_version = models.PositiveIntegerField()

    class Meta:
        ordering = ["stage", "group", "after_round", "order"]
        indexes = [models.Index(fields=["stage", "after_round", "order"])]

    def __str__(self):
        return f"{self.stage_id}/{self.after_round}: {self.place}. {self.participant_id}"


class TeamStanding(models.Model):
    """Team ulti: a team's standing after a round, from its three members' results."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="team_standings")
    entry = models.ForeignKey("tournaments.Entry", on_delete=models.CASCADE, related_name="+")
    after_round = models.PositiveSmallIntegerField()
    place = models.CharField(max_length=12)
    place_from = models.PositiveIntegerField()
    place_to = models.PositiveIntegerField()
    order = models.PositiveIntegerField()
    points = models.IntegerField()
    forint = models.IntegerField()
    members = models.JSONField(default=list)
    event_version = models.PositiveIntegerField()

    class Meta:
        ordering = ["stage", "after_round", "order"]

    def __str__(self):
        return f"{self.stage_id}/{self.after_round}: {self.place}. {self.entry_id}"


class TableCode(models.Model):
    """The code of one table of a drawn round (issue #18): printed on the table's card, typed on a phone.
    Whoever holds it (the table's three players, no account needed) keeps that table's score sheet."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="code")
    # Unique over every round: a code never names two tables.
    code = models.CharField(_("table code"), max_length=6, unique=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["table"]
        verbose_name = _("table code")
        verbose_name_plural = _("table codes")

    def __str__(self):
        return f"{self.table}: {self.code}"

    @property
    def event(self):
        return self.table.event


class TableEntry(AppendOnly):
    """One thing a table's phone sent: a deal of the score sheet (a new one or a correction of one), or a
    player's confirmation or dispute of the round's forint result. ``based_on`` is the deal entry the phone
    saw last (the sheet's head): built on another, the entry is a conflict and is not stored."""

    class Kind(models.TextChoices):
        DEAL = "deal", _("deal entered")
        CONFIRM = "confirm", _("confirmed")
        DISPUTE = "dispute", _("disputed")
        DIRECTOR = "director", _("the director's correction")

    code = models.ForeignKey(TableCode, on_delete=models.PROTECT, related_name="entries")
    kind = models.CharField(_("entry"), max_length=8, choices=Kind.choices)
    key = models.CharField(_("idempotency key"), max_length=64)
    number = models.PositiveSmallIntegerField(_("deal"), default=0)
    record = models.JSONField(_("deal"), default=dict, blank=True)
    forints = models.JSONField(
        _("forints"), default=dict, blank=True, help_text=_("Participant id -> forints.")
    )
    seat = models.ForeignKey(Participant, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    based_on = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("based on")
    )
    note = models.CharField(_("note"), max_length=300, blank=True)
    # The confirmation that completed the table: the round version it wrote, or why none was written.
    upload = models.ForeignKey(RoundUpload, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    problem = models.CharField(_("not applied because"), max_length=500, blank=True)
    created_at = models.DateTimeField(_("entered at"), auto_now_add=True)

    class Meta:
        ordering = ["pk"]
        constraints = [models.UniqueConstraint(fields=["code", "key"], name="ulti_one_table_entry_per_key")]
        verbose_name = _("table entry")
        verbose_name_plural = _("table entries")

    def __str__(self):
        return f"{self.code_id} {self.kind} {self.number}"


class RoundClock(models.Model):
    """The director started a round's clock: its start and time limit (at least the rule set's minimum
    round time). Starting it again adds a row; the latest is the round's clock."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="clocks")
    started_at = models.DateTimeField(_("started at"))
    minutes = models.PositiveSmallIntegerField(_("time limit (minutes)"))
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["round", "-started_at", "-pk"]
        verbose_name = _("round clock")
        verbose_name_plural = _("round clocks")

    def __str__(self):
        return f"{self.round}: {self.started_at:%H:%M} +{self.minutes}'"
