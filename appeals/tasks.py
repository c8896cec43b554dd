"""Celery tasks of the appeals app: thin and idempotent (acks_late, retried).

Periodic (add to CELERY_BEAT_SCHEDULE):
    "appeals-lapse-overdue": {"task": "appeals.tasks.lapse_overdue_appeals", "schedule": 300.0}
"""

from celery import shared_task

from .services import filing


@shared_task
def lapse_overdue_appeals():
    """Pair appeals the partner did not agree to by the deadline lapse (and the parties are told)."""
    return filing.lapse_overdue()
