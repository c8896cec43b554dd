"""Versions, the recompute task and the materialised standings: append-only, idempotent, stamped."""

import datetime
import random

import pytest
from django.urls import reverse
from django.utils import timezone

from bridge.engine.pbn.reader import read_session
from bridge.models import BoardResult, BoardScore, EventStanding, ResultVersion, SessionStanding
from bridge.services import SCOPE, exports, setup, upload_readers, uploads, versions
from bridge.services.compute import recompute_event
from demo import bridge_sample as sample
from federation.models import Role
from results.models import VersionedUpload
from results.services import state_of

Source = VersionedUpload.Source
START = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))


@pytest.fixture
def event(mbsz):
    return sample.event_with_pairs(mbsz, pairs=14, title="Klubverseny", start=START)


@pytest.fixture
def director(make_user, event):
    return make_user("td@example.hu", kind=Role.DIRECTOR, event=event)


@pytest.fixture
def session(event):
    return setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )


@pytest.fixture
def uploaded(session, director):
    rows = sample.play(session, random.Random(3))
    uploads.upload(
        session, upload_readers.parse_pbn(sample.pbn_text(session, rows)), source=Source.PBN, user=director
    )
    return rows


def snapshot(event):
    scores = sorted(
        BoardScore.objects.filter(session__event=event).values_list(
            "board", "ns_id", "ew_id", "score", "mp_ns", "mp_ew", "pct_ns", "version_id"
        )
    )
    session_rows = sorted(
        SessionStanding.objects.filter(session__event=event).values_list(
            "pair_id", "field", "total", "percentage", "place", "version_id"
        )
    )
    event_rows = sorted(
        EventStanding.objects.filter(event=event).values_list(
            "pair_id", "total", "place", "event_version", "rights"
        )
    )
    return scores, session_rows, event_rows


@pytest.mark.django_db
def test_versions_are_append_only(session, uploaded, director):
    first = ResultVersion.objects.get(session=session)
    first_rows = list(
        BoardResult.objects.filter(version=first).values_list("board", "ns_id", "ew_id", "score")
    )
    with pytest.raises(TypeError):
        BoardResult.objects.filter(version=first).update(score=0)
    with pytest.raises(TypeError):
        BoardResult.objects.filter(version=first).delete()
    with pytest.raises(TypeError):
        first.save()
    with pytest.raises(TypeError):
        first.delete()
    uploads.upload(
        session,
        upload_readers.parse_csv(sample.csv_text(session, uploaded[:-1])),
        source=Source.CSV,
        user=director,
        note="again",
    )
    numbers = list(
        ResultVersion.objects.filter(session=session).values_list("number", "source", "uploaded_by")
    )
    assert numbers == [(1, "pbn", director.pk), (2, "csv", director.pk)]
    assert (
        list(BoardResult.objects.filter(version=first).values_list("board", "ns_id", "ew_id", "score"))
        == first_rows
    )
    second = ResultVersion.objects.get(session=session, number=2)
    assert versions.results_of(second).count() == len(first_rows) - 1


@pytest.mark.django_db
def test_the_recompute_is_idempotent_and_stamps_the_version(event, session, uploaded):
    state = state_of(event.pk, SCOPE)
    assert state.processing and state.latest_version == 1
    recompute_event(event.pk)
    first = snapshot(event)
    assert recompute_event(event.pk)["skipped"]
    recompute_event(event.pk, force=True)
    assert snapshot(event) == first
    state = state_of(event.pk, SCOPE)
    assert not state.processing and state.computed_version == 1
    version = ResultVersion.objects.get(session=session)
    assert {row[-1] for row in first[1]} == {version.pk}
    assert {row[3] for row in first[2]} == {1}
    # Places are shared on equal totals and each Mitchell line has its own winner.
    assert {row[1] for row in first[1]} == {"NS", "EW"}
    assert sum(1 for row in first[1] if row[4].split("-")[0] == "1") >= 2


@pytest.mark.django_db
def test_processing_is_shown_until_the_task_has_run(
    client, event, session, director, django_capture_on_commit_callbacks
):
    rows = sample.play(session, random.Random(5))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        uploads.upload(
            session,
            upload_readers.parse_csv(sample.csv_text(session, rows)),
            source=Source.CSV,
            user=director,
        )
    client.force_login(director)
    page = client.get(reverse("bridge_session", args=[session.pk])).content.decode()
    assert 'id="processing"' in page and not SessionStanding.objects.exists()
    for callback in callbacks:
        callback()  # the Celery task, eager in tests
    page = client.get(reverse("bridge_session", args=[session.pk])).content.decode()
    assert 'id="processing"' not in page and SessionStanding.objects.filter(session=session).count() == 14


