"""Celery tasks of bridge pair events: thin, idempotent, published on commit (config.celery).

Tasks call services, never the other way round: a service asks for a recompute with
`results.tasks.request_recompute(SCOPE, ...)`, and bridge.apps registers these tasks for it.
"""

from celery import shared_task

from .services import compute, dealing, handrecords, individual


@shared_task
def recompute_pair_results(event_id):
    """Rescore every session of the event and replace its standings; serialised per event, safe twice."""
    try:
        return compute.recompute_event(event_id)
    except compute.ScoringError as error:
        # Retrying cannot change the engine's mind: keep the reason for the director and stop.
        compute.record_failure(event_id, str(error))
        return {"event": event_id, "error": str(error)}


@shared_task
def recompute_pair_boards(event_id, session_id, boards):
    """One session's changed boards (a traveller, one table's result) and the standings; falls back to the
    whole event when the stored rows are not those of the version before. Serialised per event, safe twice."""
    try:
        return compute.recompute_boards(event_id, session_id, boards)
    except compute.ScoringError as error:
        compute.record_failure(event_id, str(error))
        return {"event": event_id, "error": str(error)}


@shared_task
def compute_hand_records(event_id, session_id):
    """Double-dummy tricks and par of the session's deals not analysed yet (`event_id`: the partial
    recompute's first argument, see results.tasks.request_recompute)."""
    return handrecords.compute(session_id)


@shared_task
def record_due_starts():
    """Beat: record the start of sessions whose announced start has passed on the server's clock now
    (their sealed deals and hand records open); idempotent, a start is recorded once."""
    return dealing.record_due_starts()


@shared_task
def compute_due_hand_records():
    """Beat: the hand records of sessions whose start has passed, not waiting for a recompute to ask for
    them; idempotent (deals already analysed are skipped)."""
    return handrecords.compute_due()


@shared_task
def recompute_individual_results(event_id):
    """Rescore an individual event from its latest version and replace its standings; serialised per
    event, safe twice."""
    try:
        return individual.recompute_event(event_id)
    except ValueError as error:
        individual.record_failure(event_id, str(error))
        return {"event": event_id, "error": str(error)}
