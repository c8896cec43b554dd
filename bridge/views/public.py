"""Published results: the index, event and session standings, frequency sheets, score cards, hand records
and the PBN / USEBIO exports. Pages read stored rows only."""

from django.db.models import Exists, OuterRef
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.text import slugify

from config.query import column_range, query_int
from rankings.services import earned as earned_masterpoints
from results.page_cache import by_event, cache_public_page
from tournaments.models import Event, public_events_q

from ..models import BoardResult, PairSession, SessionPair
from ..permissions import plays_in_event
from ..services import cards, corrections, dealing, decisions, exports, live, pages, versions
from .common import MANAGE, VIEW, by_session, session_context, session_or_deny
from .dealing import refuse_if_sealed
from .live import LIVE, frequencies_context, live_session_or_deny, standings_context


def results_index(request):
    published = PairSession.objects.filter(event=OuterRef("pk"), published_at__isnull=False)
    events = (
        Event.objects.filter(public_events_q(), format=Event.Format.PAIRS)
        .filter(Exists(published))
        .select_related("federation", "club")
        .order_by("-start_date", "title")
    )
    return render(request, "bridge/results_index.html", {"events": events})


@cache_public_page(by_event)
def event_page(request, pk):
    event = get_object_or_404(
        Event.objects.select_related("federation", "club"), pk=pk, format=Event.Format.PAIRS
    )
    can_manage = request.user.has_perm(MANAGE, event)
    if not (event.is_public or can_manage):  # common.visible, reusing can_manage
        raise Http404
    sessions = list(PairSession.objects.filter(event=event).select_related("announced").order_by("number"))
    # A live session (issue #18) is linked too: its standings are public, marked provisional.
    visible = [s for s in sessions if can_manage or request.user.has_perm(LIVE, s)]
    show_totals = request.user.has_perm(VIEW, event) or can_manage
    fields = pages.event_standings_by_field(event) if show_totals else []
    earned = earned_masterpoints.masterpoints_of(event) if fields else {}
    for _field, rows in fields:
        for row in rows:
            row.masterpoints = earned_masterpoints.shares(earned, (row.pair.player1_id, row.pair.player2_id))
    return render(
        request,
        "bridge/event.html",
        {
            "event": event,
            "sessions": sessions,
            "visible": visible,
            "live_ids": live.live_of(visible),
            "fields": fields,
            "earned": bool(earned),
            "show_totals": show_totals,
            "multi": len(sessions) > 1,
            "can_manage": can_manage,
            "processing": pages.processing(event.pk),
            "recompute_error": pages.recompute_error(event.pk) if can_manage else "",
            # VSz 15: the event's players (every pair's possible opponents) and its director reach the cards.
            "card_pairs": cards.event_pairs(event)
            if can_manage or (request.user.is_authenticated and plays_in_event(request.user, event))
            else [],
        },
    )


@cache_public_page(by_session)
def session_page(request, pk):
    session = live_session_or_deny(request, pk)
    latest = versions.latest_version(session)
    manage = request.user.has_perm(MANAGE, session)
    return render(
        request,
        "bridge/session.html",
        session_context(
            request,
            session,
            **standings_context(request, session),
            version=latest,
            in_force=decisions.summary(latest) if latest and manage else [],
            # VSz 15 / 32 g: the director sees which pairs' cards are missing or incomplete.
            card_flags=cards.session_flags(session) if manage else [],
            publish_warning=corrections.publish_warning(session)
            if latest and session.published_at is None and manage
            else "",
        ),
    )


@cache_public_page(by_session, params=("board",))
def frequencies(request, pk):
    session = live_session_or_deny(request, pk)
    board = query_int(request.GET, "board", *column_range(BoardResult._meta.get_field("board")))
    return render(
        request,
        "bridge/frequencies.html",
        session_context(request, session, **frequencies_context(request, session, board)),
    )


@cache_public_page(by_session)
def score_card(request, pk, pair):
    session = session_or_deny(request, pk)
    seat = get_object_or_404(
        SessionPair.objects.select_related("section", "pair__player1", "pair__player2"),
        pk=pair,
        section__session=session,
    )
    standing = seat.standings.filter(session=session).first()
    return render(
        request,
        "bridge/score_card.html",
        session_context(
            request, session, seat=seat, lines=pages.score_card(session, seat), standing=standing
        ),
    )


def hand_records(request, pk):
    session = session_or_deny(request, pk)
    refuse_if_sealed(session)
    return render(
        request,
        "bridge/hand_records.html",
        session_context(
            request,
            session,
            hands=pages.hand_records(session),
            deals_known=bool(dealing.deals_of_session(session, versions.latest_version(session))),
        ),
    )


def _file(text: str, name: str, content_type: str) -> HttpResponse:
    response = HttpResponse(text, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def export_pbn(request, pk):
    session = session_or_deny(request, pk)
    name = f"{slugify(session.event.title)}-{session.number}.pbn"
    return _file(exports.pbn_text(session), name, "application/x-bridge-pbn; charset=utf-8")


def export_usebio(request, pk):
    session = session_or_deny(request, pk)
    name = f"{slugify(session.event.title)}-{session.number}.xml"
    return _file(exports.usebio_text(session), name, "application/xml; charset=utf-8")
