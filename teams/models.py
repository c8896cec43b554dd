"""Bridge team events (VSz 33): the event's options, teams, rounds, matches, uploads and stored standings.

Facts the director enters are append-only where they are results (`MatchUpload`, `LineUp` are
`VersionedUpload`s: a correction is a new version). Rounds and matches are the director's pairing and
may be edited until results exist. Everything below "materialised" is written only by the recompute
task and stamped with the upload version it reflects.
"""

from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from federation.immutable import AppendOnly
from federation.models import Person
from results.models import VersionedUpload, source_with_usebio
from results.upload_decisions import RecordedDecision
from teams.engine.pairing.knockout import plan_match
from tournaments.models import Entry, Event

SCOPE = "bridge-teams"


def minimum_refusal(error: ValueError) -> str:
    """The match-length engine's own reason (`plan_match`), introduced in the reader's language."""
    return gettext("The match is shorter than VSz 33 allows: %(reason)s") % {"reason": error}


class TeamEvent(models.Model):
    """How a team event is run, as its announcement states it."""

    class Format(models.TextChoices):
        DANISH = "danish", _("Danish")
        SWISS = "swiss", _("Swiss")
        DANISH_SWISS = "danish_swiss", _("Danish-Swiss hybrid")
        ROUND_ROBIN = "round_robin", _("round robin")
        KNOCKOUT = "knockout", _("knockout (KO)")

    class FirstRound(models.TextChoices):
        DRAW = "draw", _("by secure draw")
        SEEDING = "seeding", _("by seeding")

    class MatchForm(models.TextChoices):
        IMPS = "imps", _("IMPs")
        PATTON = "patton", _("Patton")
        BOARD_A_MATCH = "board_a_match", _("board-a-match")

    class Tiebreak(models.TextChoices):
        START_NUMBER = "start_number", _("start number")
        PREVIOUS_PLACE = "previous_place", _("better place in the previous round")

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="team_setup")
    pairing_format = models.CharField(
        _("pairing format"), max_length=16, choices=Format.choices, default=Format.SWISS
    )
    first_round = models.CharField(
        _("round one"), max_length=10, choices=FirstRound.choices, default=FirstRound.DRAW
    )
    rounds = models.PositiveSmallIntegerField(
        _("rounds"),
        default=7,
        validators=[MinValueValidator(1)],
        help_text=_("Rounds of the Danish / Swiss / round-robin stage (ignored for a pure knockout)."),
    )
    swiss_rounds = models.PositiveSmallIntegerField(
        _("Swiss rounds of the hybrid"),
        null=True,
        blank=True,
        help_text=_(
            "Danish-Swiss: Swiss for this many rounds, Danish after. Empty: suggested from the field."
        ),
    )
    boards_per_match = models.PositiveSmallIntegerField(_("boards per match"), default=8)
    match_form = models.CharField(_("scoring form"), max_length=16, choices=MatchForm.choices, default="imps")
    tiebreak = models.CharField(
        _("third ranking criterion"), max_length=16, choices=Tiebreak.choices, default="start_number"
    )
    # VSz 33 does not say what a bye earns; 12 VP (a modest win on the 20-VP scale) is the common
    # practice of Hungarian and WBF events, and the announcement may state another value.
    bye_vp = models.DecimalField(
        _("VPs for a bye"),
        max_digits=5,
        decimal_places=2,
        default=Decimal("12.00"),
        help_text=_("What a team with a bye scores, as the announcement states (default 12 VP, 0 IMPs)."),
    )
    knockout_teams = models.PositiveSmallIntegerField(
        _("knockout after the stage"),
        default=0,
        help_text=_("0: no knockout. Otherwise the top teams of the stage play a knockout (e.g. 8)."),
    )
    knockout_boards = models.PositiveSmallIntegerField(_("boards per knockout match"), default=16)
    consolation = models.BooleanField(_("consolation bracket"), default=False)

    class Meta:
        verbose_name = _("team event setup")
        verbose_name_plural = _("team event setups")

    def __str__(self):
        return str(self.event)

    @property
    def has_stage(self) -> bool:
        """A qualifying stage (Danish, Swiss, hybrid, round robin) before any knockout."""
        return self.pairing_format != self.Format.KNOCKOUT

    @property
    def has_knockout(self) -> bool:
        return self.pairing_format == self.Format.KNOCKOUT or self.knockout_teams >= 2

    def plan_options(self, main_draw=False) -> dict:
        return {"form": self.match_form, "knockout_main_draw": main_draw}

    def clean(self):
        errors = {}
        try:
            plan_match(self.boards_per_match, self.plan_options())
        except ValueError as error:
            errors["boards_per_match"] = minimum_refusal(error)
        if self.has_knockout:
            try:
                plan_match(self.knockout_boards, self.plan_options(main_draw=True))
            except ValueError as error:
                errors["knockout_boards"] = minimum_refusal(error)
        if self.knockout_teams == 1:
            errors["knockout_teams"] = _("A knockout needs at least two teams.")
        if errors:
            raise ValidationError(errors)


