"""Adjusted scores and penalties (VSz 29, 32) through `apply_ruling`, and the masterpoint source."""

import datetime
import random
from decimal import Decimal

import pytest
from django.utils import timezone

from bridge.engine.scoring.adjusted import Penalty
from bridge.models import BoardScore, ResultVersion, SessionPair, SessionStanding
from bridge.services import ranking_source, setup, upload_readers, uploads, versions
from bridge.services.adjustments import RulingError, apply_ruling
from bridge.services.compute import recompute_event
from demo import bridge_sample as sample
from federation.models import Role
from rankings.sources import result_for
from results.models import VersionedUpload

START = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))


@pytest.fixture
def event(mbsz):
    return sample.event_with_pairs(mbsz, pairs=10, title="Döntések", start=START)


@pytest.fixture
def director(make_user, event):
    return make_user("td@example.hu", kind=Role.DIRECTOR, event=event)


@pytest.fixture
def session(event, director):
    session = setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )
    rows = sample.play(session, random.Random(8))
    uploads.upload(
        session,
        upload_readers.parse_csv(sample.csv_text(session, rows)),
        source=VersionedUpload.Source.CSV,
        user=director,
    )
    recompute_event(event.pk)
    return session


def a_row(session, board=3):
    return BoardScore.objects.filter(session=session, board=board).select_related("ns", "ew").first()


@pytest.mark.django_db
def test_a_split_artificial_score_from_an_appeal(event, session, director):
    row = a_row(session)
    version = apply_ruling(
        session,
        row.board,
        row.ns,
        row.ew,
        artificial="A+/A-",
        reason="jogosulatlan információ",
        user=director,
    )
    assert version.source == "appeal" and version.number == 2 and version.note == "jogosulatlan információ"
    recompute_event(event.pk)
    ruled = BoardScore.objects.get(session=session, board=row.board, ns=row.ns)
    assert ruled.artificial == "A+/A-" and ruled.score is None
    assert ruled.pct_ns >= Decimal(60) and ruled.pct_ew == Decimal(40)


@pytest.mark.django_db
def test_an_assigned_score_and_penalties_by_the_director(event, session, director):
    row = a_row(session)
    before = SessionStanding.objects.get(pair=row.ns).total
    apply_ruling(
        session,
        row.board,
        str(row.ns.number),
        str(row.ew.number),
        score=-100,
        penalties=[(row.ns, 25, row.board), Penalty(str(row.ew.number), Decimal(10))],
        reason="rossz beírás",
        user=director,
        source="adjustment",
    )
    recompute_event(event.pk)
    ruled = BoardScore.objects.get(session=session, board=row.board, ns=row.ns)
    assert ruled.score == -100 and ruled.penalty_ns > 0
    ew = SessionStanding.objects.get(pair=row.ew)
    assert ew.penalty > 0
    assert SessionStanding.objects.get(pair=row.ns).total != before


@pytest.mark.django_db
def test_an_artificial_score_for_a_board_not_played(event, session, director):
    row = a_row(session, board=1)
    # The table's result taken away (as if the board was not played), then the director awards A / A.
    lines = [
        {
            "ns": str(SessionPair.objects.get(pk=r["ns_id"]).number),
            "ew": str(SessionPair.objects.get(pk=r["ew_id"]).number),
            "score": str(r["score"]),
        }
        for r in versions.rows_of(versions.latest_version(session))
        if r["board"] == 1 and r["ns_id"] != row.ns_id
    ]
    uploads.upload(session, upload_readers.parse_traveller(1, lines), source="form", user=director)
    apply_ruling(
        session,
        1,
        row.ns,
        row.ew,
        artificial="A",
        reason="nem játszották le",
        user=director,
        source="adjustment",
    )
    assert (
        versions.results_of(ResultVersion.objects.get(session=session, number=3))
        .filter(board=1, ns=row.ns, artificial="A")
        .exists()
    )


@pytest.mark.django_db
def test_refused_rulings_write_nothing(session, director):
    row = a_row(session)
    count = ResultVersion.objects.count()
    for kwargs in (
        {"artificial": "B+"},
        {"score": 431},
        {"artificial": "A", "score": 100},
        {"source": "pbn", "artificial": "A"},
    ):
        with pytest.raises(RulingError):
            apply_ruling(
                session,
                row.board,
                row.ns,
                row.ew,
                reason="x",
                user=director,
                **{"source": "appeal", **kwargs},
            )
    other = (
        SessionPair.objects.exclude(pk__in=[row.ns_id, row.ew_id]).filter(section__session=session).first()
    )
    with pytest.raises(RulingError):
        apply_ruling(session, row.board, row.ns, other, artificial="A", reason="x", user=director)
    assert ResultVersion.objects.count() == count


@pytest.mark.django_db
def test_the_masterpoint_source_gives_final_placings_with_rights(event, session, director):
    assert result_for(event) is None  # not published: not final
    setup.publish(session, director)
    result = result_for(event)
    assert result is not None and result.version.startswith("bridge-pairs:")
    assert result.field_size == 10 and len(result.placings) == 10
    first = next(p for p in result.placings if p.place_from == 1)
    assert len(first.players) == 2 and all(share.has_rights for share in first.players)
    assert ranking_source.bridge_pair_result(event) == result


@pytest.mark.django_db
def test_the_directors_own_ruling_gets_the_same_checks_as_an_appeal(session, director):
    """A director's adjusted score for a board not in play, or for pairs that did not meet on it, is refused
    with the board and pair numbers and writes nothing (it could otherwise not be re-applied later)."""
    row = a_row(session)
    before = ResultVersion.objects.filter(session=session).count()
    with pytest.raises(RulingError, match="44"):
        apply_ruling(
            session, 44, row.ns, row.ew, artificial="A", reason="?", user=director, source="adjustment"
        )
    other = BoardScore.objects.filter(session=session, board=row.board).exclude(pk=row.pk).first()
    with pytest.raises(RulingError):
        apply_ruling(
            session,
            row.board,
            row.ns,
            other.ew,
            artificial="A",
            reason="?",
            user=director,
            source="adjustment",
        )
    assert ResultVersion.objects.filter(session=session).count() == before
    apply_ruling(
        session, row.board, row.ns, row.ew, artificial="A", reason="ok", user=director, source="adjustment"
    )
    assert ResultVersion.objects.filter(session=session).count() == before + 1
