"""Federations, regions, clubs, people, memberships, licences, suspensions and roles."""

import datetime

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .engine import age, text


class Federation(models.Model):
    BRIDGE = "bridge"
    ULTI = "ulti"
    GAMES = [(BRIDGE, _("Bridge")), (ULTI, _("Ulti"))]

    code = models.SlugField(_("code"), max_length=16, unique=True)
    name = models.CharField(_("name"), max_length=200)
    short_name = models.CharField(_("short name"), max_length=20)
    game = models.CharField(_("game"), max_length=10, choices=GAMES)
    website = models.URLField(_("website"), blank=True)
    # What a competition licence costs when a player buys it on entry (MAUSZ V.11 (3)); set by the board
    # each year, so kept here and not in the code.
    licence_fee = models.PositiveIntegerField(_("licence fee (Ft)"), default=0)

    class Meta:
        ordering = ["code"]
        verbose_name = _("federation")
        verbose_name_plural = _("federations")

    def __str__(self):
        return self.short_name


class Region(models.Model):
    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="regions")
    code = models.SlugField(_("code"), max_length=32)
    name = models.CharField(_("name"), max_length=100)

    class Meta:
        ordering = ["federation", "name"]
        unique_together = [("federation", "code")]
        verbose_name = _("region")
        verbose_name_plural = _("regions")

    def __str__(self):
        return self.name


class County(models.Model):
    """A Hungarian county (or Budapest); ulti regions are made of counties."""

    name = models.CharField(_("name"), max_length=60, unique=True)
    region = models.ForeignKey(
        Region, on_delete=models.SET_NULL, null=True, blank=True, related_name="counties"
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("county")
        verbose_name_plural = _("counties")

    def __str__(self):
        return self.name


class Club(models.Model):
    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="clubs")
    name = models.CharField(_("name"), max_length=200)
    short_name = models.CharField(_("short name"), max_length=40, blank=True)
    region = models.ForeignKey(Region, on_delete=models.PROTECT, null=True, blank=True, related_name="clubs")
    county = models.ForeignKey(County, on_delete=models.PROTECT, null=True, blank=True)
    postcode = models.CharField(_("postcode"), max_length=10, blank=True)
    city = models.CharField(_("city"), max_length=100)
    address = models.CharField(_("address"), max_length=200, blank=True)
    contact_name = models.CharField(_("contact person"), max_length=200, blank=True)
    email = models.EmailField(_("e-mail"), blank=True)
    phone = models.CharField(_("phone"), max_length=40, blank=True)
    website = models.URLField(_("website"), blank=True)
    is_active = models.BooleanField(_("active"), default=True)
    search_name = models.CharField(
        max_length=260, blank=True, editable=False
    )  # name, short name, city folded

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        self.search_name = text.search_key(" ".join(filter(None, [self.name, self.short_name, self.city])))
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], "search_name"}
        super().save(*args, **kwargs)


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


class Role(models.Model):
    """A role held by a user, scoped to one object: a federation, a club or an event."""

    FEDERATION_STAFF = "federation_staff"
    CLUB_ADMIN = "club_admin"
    DIRECTOR = "director"
    APPEALS = "appeals"
    ETHICS = "ethics"
    DISCIPLINARY = "disciplinary"
    KINDS = [
        (FEDERATION_STAFF, _("federation staff")),
        (CLUB_ADMIN, _("club administrator")),
        (DIRECTOR, _("tournament director")),
        (APPEALS, _("appeals committee member")),
        (ETHICS, _("rules and ethics committee member")),
        (DISCIPLINARY, _("disciplinary committee member")),
    ]
    # Which scope each kind needs: staff, the ethics and the disciplinary committees act for a federation,
    # a club admin for a club, a director and an appeals committee member for one event.
    SCOPE = {
        FEDERATION_STAFF: "federation",
        ETHICS: "federation",
        DISCIPLINARY: "federation",
        CLUB_ADMIN: "club",
        DIRECTOR: "event",
        APPEALS: "event",
    }

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="portal_roles")
    kind = models.CharField(_("role"), max_length=20, choices=KINDS)
    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, null=True, blank=True)
    club = models.ForeignKey(Club, on_delete=models.CASCADE, null=True, blank=True)
    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, null=True, blank=True)
    granted_at = models.DateTimeField(default=timezone.now)
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["kind"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "kind", "federation", "club", "event"], name="unique_role"
            )
        ]
        verbose_name = _("role")
        verbose_name_plural = _("roles")

    def __str__(self):
        return f"{self.user} - {self.get_kind_display()} ({self.scope_object})"

    @property
    def scope_object(self):
        return getattr(self, self.SCOPE[self.kind])

    def clean(self):
        needed = self.SCOPE.get(self.kind)
        given = {name for name in ("federation", "club", "event") if getattr(self, f"{name}_id")}
        if given != {needed}:
            raise ValidationError(
                _("A %(role)s role must name exactly one %(scope)s.")
                % {"role": self.get_kind_display(), "scope": needed}
            )


