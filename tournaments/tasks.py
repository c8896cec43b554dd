"""The calendar's periodic work."""

from celery import shared_task

from .services import directors


@shared_task(acks_late=True)
def release_expired_directors():
    """Beat: directors whose qualification expired leave the events not yet finished (VSz 9). Safe twice."""
    return directors.release_expired()
