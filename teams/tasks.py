"""Celery tasks of the teams app: thin and idempotent (acks_late, retried, published on commit)."""

from celery import shared_task


@shared_task
def recompute_event(event_id, force=False):
    """Re-score the event's matches and rebuild its standings; serialised per event, safe to repeat."""
    from .services.recompute import recompute_event as run

    return run(event_id, force=force)
