"""Live results (issue #18): the public pages of a session played with table entry update as results arrive.

A session is *live* while its tables enter results on their phones (it has table codes) and the director
has not published it yet: its standings and frequency sheets are public then, marked "live, provisional",
and a frequency sheet shows a board only once every table has played it (a player must not read a board
he has yet to play). Publishing ends the mark, mails the players and opens the VSz 12 correction window.

The pages poll a fragment with If-None-Match; its ETag (`etag`) is `results.live.etag` (the event's
recompute stamp and the page cache's generation of the event) with the session's publication, so an
unchanged page costs one indexed row read and one cache read, answered 304.
"""

from collections import Counter

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from federation.models import MailPreference
from federation.services.notifications import absolute_url, address_of, notify
from results import live as shared_live
from tournaments.results_pages import LiveLink

from ..models import BoardScore, PairEvent, PairSession, SessionPair, TableCode
from . import SCOPE, corrections, pages, setup


def is_live(session: PairSession) -> bool:
    """Results entered at the tables, not yet published by the director."""
    return session.published_at is None and TableCode.objects.filter(session_id=session.pk).exists()


def live_of(sessions) -> set[int]:
    """Which of these sessions are live (one query for an event page's list)."""
    unpublished = [s.pk for s in sessions if s.published_at is None]
    if not unpublished:
        return set()
    return set(TableCode.objects.filter(session_id__in=unpublished).values_list("session_id", flat=True))


def live_links(event_ids) -> list[LiveLink]:
    """The live sessions of these events, as the home page links them (`tournaments.results_pages`)."""
    sessions = list(
        PairSession.objects.filter(event_id__in=list(event_ids), published_at=None)
        .select_related("announced")
        .order_by("event_id", "number")
    )
    found = live_of(sessions)
    return [
        LiveLink(s.event_id, str(s), reverse("bridge_session", args=[s.pk]))
        for s in sessions
        if s.pk in found
    ]


def etag(session_id: int, *parts: str) -> str | None:
    """The fragment's ETag (`results.live.etag` with the session's publication): None when there is no such
    session."""
    found = PairSession.objects.filter(pk=session_id).values_list("event_id", "published_at").first()
    if found is None:
        return None
    event_id, published_at = found
    return shared_live.etag(event_id, SCOPE, published_at, *parts)


# --- which boards every table has played ----------------------------------------------------------------


def planned_plays(session: PairSession) -> Counter:
    """How many times each board is played in the session's generated movements (seated pairs only)."""
    plays: Counter = Counter()
    for section in session.sections.all():
        plan = section.plan()
        if plan is None:
            continue
        seated = set(SessionPair.objects.filter(section=section).values_list("number", flat=True))
        for a in plan.assignments:
            if a.ns in seated and a.ew in seated:
                plays.update(a.boards)
    return plays


def scored_boards(session: PairSession) -> Counter:
    """How many scored results each board of the session has."""
    return Counter(BoardScore.objects.filter(session=session).order_by().values_list("board", flat=True))


def complete_boards(session: PairSession, scored: Counter | None = None) -> set[int] | None:
    """The boards with a result from every table that plays them; None: no generated movement to say.
    `scored`: `scored_boards(session)`, when the caller has it."""
    plays = planned_plays(session)
    if not plays:
        return None
    if scored is None:
        scored = scored_boards(session)
    return {board for board, count in plays.items() if scored[board] >= count}


def visible_boards(session: PairSession, scored: Counter | None = None) -> set[int] | None:
    """The boards a live session's public frequency sheets may show; None: all of them."""
    if not is_live(session):
        return None
    return complete_boards(session, scored) or set()


# --- publishing -----------------------------------------------------------------------------------------


def publish(session: PairSession, user) -> tuple[PairSession, bool]:
    """The director publishes the session's results (`setup.publish`: the correction window opens, the
    live mark ends) and, the first time, its players are mailed; (session, published now).
    SetupError when there is nothing to publish."""
    with transaction.atomic():
        already = PairSession.objects.select_for_update().get(pk=session.pk).published_at is not None
        session = setup.publish(session, user)
        if not already:
            mail_players(session)
    return session, not already


def mail_players(session: PairSession) -> int:
    """Tell the session's players that its results are published and until when corrections are taken
    (VSz 12); those who unsubscribed from result mails get none. Returns the mails written."""
    people = []
    for seat in SessionPair.objects.filter(section__session=session).select_related(
        "pair__player1__user", "pair__player2__user"
    ):
        people += [p for p in (seat.pair.player1, seat.pair.player2) if p is not None]
    deadline = corrections.correction_deadline(session)
    event = session.event
    body = _("The results of %(session)s of %(event)s are published: %(url)s") % {
        "session": session,
        "event": event.title,
        "url": absolute_url("bridge_session", session.pk),
    }
    if deadline is not None:
        body += "\n" + _("Obvious clerical errors may be reported until %(time)s (VSz 12).") % {
            "time": timezone.localtime(deadline).strftime("%Y-%m-%d %H:%M")
        }
    sent = notify(
        [address_of(p) for p in people],
        _("Results published: %(event)s, %(session)s") % {"event": event.title, "session": session},
        body,
        federation=event.federation_id,
        category=MailPreference.RESULTS,
    )
    return len(sent)


# --- the frequencies a table's phone shows --------------------------------------------------------------


def phone_frequencies(session: PairSession, rounds, current) -> list:
    """The frequency sheets of the boards the table has played (rounds before `current`, all of them
    when the table has finished), newest round first, as the event's setting allows: once every table has
    played the board (the default), at once, or never."""
    setting = getattr(
        PairEvent.objects.filter(event_id=session.event_id).first(),
        "phone_frequencies",
        PairEvent.PhoneFrequencies.ALL_TABLES,
    )
    if setting == PairEvent.PhoneFrequencies.NEVER:
        return []
    played = [
        b.board
        for r in sorted(rounds, key=lambda r: -r.round)
        if r.done and (current is None or r.round < current.round)
        for b in r.boards
    ]
    if setting == PairEvent.PhoneFrequencies.ALL_TABLES:
        complete = complete_boards(session) or set()
        played = [b for b in played if b in complete]
    if not played:
        return []
    sheets = {s.board: s for s in pages.frequency_sheets(session, only=set(played))}
    return [sheets[b] for b in played if b in sheets]
