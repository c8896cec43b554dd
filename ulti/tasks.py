"""Celery tasks of ulti events: thin, idempotent, published on commit (config.celery)."""

from celery import shared_task

from .services import recompute


@shared_task
def recompute_ulti_event(event_id):
    """Rescore every table and replace the event's standings; serialised per event, safe to run twice."""
    try:
        return recompute.recompute_event(event_id)
    except recompute.RecomputeError as error:
        # Retrying cannot change the engines' mind: keep the reason for the director and stop.
        recompute.record_failure(event_id, str(error))
        return {"event": event_id, "error": str(error)}
