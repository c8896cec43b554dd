"""A session's published results as files: PBN 2.1 (reads back through the upload unchanged) and USEBIO 1.2.

Built from the stored standings rows, never by scoring again.
"""

from bridge.engine.pbn.records import SCORING_TAGS, BoardRecord, ResultRecord, SessionRecord, TotalRecord
from bridge.engine.pbn.usebio import write_usebio
from bridge.engine.pbn.writer import write_session
from bridge.engine.scoring.contract import board_dealer, board_vulnerability
from bridge.engine.scoring.session import Method
from federation.models import Membership

from ..models import BoardScore, PairSession, SessionPair, SessionStanding
from . import dealing, setup


def pair_labels(session: PairSession) -> dict[int, str]:
    """Session pair id -> the label files use: the number, with the section letter when there are several."""
    seats = SessionPair.objects.filter(section__session=session).select_related("section")
    several = len({s.section_id for s in seats}) > 1
    return {s.pk: s.code if several else str(s.number) for s in seats}


def session_record(session: PairSession) -> SessionRecord:
    settings = setup.pair_event(session.event)
    labels = pair_labels(session)
    scores = list(BoardScore.objects.filter(session=session).order_by("board", "table", "pk"))
    version = scores[0].version if scores else None
    deals = dealing.deals_of_session(session, version) if version else {}
    boards: dict[int, list[ResultRecord]] = {}
    absent: dict[int, list[ResultRecord]] = {}  # average-plus against an absent pair ('-' in the file)
    for s in scores:
        against_absent = s.ns_id is None or s.ew_id is None
        (absent if against_absent else boards).setdefault(s.board, []).append(
            ResultRecord(
                labels.get(s.ns_id),
                labels.get(s.ew_id),
                s.score,
                s.artificial or None,
                s.contract or None,
                s.declarer or None,
                s.tricks,
                s.mp_ns,
                s.mp_ew,
                s.pct_ns,
                s.pct_ew,
                s.imp_ns,
                s.imp_ew,
                s.lead or None,
                s.penalty_ns or None,
                s.penalty_ew or None,
            )
        )
    records = [
        BoardRecord(
            board,
            board_dealer(board),
            board_vulnerability(board),
            deals.get(board),
            boards.get(board, []),
            absent.get(board, []),
        )
        for board in sorted(boards.keys() | absent.keys())
    ]
    matchpoints = settings.method == Method.MATCHPOINTS
    standings = SessionStanding.objects.filter(session=session).select_related(
        "pair__pair__player1", "pair__pair__player2"
    )
    totals = [
        TotalRecord(
            labels[s.pair_id],
            s.place,
            s.field or None,
            ";".join(str(p) for p in (s.pair.pair.player1, s.pair.pair.player2) if p)
            or s.pair.pair.name
            or None,
            s.total if matchpoints else None,
            None if matchpoints else s.total,
            s.percentage,
            s.boards,
            s.penalty or None,
        )
        for s in standings.order_by("field", "order")
    ]
    event = session.event
    return SessionRecord(
        f"{event.title} - {session}",
        event.venue or None,
        event.start_date.strftime("%Y.%m.%d"),
        SCORING_TAGS[Method(settings.method)].format(scale=settings.scale),
        records,
        totals,
    )


def pbn_text(session: PairSession) -> str:
    return write_session(session_record(session))


def usebio_text(session: PairSession) -> str:
    record = session_record(session)
    labels = pair_labels(session)
    seats = list(SessionPair.objects.filter(section__session=session).select_related("pair"))
    people = {pid for s in seats for pid in s.pair.player_ids}
    numbers = dict(
        Membership.objects.filter(
            federation_id=session.event.federation_id, person_id__in=people
        ).values_list("person_id", "member_number")
    )
    ids = {labels[s.pk]: [numbers.get(pid) for pid in s.pair.player_ids] for s in seats}
    club = session.event.club
    return write_usebio(
        record, club_name=club.name if club else session.event.federation.name, player_ids=ids
    )
