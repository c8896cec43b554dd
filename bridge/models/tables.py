"""Table entry (VSz 12, issue #18): a code per table of a session, and what the table's phones send.

A `TableCode` lets whoever holds it (the table's players, no account needed) enter the results of that
table's current round. Every entry is an append-only `TableEntry` row: North's result of a board, East's
confirmation or dispute of it. The idempotency `key` the phone sends makes a resend a no-op; `based_on`
names the entry the phone saw, so a second phone that has not seen the first one's result meets a conflict
instead of overwriting it. A confirmed result becomes a result version through the one upload seam
(`bridge.services.uploads`, source "table entry").
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from federation.immutable import AppendOnly
from tournaments.engine import table_codes


class TableCode(models.Model):
    """The code of one table of one section of a session: printed on the table's card, typed on a phone."""

    session = models.ForeignKey(
        "bridge.PairSession",
        on_delete=models.CASCADE,
        related_name="table_codes",
        verbose_name=pgettext_lazy("bridge", "session"),
    )
    section = models.ForeignKey("bridge.Section", on_delete=models.CASCADE, related_name="table_codes")
    table = models.PositiveSmallIntegerField(_("table"))
    # Unique over every session, open or not: a code never names two tables.
    code = models.CharField(_("table code"), max_length=table_codes.CODE_LENGTH, unique=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["session", "section", "table"]
        constraints = [
            models.UniqueConstraint(fields=["section", "table"], name="bridge_one_code_per_table"),
        ]
        verbose_name = _("table code")
        verbose_name_plural = _("table codes")

    def __str__(self):
        return f"{self.section} {self.table}: {self.code}"

    @property
    def event(self):
        return self.session.event


class TableEntry(AppendOnly):
    """One thing a table's phone sent: a board's result (North), or its confirmation or dispute (East)."""

    class Kind(models.TextChoices):
        RESULT = "result", _("result entered")
        CONFIRM = "confirm", _("confirmed")
        DISPUTE = "dispute", _("disputed")
        # The director's own correction (VSz 12, countersigned by him): the board's result and its answer at
        # once, written as a correction version.
        CORRECTION = "director", _("corrected by the director")

    code = models.ForeignKey(TableCode, on_delete=models.PROTECT, related_name="entries")
    kind = models.CharField(_("entry"), max_length=8, choices=Kind.choices)
    key = models.CharField(_("idempotency key"), max_length=64)
    round = models.PositiveSmallIntegerField(_("round"))
    board = models.PositiveSmallIntegerField(_("board"))
    ns = models.ForeignKey("bridge.SessionPair", on_delete=models.PROTECT, related_name="+")
    ew = models.ForeignKey("bridge.SessionPair", on_delete=models.PROTECT, related_name="+")
    # A result: the engine's notation ("4S", "N", "HT"), checked and scored before it is stored.
    contract = models.CharField(_("contract"), max_length=6, blank=True)
    declarer = models.CharField(_("declarer"), max_length=1, blank=True)
    lead = models.CharField(_("lead"), max_length=3, blank=True)
    tricks = models.PositiveSmallIntegerField(_("tricks"), null=True, blank=True)
    score = models.IntegerField(_("N-S score"), null=True, blank=True)
    # The entry the phone saw last for this board (a result: the one it replaces; a confirmation or
    # dispute: the result it answers); empty: it saw none.
    based_on = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("based on")
    )
    note = models.CharField(_("note"), max_length=300, blank=True)
    # A confirmation: the result version it wrote (empty when the director's word was needed first).
    version = models.ForeignKey(
        "bridge.ResultVersion", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    problem = models.CharField(_("not applied because"), max_length=500, blank=True)
    created_at = models.DateTimeField(_("entered at"), auto_now_add=True)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["code", "key"], name="bridge_one_table_entry_per_key"),
        ]
        indexes = [models.Index(fields=["code", "board"])]
        verbose_name = _("table entry")
        verbose_name_plural = _("table entries")

    def __str__(self):
        return f"{self.code_id} #{self.board} {self.kind} {self.contract} {self.score}"


class RoundClock(models.Model):
    """The director started the clock of a round of a session (VSz 31): its start and its time limit.

    Rows are only added: starting a round's clock again writes a new row, and the latest row of a round
    is its clock (the earlier ones say when it was started before)."""

    session = models.ForeignKey(
        "bridge.PairSession",
        on_delete=models.CASCADE,
        related_name="round_clocks",
        verbose_name=pgettext_lazy("bridge", "session"),
    )
    round = models.PositiveSmallIntegerField(_("round"))
    started_at = models.DateTimeField(_("started at"))
    minutes = models.PositiveSmallIntegerField(_("time limit (minutes)"))
    screens_or_beginners = models.BooleanField(_("screens or beginners"), default=False)
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["session", "-started_at", "-pk"]
        verbose_name = _("round clock")
        verbose_name_plural = _("round clocks")

    def __str__(self):
        return f"{self.session} round {self.round}: {self.started_at:%H:%M} +{self.minutes}'"


class RoundCall(AppendOnly):
    """The director called a round (\"next round\", VSz 31) with its announcement: every table's phone
    moves on to it (or later), whatever boards of earlier rounds are still open (the director settles those).

    Rows are only added; the highest round called is the session's."""

    session = models.ForeignKey(
        "bridge.PairSession",
        on_delete=models.CASCADE,
        related_name="round_calls",
        verbose_name=pgettext_lazy("bridge", "session"),
    )
    round = models.PositiveSmallIntegerField(_("round"))
    announcement = models.CharField(_("announcement"), max_length=300, blank=True)
    called_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    called_at = models.DateTimeField(_("called at"), auto_now_add=True)

    class Meta:
        ordering = ["session", "-round", "-pk"]
        verbose_name = _("round call")
        verbose_name_plural = _("round calls")

    def __str__(self):
        return f"{self.session} round {self.round}"
