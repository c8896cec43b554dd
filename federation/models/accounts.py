"""A user's account around the person: notifications, e-mail verification, requests to link a member record."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .organisations import Club, Federation
from .people import Person


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
