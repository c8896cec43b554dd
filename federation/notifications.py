"""Queue e-mails in the outbox; a Celery task sends them after the transaction commits."""

from config.celery import enqueue_on_commit

from .models import Notification
from .tasks import send_notification


def notify(recipients, subject, body, *, federation=None):
    """Write one outbox row per recipient and send them once the caller's transaction commits.

    `federation` (a Federation or its id): whom the mail is about, so that federation's staff see it on the
    outbox page if it cannot be sent."""
    federation_id = getattr(federation, "pk", federation)
    created = [
        Notification.objects.create(
            recipient=address, subject=subject[:250], body=body, federation_id=federation_id
        )
        for address in dict.fromkeys(r for r in recipients if r)
    ]
    for notification in created:
        enqueue_on_commit(send_notification, notification.pk)
    return created
