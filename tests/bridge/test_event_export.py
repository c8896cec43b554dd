"""The session PBN export carries leads, penalties and the average-plus rows against an absent pair, and
still reads back (and uploads) to the same standings."""

import datetime
import random
from decimal import Decimal

import pytest
from django.utils import timezone

from bridge.engine.pbn.games import read_games
from bridge.engine.pbn.reader import read_session
from bridge.models import BoardScore, SessionPair, SessionStanding
from bridge.services import adjustments, exports, roster, setup, upload_readers, uploads, versions
from bridge.services.compute import recompute_event
from demo import bridge_sample as sample
from federation.models import Role
from results.models import VersionedUpload

START = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))
Source = VersionedUpload.Source


@pytest.fixture
def event(mbsz):
    return sample.event_with_pairs(mbsz, pairs=14, title="Export", start=START)


@pytest.fixture
def director(make_user, event):
    return make_user("td@example.hu", kind=Role.DIRECTOR, event=event)


@pytest.fixture
def session(event):
    return setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )


def standings(session):
    return sorted(
        SessionStanding.objects.filter(session=session).values_list(
            "pair_id", "field", "total", "percentage", "penalty", "place"
        )
    )


@pytest.fixture
def scored(event, session, director):
    """Pair 1 leaves after 4 of 7 rounds (its results stand, later opponents get average-plus); leads are
    known on boards 1-2; one board penalty and one session penalty."""
    plan = session.sections.get().plan()
    gone = {b for a in plan.assignments if a.round > 4 and 1 in (a.ns, a.ew) for b in a.boards}
    seat = SessionPair.objects.get(section__session=session, number=1).pk
    rows = [
        {**r, "lead": "HK" if r["board"] <= 2 and r["declarer"] else ""}
        for r in sample.play(session, random.Random(4))
        if not (r["board"] in gone and seat in (r["ns_id"], r["ew_id"]))
    ]
    assert any(r["lead"] for r in rows)
    uploads.upload(
        session, upload_readers.parse_csv(sample.csv_text(session, rows)), source=Source.CSV, user=director
    )
    roster.record_withdrawal(session, SessionPair.objects.get(pk=seat).pair, director)
    played = next(r for r in rows if r["board"] == 3 and seat not in (r["ns_id"], r["ew_id"]))
    label = SessionPair.objects.get(pk=played["ns_id"]).number
    adjustments.apply_ruling(
        session,
        None,
        penalties=[(label, 25, 3), (5, 10)],
        reason="slow play, convention card",
        user=director,
        source=Source.ADJUSTMENT,
    )
    recompute_event(event.pk)
    setup.publish(session, director)
    return label


@pytest.mark.django_db
def test_the_export_carries_leads_penalties_and_rows_against_an_absent_pair(session, scored):
    text = exports.pbn_text(session)
    record = exports.session_record(session)
    assert read_session(text) == record

    games = read_games(text)
    columns = {c.name for g in games if "scoretable" in g.tags for c in g.tags["scoretable"].columns}
    assert {"Lead", "Penalty_NS"} <= columns
    total_columns = [c.name for c in games[0].tags["totalscoretable"].columns]
    assert "Penalty" in total_columns

    leads = {(b.number, r.ns, r.ew): r.lead for b in record.boards for r in b.results}
    stored = {
        (s.board, s.ns.number if s.ns else None, s.ew.number if s.ew else None): s.lead or None
        for s in BoardScore.objects.filter(session=session).select_related("ns", "ew")
    }
    assert {(b, int(ns), int(ew)): lead for (b, ns, ew), lead in leads.items()} == {
        key: lead for key, lead in stored.items() if None not in key
    }
    assert any(leads.values())

    penalised = next(r for b in record.boards if b.number == 3 for r in b.results if r.ns == str(scored))
    assert penalised.penalty_ns == Decimal("3.00")  # 25% of the top of 12 (7 tables play each board)
    by_pair = {t.pair: t for t in record.totals}
    assert by_pair["5"].penalty == Decimal("1.20") and by_pair[str(scored)].penalty >= Decimal("3.00")

    absent = [r for b in record.boards for r in b.absent]
    stored_absent = BoardScore.objects.filter(session=session, ns__isnull=True) | BoardScore.objects.filter(
        session=session, ew__isnull=True
    )
    assert absent and len(absent) == stored_absent.count()
    assert all((r.ns is None) != (r.ew is None) and r.artificial for r in absent)
    assert all(r.pct_ns >= 60 if r.ew is None else r.pct_ew >= 60 for r in absent)


