"""Queue e-mails in the outbox; a Celery task sends them after the transaction commits."""

from config.celery import enqueue_on_commit

from .models import Notification


def notify(recipients, subject, body):
    """Write one outbox row per recipient and send them once the caller's transaction commits."""
    created = [
        Notification.objects.create(recipient=address, subject=subject[:250], body=body)
        for address in dict.fromkeys(r for r in recipients if r)
    ]
    from .tasks import send_notification

    for notification in created:
        enqueue_on_commit(send_notification, notification.pk)
    return created
