"""Materialised standings: written by the recompute task in one transaction, read by the pages.

Pages never score anything: the frequency sheets, score cards and standings are these rows, stamped with
the result version (and the event's recompute counter) they were computed from.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

MP = dict(max_digits=10, decimal_places=2, null=True, blank=True)
PCT = dict(max_digits=7, decimal_places=2, null=True, blank=True)
# The computed rows are deleted and rewritten whole by the recompute, under the event's lock, from the
# append-only versions; a database foreign-key check on each of their thousands of rows (a row lock on the
# referenced row, at commit) was most of a recompute's time. Django still cascades and protects these
# relations itself (on_delete), and tests/bridge/test_scored_board_digests.py holds it to that.
COMPUTED = dict(db_constraint=False)


class BoardScore(models.Model):
    """One result on a board with what it earned: a line of the frequency sheet and of two score cards.

    `ns` or `ew` is empty for the absent side of an average-plus given for a withdrawn pair (VSz 25).
    """

    session = models.ForeignKey(
        "bridge.PairSession",
        on_delete=models.CASCADE,
        related_name="board_scores",
        db_index=False,
        **COMPUTED,
    )
    # Written thousands at a time and read per session and board: one index serves every read.
    # The version this row was written from: the full recompute writes every row from the session's latest
    # version; a one-board rescore writes only the boards it rescored, and the others keep their older stamp
    # (their results and scores are the same in every version since, up to SessionStanding.version).
    version = models.ForeignKey(
        "bridge.ResultVersion", on_delete=models.PROTECT, related_name="+", db_index=False, **COMPUTED
    )
    board = models.PositiveSmallIntegerField(_("board"))
    table = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    ns = models.ForeignKey(
        "bridge.SessionPair",
        on_delete=models.CASCADE,
        null=True,
        related_name="+",
        db_index=False,
        **COMPUTED,
    )
    ew = models.ForeignKey(
        "bridge.SessionPair",
        on_delete=models.CASCADE,
        null=True,
        related_name="+",
        db_index=False,
        **COMPUTED,
    )
    contract = models.CharField(_("contract"), max_length=6, blank=True)
    declarer = models.CharField(_("declarer"), max_length=1, blank=True)
    lead = models.CharField(_("lead"), max_length=3, blank=True)
    tricks = models.PositiveSmallIntegerField(_("tricks"), null=True, blank=True)
    score = models.IntegerField(_("N-S score"), null=True, blank=True)
    artificial = models.CharField(_("artificial score"), max_length=5, blank=True)
    deal_group = models.PositiveSmallIntegerField(_("deal group"), null=True, blank=True)  # VSz 27
    mp_ns = models.DecimalField(_("N-S matchpoints"), **MP)
    mp_ew = models.DecimalField(_("E-W matchpoints"), **MP)
    pct_ns = models.DecimalField(_("N-S %"), **PCT)
    pct_ew = models.DecimalField(_("E-W %"), **PCT)
    imp_ns = models.DecimalField(_("N-S IMPs"), **MP)
    imp_ew = models.DecimalField(_("E-W IMPs"), **MP)
    penalty_ns = models.DecimalField(_("N-S penalty"), max_digits=10, decimal_places=2, default=0)
    penalty_ew = models.DecimalField(_("E-W penalty"), max_digits=10, decimal_places=2, default=0)

    class Meta:
        ordering = ["session", "board", "-score", "pk"]
        indexes = [models.Index(fields=["session", "board"])]
        verbose_name = _("board score")
        verbose_name_plural = _("board scores")

    def __str__(self):
        return f"{self.session_id}/{self.board}: {self.score}"


class ScoredBoard(models.Model):
    """What a board's stored BoardScore rows were computed from, as a digest of everything the engine was
    given for it (its result rows, the session's penalties, the scoring options): a recompute that finds the
    same digest leaves the board's rows, and their stamp, as they are instead of rewriting them."""

    session = models.ForeignKey(
        "bridge.PairSession", on_delete=models.CASCADE, related_name="+", db_index=False, **COMPUTED
    )
    board = models.PositiveSmallIntegerField(_("board"))
    digest = models.CharField(max_length=32)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["session", "board"], name="bridge_one_digest_per_board")
        ]
        verbose_name = _("scored board")
        verbose_name_plural = _("scored boards")

    def __str__(self):
        return f"{self.session_id}/{self.board}"


