"""The panel, the hearing, the decisions with their votes, and the second-instance appeal."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .case import Appeal
from .committee import CommitteeMember

PERCENT = [MinValueValidator(0), MaxValueValidator(100)]


class PanelSeat(models.Model):
    """A committee member who hears one case; an alternate sits when a member is involved."""

    appeal = models.ForeignKey(Appeal, on_delete=models.CASCADE, related_name="panel")
    member = models.ForeignKey(CommitteeMember, on_delete=models.PROTECT, related_name="seats")
    seated_at = models.DateTimeField(default=timezone.now)
    seated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["member__is_alternate", "pk"]
        constraints = [models.UniqueConstraint(fields=["appeal", "member"], name="one_seat_per_case")]
        verbose_name = _("panel seat")
        verbose_name_plural = _("panel seats")

    def __str__(self):
        return f"{self.appeal_id}: {self.member}"


class Statement(models.Model):
    """What the director or a party told the panel at the hearing (meghallgatás)."""

    class Speaker(models.TextChoices):
        DIRECTOR = "director", _("director")
        APPELLANT = "appellant", _("appellant")
        RESPONDENT = "respondent", _("opponents")
        WITNESS = "witness", _("witness")

    appeal = models.ForeignKey(Appeal, on_delete=models.CASCADE, related_name="statements")
    speaker = models.CharField(_("speaker"), max_length=12, choices=Speaker.choices)
    speaker_name = models.CharField(_("name"), max_length=200)
    text = models.TextField(_("statement"))
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["recorded_at", "pk"]
        verbose_name = _("statement")
        verbose_name_plural = _("statements")

    def __str__(self):
        return f"{self.appeal_id}: {self.get_speaker_display()}"


class Decision(models.Model):
    """A decision (határozat) of the panel or of the Rules and Ethics Committee, with what it changes.

    The adjustment is structured so that the results can follow: the table (board, NS and EW pairs) gets an
    artificial score ("A+/A-") or an NS score, and a penalty in percent of the top may be taken from a pair.
    At an ulti event the table is named by its round and number and gets its corrected forint results
    (``ulti_forints``: start number -> forint for each of its three players, summing to zero).
    """

    class Instance(models.TextChoices):
        FIRST = "first", _("Appeals Committee")
        SECOND = "second", _("Rules and Ethics Committee")

    class Outcome(models.TextChoices):
        UPHELD = "upheld", _("ruling upheld")
        CHANGED = "changed", _("ruling changed")

    class Status(models.TextChoices):
        PROPOSED = "proposed", _("proposed, voting")
        PUBLISHED = "published", _("published")
        REJECTED = "rejected", _("rejected by the vote")
        WITHDRAWN = "withdrawn", _("withdrawn by the chair")
        NOT_APPLIED = "unapplied", _("could not be applied to the results")

    # What a panel (or the ethics committee) gives; the form, the API and the services take these.
    INPUT_FIELDS = (
        "outcome",
        "text",
        "board_number",
        "ns_pair",
        "ew_pair",
        "artificial",
        "ns_score",
        "penalty_pair",
        "penalty_percent",
        "penalty_board",
        "unfounded",
        "frivolous",
        "point_deduction_percent",
        "point_deduction_points",
        "ulti_round",
        "ulti_table",
        "ulti_forints",
    )
    BRIDGE_FIELDS = ("board_number", "ns_pair", "ew_pair", "artificial", "ns_score", "penalty_pair")
    BRIDGE_FIELDS += ("penalty_percent", "penalty_board", "point_deduction_percent")
    ULTI_FIELDS = ("ulti_round", "ulti_table", "ulti_forints", "point_deduction_points")

    appeal = models.ForeignKey(Appeal, on_delete=models.CASCADE, related_name="decisions")
    instance = models.CharField(_("instance"), max_length=6, choices=Instance.choices, default=Instance.FIRST)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PROPOSED)
    outcome = models.CharField(_("outcome"), max_length=8, choices=Outcome.choices)
    text = models.TextField(_("decision text"))
    board_number = models.PositiveSmallIntegerField(_("board"), null=True, blank=True)
    ns_pair = models.CharField(_("NS pair"), max_length=10, blank=True)
    ew_pair = models.CharField(_("EW pair"), max_length=10, blank=True)
    artificial = models.CharField(
        _("artificial score"),
        max_length=10,
        blank=True,
        help_text=_('"A+", "A", "A-" or NS/EW like "A+/A-".'),
    )
    ns_score = models.IntegerField(_("NS score"), null=True, blank=True)
    penalty_pair = models.CharField(_("penalised pair"), max_length=10, blank=True)
    penalty_percent = models.DecimalField(
        _("penalty (percent of the top)"),
        max_digits=5,
        decimal_places=2,
        null=True,
        blank=True,
        validators=PERCENT,
    )
    penalty_board = models.PositiveSmallIntegerField(
        _("penalty on board"), null=True, blank=True, help_text=_("Empty: taken from the session total.")
    )
    unfounded = models.BooleanField(_("the appeal was unfounded"), default=False)
    frivolous = models.BooleanField(_("the appeal was frivolous"), default=False)
    point_deduction_percent = models.DecimalField(
        _("point deduction for a frivolous appeal (percent of the top)"),
        max_digits=5,
        decimal_places=2,
        null=True,
        blank=True,
        validators=PERCENT,
    )
    point_deduction_points = models.PositiveSmallIntegerField(
        _("point deduction for a frivolous appeal (table points)"),
        null=True,
        blank=True,
        help_text=_("Ulti: table points taken from the appellant."),
    )
    ulti_round = models.PositiveSmallIntegerField(_("ulti round"), null=True, blank=True)
    ulti_table = models.PositiveSmallIntegerField(_("ulti table"), null=True, blank=True)
    ulti_forints = models.JSONField(
        _("forint results of the table"),
        default=dict,
        blank=True,
        help_text=_(
            "Start number and forints of each of the table's three players, e.g. 12: 300, 5: -100, 31: -200."
        ),
    )
    proposed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    proposed_at = models.DateTimeField(default=timezone.now)
    published_at = models.DateTimeField(_("published at"), null=True, blank=True)
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    effect = models.CharField(_("result version"), max_length=200, blank=True)
    refusal = models.TextField(
        _("why the results refused it"),
        blank=True,
        help_text=_(
            "A decision the results no longer take at its publication: the reason, for a new proposal."
        ),
    )

    class Meta:
        ordering = ["proposed_at", "pk"]
        verbose_name = _("decision")
        verbose_name_plural = _("decisions")

    def __str__(self):
        return f"{self.appeal_id} {self.instance} {self.outcome}"

    @property
    def event_id(self):
        return self.appeal.event_id

    @property
    def keeps_deposit(self) -> bool:
        return self.unfounded

    @property
    def changes_score(self) -> bool:
        return self.outcome == self.Outcome.CHANGED and bool(
            self.artificial or self.ns_score is not None or self.ulti_forints
        )

    @property
    def game(self) -> str:
        """The game of the appeal's event ("bridge", "ulti"); "" before the decision has its appeal."""
        return self.appeal.event.federation.game if self.appeal_id else ""

    @property
    def changes_results(self) -> bool:
        return (
            self.outcome == self.Outcome.CHANGED
            or bool(self.point_deduction_percent)
            or bool(self.point_deduction_points)
        )

    @property
    def names_ulti_table(self) -> bool:
        return self.ulti_round is not None or self.ulti_table is not None or bool(self.ulti_forints)

    def clean(self):
        # Without its appeal (a posted form) the fields tell the game; the services check again with it.
        if self.game == "ulti" or (not self.game and self.names_ulti_table):
            return self._clean_ulti()
        errors = {}
        if self.names_ulti_table:
            errors["ulti_table"] = _("Only a decision on an ulti event names an ulti round and table.")
        if self.outcome == self.Outcome.CHANGED:
            if self.board_number is None or not self.ns_pair or not self.ew_pair:
                errors["board_number"] = _(
                    "A changed ruling names the board and the table's NS and EW pairs."
                )
            if self.artificial and self.ns_score is not None:
                errors["ns_score"] = _("Give an artificial score or an NS score, not both.")
            if not (self.artificial or self.ns_score is not None or self.penalty_percent):
                errors["artificial"] = _("A changed ruling gives a score, an artificial score or a penalty.")
            if self.unfounded or self.frivolous:
                errors["unfounded"] = _("An appeal that changed the ruling was not unfounded.")
        elif self.artificial or self.ns_score is not None or self.penalty_percent:
            errors["outcome"] = _('An upheld ruling gives no score and no penalty; choose "ruling changed".')
        if bool(self.penalty_percent) != bool(self.penalty_pair):
            errors["penalty_pair"] = _("A penalty names the pair and the percentage.")
        if self.frivolous and not self.unfounded:
            errors["frivolous"] = _("A frivolous appeal is also unfounded.")
        if self.point_deduction_percent and not self.frivolous:
            errors["point_deduction_percent"] = _("Only a frivolous appeal is punished by a point deduction.")
        if self.point_deduction_points:
            errors["point_deduction_points"] = _(
                "A point deduction in table points is an ulti measure; a bridge deduction is a percentage of the top."
            )
        if errors:
            raise ValidationError(errors)

    def _clean_ulti(self):
        """An ulti decision: a changed ruling gives one table's forint results (start number -> forint)."""
        errors = {}
        if self.artificial or self.ns_score is not None or self.penalty_percent or self.penalty_pair:
            errors["artificial"] = _("An ulti decision gives the table's forint results, not a bridge score.")
        if self.outcome == self.Outcome.CHANGED:
            if self.ulti_round is None or self.ulti_table is None or not self.ulti_forints:
                errors["ulti_table"] = _(
                    "A changed ruling names the round and the table and gives the forint result of each of "
                    "its three players."
                )
            elif error := ulti_forints_error(self.ulti_table, self.ulti_forints):
                errors["ulti_forints"] = error
            if self.unfounded or self.frivolous:
                errors["unfounded"] = _("An appeal that changed the ruling was not unfounded.")
        elif self.names_ulti_table:
            errors["outcome"] = _('An upheld ruling gives no results; choose "ruling changed".')
        if self.frivolous and not self.unfounded:
            errors["frivolous"] = _("A frivolous appeal is also unfounded.")
        if self.point_deduction_percent:
            errors["point_deduction_percent"] = _(
                "A point deduction in percent of the top is a bridge measure; ulti results have no top."
            )
        if self.point_deduction_points and not self.frivolous:
            errors["point_deduction_points"] = _("Only a frivolous appeal is punished by a point deduction.")
        if errors:
            raise ValidationError(errors)