@pytest.mark.django_db
def test_the_task_runs_after_commit_through_celery(
    event, session, director, django_capture_on_commit_callbacks
):
    rows = sample.play(session, random.Random(5))
    with django_capture_on_commit_callbacks(execute=True):
        uploads.upload(
            session,
            upload_readers.parse_csv(sample.csv_text(session, rows)),
            source=Source.CSV,
            user=director,
        )
    assert not state_of(event.pk, SCOPE).processing
    assert SessionStanding.objects.filter(session=session).count() == 14


@pytest.mark.django_db
def test_pbn_export_reads_back_identically_and_uploads_to_the_same_standings(
    event, session, uploaded, director
):
    recompute_event(event.pk)
    setup.publish(session, director)
    before = sorted(
        SessionStanding.objects.filter(session=session).values_list("pair_id", "total", "percentage", "place")
    )
    text = exports.pbn_text(session)
    assert read_session(text) == exports.session_record(session)
    uploads.upload(
        session, upload_readers.parse_pbn(text), source=Source.PBN, user=director, note="round trip"
    )
    recompute_event(event.pk)
    after = sorted(
        SessionStanding.objects.filter(session=session).values_list("pair_id", "total", "percentage", "place")
    )
    assert after == before
    assert ResultVersion.objects.filter(session=session).count() == 2
    usebio = exports.usebio_text(session)
    assert usebio.startswith("<?xml") and '<USEBIO Version="1.2">' in usebio and "MP_PAIRS" in usebio


@pytest.mark.django_db
def test_an_upload_without_seating_defines_the_movement(event, director):
    howell = setup.create_session(event, movement="uploaded")
    text = (
        "board;ns;ew;contract;declarer;lead;result;score\n"
        "1;1;2;3NT;N;SA;9;\n1;3;4;4S;S;;10;\n2;2;3;2H;E;;8;\n2;4;1;;;;;-110\n"
    )
    uploads.upload(howell, upload_readers.parse_csv(text), source=Source.CSV, user=director)
    recompute_event(event.pk)
    standings = SessionStanding.objects.filter(session=howell)
    assert standings.count() == 4 and set(standings.values_list("field", flat=True)) == {""}
    assert howell.sections.get().movement == "uploaded"


@pytest.mark.django_db
def test_a_howell_session_is_ranked_together_and_has_guide_cards(client, mbsz, make_user):
    event = sample.event_with_pairs(mbsz, pairs=8, title="Howell", start=START)
    director = make_user("h@example.hu", kind=Role.DIRECTOR, event=event)
    session = setup.create_session(
        event, movement="howell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )
    rows = sample.play(session, random.Random(1))
    uploads.upload(
        session, upload_readers.parse_csv(sample.csv_text(session, rows)), source=Source.CSV, user=director
    )
    recompute_event(event.pk)
    assert set(SessionStanding.objects.filter(session=session).values_list("field", flat=True)) == {""}
    client.force_login(director)
    page = client.get(reverse("bridge_guide_cards", args=[session.pk])).content.decode()
    assert page.count("guide-card") >= 8


@pytest.mark.django_db
def test_hand_records_are_computed_once_by_the_task_and_stored(event, session, director):
    from bridge.models import HandRecord
    from bridge.services import handrecords

    rows = [r for r in sample.play(session, random.Random(2)) if r["board"] <= 2]
    deals = {
        1: "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765",
        2: "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765",
    }
    uploads.upload(
        session,
        upload_readers.parse_pbn(sample.pbn_text(session, rows, deals)),
        source=Source.PBN,
        user=director,
    )
    assert handrecords.compute(session.pk) == 2
    assert handrecords.compute(session.pk) == 0  # nothing new to analyse
    record = HandRecord.objects.get(session=session, board=1)
    assert record.tricks["N"]["S"] == 7 and record.tricks["E"]["H"] == 7 and record.tricks["N"]["NT"] == 5
    assert record.par_contracts and record.par_score is not None
