"""The Celery application and the conventions every task of the portal follows."""

import logging
import os
import threading
import weakref

from celery import Celery, Task
from django.db import transaction
from kombu.exceptions import OperationalError

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


logger = logging.getLogger(__name__)


def enqueue_on_commit(task, *args, **kwargs):
    """Publish a task only once the surrounding transaction commits (never for rolled-back work).

    The work is committed by then, so a broker outage must not turn it into an error: the failure is
    logged and a periodic sweeper publishes it again (results.tasks for recomputes, federation.tasks for
    e-mails).
    """
    transaction.on_commit(_Publish(task, args, kwargs))


_scheduled = threading.local()


def enqueue_once_on_commit(task, *args, **kwargs):
    """enqueue_on_commit, but one message per transaction for the same task and arguments, however many
    times the transaction asks (e.g. one list refresh for a hundred licences saved together).

    Only callbacks still waiting for this thread's commit count: the registry holds them weakly, so one
    that was run, or dropped by a rollback (of the transaction or of its savepoint), no longer suppresses
    the next request.
    """
    pending = getattr(_scheduled, "pending", None)
    if pending is None:
        pending = _scheduled.pending = weakref.WeakValueDictionary()
    key = (task.name, args, tuple(sorted(kwargs.items())))
    if key in pending:
        return
    callback = _Publish(task, args, kwargs, key=key, registry=pending)
    pending[key] = callback
    transaction.on_commit(callback)


class _Publish:
    """The on-commit callback of one message (a class, so the once-registry can hold it weakly)."""

    def __init__(self, task, args, kwargs, *, key=None, registry=None):
        self.task, self.args, self.kwargs = task, args, kwargs
        self.key, self.registry = key, registry

    def __call__(self):
        if self.registry is not None:
            self.registry.pop(self.key, None)
        publish(self.task, *self.args, **self.kwargs)


def publish(task, *args, **kwargs) -> bool:
    """Send a task now; False (and a logged warning) if the broker cannot be reached."""
    try:
        task.delay(*args, **kwargs)
    except OperationalError as error:
        logger.warning(
            "broker unreachable, %s%r not published (a sweeper retries): %s", task.name, args, error
        )
        return False
    return True
