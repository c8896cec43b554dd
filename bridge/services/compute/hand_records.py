"""Which sessions' hand records a recompute asks for: deals open and different from the stored analysis."""

from collections import defaultdict

from ...models import (
    DealSet,
    HandRecord,
    SessionStart,
)
from .. import dealing
from .common import _Session


def _needs_hand_records(loaded: list[_Session], started: set[int] | None = None) -> list[int]:
    """Sessions whose deals are open and differ from their stored hand records: two queries at most.
    `started`: the sessions whose start is recorded, when the caller has read them."""
    if not loaded:
        return []
    # Deals open only on a recorded start (bridge.SessionStart), read for every session in one query.
    if started is None:
        started = set(
            SessionStart.objects.filter(session__in=[item.session.pk for item in loaded]).values_list(
                "session_id", flat=True
            )
        )
    deals_of: dict[int, dict[int, str]] = {}
    dealt = []  # sessions without deals in their results: their computer-dealt set's, once started
    for item in loaded:
        if item.session.pk not in started:
            continue
        if item.version.deals:
            deals_of[item.session.pk] = dealing.deals_of_session(item.session, item.version, started=True)
        else:
            dealt.append(item.session)
    if dealt:
        current = {}
        for deal_set in DealSet.objects.filter(session__in=dealt).order_by(
            "session_id", "-created_at", "-pk"
        ):
            current.setdefault(deal_set.session_id, deal_set)
        for session in dealt:
            deal_set = current.get(session.pk)
            if deal_set is not None:
                deal_set.session = session  # dealing.current_set's row, without reading the session again
                deals_of[session.pk] = dict(enumerate(dealing.open_set(deal_set, started=True), start=1))
    deals_of = {session_id: deals for session_id, deals in deals_of.items() if deals}
    if not deals_of:
        return []
    stored: dict[int, dict[int, str]] = defaultdict(dict)
    for session_id, board, deal in HandRecord.objects.filter(session_id__in=deals_of).values_list(
        "session_id", "board", "deal"
    ):
        stored[session_id][board] = deal
    return [
        item.session.pk
        for item in loaded
        if item.session.pk in deals_of
        and any(
            stored[item.session.pk].get(board) != deal for board, deal in deals_of[item.session.pk].items()
        )
    ]
