"""Live public pages of ulti (issue #18): the event's standings and a round's tables as fragments the pages
poll while a round played with table codes is live (`ulti.services.live`).

`static/js/live.js` asks with If-None-Match every few seconds; `results.live.polled` answers an anonymous
visitor the page cache's shared fragment tagged with its content digest (most of these polls answered
before Django by `results.live.FastPolls`), a logged-in one 304 while the ETag (the event's recompute
stamp, the page cache's generation of the event, the rounds' publication and the page's parameters) has
not moved, else the fragment.
"""

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_GET

from config.query import id_or_none
from results import live as shared_live
from results.page_cache import by_event, cache_public_page

from ..models import Round
from ..services import live
from .common import event_or_deny, round_or_deny
from .public import STANDINGS_PARAMS, round_context, standings_context, standings_params


def by_round(request, pk, **kwargs):
    """The page cache's scopes of a round's page: its event's."""
    event_id = Round.objects.filter(pk=pk).values_list("group__stage__event_id", flat=True).first()
    return None if event_id is None else by_event(request, event_id)


@cache_public_page(by_event, params=STANDINGS_PARAMS)
def _standings_fragment(request, pk):
    event = event_or_deny(request, pk)
    return render(request, "ulti/_live_standings.html", standings_context(request, event))


@cache_public_page(by_round)
def _round_fragment(request, pk):
    rnd = round_or_deny(request, pk)
    return render(request, "ulti/_live_round.html", round_context(request, rnd))


def _known_id(pk) -> int:
    """The address's id, 404 when no row could have it (the ETag's queries run before the page's own)."""
    if id_or_none(pk) is None:
        raise Http404
    return pk


@require_GET
def standings_fragment(request, pk):
    _known_id(pk)
    params = standings_params(request)
    tag = lambda: live.standings_etag(pk, "standings", *params)  # noqa: E731
    return shared_live.polled(request, tag, lambda: _standings_fragment(request, pk=pk))


@require_GET
def round_fragment(request, pk):
    _known_id(pk)
    return shared_live.polled(
        request, lambda: live.round_etag(pk, "round"), lambda: _round_fragment(request, pk=pk)
    )


# The WSGI layer in front of Django answers these polls of anonymous visitors from the page cache, and the
# standings page's loads (ulti/views/public.py).
shared_live.polled_urls("ulti_live_standings", "ulti_live_round")
shared_live.live_pages("ulti_standings")  # (the round page is not page-cached: Django renders it)
