"""How a pair event is laid out: scoring settings, sessions, sections with their movement, pairs."""

from functools import lru_cache

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from bridge.engine import movements

from .dealing import SessionStart


class PairEvent(models.Model):
    """Scoring settings of a tournaments.Event played as a pairs event (one row per event)."""

    class Method(models.TextChoices):
        MATCHPOINTS = "mp", _("matchpoints")
        CROSS_IMPS = "cross-imps", _("cross-IMPs")
        BUTLER = "butler", _("Butler (IMPs against a datum)")
        TOTAL_POINTS = "total", _("total points (Law 78C)")

    class Rounding(models.TextChoices):
        COMPUTER = "computer", _("by computer (hundredths)")
        HAND = "hand", _("by hand (tenths, whole session totals)")

    class TieBreak(models.TextChoices):
        # bridge.engine.scoring.tiebreak.TieBreak: the values must stay the same.
        SHARED = "shared", _("none: equal totals share the place (VSz 26)")
        HEAD_TO_HEAD = "head_to_head", _("head-to-head: matchpoints scored against each other")
        BEST_BOARDS = "best_boards", _("best boards: more boards above average, then more tops")

    event = models.OneToOneField("tournaments.Event", on_delete=models.CASCADE, related_name="bridge_pairs")
    method = models.CharField(_("scoring"), max_length=12, choices=Method.choices, default=Method.MATCHPOINTS)
    scale = models.PositiveSmallIntegerField(
        _("matchpoints per result beaten"), choices=[(1, "1"), (2, "2")], default=2
    )
    rounding = models.CharField(
        _("rounding"), max_length=10, choices=Rounding.choices, default=Rounding.COMPUTER
    )
    tie_break = models.CharField(
        _("announced tie-break"),
        max_length=12,
        choices=TieBreak.choices,
        default=TieBreak.SHARED,
        help_text=_("Only a method announced before the event may separate equal totals (VSz 26)."),
    )

    class PhoneFrequencies(models.TextChoices):
        ALL_TABLES = "all", _("once the board has been played at every table")
        AFTER_ROUND = "round", _("as soon as the table has finished the round")
        NEVER = "never", _("not at the table")

    # Issue #18: when a table's phone shows the frequency of a board it has played.
    phone_frequencies = models.CharField(
        _("frequencies on the table's phone"),
        max_length=6,
        choices=PhoneFrequencies.choices,
        default=PhoneFrequencies.ALL_TABLES,
    )

    class Meta:
        verbose_name = _("pair event")
        verbose_name_plural = _("pair events")

    def __str__(self):
        return str(self.event)