class Team(models.Model):
    """A team of the event, from an active team entry (4-6 players); its players are the entry's members."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="teams")
    entry = models.OneToOneField(Entry, on_delete=models.PROTECT, related_name="team")
    name = models.CharField(_("team name"), max_length=100)
    start_number = models.PositiveSmallIntegerField(_("start number"))
    seed = models.PositiveSmallIntegerField(
        _("seeding"), null=True, blank=True, help_text=_("Strength order for seeding; empty: start number.")
    )

    class Meta:
        ordering = ["event", "start_number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "start_number"], name="teams_unique_start_number")
        ]
        verbose_name = _("team")
        verbose_name_plural = _("teams")

    def __str__(self):
        return self.name

    @property
    def strength(self):
        return (self.seed if self.seed is not None else 10_000, self.start_number)


class Round(models.Model):
    """A playing round: a stage round or a knockout round (main draw plus consolation, played together)."""

    class Kind(models.TextChoices):
        STAGE = "stage", _("stage round")
        KNOCKOUT = "knockout", _("knockout round")

    class Status(models.TextChoices):
        DRAFT = "draft", _("preview")
        PUBLISHED = "published", _("published")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="team_rounds")
    number = models.PositiveSmallIntegerField(_("round"))
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices, default=Kind.STAGE)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.DRAFT)
    boards = models.PositiveSmallIntegerField(_("boards per match"))
    method = models.CharField(_("method"), max_length=40)
    explanation = models.TextField(_("explanation"), blank=True)
    flags = models.JSONField(_("flags"), default=list, blank=True)
    draw_seed = models.CharField(_("draw seed"), max_length=80, blank=True)
    # The engine's bracket lines (KnockoutRound) per bracket, so the next round can be advanced.
    brackets = models.JSONField(default=dict, blank=True)
    generated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    generated_at = models.DateTimeField(auto_now_add=True)
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    published_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="teams_unique_round")]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")

    def __str__(self):
        return f"{self.event_id} / {self.number}"

    @property
    def is_published(self) -> bool:
        return self.status == self.Status.PUBLISHED


class Match(models.Model):
    """One match of a round; `away` empty is a bye. The home team sits NS in the open room."""

    class Bracket(models.TextChoices):
        NONE = "", _("stage")
        MAIN = "main", _("main draw")
        CONSOLATION = "consolation", _("consolation bracket")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    table = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    home = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="home_matches")
    away = models.ForeignKey(
        Team, on_delete=models.PROTECT, null=True, blank=True, related_name="away_matches"
    )
    flags = models.JSONField(_("flags"), default=list, blank=True)
    explanation = models.CharField(_("explanation"), max_length=500, blank=True)
    bracket = models.CharField(_("bracket"), max_length=12, choices=Bracket.choices, blank=True, default="")
    bracket_round = models.PositiveSmallIntegerField(null=True, blank=True)
    line = models.PositiveSmallIntegerField(null=True, blank=True, help_text="KnockoutMatch.number")
    edited = models.BooleanField(_("edited by hand"), default=False)

    class Meta:
        ordering = ["round", "bracket", "table", "pk"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")

    def __str__(self):
        return f"{self.home} – {self.away or _('bye')}"

    @property
    def event(self):
        return self.round.event

    @property
    def event_id(self):
        return self.round.event_id

    @property
    def is_bye(self) -> bool:
        return self.away_id is None

    @property
    def team_ids(self):
        return [t for t in (self.home_id, self.away_id) if t is not None]


class MatchUpload(AppendOnly, VersionedUpload):
    """One version of a match's result: board by board (PBN, CSV, form) or just the IMP totals."""

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="uploads")
    source = source_with_usebio(table=False)
    imps_only = models.BooleanField(_("IMP result only"), default=False)
    home_imps = models.DecimalField(max_digits=7, decimal_places=2, null=True, blank=True)
    away_imps = models.DecimalField(max_digits=7, decimal_places=2, null=True, blank=True)
    boards_played = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta(VersionedUpload.Meta):
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="teams_unique_upload_version")
        ]
        verbose_name = _("match result upload")
        verbose_name_plural = _("match result uploads")

    def __str__(self):
        return f"{self.match_id} v{self.number}"


