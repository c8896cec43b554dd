"""The recompute sweeper: a periodic Celery beat task that re-publishes recomputes nobody will run.

An upload commits first and publishes its recompute after the commit (config.celery.enqueue_on_commit).
When the broker is down at that moment the message is never sent, and when a worker dies the message
may wait for the broker's visibility timeout; either way the event's RecomputeState stays behind
(computed_version < latest_version). Every minute this sweep finds such rows whose last upload is older
than a grace period and publishes the recompute again. Recomputes are idempotent (a current stamp is left
alone), so a duplicate costs one skipped run.

The results app imports no game app: each game app registers its scope and recompute task here from its
AppConfig.ready() (bridge-pairs, bridge-teams, ulti).
"""

import datetime
import logging

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from config.celery import enqueue_on_commit, publish

from .models import RecomputeState

logger = logging.getLogger(__name__)

# scope -> Celery task taking the event id, e.g. "bridge-pairs" -> bridge.tasks.recompute_pair_results
RECOMPUTE_TASKS: dict = {}
# (scope, kind) -> a partial recompute's task (e.g. one table's boards), taking the event id and its arguments
PARTIAL_TASKS: dict = {}

DEFAULT_GRACE_SECONDS = 120
BATCH = 200


def register_recompute(scope: str, task, *, partial: str | None = None) -> None:
    """Tell the sweeper and `request_recompute` which task recomputes a scope (call from the game app's
    AppConfig.ready()); `partial` names a task that recomputes only part of an event."""
    if partial is None:
        RECOMPUTE_TASKS[scope] = task
    else:
        PARTIAL_TASKS[scope, partial] = task


def request_recompute(scope: str, event_id: int, *args, partial: str | None = None) -> None:
    """Publish the scope's registered recompute once the surrounding transaction commits. The one way a
    service asks for a recompute: game services never import their own tasks module, so tasks -> services
    is the only direction between them. One message per request (a recompute that finds its stamp current
    does nothing, so a duplicate costs one skipped run)."""
    task = RECOMPUTE_TASKS[scope] if partial is None else PARTIAL_TASKS[scope, partial]
    enqueue_on_commit(task, event_id, *args)


def grace_seconds() -> float:
    return float(getattr(settings, "RECOMPUTE_SWEEP_GRACE_SECONDS", DEFAULT_GRACE_SECONDS))


def stale_states(now, grace: float):
    """Rows behind their latest upload, untouched for `grace` seconds and not swept in that time.

    A row whose recompute recorded an error (the engine refused the data) is swept once after each upload,
    not every minute: re-running cannot change the engine's mind until a new version arrives.
    """
    cutoff = now - datetime.timedelta(seconds=grace)
    refused_since_upload = (
        ~Q(error="")
        & Q(swept_at__isnull=False)
        & (Q(marked_at__isnull=True) | Q(swept_at__gte=F("marked_at")))
    )
    return (
        RecomputeState.objects.filter(
            computed_version__lt=F("latest_version"), scope__in=list(RECOMPUTE_TASKS)
        )
        .filter(Q(marked_at__isnull=True) | Q(marked_at__lte=cutoff))
        .filter(Q(swept_at__isnull=True) | Q(swept_at__lte=cutoff))
        .exclude(refused_since_upload)
        .order_by("marked_at", "pk")
    )


@shared_task
def sweep_recomputes(grace=None):
    """Re-publish the recompute of every stale (event, scope); returns how many were published.

    Rows locked right now (an upload or a recompute is running on them) are skipped, not waited for.
    """
    grace = grace_seconds() if grace is None else float(grace)
    now = timezone.now()
    with transaction.atomic():
        rows = list(
            stale_states(now, grace)
            .select_for_update(skip_locked=True)
            .values_list("pk", "event_id", "scope")[:BATCH]
        )
        RecomputeState.objects.filter(pk__in=[pk for pk, _, _ in rows]).update(swept_at=now)
    published = 0
    for index, (_, event_id, scope) in enumerate(rows):
        if not publish(RECOMPUTE_TASKS[scope], event_id):
            # The broker went away again: what was not published is due at the very next sweep.
            unpublished = [pk for pk, _, _ in rows[index:]]
            RecomputeState.objects.filter(pk__in=unpublished).update(swept_at=None)
            break
        published += 1
    if rows:
        logger.info("recompute sweep: %d of %d stale rows re-published", published, len(rows))
    return published
