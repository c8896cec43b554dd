"""Celery tasks of the teams app: thin and idempotent (acks_late, retried, published on commit).

Services never import this module: they ask for a recompute with `results.tasks.request_recompute`
(the task is registered in `TeamsConfig.ready()`); tasks -> services is the only direction.
"""

from celery import shared_task

from .services.recompute import recompute_event as run


@shared_task
def recompute_event(event_id, force=False):
    """Re-score the event's matches and rebuild its standings; serialised per event, safe to repeat."""
    return run(event_id, force=force)
