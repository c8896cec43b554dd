"""Live public pages (issue #18): the session standings and frequency sheets as fragments the pages poll.

`static/js/live.js` asks for the fragment with If-None-Match every few seconds; `results.live.polled`
answers: an anonymous visitor the page cache's shared fragment, tagged with its content digest (304 while
its bytes have not changed; the WSGI layer `results.live.FastPolls` answers most of these polls without
Django), a logged-in one 304 while the ETag (`services.live.etag`: the event's recompute stamp, the
session's publication and the page cache's generation of the event) has not moved, before the permission
check (safe: whatever changes who may see a session bumps the event's generation and so the ETag).
"""

from django.db.models import Q
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from config.query import column_range, query_int
from results import live as shared_live
from results.page_cache import cache_public_page

from ..models import BoardResult, SessionPair
from ..services import cards, corrections, live, pages
from .common import MANAGE, VIEW, by_session, session_context, session_or_deny

LIVE = "bridge.view_live_results"


def live_session_or_deny(request, pk):
    return session_or_deny(request, pk, LIVE)


def _mine(request, session):
    person = getattr(request.user, "person", None) if request.user.is_authenticated else None
    if person is None:
        return None
    return (
        SessionPair.objects.filter(section__session=session)
        .filter(Q(pair__player1=person) | Q(pair__player2=person))
        .first()
    )


def _live_facts(request, session, kind: str, *parts) -> dict:
    """What the status line and the polling script need (the ETag read before the rows it stands for)."""
    is_live = live.is_live(session)
    return {
        "live": is_live,
        "deadline": corrections.correction_deadline(session),
        "window_open": corrections.window_open(session),
        "can_cards": request.user.has_perm(VIEW, session),
        "live_url": reverse(f"bridge_live_{kind}", args=[session.pk]),
        # Only a live page polls (a published one is not asked for again: no tag to carry).
        "live_etag": live.etag(session.pk, kind, *parts) if is_live else "",
        "live_seconds": shared_live.poll_seconds(),
    }


def standings_context(request, session) -> dict:
    facts = _live_facts(request, session, "standings")
    mine = _mine(request, session)
    manage = request.user.has_perm(MANAGE, session)
    return {
        **facts,
        "fields": pages.standings_by_field(session),
        "several_sections": session.sections.count() > 1,
        "mine": mine,
        # VSz 15: players of the event (and the director) reach each pair's card from the list.
        "card_pairs": cards.session_pairs(session) if mine or manage else [],
    }


def frequencies_context(request, session, board) -> dict:
    facts = _live_facts(request, session, "boards", board or "")
    # The director sees every board; the public only those every table has played (the others not read).
    shown, hidden = None, 0
    if not request.user.has_perm(MANAGE, session):
        scored = live.scored_boards(session)  # read once: which boards are complete, and how many are not
        shown = live.visible_boards(session, scored)
        if shown is not None:
            hidden = len({b for b in scored if board is None or b == board} - shown)
    sheets = pages.frequency_sheets(session, board, only=shown)
    return {
        **facts,
        "sheets": sheets,
        "hidden_boards": hidden,
        "several_sections": session.sections.count() > 1,
    }


def _board(request):
    return query_int(request.GET, "board", *column_range(BoardResult._meta.get_field("board")))


@cache_public_page(by_session)
def _standings_fragment(request, pk):
    session = live_session_or_deny(request, pk)
    context = session_context(request, session, **standings_context(request, session))
    return render(request, "bridge/_live_standings.html", context)


@cache_public_page(by_session, params=("board",))
def _frequencies_fragment(request, pk):
    session = live_session_or_deny(request, pk)
    context = session_context(request, session, **frequencies_context(request, session, _board(request)))
    return render(request, "bridge/_live_frequencies.html", context)


def _polled(request, pk, kind, fragment, *parts):
    return shared_live.polled(request, lambda: live.etag(pk, kind, *parts), lambda: fragment(request, pk=pk))


# The WSGI layer in front of Django answers these polls of anonymous visitors from the page cache, and their
# pages' loads (bridge/views/public.py).
shared_live.polled_urls("bridge_live_standings", "bridge_live_boards")
shared_live.live_pages("bridge_session", "bridge_frequencies")


@require_GET
def standings_fragment(request, pk):
    return _polled(request, pk, "standings", _standings_fragment)


@require_GET
def frequencies_fragment(request, pk):
    board = _board(request)
    return _polled(request, pk, "boards", _frequencies_fragment, board or "")
