"""Live results of ulti rounds (issue #18): the public standings and round pages of a round played with table
codes update as its tables confirm their sheets.

A round is *live* while its tables are drawn and published, it has table codes and the director has not
published its results yet (`publish_results`): its tables and the standings after it are public then (as
every published round's are), marked "live, provisional", and the pages poll a fragment of themselves
(`results.live`). A round played without table codes is never live: its results show as they are entered,
as before.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Count, Max
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from results import live as shared_live
from tournaments.results_pages import LiveLink

from ..models import SCOPE, Round, Seat, TableCode
from . import UltiError, loading


def live_ids(rounds) -> set[int]:
    """Which of these rounds are live (one query)."""
    candidates = [r.pk for r in rounds if r.is_published and r.results_published_at is None]
    if not candidates:
        return set()
    return set(
        TableCode.objects.filter(table__round_id__in=candidates).values_list("table__round_id", flat=True)
    )


def is_live(rnd: Round) -> bool:
    return rnd.pk in live_ids([rnd])


def live_links(event_ids) -> list[LiveLink]:
    """The live rounds of these events, as the home page links them (`tournaments.results_pages`)."""
    rounds = list(
        Round.objects.filter(group__stage__event_id__in=list(event_ids), results_published_at=None)
        .select_related("group__stage")
        .order_by("group__stage__event_id", "group__stage__number", "number", "group__order")
    )
    found = live_ids(rounds)
    return [
        LiveLink(
            r.group.stage.event_id, _("Round %(n)s") % {"n": r.number}, reverse("ulti_round", args=[r.pk])
        )
        for r in rounds
        if r.pk in found
    ]


def live_rounds(stage) -> list[Round]:
    """The stage's live rounds, in round order."""
    rounds = list(Round.objects.filter(group__stage=stage).order_by("number", "group__order"))
    found = live_ids(rounds)
    return [r for r in rounds if r.pk in found]


def still_playing(rounds, after: int) -> set[int]:
    """The participants seated in these live rounds (those up to round `after`) whose table has no result
    yet: the provisional standings would otherwise show them with nothing scored as if they had lost."""
    rounds = [r for r in rounds if r.number <= after]
    if not rounds:
        return set()
    reported = loading.results_of(loading.latest_uploads(rounds).values())
    return set(
        Seat.objects.filter(table__round__in=rounds)
        .exclude(table_id__in=list(reported))
        .values_list("participant_id", flat=True)
    )


def last_published(stage) -> Round | None:
    """The stage's round whose results the director published last (the "published at" line)."""
    return (
        Round.objects.filter(group__stage=stage, results_published_at__isnull=False)
        .order_by("-results_published_at")
        .first()
    )


def _publication(rounds) -> str:
    """What of the rounds' publication moves a live page: the latest publication and the codes made."""
    found = rounds.aggregate(published=Max("results_published_at"), codes=Count("tables__code"))
    return f"{found['published']}|{found['codes']}"


def standings_etag(event_id: int, *parts) -> str:
    """The ETag of the event's live standings fragment."""
    rounds = Round.objects.filter(group__stage__event_id=event_id)
    return shared_live.etag(event_id, SCOPE, _publication(rounds), *parts)


def round_etag(round_id: int, *parts) -> str | None:
    """The ETag of a round's live tables fragment; None when there is no such round."""
    found = (
        Round.objects.filter(pk=round_id)
        .values_list("group__stage__event_id", "status", "results_published_at")
        .first()
    )
    if found is None:
        return None
    event_id, status, published = found
    return shared_live.etag(event_id, SCOPE, status, published, *parts)


def publish_results(rnd: Round, user) -> tuple[Round, bool]:
    """The director publishes a live round's results: the "live, provisional" mark ends. Refused while a
    table has no result; (round, published now) - published again it changes nothing."""
    with transaction.atomic():
        rnd = Round.objects.select_for_update().get(pk=rnd.pk)
        if rnd.results_published_at is not None:
            return rnd, False
        if not rnd.is_published:
            raise UltiError(_("Publish the round's tables first."))
        if not loading.is_complete(rnd):
            raise UltiError(
                _("Round %(n)s cannot be published yet: not every table has its result.") % {"n": rnd.number}
            )
        rnd.results_published_at = timezone.now()
        rnd.results_published_by = user
        rnd.save(update_fields=["results_published_at", "results_published_by"])
    return rnd, True
