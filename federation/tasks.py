"""The e-mail outbox's tasks: send one mail, and the periodic sweep that retries what is still pending.

An attempt is counted (and committed) before the mail is handed to the mail server, so a failed send cannot
roll the count back: after NOTIFICATION_MAX_ATTEMPTS attempts the mail is marked failed with the last error
and is not tried again (federation staff see it on the outbox page, /outbox/).
"""

import datetime
import logging

from celery import shared_task
from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from config.celery import publish

from .models import Notification

logger = logging.getLogger(__name__)


def max_attempts() -> int:
    return max(1, int(settings.NOTIFICATION_MAX_ATTEMPTS))


def retry_gap() -> datetime.timedelta:
    return datetime.timedelta(seconds=max(0, int(settings.NOTIFICATION_RETRY_SECONDS)))


def _claim(notification_id, now):
    """Count one attempt in its own committed transaction; None when the mail is not to be sent now."""
    with transaction.atomic():
        notification = Notification.objects.select_for_update().filter(pk=notification_id).first()
        if notification is None or notification.sent_at is not None or notification.failed_at is not None:
            return None
        if notification.attempts >= max_attempts():
            notification.failed_at = now
            notification.save(update_fields=["failed_at"])
            return None
        # Another worker is sending it right now, or it failed a moment ago: the sweep comes back later.
        if notification.last_attempt_at is not None and now - notification.last_attempt_at < retry_gap():
            return None
        notification.attempts += 1
        notification.last_attempt_at = now
        notification.save(update_fields=["attempts", "last_attempt_at"])
        return notification


@shared_task
def send_notification(notification_id):
    """Send one outbox e-mail; a second run finds it sent (or failed, or being sent) and does nothing.

    A mail server's refusal is recorded on the row, not raised: the sweep retries it until the cap.
    """
    notification = _claim(notification_id, timezone.now())
    if notification is None:
        return False
    try:
        send_mail(
            notification.subject, notification.body, settings.DEFAULT_FROM_EMAIL, [notification.recipient]
        )
    except Exception as error:  # any refusal of the mail server: recorded, retried by the sweep up to the cap
        failed = notification.attempts >= max_attempts()
        Notification.objects.filter(pk=notification.pk).update(
            last_error=f"{type(error).__name__}: {error}"[:2000],
            failed_at=timezone.now() if failed else None,
        )
        logger.warning(
            "e-mail %s to %s not sent (attempt %s of %s%s): %s",
            notification.pk,
            notification.recipient,
            notification.attempts,
            max_attempts(),
            ", given up" if failed else "",
            error,
        )
        return False
    Notification.objects.filter(pk=notification.pk).update(sent_at=timezone.now(), last_error="")
    return True


def pending_notifications(now=None):
    """Mail still to be sent: not sent, not failed, under the cap, and not tried within the retry gap."""
    now = now or timezone.now()
    return Notification.objects.filter(
        sent_at__isnull=True, failed_at__isnull=True, attempts__lt=max_attempts()
    ).filter(Q(last_attempt_at__isnull=True) | Q(last_attempt_at__lte=now - retry_gap()))


@shared_task
def send_pending_notifications():
    """Periodic sweep: whatever was not sent (broker down, worker lost, mail server refused) goes out now.

    Returns how many were published; with the broker down it stops at the first failed publish (logged)."""
    published = 0
    for pk in list(pending_notifications().order_by("created_at").values_list("pk", flat=True)[:500]):
        if not publish(send_notification, pk):
            break
        published += 1
    return published