class UploadedBoard(AppendOnly):
    """A board of an upload: the NS score in each room (and the contract, when given)."""

    upload = models.ForeignKey(MatchUpload, on_delete=models.PROTECT, related_name="boards")
    board = models.PositiveSmallIntegerField(_("board"))
    open_ns = models.IntegerField(null=True, blank=True)
    closed_ns = models.IntegerField(null=True, blank=True)
    open_contract = models.CharField(max_length=30, blank=True)
    closed_contract = models.CharField(max_length=30, blank=True)
    adjusted_imps = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)

    class Meta:
        ordering = ["upload", "board"]
        constraints = [
            models.UniqueConstraint(fields=["upload", "board"], name="teams_unique_uploaded_board")
        ]

    def __str__(self):
        return f"{self.upload_id}: {self.board}"


class LineUp(AppendOnly, VersionedUpload):
    """Who sat where in each segment (half) of a match, as a new version per change."""

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="lineups")

    class Meta(VersionedUpload.Meta):
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="teams_unique_lineup_version")
        ]
        verbose_name = _("line-up")
        verbose_name_plural = _("line-ups")


class LineUpSeat(AppendOnly):
    class Room(models.TextChoices):
        OPEN = "open", _("open room")
        CLOSED = "closed", _("closed room")

    lineup = models.ForeignKey(LineUp, on_delete=models.PROTECT, related_name="seats")
    segment = models.PositiveSmallIntegerField(_("segment"))
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="+")
    room = models.CharField(_("room"), max_length=6, choices=Room.choices)
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["lineup", "segment", "team", "room", "person"]
        constraints = [
            models.UniqueConstraint(fields=["lineup", "segment", "person"], name="teams_one_seat_per_segment")
        ]

    def __str__(self):
        return f"{self.lineup_id}/{self.segment}: {self.person_id} {self.room}"


class UploadDecision(RecordedDecision):
    """What a match's new version did with a decision in force (results.upload_decisions): carried it
    (the upload did not touch it), kept it (re-applied on top), re-confirmed it, or set it aside (why)."""

    upload = models.ForeignKey(MatchUpload, on_delete=models.PROTECT, related_name="decisions_recorded")
    decision = models.ForeignKey(MatchUpload, on_delete=models.PROTECT, related_name="later_actions")

    class Meta(RecordedDecision.Meta):
        constraints = [
            models.UniqueConstraint(fields=["upload", "decision"], name="teams_one_action_per_decision")
        ]


# --- materialised by the recompute task ----------------------------------------------------------------


