"""People and what the federation records about them: memberships, licences with their fees, suspensions."""

import datetime

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ..engine import age, text
from .organisations import Club, Federation, Region


class Person(models.Model):
    FEMALE, MALE = "F", "M"
    GENDERS = [(FEMALE, _("female")), (MALE, _("male"))]

    first_name = models.CharField(_("first name"), max_length=100)
    last_name = models.CharField(_("last name"), max_length=100)
    birth_date = models.DateField(_("birth date"))
    gender = models.CharField(_("gender"), max_length=1, choices=GENDERS)
    citizenship = models.CharField(
        _("citizenship"), max_length=2, default="HU", help_text=_("ISO country code")
    )
    resident_in_hungary = models.BooleanField(_("resident in Hungary"), default=True)
    email = models.EmailField(_("e-mail"), blank=True)
    phone = models.CharField(_("phone"), max_length=40, blank=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="person"
    )
    # Where the portal's e-mail goes (federation.services.notifications.address_of): the login's address
    # unless the person chose the member record's on the profile page.
    MAIL_TO_ACCOUNT, MAIL_TO_MEMBER = "account", "member"
    MAIL_TO_CHOICES = [
        (MAIL_TO_ACCOUNT, _("the address I log in with")),
        (MAIL_TO_MEMBER, _("the address in my member record")),
    ]
    mail_to = models.CharField(
        _("send e-mail to"), max_length=10, choices=MAIL_TO_CHOICES, default=MAIL_TO_ACCOUNT
    )
    # "last first" folded by federation.engine.text.search_key on every save (the search's column; on
    # PostgreSQL a trigram index, migration 0007). Bulk writes must fill it themselves.
    search_name = models.CharField(max_length=201, blank=True, editable=False)
    # The legal basis of keeping the record (GDPR art. 6), recorded by whoever enters a person without an
    # account (a club admin, staff); a person who registers gives consent on the registration form instead
    # (PrivacyConsent).
    BASIS_CONSENT, BASIS_MEMBERSHIP, BASIS_LEGITIMATE = "consent", "membership", "legitimate"
    DATA_BASES = [
        (BASIS_CONSENT, _("written consent of the person")),
        (BASIS_MEMBERSHIP, _("membership of a federation club (contract)")),
        (BASIS_LEGITIMATE, _("legitimate interest of the federation (results of events)")),
    ]
    data_basis = models.CharField(_("legal basis of the data"), max_length=12, choices=DATA_BASES, blank=True)
    data_basis_recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("legal basis recorded by"),
    )
    data_basis_recorded_at = models.DateTimeField(_("legal basis recorded at"), null=True, blank=True)
    # Set when the record was anonymised on an erasure request (federation.services.erasure): the results
    # and masterpoints stay attached to it.
    anonymised_at = models.DateTimeField(_("anonymised at"), null=True, blank=True)

    class Meta:
        ordering = ["last_name", "first_name"]
        verbose_name = _("person")
        verbose_name_plural = _("people")
        indexes = [models.Index(fields=["last_name", "first_name"])]

    def __str__(self):
        # Hungarian order: family name first.
        return f"{self.last_name} {self.first_name}"

    def save(self, *args, **kwargs):
        self.search_name = text.search_key(f"{self.last_name} {self.first_name}")
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], "search_name"}
        super().save(*args, **kwargs)

    @property
    def full_name(self):
        return str(self)

    def age_category(self, on: datetime.date) -> str:
        return age.category(self.birth_date, on)

    def is_junior(self, on: datetime.date) -> bool:
        return age.is_junior(self.birth_date, on)

    def is_senior(self, on: datetime.date) -> bool:
        return age.is_senior(self.birth_date, on)

    def active_suspension(self, federation, on: datetime.date):
        return (
            self.suspensions.filter(federation=federation, starts_on__lte=on)
            .filter(Q(ends_on__isnull=True) | Q(ends_on__gte=on))
            .first()
        )

    def membership(self, federation):
        return self.memberships.filter(federation=federation, is_active=True).first()

    def has_licence(self, year: int, federation=None) -> bool:
        valid = self.licences.filter(year=year, revoked_at__isnull=True)
        return (valid.filter(federation=federation) if federation is not None else valid).exists()