def ulti_forints_error(table, forints) -> str:
    """What is wrong with an ulti table's forint results {start number: forint}, or "" (translated)."""
    if not isinstance(forints, dict) or not all(
        str(k).strip().isdigit() and isinstance(v, int) and not isinstance(v, bool)
        for k, v in forints.items()
    ):
        return _("Table %(t)s: give a start number and a whole forint amount for each player.") % {"t": table}
    if len(forints) != 3:
        return _("Table %(t)s: give the forint result of each of the three players.") % {"t": table}
    total = sum(forints.values())
    if total != 0:
        return _("Table %(t)s: the forint results sum to %(sum)s, not 0.") % {
            "t": table,
            "sum": f"{total:+d}",
        }
    return ""


class Vote(models.Model):
    """One panel member's vote on a proposed decision."""

    decision = models.ForeignKey(Decision, on_delete=models.CASCADE, related_name="votes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    agrees = models.BooleanField(_("agrees"))
    comment = models.CharField(_("comment"), max_length=500, blank=True)
    voted_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["voted_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["decision", "user"], name="one_vote_per_member")]
        verbose_name = _("vote")
        verbose_name_plural = _("votes")

    def __str__(self):
        return f"{self.decision_id}: {self.user_id} {'+' if self.agrees else '-'}"


class SecondAppeal(models.Model):
    """A written appeal (fellebbezés) to the federation's Rules and Ethics Committee, with its own deposit."""

    appeal = models.OneToOneField(Appeal, on_delete=models.CASCADE, related_name="second_appeal")
    filed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    filed_at = models.DateTimeField(_("filed at"), default=timezone.now)
    statement = models.TextField(_("written appeal"))
    deposit_amount = models.PositiveIntegerField(_("second-instance deposit (Ft)"), default=0)
    deposit_paid_at = models.DateTimeField(_("deposit received at"), null=True, blank=True)
    deposit_received_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    deposit_outcome = models.CharField(
        _("deposit"), max_length=10, choices=Appeal.Deposit.choices, default=Appeal.Deposit.HELD
    )

    class Meta:
        verbose_name = _("second-instance appeal")
        verbose_name_plural = _("second-instance appeals")

    def __str__(self):
        return f"{self.appeal_id} (2)"

    @property
    def deposit_paid(self) -> bool:
        return self.deposit_amount == 0 or self.deposit_paid_at is not None
