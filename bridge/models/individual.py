"""Bridge individual events: the players' numbers, append-only result versions (every board with its four
players) and the standings computed from them, stamped with the version (bridge.services.individual)."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from federation.immutable import AppendOnly
from results.models import VersionedUpload

from .standings import COMPUTED, MP, PCT
from .uploads import VersionDecision


class IndividualEvent(models.Model):
    """Scoring settings and publication of a tournaments.Event played as an individual (one row per event)."""

    class Rounding(models.TextChoices):
        COMPUTER = "computer", _("by computer (hundredths)")
        HAND = "hand", _("by hand (tenths, whole session totals)")

    event = models.OneToOneField(
        "tournaments.Event", on_delete=models.CASCADE, related_name="bridge_individual"
    )
    scale = models.PositiveSmallIntegerField(
        _("matchpoints per result beaten"), choices=[(1, "1"), (2, "2")], default=2
    )
    rounding = models.CharField(
        _("rounding"), max_length=10, choices=Rounding.choices, default=Rounding.COMPUTER
    )
    tables = models.PositiveSmallIntegerField(_("tables"), default=0)
    boards_per_round = models.PositiveSmallIntegerField(_("boards per round"), default=2)
    published_at = models.DateTimeField(_("results published"), null=True, blank=True)
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = _("individual event")
        verbose_name_plural = _("individual events")

    def __str__(self):
        return str(self.event)

    @property
    def is_published(self) -> bool:
        return self.published_at is not None


class IndividualPlayer(models.Model):
    """A player's number in an individual event, usually one tournaments entry of one player."""

    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, related_name="bridge_individual_players"
    )
    number = models.PositiveSmallIntegerField(_("player number"))
    entry = models.OneToOneField(
        "tournaments.Entry",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="bridge_individual_player",
    )
    person = models.ForeignKey(
        "federation.Person", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    name = models.CharField(_("name"), max_length=200, blank=True, help_text=_("When no person is linked."))

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="bridge_one_individual_number")
        ]
        verbose_name = _("player of an individual event")
        verbose_name_plural = _("players of an individual event")

    def __str__(self):
        return self.display_name

    @property
    def display_name(self) -> str:
        if self.person_id:
            return str(self.person)
        return self.name or _("Player %(number)s") % {"number": self.number}


class IndividualVersion(AppendOnly, VersionedUpload):
    """One version of an individual event's results: who made it, when, why and from what."""

    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.PROTECT, related_name="bridge_individual_versions"
    )
    event_version = models.PositiveIntegerField(_("event version"), default=0)
    deals = models.JSONField(_("deals"), default=dict, blank=True, help_text=_("Board number -> PBN deal."))
    raw = models.TextField(_("uploaded text"), blank=True)
    # The version a correction, an adjusted score or a director's decision was made on (as for pairs,
    # bridge.services.decisions); empty for the first upload.
    base = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("derived from"),
    )

    class Meta(VersionedUpload.Meta):
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="bridge_one_individual_version_number")
        ]
        verbose_name = _("individual result version")
        verbose_name_plural = _("individual result versions")

    def __str__(self):
        return f"{self.event} v{self.number}"


class IndividualResult(AppendOnly):
    """One table's result on a board in one version, with its four players by number."""

    version = models.ForeignKey(IndividualVersion, on_delete=models.PROTECT, related_name="results")
    board = models.PositiveSmallIntegerField(_("board"))
    table = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    north = models.PositiveSmallIntegerField(_("North"))
    south = models.PositiveSmallIntegerField(_("South"))
    east = models.PositiveSmallIntegerField(_("East"))
    west = models.PositiveSmallIntegerField(_("West"))
    contract = models.CharField(_("contract"), max_length=6, blank=True)
    declarer = models.CharField(_("declarer"), max_length=1, blank=True)
    lead = models.CharField(_("lead"), max_length=3, blank=True)
    tricks = models.PositiveSmallIntegerField(_("tricks"), null=True, blank=True)
    score = models.IntegerField(_("N-S score"), null=True, blank=True)
    artificial = models.CharField(_("artificial score"), max_length=5, blank=True)

    class Meta:
        ordering = ["version", "board", "table", "pk"]
        verbose_name = _("individual board result")
        verbose_name_plural = _("individual board results")

    def __str__(self):
        return f"{self.board}: {self.north}-{self.south} / {self.east}-{self.west} {self.score}"