class SessionStanding(models.Model):
    """A pair's session total and place; `field` is the line it is ranked in (NS, EW, or '' together)."""

    session = models.ForeignKey(
        "bridge.PairSession", on_delete=models.CASCADE, related_name="standings", **COMPUTED
    )
    version = models.ForeignKey(
        "bridge.ResultVersion", on_delete=models.PROTECT, related_name="+", **COMPUTED
    )
    pair = models.ForeignKey(
        "bridge.SessionPair", on_delete=models.CASCADE, related_name="standings", **COMPUTED
    )
    field = models.CharField(_("field"), max_length=2, blank=True)
    direction = models.CharField(_("direction"), max_length=2, blank=True)
    total = models.DecimalField(_("total"), max_digits=10, decimal_places=2)
    top = models.DecimalField(_("top"), **MP)
    percentage = models.DecimalField(_("percentage"), **PCT)
    boards = models.PositiveSmallIntegerField(_("boards"))
    penalty = models.DecimalField(_("penalty"), max_digits=10, decimal_places=2, default=0)
    place = models.CharField(_("place"), max_length=12)
    place_from = models.PositiveIntegerField()
    place_to = models.PositiveIntegerField()
    order = models.PositiveIntegerField()

    class Meta:
        ordering = ["session", "field", "order"]
        constraints = [
            models.UniqueConstraint(fields=["session", "pair"], name="bridge_one_standing_per_pair")
        ]
        verbose_name = _("session standing")
        verbose_name_plural = _("session standings")

    def __str__(self):
        return f"{self.session_id} {self.place}. {self.pair_id}"


class EventStanding(models.Model):
    """A pair's event total and final place, with each player's right to masterpoints (VSz 25)."""

    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, related_name="bridge_standings", **COMPUTED
    )
    pair = models.ForeignKey("bridge.Pair", on_delete=models.CASCADE, related_name="standings", **COMPUTED)
    event_version = models.PositiveIntegerField(_("event version"))
    field = models.CharField(_("field"), max_length=2, blank=True)
    total = models.DecimalField(_("total"), max_digits=10, decimal_places=2)
    top = models.DecimalField(_("top"), **MP)
    percentage = models.DecimalField(_("percentage"), **PCT)
    boards = models.PositiveSmallIntegerField(_("boards"))
    sessions = models.JSONField(_("per session"), default=list)
    rights = models.JSONField(_("players and rights"), default=list)
    place = models.CharField(_("place"), max_length=12)
    place_from = models.PositiveIntegerField()
    place_to = models.PositiveIntegerField()
    order = models.PositiveIntegerField()

    class Meta:
        ordering = ["event", "field", "order"]
        constraints = [models.UniqueConstraint(fields=["event", "pair"], name="bridge_one_event_standing")]
        verbose_name = _("event standing")
        verbose_name_plural = _("event standings")

    def __str__(self):
        return f"{self.event_id} {self.place}. {self.pair_id}"


class HandRecord(models.Model):
    """A board's deal with its double-dummy tricks and par, computed once (DDS is slow) and stored."""

    session = models.ForeignKey("bridge.PairSession", on_delete=models.CASCADE, related_name="hand_records")
    board = models.PositiveSmallIntegerField(_("board"))
    deal = models.CharField(_("deal"), max_length=80)
    dealer = models.CharField(_("dealer"), max_length=1)
    vulnerability = models.CharField(_("vulnerability"), max_length=4)
    tricks = models.JSONField(
        _("double-dummy tricks"), default=dict, help_text=_("declarer -> strain -> tricks")
    )
    par_score = models.IntegerField(_("par score (N-S)"), null=True, blank=True)
    par_contracts = models.CharField(_("par contracts"), max_length=200, blank=True)

    class Meta:
        ordering = ["session", "board"]
        constraints = [models.UniqueConstraint(fields=["session", "board"], name="bridge_one_hand_record")]
        verbose_name = _("hand record")
        verbose_name_plural = _("hand records")

    def __str__(self):
        return f"{self.session_id}/{self.board}"