class MemberRequest(models.Model):
    """A registered user without a member record asks the federation to create one."""

    PENDING, APPROVED, REJECTED = "pending", "approved", "rejected"
    STATUSES = [(PENDING, _("pending")), (APPROVED, _("approved")), (REJECTED, _("rejected"))]

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="member_requests"
    )
    federation = models.ForeignKey(Federation, on_delete=models.CASCADE)
    club = models.ForeignKey(Club, on_delete=models.SET_NULL, null=True, blank=True)
    first_name = models.CharField(_("first name"), max_length=100)
    last_name = models.CharField(_("last name"), max_length=100)
    birth_date = models.DateField(_("birth date"))
    gender = models.CharField(_("gender"), max_length=1, choices=Person.GENDERS)
    note = models.TextField(_("note"), blank=True)
    status = models.CharField(_("status"), max_length=10, choices=STATUSES, default=PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    # The member record an approval created.
    person = models.ForeignKey(
        Person, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("person")
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("membership request")
        verbose_name_plural = _("membership requests")

    def __str__(self):
        return f"{self.last_name} {self.first_name} -> {self.federation}"


class Notification(models.Model):
    """Outbox of e-mails: written in the transaction that causes them, sent by a Celery task.

    A periodic sweep re-sends whatever is still pending, so a broker outage delays mail but loses none.
    Each attempt is counted in its own committed transaction before the mail is handed to the mail server;
    after NOTIFICATION_MAX_ATTEMPTS failed attempts the mail is marked failed with the last error, and
    federation staff see it on the outbox page.
    """

    recipient = models.EmailField(_("recipient"))
    subject = models.CharField(_("subject"), max_length=250)
    body = models.TextField()
    # The federation the mail is about, where the sender can tell (its staff see it on the outbox page).
    federation = models.ForeignKey(
        Federation, on_delete=models.SET_NULL, null=True, blank=True, related_name="notifications"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    failed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["sent_at"])]
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")

    def __str__(self):
        return f"{self.recipient}: {self.subject}"


class EmailVerification(models.Model):
    """A self-registered account waits here until its owner follows the link mailed to the address.

    The account stays inactive (cannot log in) until `verified_at` is set. Accounts made otherwise (staff,
    the demo, `createsuperuser`) have no row and count as verified.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="email_verification"
    )
    created_at = models.DateTimeField(default=timezone.now)
    verified_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("e-mail verification")
        verbose_name_plural = _("e-mail verifications")

    def __str__(self):
        return f"{self.user} ({'ok' if self.verified_at else '...'})"


class LinkRequest(models.Model):
    """An account asks to act as a member record; takes effect only when confirmed.

    With an e-mail on the member record the member confirms through a signed link mailed there; without
    one a club admin of the member's club or the federation's staff approves it. Until then the record's
    `user` stays empty, so the account cannot enter events or file appeals as that member.
    """

    PENDING, CONFIRMED, REJECTED, SUPERSEDED = "pending", "confirmed", "rejected", "superseded"
    STATUSES = [
        (PENDING, _("pending")),
        (CONFIRMED, _("confirmed")),
        (REJECTED, _("rejected")),
        (SUPERSEDED, _("superseded")),
    ]
    BY_EMAIL, BY_APPROVAL = "email", "approval"
    METHODS = [
        (BY_EMAIL, _("confirmation by e-mail")),
        (BY_APPROVAL, _("approval by the club or federation")),
    ]

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="link_requests",
        verbose_name=_("account"),
    )
    person = models.ForeignKey(
        Person, on_delete=models.CASCADE, related_name="link_requests", verbose_name=_("person")
    )
    # The membership's federation and club, copied so the role predicates find the request's scope.
    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, verbose_name=_("federation"))
    club = models.ForeignKey(Club, on_delete=models.SET_NULL, null=True, blank=True, verbose_name=_("club"))
    method = models.CharField(_("method"), max_length=10, choices=METHODS)
    status = models.CharField(_("status"), max_length=10, choices=STATUSES, default=PENDING)
    created_at = models.DateTimeField(_("requested at"), default=timezone.now)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("member link request")
        verbose_name_plural = _("member link requests")

    def __str__(self):
        return f"{self.user} -> {self.person} ({self.status})"


class QualifiedDirector(models.Model):
    """One qualification in a federation's register of tournament directors (VSz 9), kept by its staff.

    Renewing moves `valid_until`; revoking stamps `revoked_at`: the row stays, so the audit log and the
    events that named the director keep their record."""

    # The levels in rising order: a level covers every event a lower one does.
    CLUB, NATIONAL, INTERNATIONAL = "club", "national", "international"
    LEVELS = [
        (CLUB, _("club director")),
        (NATIONAL, _("national director")),
        (INTERNATIONAL, _("international director")),
    ]
    RANK = {CLUB: 1, NATIONAL: 2, INTERNATIONAL: 3}

    federation = models.ForeignKey(
        Federation, on_delete=models.PROTECT, related_name="directors", verbose_name=_("federation")
    )
    person = models.ForeignKey(
        Person, on_delete=models.PROTECT, related_name="director_qualifications", verbose_name=_("person")
    )
    level = models.CharField(_("qualification"), max_length=20, choices=LEVELS)
    valid_from = models.DateField(_("valid from"))
    valid_until = models.DateField(_("valid until"))
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    revoke_reason = models.TextField(_("reason of the revocation"), blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["person__last_name", "person__first_name", "-valid_until"]
        verbose_name = _("qualified director")
        verbose_name_plural = _("qualified directors")
        constraints = [
            models.CheckConstraint(
                condition=Q(valid_until__gte=models.F("valid_from")), name="director_valid_range"
            )
        ]

    def __str__(self):
        return f"{self.person} ({self.get_level_display()}, {self.valid_until:%Y.%m.%d.})"

    def covers(self, level: str) -> bool:
        return self.RANK[self.level] >= self.RANK[level]

    def is_valid_on(self, day: datetime.date) -> bool:
        return self.revoked_at is None and self.valid_from <= day <= self.valid_until

    @classmethod
    def valid_q(cls, first_day: datetime.date, last_day: datetime.date | None = None) -> Q:
        """Unrevoked qualifications valid over the whole span (an event's days)."""
        return Q(revoked_at__isnull=True, valid_from__lte=first_day, valid_until__gte=last_day or first_day)


# --- Personal data (GDPR) ------------------------------------------------------------------------------


class PrivacyConsent(models.Model):
    """An account accepted a version of the privacy notice (at registration, or again after a new one)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="privacy_consents"
    )
    notice_version = models.CharField(_("privacy notice version"), max_length=20)
    given_at = models.DateTimeField(_("given at"), default=timezone.now)

    class Meta:
        ordering = ["-given_at"]
        verbose_name = _("privacy consent")
        verbose_name_plural = _("privacy consents")

    def __str__(self):
        return f"{self.user} {self.notice_version}"


class ErasureRequest(models.Model):
    """A person asks for his personal data to be erased; carried out as anonymisation (who, when, state).

    The person files it; the staff of a federation he is a member of carry it out or refuse it, or the
    person carries it out himself after a confirmation step (his password)."""

    PENDING, DONE, REJECTED, CANCELLED = "pending", "done", "rejected", "cancelled"
    STATES = [
        (PENDING, _("pending")),
        (DONE, _("carried out")),
        (REJECTED, _("refused")),
        (CANCELLED, _("cancelled")),
    ]

    person = models.ForeignKey(
        Person, on_delete=models.PROTECT, related_name="erasure_requests", verbose_name=_("person")
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("requested by"),
    )
    requested_at = models.DateTimeField(_("requested at"), default=timezone.now)
    reason = models.TextField(_("reason"), blank=True)
    state = models.CharField(_("state"), max_length=10, choices=STATES, default=PENDING)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decision_note = models.TextField(_("note on the decision"), blank=True)
    # What was erased, field by field (names of fields, never their old values).
    erased = models.JSONField(_("erased"), default=list, blank=True)

    class Meta:
        ordering = ["-requested_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["person"], condition=Q(state="pending"), name="one_pending_erasure_per_person"
            )
        ]
        verbose_name = _("erasure request")
        verbose_name_plural = _("erasure requests")

    def __str__(self):
        return f"#{self.pk} {self.get_state_display()}"

    @property
    def federation_id(self):
        """The person's (first) federation: its staff read the request's audit rows (federation.audit)."""
        membership = self.person.memberships.order_by("pk").first()
        return membership.federation_id if membership else None


class MailPreference(models.Model):
    """Which kinds of e-mail an address gets; the unsubscribe link in every mail leads here.

    Kept per address, not per account, so a member without an account can unsubscribe too. Mail about the
    account itself and about a procedure the person is party to (an appeal, a member link) is always sent."""

    ESSENTIAL = "essential"
    ENTRIES, EVENTS, RESULTS, RANKINGS = "entries", "events", "results", "rankings"
    OPTIONAL = [
        (ENTRIES, _("my entries and the waiting list")),
        (EVENTS, _("events I organise (approval, changes)")),
        (RESULTS, _("results and corrections")),
        (RANKINGS, _("qualifications and ranking lists")),
    ]
    CATEGORIES = [(ESSENTIAL, _("account and procedures (always sent)")), *OPTIONAL]

    address = models.EmailField(_("e-mail"), unique=True)
    opted_out = models.JSONField(_("unsubscribed from"), default=list, blank=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("mail preference")
        verbose_name_plural = _("mail preferences")

    def __str__(self):
        return self.address
