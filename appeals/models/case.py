"""An appeal (óvás) against a director's ruling, the partners' agreement and its attachments."""

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class Appeal(models.Model):
    class Status(models.TextChoices):
        AWAITING_PARTNER = "awaiting_partner", _("waiting for the partner's agreement")
        AWAITING_DEPOSIT = "awaiting_deposit", _("waiting for the deposit")
        LODGED = "lodged", _("lodged, waiting for a panel")
        HEARING = "hearing", _("before the panel")
        DECIDED = "decided", _("decided")
        SECOND_INSTANCE = "second_instance", _("before the Rules and Ethics Committee")
        CLOSED = "closed", _("closed at second instance")
        WITHDRAWN = "withdrawn", _("withdrawn")
        LAPSED = "lapsed", _("lapsed")

    class Deposit(models.TextChoices):
        HELD = "held", pgettext_lazy("deposit", "held")
        RETURNED = "returned", pgettext_lazy("deposit", "returned")
        KEPT = "kept", pgettext_lazy("deposit", "kept (goes to the organiser)")

    # Published: the public may read the case (anonymised where the federation says so).
    PUBLISHED = (Status.DECIDED, Status.SECOND_INSTANCE, Status.CLOSED)
    # Still before the first-instance panel.
    PENDING = (Status.AWAITING_PARTNER, Status.AWAITING_DEPOSIT, Status.LODGED, Status.HEARING)

    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.PROTECT, related_name="appeals", verbose_name=_("event")
    )
    number = models.PositiveSmallIntegerField(_("case number"))
    session = models.ForeignKey(
        "tournaments.Session",
        on_delete=models.PROTECT,
        related_name="appeals",
        verbose_name=pgettext_lazy("play", "session"),
    )
    board_number = models.PositiveSmallIntegerField(_("board"))
    ns_pair = models.CharField(_("NS pair"), max_length=10, blank=True)
    ew_pair = models.CharField(_("EW pair"), max_length=10, blank=True)
    appellant_pair = models.CharField(
        _("appellant's pair number"), max_length=10, blank=True, help_text=_("Needed for a point deduction.")
    )
    entry = models.ForeignKey(
        "tournaments.Entry", on_delete=models.PROTECT, related_name="appeals", verbose_name=_("appellant")
    )
    respondent_entry = models.ForeignKey(
        "tournaments.Entry",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="appeals_against",
        verbose_name=_("opponents"),
    )
    director = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("director who ruled"),
    )
    director_name = models.CharField(_("director who ruled"), max_length=200)
    ruling = models.TextField(_("director's ruling"))
    request = models.TextField(_("what the appellant asks"))
    statement = models.TextField(_("appellant's statement"))
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.AWAITING_PARTNER
    )
    filed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    filed_at = models.DateTimeField(_("filed at"), default=timezone.now)
    deposit_amount = models.PositiveIntegerField(_("deposit (Ft)"), default=0)
    deposit_paid_at = models.DateTimeField(_("deposit received at"), null=True, blank=True)
    deposit_received_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    deposit_outcome = models.CharField(
        _("deposit"), max_length=10, choices=Deposit.choices, default=Deposit.HELD
    )

    class Meta:
        ordering = ["-filed_at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="unique_appeal_number")]
        indexes = [models.Index(fields=["event", "status"])]
        verbose_name = _("appeal")
        verbose_name_plural = _("appeals")

    def __str__(self):
        return f"{self.reference}: {self.event.title}"

    @property
    def reference(self) -> str:
        return f"{self.event.start_date:%Y}/{self.event_id}-{self.number}"

    @property
    def is_published(self) -> bool:
        return self.status in self.PUBLISHED

    @property
    def federation_id(self):
        return self.event.federation_id

    @property
    def deposit_paid(self) -> bool:
        return self.deposit_amount == 0 or self.deposit_paid_at is not None

    def party_entries(self):
        return [e for e in (self.entry, self.respondent_entry) if e is not None]


class Consent(models.Model):
    """A player of the appellant pair agrees (or refuses); the appeal waits until every partner agreed."""

    appeal = models.ForeignKey(Appeal, on_delete=models.CASCADE, related_name="consents")
    person = models.ForeignKey("federation.Person", on_delete=models.PROTECT, related_name="+")
    agreed_at = models.DateTimeField(null=True, blank=True)
    declined_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["pk"]
        constraints = [models.UniqueConstraint(fields=["appeal", "person"], name="one_consent_per_person")]
        verbose_name = _("partner's agreement")
        verbose_name_plural = _("partners' agreements")

    def __str__(self):
        return f"{self.appeal_id}: {self.person_id}"


def attachment_path(instance, filename):
    # A random name: the uploader's file name never reaches the file system, only the sniffed extension.
    extension = filename.rsplit(".", 1)[-1]
    return f"appeals/{instance.appeal_id}/{uuid.uuid4().hex}.{extension if extension in ('png', 'jpg', 'pdf') else 'bin'}"


class Attachment(models.Model):
    """A photo of a score card or a PDF, stored under MEDIA_ROOT and served only by a permission-checked view."""

    appeal = models.ForeignKey(Appeal, on_delete=models.CASCADE, related_name="attachments")
    file = models.FileField(upload_to=attachment_path, max_length=200)
    original_name = models.CharField(_("file name"), max_length=200)
    content_type = models.CharField(_("type"), max_length=40)
    size = models.PositiveIntegerField(_("size (bytes)"))
    sha256 = models.CharField(max_length=64)
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    uploaded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["uploaded_at", "pk"]
        verbose_name = _("attachment")
        verbose_name_plural = _("attachments")

    def __str__(self):
        return self.original_name

    @property
    def event_id(self):
        return self.appeal.event_id
