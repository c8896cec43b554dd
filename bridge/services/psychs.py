"""The psych register (VSz 17): the director records every psych reported to him; a pair's repeated psychs
are what may make them a partnership agreement (VSz 17 c), so the register shows them together."""

from django.db import transaction
from django.db.models import Count
from django.utils.translation import gettext as _

from ..models import PairSession, PsychRecord, SessionPair
from .adjustments import session_boards

REPEATED = 2  # from the second psych on, a pair is shown to the director and the staff


class PsychError(ValueError):
    pass


def record(
    session: PairSession, board: int, seat: SessionPair, call: str, *, note: str = "", user
) -> PsychRecord:
    """Record a psych of the pair at `seat` on `board` of the session (the board was played, the pair plays)."""
    if seat.section.session_id != session.pk:
        raise PsychError(_("pair %(pair)s does not play in this session") % {"pair": seat.number})
    if board not in session_boards(session):
        raise PsychError(_("board %(board)s was not played in this session") % {"board": board})
    if not call.strip():
        raise PsychError(_("Give the psychic call."))
    with transaction.atomic():
        return PsychRecord.objects.create(
            session=session, board=board, pair_id=seat.pair_id, call=call.strip(), note=note, recorded_by=user
        )


def of_session(session: PairSession) -> list[PsychRecord]:
    return list(
        PsychRecord.objects.filter(session=session).select_related(
            "pair__player1", "pair__player2", "recorded_by", "session"
        )
    )


def of_event(event) -> list[PsychRecord]:
    return list(
        PsychRecord.objects.filter(session__event=event)
        .select_related("pair__player1", "pair__player2", "recorded_by", "session__announced")
        .order_by("pair_id", "session__number", "board", "pk")
    )


def repeated_players(federation) -> list[dict]:
    """The players with at least REPEATED psychs in the federation's events (as a member of any pair), most
    first: what the staff sees across events, where each event's director sees only his own."""
    records = list(
        PsychRecord.objects.filter(session__event__federation=federation)
        .select_related("pair__player1", "pair__player2", "session__event", "session__announced")
        .order_by("session__event__start_date", "session__number", "board", "pk")
    )
    by_person: dict[int, list[PsychRecord]] = {}
    people = {}
    for record in records:
        who = [record.player] if record.player_id else [record.pair.player1, record.pair.player2]
        for person in who:
            people[person.pk] = person
            by_person.setdefault(person.pk, []).append(record)
    out = [
        {"person": people[pk], "count": len(items), "records": items}
        for pk, items in by_person.items()
        if len(items) >= REPEATED
    ]
    return sorted(out, key=lambda item: (-item["count"], str(item["person"])))


def repeated(event) -> list[dict]:
    """The pairs of the event with at least REPEATED psychs, most first, each with its records."""
    counts = (
        PsychRecord.objects.filter(session__event=event)
        .values("pair_id")
        .annotate(n=Count("pk"))
        .filter(n__gte=REPEATED)
        .order_by("-n", "pair_id")
    )
    by_pair = {c["pair_id"]: c["n"] for c in counts}
    records = [r for r in of_event(event) if r.pair_id in by_pair]
    out = []
    for pair_id, n in by_pair.items():
        items = [r for r in records if r.pair_id == pair_id]
        out.append({"pair": items[0].pair, "count": n, "records": items})
    return out
