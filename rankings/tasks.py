"""Celery tasks of the rankings app: thin, idempotent (acks_late, retried), published on commit.

Periodic (add to CELERY_BEAT_SCHEDULE):
    "rankings-confirmation-deadlines": {"task": "rankings.tasks.confirmation_deadlines", "schedule": 900.0}
    "rankings-refresh-current-lists": {"task": "rankings.tasks.refresh_current_lists", "schedule": 86400.0}
"""

from celery import shared_task

from .services import event_results, ledger, lists, season


@shared_task
def process_event_results(event_id, reason=""):
    """Re-award, re-rate and queue the season and list recomputes of one event."""
    return event_results.process_event(event_id, reason)


@shared_task
def reaward_scheme(scheme_id):
    return ledger.reaward_for_scheme(scheme_id)


@shared_task
def recompute_lists(federation_id):
    """Rebuild the federation's stale lists (a list already up to date is skipped)."""
    return lists.recompute_stale_lists(federation_id)


@shared_task
def recompute_season(season_id):
    season.recompute_season(season_id)
    return season_id


@shared_task
def confirmation_deadlines():
    """Replace qualified players who missed their confirmation deadline; notify the replacements."""
    return season.process_deadlines()


@shared_task
def refresh_current_lists():
    """Daily: licences, clubs, names and the turn of the year reach the current lists."""
    return lists.refresh_current_lists()


@shared_task
def licences_changed(federation_id):
    """A licence was granted or withdrawn: the current lists of the federation follow."""
    return lists.licences_changed(federation_id)