class Membership(models.Model):
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="memberships")
    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="memberships")
    member_number = models.CharField(_("member number"), max_length=20)
    club = models.ForeignKey(Club, on_delete=models.PROTECT, null=True, blank=True, related_name="members")
    region = models.ForeignKey(Region, on_delete=models.PROTECT, null=True, blank=True)
    joined_on = models.DateField(_("joined on"), default=datetime.date.today)
    is_active = models.BooleanField(_("active"), default=True)

    class Meta:
        ordering = ["federation", "member_number"]
        constraints = [
            models.UniqueConstraint(fields=["federation", "member_number"], name="unique_member_number"),
            models.UniqueConstraint(fields=["federation", "person"], name="one_membership_per_federation"),
        ]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")

    def __str__(self):
        return f"{self.person} ({self.federation} {self.member_number})"

    def clean(self):
        if self.club_id and self.club.federation_id != self.federation_id:
            raise ValidationError({"club": _("The club belongs to another federation.")})
        if self.region_id and self.region.federation_id != self.federation_id:
            raise ValidationError({"region": _("The region belongs to another federation.")})

    @property
    def playing_region(self):
        """A player plays in his club's region unless a region of his own is recorded."""
        if self.region_id:
            return self.region
        return self.club.region if self.club_id else None


class Licence(models.Model):
    """Ulti competition licence (versenyengedély), valid for one calendar year."""

    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="licences")
    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="licences")
    year = models.PositiveIntegerField(_("year"))
    number = models.CharField(_("licence number"), max_length=30, blank=True)
    issued_on = models.DateField(_("issued on"), default=datetime.date.today)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("issued by"),
    )
    # A revoked licence is kept (who, when, why) and no longer counts (Person.has_licence).
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("revoked by"),
    )
    revoke_reason = models.TextField(_("reason of revocation"), blank=True)

    class Meta:
        ordering = ["-year"]
        constraints = [
            models.UniqueConstraint(fields=["person", "federation", "year"], name="one_licence_per_year")
        ]
        verbose_name = _("licence")
        verbose_name_plural = _("licences")

    def __str__(self):
        return f"{self.person} {self.year}"

    @property
    def is_valid(self):
        return self.revoked_at is None


class LicenceFee(models.Model):
    """What a licence costs its holder: bought on entry to an event (MAUSZ V.11 (3)) it is owed until paid.

    Its own record, apart from the entry's fee and payments (tournaments), so the federation's licence money
    is never mixed with an organiser's entry fees; `entry` says on which entry it was bought."""

    licence = models.OneToOneField(Licence, on_delete=models.CASCADE, related_name="fee")
    amount = models.PositiveIntegerField(_("amount (Ft)"))
    entry = models.ForeignKey(
        "tournaments.Entry",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="licence_fees",
        verbose_name=_("bought on entry"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    paid_at = models.DateTimeField(_("paid at"), null=True, blank=True)
    paid_recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("payment recorded by"),
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("licence fee")
        verbose_name_plural = _("licence fees")

    def __str__(self):
        return f"{self.licence}: {self.amount} Ft"

    @property
    def federation_id(self):
        return self.licence.federation_id

    @property
    def is_paid(self):
        return self.paid_at is not None


class Suspension(models.Model):
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="suspensions")
    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="suspensions")
    starts_on = models.DateField(_("from"))
    ends_on = models.DateField(_("until"), null=True, blank=True, help_text=_("Empty: indefinite."))
    reason = models.TextField(_("reason"))
    decided_by = models.CharField(_("decided by"), max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_on"]
        verbose_name = _("suspension")
        verbose_name_plural = _("suspensions")

    def __str__(self):
        return f"{self.person}: {self.starts_on} - {self.ends_on or '...'}"

    def clean(self):
        if self.ends_on and self.ends_on < self.starts_on:
            raise ValidationError({"ends_on": _("The end date is before the start date.")})

    def covers(self, day: datetime.date) -> bool:
        return self.starts_on <= day and (self.ends_on is None or day <= self.ends_on)
