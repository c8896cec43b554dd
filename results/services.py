"""Versioning and recompute bookkeeping shared by the result pipelines."""

from contextlib import contextmanager

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from . import page_cache
from .models import RecomputeState


def next_version_number(upload_model, **owner) -> int:
    """The next version number for an owner (e.g. session=...). Call inside the owner's locked transaction."""
    current = upload_model.objects.filter(**owner).aggregate(m=Max("number"))["m"] or 0
    return current + 1


def lock_state(event_id: int, scope: str) -> RecomputeState:
    """Lock (creating if needed) the event's recompute row; must run inside transaction.atomic()."""
    RecomputeState.objects.get_or_create(event_id=event_id, scope=scope)
    return RecomputeState.objects.select_for_update().get(event_id=event_id, scope=scope)


def mark_uploaded(event_id: int, scope: str) -> int:
    """Record that a new version exists (in the upload's transaction); returns the new latest version."""
    state = lock_state(event_id, scope)
    state.latest_version += 1
    state.marked_at = timezone.now()
    state.save(update_fields=["latest_version", "marked_at"])
    return state.latest_version


@contextmanager
def recompute(event_id: int, scope: str):
    """Serialise one event's recompute and stamp the result: yields the state, locked, in one transaction.

    The body replaces the stored standings; on success the state records the version they reflect.
    """
    with transaction.atomic():
        state = lock_state(event_id, scope)
        target = state.latest_version
        yield state
        state.computed_version = target
        state.computed_at = timezone.now()
        state.error = ""
        state.save(update_fields=["computed_version", "computed_at", "error"])
        # The public pages cached from the old standings are dropped once the new ones are committed.
        page_cache.bump(page_cache.event_scope(event_id))


def state_of(event_id: int, scope: str) -> RecomputeState | None:
    return RecomputeState.objects.filter(event_id=event_id, scope=scope).first()
