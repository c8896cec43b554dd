"""Entries, their members, payments and the entry history (waiting list included)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from federation.immutable import AppendOnly
from federation.models import Club, Person

from .events import Division, Event


class Entry(models.Model):
    """An entry (nevezés): one player, a pair or a team. Holds a place (active) or waits for one."""

    class Status(models.TextChoices):
        ACTIVE = "active", _("entered")
        WAITING = "waiting", _("on the waiting list")
        WITHDRAWN = "withdrawn", _("withdrawn")
        DECLINED = "declined", _("declined by the partner")

    class SeatingRequest(models.TextChoices):
        # VSz 10: who asks for a non-smoking place plays at least half of the event in one.
        NON_SMOKING = "non_smoking", _("non-smoking table")
        STATIONARY = "stationary", _("stationary table (mobility)")
        OTHER = "other", _("other (see the note)")

    event = models.ForeignKey(
        Event, on_delete=models.PROTECT, related_name="entries", verbose_name=_("event")
    )
    division = models.ForeignKey(
        Division,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="entries",
        verbose_name=_("division"),
    )
    team_name = models.CharField(_("team name"), max_length=100, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.ACTIVE)
    waiting_since = models.DateTimeField(_("on the waiting list since"), null=True, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("entered by"),
    )
    entered_at = models.DateTimeField(_("entered at"), default=timezone.now)
    by_organiser = models.BooleanField(_("entered by the organiser"), default=False)
    late = models.BooleanField(_("late entry"), default=False)
    division_moved_at = models.DateTimeField(_("moved to another division"), null=True, blank=True)
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    withdrawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("withdrawn by"),
    )
    fee_waived = models.BooleanField(
        _("no fee owed"),
        default=False,
        help_text=_("Withdrew after being moved to another division (VSz 5)."),
    )
    no_show = models.BooleanField(_("did not show up"), default=False)
    # Recorded by the organiser or director once play had started (Event.has_started): a VSz 25 withdrawal
    # during play. Its place is not given to the waiting list.
    withdrawn_during_play = models.BooleanField(_("withdrew during play"), default=False)
    seating_request = models.CharField(
        _("seating request"), max_length=12, choices=SeatingRequest.choices, blank=True
    )
    seating_note = models.CharField(_("seating note"), max_length=200, blank=True)

    class Meta:
        ordering = ["event", "entered_at", "pk"]
        indexes = [models.Index(fields=["event", "status"])]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")

    def __str__(self):
        return self.display_name

    @property
    def display_name(self):
        names = " – ".join(m.person.full_name for m in self.members.all())
        return f"{self.team_name} ({names})" if self.team_name else names

    @property
    def is_confirmed(self):
        return all(m.confirmed_at for m in self.members.all())

    @property
    def is_open(self):
        return self.status in (self.Status.ACTIVE, self.Status.WAITING)

    def waiting_position(self):
        if self.status != self.Status.WAITING:
            return None
        ahead = self.event.entries.filter(status=self.Status.WAITING).filter(
            Q(waiting_since__lt=self.waiting_since) | Q(waiting_since=self.waiting_since, pk__lt=self.pk)
        )
        return ahead.count() + 1


class EntryMember(models.Model):
    """A player of an entry; the partner of a pair confirms online (confirmed_at)."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="members")
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="entry_memberships")
    position = models.PositiveSmallIntegerField(_("position"), default=1)
    line = models.CharField(_("line"), max_length=1, blank=True, help_text=_("Ulti teams: A, B or C."))
    is_captain = models.BooleanField(_("captain"), default=False)
    # The club shown in public lists, as it was when the entry was made.
    home_club = models.ForeignKey(Club, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    confirmed_at = models.DateTimeField(null=True, blank=True)
    # A team member who said no: the entry stays, pending, until the captain names someone else.
    declined_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["entry", "position"]
        constraints = [models.UniqueConstraint(fields=["entry", "person"], name="one_person_once_per_entry")]
        verbose_name = _("entry member")
        verbose_name_plural = _("entry members")

    def __str__(self):
        return f"{self.person} ({self.entry_id})"


class Payment(AppendOnly):
    """A payment towards an entry's fee, or a refund (a negative amount with its reason). Never changed or
    deleted: a mistake is put right by a refund row or a further payment."""

    class Method(models.TextChoices):
        CASH = "cash", _("cash on site")
        TRANSFER = "transfer", _("bank transfer")
        CARD = "card", _("card at the club")

    class Payee(models.TextChoices):
        ORGANISER = "organiser", _("the organiser")
        FEDERATION = "federation", _("the federation")

    entry = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="payments", verbose_name=_("entry")
    )
    amount = models.IntegerField(_("amount (Ft)"), help_text=_("Integer forints; a refund is negative."))
    method = models.CharField(_("method"), max_length=10, choices=Method.choices)
    paid_on = models.DateField(_("date"))
    payee = models.CharField(_("received by"), max_length=10, choices=Payee.choices, default=Payee.ORGANISER)
    note = models.TextField(_("note"), blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("recorded by")
    )
    recorded_at = models.DateTimeField(_("recorded at"), default=timezone.now)
    # A line of an imported bank statement (engine.bank_statement): booked once, however often imported.
    bank_fingerprint = models.CharField(max_length=64, null=True, blank=True, unique=True, editable=False)

    class Meta:
        ordering = ["entry", "recorded_at", "pk"]
        constraints = [models.CheckConstraint(condition=~Q(amount=0), name="payment_amount_not_zero")]
        verbose_name = _("payment")
        verbose_name_plural = _("payments")

    def __str__(self):
        return f"{self.entry_id} {self.amount} Ft {self.paid_on:%Y-%m-%d}"

    @property
    def is_refund(self):
        return self.amount < 0


class EntryChange(models.Model):
    """A partner or team member replaced before the deadline: pending until the newcomer accepts.

    Kept whatever happens to it (the audit of who asked, when, whom for whom, and how it ended).
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("awaiting the newcomer")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined by the newcomer")
        CANCELLED = "cancelled", _("superseded or cancelled")

    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="changes")
    old_person = models.ForeignKey(
        Person, on_delete=models.PROTECT, related_name="+", verbose_name=_("player replaced")
    )
    new_person = models.ForeignKey(
        Person, on_delete=models.PROTECT, related_name="entry_changes_offered", verbose_name=_("newcomer")
    )
    position = models.PositiveSmallIntegerField(_("position"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    requested_at = models.DateTimeField(_("asked at"), default=timezone.now)
    by_organiser = models.BooleanField(_("asked by the organiser"), default=False)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)

    class Meta:
        ordering = ["entry", "requested_at", "pk"]
        verbose_name = _("entry change")
        verbose_name_plural = _("entry changes")

    def __str__(self):
        return f"{self.entry_id}: {self.old_person} -> {self.new_person} ({self.status})"
