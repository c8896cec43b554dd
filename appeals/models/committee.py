"""A federation's appeals settings and an event's Appeals Committee (VSz 9: three members, two alternates)."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from federation.models import Federation, Person
from federation.services.notifications import address_of

# VSz 9: "legalább három tagból álló Óvási Bizottság ... két póttaggal".
MIN_MEMBERS = 3
MIN_ALTERNATES = 2
# VSz 22: the second-instance appeal is due "egy héten belül".
SECOND_INSTANCE_DAYS = 7


class FederationSettings(models.Model):
    """How a federation runs its appeals; a federation without a row gets the defaults of `for_federation`."""

    federation = models.OneToOneField(
        Federation, on_delete=models.CASCADE, related_name="appeals_settings", verbose_name=_("federation")
    )
    committee_required = models.BooleanField(
        _("events need an appeals committee to start"),
        default=True,
        help_text=_("VSz 9 requires one at every bridge event."),
    )
    anonymise_public = models.BooleanField(
        _("anonymise published cases"),
        default=False,
        help_text=_("The public sees decided cases without the players' names."),
    )
    second_instance_deposit = models.PositiveIntegerField(
        _("second-instance deposit (Ft)"), default=0, help_text=_("Integer forints.")
    )
    second_instance_days = models.PositiveSmallIntegerField(
        _("days to appeal to the second instance"), default=SECOND_INSTANCE_DAYS
    )

    class Meta:
        verbose_name = _("appeals settings")
        verbose_name_plural = _("appeals settings")

    def __str__(self):
        return str(self.federation)

    @classmethod
    def for_federation(cls, federation) -> "FederationSettings":
        """The stored settings, else unsaved defaults: a committee is required where the VSz says so (bridge)."""
        found = cls.objects.filter(federation=federation).first()
        if found is not None:
            return found
        return cls(federation=federation, committee_required=federation.game == Federation.BRIDGE)


class Committee(models.Model):
    """The Appeals Committee (Óvási Bizottság) the director and the organisers form at the start of an event."""

    event = models.OneToOneField(
        "tournaments.Event",
        on_delete=models.CASCADE,
        related_name="appeals_committee",
        verbose_name=_("event"),
    )
    formed_at = models.DateTimeField(_("formed at"), default=timezone.now)
    formed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = _("appeals committee")
        verbose_name_plural = _("appeals committees")

    def __str__(self):
        return str(self.event)

    def regular_members(self):
        """The members serving now (one who left with the director's consent stays in the history)."""
        return [m for m in self.members.all() if not m.is_alternate and m.left_at is None]

    def alternates(self):
        return [m for m in self.members.all() if m.is_alternate and m.left_at is None]

    def former_members(self):
        return [m for m in self.members.all() if m.left_at is not None]

    @property
    def is_complete(self) -> bool:
        return len(self.regular_members()) >= MIN_MEMBERS and len(self.alternates()) >= MIN_ALTERNATES


class CommitteeMember(models.Model):
    """A member or an alternate (tartalék tag); the login is what lets him act, the person what he played."""

    committee = models.ForeignKey(Committee, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="appeals_memberships"
    )
    person = models.ForeignKey(
        Person, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("person")
    )
    is_alternate = models.BooleanField(_("alternate"), default=False)
    added_at = models.DateTimeField(default=timezone.now)
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # Leaving (VSz 9: "csak a tornavezető hozzájárulásával távozhatnak"): the member asks, the director
    # consents, an alternate steps in; the row stays as the record of who served.
    leave_requested_at = models.DateTimeField(_("asked to leave at"), null=True, blank=True)
    leave_reason = models.CharField(_("reason for leaving"), max_length=300, blank=True)
    left_at = models.DateTimeField(_("left at"), null=True, blank=True)
    leave_consented_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    replaces = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="replaced_by",
        verbose_name=_("stepped in for"),
    )
    stepped_in_at = models.DateTimeField(_("stepped in at"), null=True, blank=True)

    class Meta:
        ordering = ["is_alternate", "added_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["committee", "user"], name="one_seat_per_committee")]
        verbose_name = _("committee member")
        verbose_name_plural = _("committee members")

    def __str__(self):
        return self.name

    @property
    def event_id(self):
        return self.committee.event_id

    @property
    def is_serving(self) -> bool:
        return self.left_at is None

    @property
    def wants_to_leave(self) -> bool:
        return self.left_at is None and self.leave_requested_at is not None

    @property
    def name(self) -> str:
        if self.person_id:
            return self.person.full_name
        return self.user.get_full_name() or self.user.email or self.user.get_username()

    @property
    def email(self) -> str:
        # The login's address, or the member record's if the member chose it (profile page).
        return address_of(self.user) or (self.person.email if self.person_id else "")
