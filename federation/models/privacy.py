"""Personal data: privacy consents, erasure requests, and which kinds of e-mail an address gets."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .people import Person


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