@pytest.mark.django_db
def test_the_export_uploads_back_to_the_same_standings(event, session, scored, director):
    before = standings(session)
    text = exports.pbn_text(session)
    uploads.upload(
        session, upload_readers.parse_pbn(text), source=Source.PBN, user=director, note="round trip"
    )
    recompute_event(event.pk)
    assert standings(session) == before
    assert exports.session_record(session).boards[0].absent == read_session(text).boards[0].absent


@pytest.fixture
def deleted(event, session, director):
    """Pair 1 leaves after 2 of 7 rounds: under half of its boards, so all its results are deleted (VSz 25)
    and every opponent it did not meet afterwards gets average-plus against an absent pair."""
    plan = session.sections.get().plan()
    seat = SessionPair.objects.get(section__session=session, number=1).pk
    gone = {b for a in plan.assignments if a.round > 2 and 1 in (a.ns, a.ew) for b in a.boards}
    rows = [
        r
        for r in sample.play(session, random.Random(7))
        if not (r["board"] in gone and seat in (r["ns_id"], r["ew_id"]))
    ]
    uploads.upload(
        session, upload_readers.parse_csv(sample.csv_text(session, rows)), source=Source.CSV, user=director
    )
    roster.record_withdrawal(session, SessionPair.objects.get(pk=seat).pair, director)
    recompute_event(event.pk)
    setup.publish(session, director)
    return seat


@pytest.mark.django_db
def test_a_withdrawal_whose_results_are_deleted_uploads_back_to_the_same_standings(
    event, session, deleted, director
):
    stored = BoardScore.objects.filter(session=session)
    assert not stored.filter(ns_id=deleted).exists() and not stored.filter(ew_id=deleted).exists()
    before = standings(session)
    assert deleted not in {pair for pair, *_rest in before}
    absent_before = sorted(
        stored.filter(ns__isnull=True).values_list("board", "ew_id", "artificial", "pct_ew")
    ) + sorted(stored.filter(ew__isnull=True).values_list("board", "ns_id", "artificial", "pct_ns"))
    assert absent_before

    text = exports.pbn_text(session)
    label = exports.pair_labels(session)[deleted]
    assert all(label not in (r.ns, r.ew) for b in read_session(text).boards for r in b.results)
    previous = versions.latest_version(session)
    uploads.upload(
        session, upload_readers.parse_pbn(text), source=Source.PBN, user=director, note="round trip"
    )
    recompute_event(event.pk)

    # The file has no row of the withdrawn pair: its deleted results are kept from the previous version, so
    # the opponents it met before leaving still lose those boards instead of getting average-plus.
    def rows_of_withdrawn(version):
        return [r for r in versions.rows_of(version) if deleted in (r["ns_id"], r["ew_id"])]

    assert rows_of_withdrawn(previous)
    assert rows_of_withdrawn(versions.latest_version(session)) == rows_of_withdrawn(previous)
    assert standings(session) == before
    stored = BoardScore.objects.filter(session=session)
    assert (
        sorted(stored.filter(ns__isnull=True).values_list("board", "ew_id", "artificial", "pct_ew"))
        + sorted(stored.filter(ew__isnull=True).values_list("board", "ns_id", "artificial", "pct_ns"))
        == absent_before
    )
    assert exports.pbn_text(session) == text
