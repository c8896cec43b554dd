"""Versioning and recompute bookkeeping shared by the result pipelines."""

from contextlib import contextmanager

from django.db import connection, transaction
from django.db.models import Max
from django.utils import timezone

from . import bulk, page_cache
from .models import RecomputeState


def next_version_number(upload_model, **owner) -> int:
    """The next version number for an owner (e.g. session=...). Call inside the owner's locked transaction."""
    current = upload_model.objects.filter(**owner).aggregate(m=Max("number"))["m"] or 0
    return current + 1


def lock_state(event_id: int, scope: str) -> RecomputeState:
    """Lock (creating if needed) the event's recompute row; must run inside transaction.atomic().

    One query once the row exists (every call after an event's first upload)."""
    locked = RecomputeState.objects.select_for_update()
    try:
        return locked.get(event_id=event_id, scope=scope)
    except RecomputeState.DoesNotExist:
        RecomputeState.objects.get_or_create(event_id=event_id, scope=scope)
        return locked.get(event_id=event_id, scope=scope)


def mark_uploaded(event_id: int, scope: str) -> int:
    """Record that a new version exists (in the upload's transaction); returns the new latest version.

    One UPDATE ... RETURNING, which also takes (or re-takes) the row's lock: a caller that locked the row
    with `lock_state` first does not lock it again with a second read."""
    table = connection.ops.quote_name(RecomputeState._meta.db_table)
    sql = (
        f"UPDATE {table} SET latest_version = latest_version + 1, marked_at = %s "
        "WHERE event_id = %s AND scope = %s RETURNING latest_version"
    )
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(sql, [now, event_id, scope])
        row = cursor.fetchone()
        if row is None:  # the event's first version: create the row, then count
            lock_state(event_id, scope)
            cursor.execute(sql, [now, event_id, scope])
            row = cursor.fetchone()
    return row[0]


@contextmanager
def recompute(event_id: int, scope: str):
    """Serialise one event's recompute and stamp the result: yields the state, locked, in one transaction.

    The body replaces the stored standings; on success the state records the version they reflect. The
    garbage collector is held off meanwhile (`bulk.gc_paused`), for every game's recompute.
    """
    with bulk.gc_paused(), transaction.atomic():
        _derived_commit()
        state = lock_state(event_id, scope)
        target = state.latest_version
        yield state
        state.computed_version = target
        state.computed_at = timezone.now()
        state.error = ""
        state.save(update_fields=["computed_version", "computed_at", "error"])
        # The public pages cached from the old standings are dropped once the new ones are committed. New
        # standings change what the pages show, not who may see them (the live polls' copy may be served
        # while the new one renders).
        page_cache.bump(page_cache.event_scope(event_id), visibility=False)


def _derived_commit() -> None:
    """On PostgreSQL the recompute's commit does not wait for its WAL flush (synchronous_commit off, this
    transaction only). What it writes is derived from the versions and stamped in the same transaction: a
    server crash can only lose the whole recompute, stamp included, which leaves the state behind its latest
    upload and the sweeper (results.tasks) runs it again. Uploads keep their synchronous commit."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit TO OFF")


def state_of(event_id: int, scope: str) -> RecomputeState | None:
    return RecomputeState.objects.filter(event_id=event_id, scope=scope).first()
