"""A real Celery worker process on a Redis broker runs a task whose effect appears in the database.

Runs in CI (`E2E=1`, PostgreSQL DATABASE_URL, Redis CELERY_BROKER_URL); skipped elsewhere.
"""

import pytest

from federation.models import Notification
from federation.tasks import send_notification

pytestmark = [pytest.mark.e2e]


def test_worker_sends_a_notification(worker, wait_for):
    notification = Notification.objects.create(
        recipient="e2e@example.hu", subject="E2E", body="Redis + worker"
    )
    send_notification.delay(notification.pk)
    sent = wait_for(lambda: Notification.objects.filter(pk=notification.pk, sent_at__isnull=False).exists())
    assert sent, worker.log_path.read_text()[-3000:]
    assert worker.poll() is None, "the worker died"
