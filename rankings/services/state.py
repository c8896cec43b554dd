"""The federation's ranking state: its lock, its data version and the lists that must follow it."""

from __future__ import annotations

from django.db.models import F
from django.utils import timezone

from federation.models import Federation

from ..models import ListKind, ListStamp, RankingState
from . import jobs


def state_for_update(federation_id: int) -> RankingState:
    RankingState.objects.get_or_create(federation_id=federation_id)
    return RankingState.objects.select_for_update().get(pk=federation_id)


def _bump(federation_id: int) -> int:
    RankingState.objects.get_or_create(federation_id=federation_id)
    RankingState.objects.filter(pk=federation_id).update(data_version=F("data_version") + 1)
    return RankingState.objects.values_list("data_version", flat=True).get(pk=federation_id)


def _mark_stale(federation_id: int, lists, version: int) -> None:
    """Lists (kind, year) must reach ``version``; a Celery task rebuilds them after the commit."""
    for kind, year in set(lists):
        stamp, _created = ListStamp.objects.get_or_create(federation_id=federation_id, kind=kind, year=year)
        if stamp.needs_version < version:
            ListStamp.objects.filter(pk=stamp.pk).update(needs_version=version)
    jobs.enqueue("recompute_lists", federation_id)


def data_changed(federation_id: int, lists) -> int:
    """Bump the federation's data version and mark the given lists stale; returns the new version."""
    version = _bump(federation_id)
    _mark_stale(federation_id, lists, version)
    return version


def licence_lists(federation: Federation) -> list[tuple[str, int]]:
    """The lists that leave off players without a licence for the current year (ulti only)."""
    if federation.game != Federation.ULTI:
        return []
    year = timezone.localdate().year
    return [(ListKind.ANNUAL, year), (ListKind.ALLTIME, 0), (ListKind.RATING, 0)]


def needs_licence(federation: Federation, kind: str, year: int) -> bool:
    return (kind, year) in licence_lists(federation)