class IndividualVersionDecision(AppendOnly):
    """Which decisions an individual version reflects, written with every upload: the pairs'
    `VersionDecision` for individual events (carried, kept, re-confirmed or set aside with a reason)."""

    Action = VersionDecision.Action

    version = models.ForeignKey(IndividualVersion, on_delete=models.PROTECT, related_name="decisions")
    decision = models.ForeignKey(
        IndividualVersion, on_delete=models.PROTECT, related_name="+", verbose_name=_("decision")
    )
    action = models.CharField(_("action"), max_length=12, choices=VersionDecision.Action.choices)
    reason = models.CharField(_("reason"), max_length=500, blank=True)

    class Meta:
        ordering = ["version", "decision__number"]
        constraints = [
            models.UniqueConstraint(
                fields=["version", "decision"], name="bridge_one_individual_record_per_decision"
            )
        ]
        verbose_name = _("decision of an individual version")
        verbose_name_plural = _("decisions of an individual version")

    def __str__(self):
        return f"{self.version} {self.action} {self.decision}"


class IndividualSubstitution(models.Model):
    """VSz 25: a substitute approved by the director played these boards under a player's number (the
    pairs' `Substitution` for individual events); who keeps the rights is `roster.player_rights`'."""

    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.PROTECT, related_name="bridge_individual_substitutions"
    )
    player = models.ForeignKey(IndividualPlayer, on_delete=models.PROTECT, related_name="substitutions")
    substitute = models.ForeignKey("federation.Person", on_delete=models.PROTECT, related_name="+")
    boards = models.JSONField(_("boards played by the substitute"), default=list)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(default=timezone.now)
    note = models.CharField(_("note"), max_length=300, blank=True)

    class Meta:
        ordering = ["event", "player", "pk"]
        verbose_name = _("substitution in an individual event")
        verbose_name_plural = _("substitutions in an individual event")

    def __str__(self):
        return f"{self.substitute} for {self.player} ({len(self.boards)})"


class IndividualBoardScore(models.Model):
    """A result on a board with what each side earned (computed, stamped with the version)."""

    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, related_name="+", db_index=False, **COMPUTED
    )
    version = models.PositiveIntegerField(_("version"))
    board = models.PositiveSmallIntegerField(_("board"))
    table = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    north = models.PositiveSmallIntegerField(_("North"))
    south = models.PositiveSmallIntegerField(_("South"))
    east = models.PositiveSmallIntegerField(_("East"))
    west = models.PositiveSmallIntegerField(_("West"))
    contract = models.CharField(_("contract"), max_length=6, blank=True)
    declarer = models.CharField(_("declarer"), max_length=1, blank=True)
    lead = models.CharField(_("lead"), max_length=3, blank=True)
    tricks = models.PositiveSmallIntegerField(_("tricks"), null=True, blank=True)
    score = models.IntegerField(_("N-S score"), null=True, blank=True)
    artificial = models.CharField(_("artificial score"), max_length=5, blank=True)
    mp_ns = models.DecimalField(_("N-S matchpoints"), **MP)
    mp_ew = models.DecimalField(_("E-W matchpoints"), **MP)
    pct_ns = models.DecimalField(_("N-S %"), **PCT)
    pct_ew = models.DecimalField(_("E-W %"), **PCT)

    class Meta:
        ordering = ["event", "board", "-score", "table", "pk"]
        indexes = [models.Index(fields=["event", "board"], name="bridge_indiv_board_idx")]
        verbose_name = _("individual board score")
        verbose_name_plural = _("individual board scores")

    def __str__(self):
        return f"{self.event_id}/{self.board}: {self.score}"


class IndividualStanding(models.Model):
    """A player's place in an individual event (computed, stamped with the version)."""

    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, related_name="+", db_index=False, **COMPUTED
    )
    player = models.ForeignKey(
        IndividualPlayer, on_delete=models.CASCADE, related_name="standings", db_index=False, **COMPUTED
    )
    version = models.PositiveIntegerField(_("version"))
    place = models.CharField(_("place"), max_length=12)
    rank = models.PositiveIntegerField(_("rank"), default=0)  # order on the page
    total = models.DecimalField(_("matchpoints"), **MP)
    top = models.DecimalField(_("top"), **MP)
    percentage = models.DecimalField(_("%"), **PCT)
    boards = models.PositiveSmallIntegerField(_("boards"), default=0)

    class Meta:
        ordering = ["event", "rank"]
        indexes = [models.Index(fields=["event", "rank"], name="bridge_indiv_standing_idx")]
        verbose_name = _("individual standing")
        verbose_name_plural = _("individual standings")

    def __str__(self):
        return f"{self.place}. {self.player}"
