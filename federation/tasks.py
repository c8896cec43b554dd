from celery import shared_task
from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone

from .models import Notification


@shared_task
def send_notification(notification_id):
    """Send one outbox e-mail; a second run finds it sent and does nothing."""
    with transaction.atomic():
        notification = Notification.objects.select_for_update().filter(pk=notification_id).first()
        if notification is None or notification.sent_at is not None:
            return False
        notification.attempts += 1
        send_mail(
            notification.subject, notification.body, settings.DEFAULT_FROM_EMAIL, [notification.recipient]
        )
        notification.sent_at = timezone.now()
        notification.save(update_fields=["attempts", "sent_at"])
    return True


@shared_task
def send_pending_notifications():
    """Periodic sweep: whatever was not sent (broker down, worker lost) goes out now."""
    pending = Notification.objects.filter(sent_at__isnull=True, attempts__lt=10).values_list("pk", flat=True)
    for pk in list(pending[:500]):
        send_notification.delay(pk)
    return len(pending)
