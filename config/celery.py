"""The Celery application and the conventions every task of the portal follows."""

import os

from celery import Celery, Task
from django.db import transaction

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("versenyportal")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


class PortalTask(Task):
    """Late acknowledgement and retries: a task may run twice, so every task must be idempotent."""

    acks_late = True
    reject_on_worker_lost = True
    autoretry_for = (Exception,)
    retry_backoff = 2
    retry_backoff_max = 120
    retry_jitter = True
    max_retries = 5


app.Task = PortalTask


def enqueue_on_commit(task, *args, **kwargs):
    """Publish a task only once the surrounding transaction commits (never for rolled-back work)."""
    transaction.on_commit(lambda: task.delay(*args, **kwargs))