class PairSession(models.Model):
    """A session (forduló) of a pair event; its start time is the announcement's."""

    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="pair_sessions")
    number = models.PositiveSmallIntegerField(pgettext_lazy("bridge", "session"))
    announced = models.OneToOneField(
        "tournaments.Session",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="pair_session",
        verbose_name=_("announced session"),
    )
    boards = models.PositiveSmallIntegerField(_("boards in play"), default=0)
    published_at = models.DateTimeField(_("results published"), null=True, blank=True)
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["event", "number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="bridge_one_session_number")]
        # A context: Django's own catalogue has "session" for the login session (munkamenet).
        verbose_name = pgettext_lazy("bridge", "session")
        verbose_name_plural = pgettext_lazy("bridge", "sessions")

    def __str__(self):
        if self.announced_id and self.announced.name:
            return self.announced.name
        return _("Session %(number)s") % {"number": self.number}

    @property
    def starts_at(self):
        return self.announced.starts_at if self.announced_id else None

    def has_started(self) -> bool:
        """Whether the session's start is recorded (bridge.SessionStart): once true, true for ever. The
        announced start time alone opens nothing, since it can still be moved (issue #15)."""
        return self.pk is not None and SessionStart.objects.filter(session_id=self.pk).exists()

    def start_time_passed(self, now=None) -> bool:
        """The announced start is behind us (deals are dealt before it); not a reason to open them."""
        start = self.starts_at
        return start is not None and start <= (now or timezone.now())

    @property
    def is_published(self) -> bool:
        return self.published_at is not None

    def next_session(self):
        return (
            PairSession.objects.filter(event_id=self.event_id, number__gt=self.number)
            .order_by("number")
            .first()
        )


class Section(models.Model):
    """A section of a session and its movement (generated, or taken from the uploaded results)."""

    class Movement(models.TextChoices):
        MITCHELL = "mitchell", _("Mitchell")
        HOWELL = "howell", _("Howell")
        UPLOADED = "uploaded", _("from the uploaded results")

    class EvenMethod(models.TextChoices):
        SKIP = "skip", _("skip")
        RELAY = "relay", _("relay and bye-stand")

    session = models.ForeignKey(PairSession, on_delete=models.CASCADE, related_name="sections")
    letter = models.CharField(_("section"), max_length=2, default="A")
    movement = models.CharField(_("movement"), max_length=10, choices=Movement.choices)
    tables = models.PositiveSmallIntegerField(_("tables"), default=0)
    boards_per_round = models.PositiveSmallIntegerField(_("boards per round"), default=2)
    rounds = models.PositiveSmallIntegerField(_("rounds"), null=True, blank=True)
    even_method = models.CharField(
        _("even number of tables"), max_length=6, choices=EvenMethod.choices, default=EvenMethod.SKIP
    )
    arrow_switch_rounds = models.JSONField(_("arrow-switched rounds"), default=list, blank=True)
    howell_pairs = models.PositiveSmallIntegerField(_("pairs in the Howell"), null=True, blank=True)

    class Meta:
        ordering = ["session", "letter"]
        constraints = [
            models.UniqueConstraint(fields=["session", "letter"], name="bridge_one_section_letter")
        ]
        verbose_name = _("section")
        verbose_name_plural = _("sections")

    def __str__(self):
        return f"{self.session} {self.letter}"

    @property
    def event(self):
        return self.session.event

    def plan(self) -> movements.Movement | None:
        """The generated movement (pure: built once per process for the same settings, a frozen value);
        None when the upload defines who met whom."""
        if self.movement == self.Movement.MITCHELL:
            return _mitchell(
                self.tables,
                self.boards_per_round,
                self.rounds,
                self.even_method,
                tuple(self.arrow_switch_rounds or ()),
            )
        if self.movement == self.Movement.HOWELL:
            return _howell(self.howell_pairs or 2 * self.tables, self.boards_per_round)
        return None


# A 100-table Mitchell is 1,600 table rounds: the table phones, the live pages and the recompute ask for
# it on every request (bench/live), so the movements (frozen dataclasses of tuples) are kept.
_mitchell = lru_cache(maxsize=256)(movements.mitchell)
_howell = lru_cache(maxsize=256)(movements.howell)


class Pair(models.Model):
    """A pair of the event (across its sessions), usually one tournaments entry."""

    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="bridge_pair_set")
    entry = models.OneToOneField(
        "tournaments.Entry", on_delete=models.PROTECT, null=True, blank=True, related_name="bridge_pair"
    )
    player1 = models.ForeignKey(
        "federation.Person", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    player2 = models.ForeignKey(
        "federation.Person", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    name = models.CharField(_("name"), max_length=200, blank=True, help_text=_("When no players are linked."))

    class Meta:
        ordering = ["event", "pk"]
        verbose_name = _("pair")
        verbose_name_plural = _("pairs of an event")

    def __str__(self):
        return self.display_name

    @property
    def display_name(self) -> str:
        names = [str(p) for p in (self.player1, self.player2) if p is not None]
        return " – ".join(names) if names else self.name or f"#{self.pk}"

    @property
    def player_ids(self) -> tuple[int, ...]:
        return tuple(pid for pid in (self.player1_id, self.player2_id) if pid)


class SessionPair(models.Model):
    """A pair's number and home direction in one section of one session."""

    class Direction(models.TextChoices):
        NS = "NS", _("N-S")
        EW = "EW", _("E-W")
        NONE = "", _("both")

    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="pairs")
    pair = models.ForeignKey(Pair, on_delete=models.PROTECT, related_name="seats")
    number = models.PositiveSmallIntegerField(_("pair number"))
    direction = models.CharField(_("direction"), max_length=2, choices=Direction.choices, blank=True)

    class Meta:
        ordering = ["section", "number", "direction"]
        constraints = [
            models.UniqueConstraint(fields=["section", "number", "direction"], name="bridge_one_pair_number")
        ]
        verbose_name = _("pair in a session")
        verbose_name_plural = _("pairs in a session")

    def __str__(self):
        return f"{self.code} {self.pair}"

    @property
    def code(self) -> str:
        """Section letter and number ("B7"): what files use when a session has several sections."""
        return f"{self.section.letter}{self.number}"

    @property
    def event(self):
        return self.pair.event
