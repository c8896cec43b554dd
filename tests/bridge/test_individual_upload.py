"""Individual events through the one upload seam: CSV and PBN with player numbers agree, a version row per
upload, standings stamped with it, bad files refused with line, board and table and nothing written."""

import datetime
import random
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone, translation

from bridge.engine.individual_movements import individual as individual_movement
from bridge.models import (
    IndividualBoardScore,
    IndividualPlayer,
    IndividualResult,
    IndividualStanding,
    IndividualVersion,
)
from bridge.services import individual, uploads
from bridge.services.individual_source import individual_result
from demo import individual_sample as sample
from federation.models import Role
from results.services import state_of

START = timezone.make_aware(datetime.datetime(2026, 4, 11, 10, 0))


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def event(mbsz):
    return sample.event_with_players(mbsz, players=8, title="Tavaszi egyéni", start=START)


@pytest.fixture
def director(make_user, event):
    return make_user("td@example.hu", kind=Role.DIRECTOR, event=event)


@pytest.fixture
def setup(event):
    return individual.setup_for(event)


@pytest.fixture
def rows():
    return sample.play(individual_movement(2, boards_per_round=2), random.Random(3))


def counts():
    return IndividualVersion.objects.count(), IndividualResult.objects.count()


def standings(event):
    return list(
        IndividualStanding.objects.filter(event=event)
        .order_by("rank")
        .values_list("player__number", "place", "total", "percentage", "boards", "version")
    )


def test_csv_upload_writes_a_version_and_the_standings(setup, event, director, rows):
    version = uploads.submit(setup, "csv", user=director, text=sample.csv_text(rows), file_name="e.csv")
    assert (version.number, version.source, version.uploaded_by) == (1, "csv", director)
    assert IndividualResult.objects.filter(version=version).count() == len(rows) == 7 * 2 * 2
    # the entries got numbers 1..8, in entry order, with their people
    players = list(IndividualPlayer.objects.filter(event=event).order_by("number"))
    assert [p.number for p in players] == list(range(1, 9))
    assert all(p.person_id for p in players)
    assert state_of(event.pk, "bridge-individual").processing

    individual.recompute_event(event.pk)
    table = standings(event)
    assert len(table) == 8 and {row[5] for row in table} == {1}
    assert not state_of(event.pk, "bridge-individual").processing
    # every player played 14 boards, each board twice: top 2, so 28 matchpoints is 100%
    assert {row[4] for row in table} == {14}
    total = sum(row[2] for row in table)
    assert total == 2 * 14 * 2 * 2  # per board: two tables x top 2 shared among four players... x 2 seats
    for _number, _place, mp, pct, boards, _v in table:
        assert pct == (mp * 100 / (2 * boards)).quantize(Decimal("0.01"))
    assert IndividualBoardScore.objects.filter(event=event, version=1).count() == len(rows)
    # running the recompute again changes nothing
    individual.recompute_event(event.pk)
    assert standings(event) == table


def test_pbn_and_csv_give_the_same_standings(setup, event, director, rows):
    uploads.submit(setup, "pbn", user=director, text=sample.pbn_text(rows))
    individual.recompute_event(event.pk)
    from_pbn = [row[:5] for row in standings(event)]
    uploads.submit(
        setup, "csv", user=director, file=SimpleUploadedFile("e.csv", sample.csv_text(rows).encode())
    )
    individual.recompute_event(event.pk)
    assert [row[:5] for row in standings(event)] == from_pbn
    assert {row[5] for row in standings(event)} == {2}
    assert list(IndividualVersion.objects.filter(event=event).values_list("number", "source")) == [
        (1, "pbn"),
        (2, "csv"),
    ]


def test_hungarian_notation_is_read(setup, event, director):
    text = "tábla;asztal;É;D;K;Ny;felvétel;felvevő;indulás;eredmény;ÉD\n1;1;1;2;3;4;4P;É;;10;\n1;2;5;6;7;8;3SZA;K;;9;\n"
    uploads.submit(setup, "csv", user=director, text=text)
    individual.recompute_event(event.pk)
    scores = {s.table: s for s in IndividualBoardScore.objects.filter(event=event)}
    assert scores[1].score == 420 and scores[2].score == -400  # board 1: nobody vulnerable
    assert scores[1].mp_ns == 2 and scores[2].mp_ns == 0 and scores[2].mp_ew == 2


@pytest.mark.parametrize(
    "text, expected",
    [
        ("1;1;1;2;3;4;4S;N;;10;\n1;2;5;6;7;1;4S;N;;9;\n", "player 1 plays board 1 a second time"),
        ("1;1;1;2;3;4;4S;N;;10;\n1;1;5;6;7;8;4S;N;;9;\n", "line 2, board 1, table 1: the table already has"),
        ("1;1;1;2;3;4;4S;N;;10;\n1;2;5;6;7;9;4S;N;;9;\n", "line 2, board 1, table 2: player 9 has no number"),
        (
            "1;1;1;2;3;4;4S;N;;10;\n2;3;5;6;7;8;4S;N;;;\n",
            "line 2: board 2, table 3: contract 4S needs a result",
        ),
        ("1;1;1;2;3;x;4S;N;;10;\n", "line 1: board 1, table 1: W x is not a player number"),
        ("1;1;1;2;3;4;4S;N;;10;420;7\n", "line 1: 12 columns"),
    ],
)
def test_bad_input_says_where_and_writes_nothing(setup, event, director, text, expected):
    uploads.submit(setup, "csv", user=director, text="1;1;1;2;3;4;1NT;S;;7;\n")
    before = counts()
    with pytest.raises(uploads.UploadError) as refused:
        uploads.submit(setup, "csv", user=director, text=text)
    assert expected in " ".join(refused.value.messages)
    assert counts() == before
    assert state_of(event.pk, "bridge-individual").latest_version == 1


def test_a_pbn_without_player_columns_is_refused(setup, director):
    text = '[Board "1"]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS"]\n1 2 420\n'
    with pytest.raises(uploads.UploadError) as refused:
        uploads.submit(setup, "pbn", user=director, text=text)
    assert "PlayerId_North" in refused.value.messages[0]
    assert counts() == (0, 0)


def test_a_file_defines_the_players_when_nobody_entered(mbsz, make_user):
    from tournaments.models import Event

    event = Event.objects.create(
        federation=mbsz, title="Klub egyéni", format=Event.Format.INDIVIDUAL, start_date=START.date()
    )
    user = make_user("td2@example.hu", kind=Role.DIRECTOR, event=event)
    uploads.submit(individual.setup_for(event), "csv", user=user, text="1;;11;12;13;14;;;;;110\n")
    assert sorted(IndividualPlayer.objects.filter(event=event).values_list("number", flat=True)) == [
        11,
        12,
        13,
        14,
    ]


def test_masterpoint_source_waits_for_publication(setup, event, director, rows):
    uploads.submit(setup, "csv", user=director, text=sample.csv_text(rows))
    individual.recompute_event(event.pk)
    assert individual_result(event) is None
    individual.publish(setup, director)
    result = individual_result(event)
    assert result.field_size == 8
    places = sorted((p.place_from, p.place_to) for p in result.placings)
    assert places[0][0] == 1 and all(len(p.players) == 1 for p in result.placings)


def test_the_upload_publishes_its_recompute_after_the_commit(
    setup, event, director, rows, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        uploads.submit(setup, "csv", user=director, text=sample.csv_text(rows))
    # the registered task ran (eager Celery): the standings are there and stamped
    assert len(standings(event)) == 8
    assert not state_of(event.pk, "bridge-individual").processing