class MatchResult(models.Model):
    """The scored result of a match from its latest upload (or of a bye)."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="result")
    upload = models.ForeignKey(MatchUpload, on_delete=models.PROTECT, null=True, related_name="+")
    home_imps = models.DecimalField(max_digits=7, decimal_places=2)
    away_imps = models.DecimalField(max_digits=7, decimal_places=2)
    home_vp = models.DecimalField(max_digits=5, decimal_places=2, null=True)
    away_vp = models.DecimalField(max_digits=5, decimal_places=2, null=True)
    boards = models.PositiveSmallIntegerField()
    winner = models.ForeignKey(Team, on_delete=models.PROTECT, null=True, related_name="+")
    version = models.PositiveIntegerField()

    def __str__(self):
        return f"{self.match_id}: {self.home_imps}-{self.away_imps}"

    @property
    def margin(self):
        return self.home_imps - self.away_imps


class BoardScore(models.Model):
    """A board of a match's score card with its IMPs (home's view): computed by the recompute from the
    latest upload (the uploaded input is `UploadedBoard`), as bridge's computed rows are `BoardScore`."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="board_scores")
    board = models.PositiveSmallIntegerField()
    segment = models.PositiveSmallIntegerField()
    open_ns = models.IntegerField(null=True)
    closed_ns = models.IntegerField(null=True)
    open_contract = models.CharField(max_length=30, blank=True)
    closed_contract = models.CharField(max_length=30, blank=True)
    difference = models.IntegerField(null=True)
    home_imps = models.DecimalField(max_digits=5, decimal_places=2)
    away_imps = models.DecimalField(max_digits=5, decimal_places=2)
    status = models.CharField(max_length=10)

    class Meta:
        ordering = ["match", "board"]

    def __str__(self):
        return f"{self.match_id}/{self.board}"


class Standing(models.Model):
    """A team's totals and place after a stage round (the chart of places reads these)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="team_standings")
    after_round = models.PositiveSmallIntegerField()
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="standings")
    place = models.PositiveSmallIntegerField()
    vp = models.DecimalField(max_digits=7, decimal_places=2)
    imps_won = models.DecimalField(max_digits=8, decimal_places=2)
    imps_lost = models.DecimalField(max_digits=8, decimal_places=2)
    played = models.PositiveSmallIntegerField()
    version = models.PositiveIntegerField()

    class Meta:
        ordering = ["event", "after_round", "place"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "after_round", "team"], name="teams_one_standing_per_round"
            )
        ]

    def __str__(self):
        return f"{self.event_id} r{self.after_round}: {self.place}. {self.team_id}"

    @property
    def imps(self):
        return self.imps_won - self.imps_lost


class FinalPlace(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="team_final_places")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    place_from = models.PositiveSmallIntegerField()
    place_to = models.PositiveSmallIntegerField()
    version = models.PositiveIntegerField()

    class Meta:
        ordering = ["event", "place_from", "team__start_number"]

    def __str__(self):
        return f"{self.event_id}: {self.label}. {self.team_id}"

    @property
    def label(self):
        return (
            str(self.place_from) if self.place_from == self.place_to else f"{self.place_from}–{self.place_to}"
        )


class PlayerBoards(models.Model):
    """Boards a player played for his team, against the boards the team played (masterpoint rights)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="team_player_boards")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="player_boards")
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="+")
    boards = models.PositiveIntegerField()
    team_boards = models.PositiveIntegerField()
    has_rights = models.BooleanField()
    version = models.PositiveIntegerField()

    class Meta:
        ordering = ["event", "team__start_number", "-boards", "person"]

    def __str__(self):
        return f"{self.person_id}: {self.boards}/{self.team_boards}"

    @property
    def percentage(self):
        return (
            Decimal(100 * self.boards / self.team_boards).quantize(Decimal("0.1"))
            if self.team_boards
            else None
        )


class PairButler(models.Model):
    """A pair's Butler score inside the team event: IMPs against the datum of each board it played."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="team_butler")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    player_a = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="+")
    player_b = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="+")
    boards = models.PositiveIntegerField()
    imps = models.IntegerField()
    average = models.DecimalField(max_digits=6, decimal_places=2)
    rank = models.PositiveSmallIntegerField(null=True)
    version = models.PositiveIntegerField()

    class Meta:
        ordering = ["event", "rank", "-average"]

    def __str__(self):
        return f"{self.player_a_id}-{self.player_b_id}: {self.imps}"


class Progress(models.Model):
    """What the last recompute found: may the next round be generated, is the event final."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="team_progress")
    version = models.PositiveIntegerField(default=0)
    next_round_ready = models.BooleanField(default=False)
    waiting_for = models.JSONField(default=list, blank=True)  # match ids still without a result
    is_final = models.BooleanField(default=False)
    missing_lineups = models.PositiveIntegerField(default=0)
    computed_at = models.DateTimeField(null=True)

    def __str__(self):
        return f"{self.event_id} v{self.version}"
