"""Uploads of a session's results: PBN, CSV and the web traveller agree; bad files change nothing."""

import datetime
import random

import pytest
from django.utils import timezone, translation

from bridge.models import BoardResult, ResultVersion, SessionStanding
from bridge.services import setup, upload_readers, uploads
from bridge.services.compute import recompute_event
from demo import bridge_sample as sample
from federation.models import Role
from results.models import VersionedUpload

Source = VersionedUpload.Source
START = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))


@pytest.fixture(autouse=True)
def english():
    # Refusals are translated; these tests read the English ones.
    with translation.override("en"):
        yield


@pytest.fixture
def event(mbsz):
    return sample.event_with_pairs(mbsz, pairs=12, title="Tavaszi páros", start=START)


@pytest.fixture
def director(make_user, event):
    return make_user("td@example.hu", kind=Role.DIRECTOR, event=event)


@pytest.fixture
def session(event):
    return setup.create_session(
        event,
        movement="mitchell",
        pairs=setup.pairs_from_entries(event),
        announced=event.sessions.first(),
        boards_per_round=3,
    )


@pytest.fixture
def rows(session):
    return sample.play(session, random.Random(7))


def standings(session):
    return sorted(
        SessionStanding.objects.filter(session=session).values_list(
            "pair__number", "field", "total", "percentage", "place"
        )
    )


def counts():
    return ResultVersion.objects.count(), BoardResult.objects.count()


def traveller_lines(session, rows, board):
    labels = sample.pair_labels(session)
    return [
        {
            "ns": labels[r["ns_id"]],
            "ew": labels[r["ew_id"]],
            "contract": r["contract"],
            "declarer": r["declarer"],
            "lead": r["lead"],
            "result": "" if r["tricks"] is None else str(r["tricks"]),
            "score": "" if r["score"] is None else str(r["score"]),
        }
        for r in rows
        if r["board"] == board
    ]


@pytest.mark.django_db
def test_pbn_csv_and_traveller_give_the_same_standings(session, rows, director):
    uploads.upload(
        session, upload_readers.parse_pbn(sample.pbn_text(session, rows)), source=Source.PBN, user=director
    )
    recompute_event(session.event_id)
    from_pbn = standings(session)
    assert len(from_pbn) == 12 and {f for _n, f, *_ in from_pbn} == {"NS", "EW"}

    uploads.upload(
        session, upload_readers.parse_csv(sample.csv_text(session, rows)), source=Source.CSV, user=director
    )
    recompute_event(session.event_id)
    assert standings(session) == from_pbn

    # The traveller route starts from an empty session of its own.
    other = setup.create_session(
        session.event, movement="mitchell", pairs=setup.pairs_from_entries(session.event), boards_per_round=3
    )
    other_rows = [
        {**r, "ns_id": _twin(session, other, r["ns_id"]), "ew_id": _twin(session, other, r["ew_id"])}
        for r in rows
    ]
    for board in sorted({r["board"] for r in rows}):
        parsed = upload_readers.parse_traveller(board, traveller_lines(other, other_rows, board))
        uploads.upload(other, parsed, source=Source.FORM, user=director)
    recompute_event(session.event_id)
    assert standings(other) == from_pbn
    assert ResultVersion.objects.filter(session=other).count() == len({r["board"] for r in rows})


def _twin(session, other, seat_id):
    from bridge.models import SessionPair

    seat = SessionPair.objects.get(pk=seat_id)
    return SessionPair.objects.get(section__session=other, number=seat.number).pk


@pytest.mark.django_db
@pytest.mark.parametrize(
    "mutate, where",
    [
        (lambda text: text.replace('[Board "3"]', '[Board "three"]'), "line"),
        (lambda text: text.replace('ScoreTable "', 'ScoreTable "Bogus;', 1), "line"),
    ],
)
def test_a_malformed_pbn_changes_nothing_and_names_the_line(session, rows, director, mutate, where):
    good = sample.pbn_text(session, rows)
    uploads.upload(session, upload_readers.parse_pbn(good), source=Source.PBN, user=director)
    before = counts()
    with pytest.raises(uploads.UploadError) as refused:
        uploads.upload(session, upload_readers.parse_pbn(mutate(good)), source=Source.PBN, user=director)
    assert refused.value.messages[0].startswith(where)
    assert counts() == before


@pytest.mark.django_db
def test_a_malformed_csv_names_line_and_board(session, rows, director):
    text = sample.csv_text(session, rows).splitlines()
    board, ns, ew, *_rest = text[5].split(";")
    text[5] = ";".join([board, ns, ew, "", "", "", "", "431"])
    before = counts()
    with pytest.raises(uploads.UploadError) as refused:
        uploads.upload(session, upload_readers.parse_csv("\n".join(text)), source=Source.CSV, user=director)
    message = refused.value.messages[0]
    assert message.startswith(f"line 6: board {board}:") and "431" in message
    assert counts() == before


@pytest.mark.django_db
def test_an_unseated_pair_or_a_pair_twice_refuses_the_whole_file(session, rows, director):
    text = sample.csv_text(session, rows).splitlines()
    fields = text[1].split(";")
    fields[1] = "77"
    text[1] = ";".join(fields)
    before = counts()
    with pytest.raises(uploads.UploadError) as refused:
        uploads.upload(session, upload_readers.parse_csv("\n".join(text)), source=Source.CSV, user=director)
    assert "line 2" in refused.value.messages[0] and "77" in refused.value.messages[0]
    assert counts() == before


@pytest.mark.django_db
def test_the_traveller_refuses_an_impossible_score_naming_board_and_table(session, rows, director):
    lines = traveller_lines(session, rows, 1)
    lines[1].update(contract="", declarer="", result="", score="431")
    with pytest.raises(uploads.UploadError) as refused:
        upload_readers.parse_traveller(1, lines)
    assert refused.value.messages[0].startswith("board 1, table 2:")
    assert "431" in refused.value.messages[0]


@pytest.mark.django_db
def test_the_version_before_is_read_in_one_go_as_by_its_own_reads(session, rows, director):
    """`versions.read_latest` (an upload's one round trip) gives the latest version, its rows and penalties
    exactly as `latest_version`, `rows_of` and `penalties_of` do, and the querysets it is given read along."""
    from decimal import Decimal

    from django.db import transaction

    from bridge.models import SessionPair
    from bridge.services import versions

    assert versions.read_latest(session) == (None, [], [])
    for _ in range(2):  # the second version, on the first, is the latest
        uploads.upload(
            session,
            upload_readers.parse_pbn(sample.pbn_text(session, rows)),
            source=Source.PBN,
            user=director,
        )
    seat = SessionPair.objects.filter(section__session=session).first()
    with transaction.atomic():
        versions.lock_event(session.event_id)
        base = versions.latest_version(session)
        penalties = [
            {"pair_id": seat.pk, "board": 2, "percent": Decimal("25.00"), "reason": "késés", "code": ""}
        ]
        versions.write_version(
            session, versions.rows_of(base), penalties, source=Source.FORM, user=director, base=base
        )
    latest = versions.latest_version(session)
    found, found_rows, found_penalties, seats = versions.read_latest(
        session, SessionPair.objects.filter(section__session=session).values_list("pk")
    )
    assert (found.pk, found.number, found.source, found.base_id) == (latest.pk, 3, Source.FORM, base.pk)
    assert found.deals == latest.deals and found.event_version == latest.event_version
    assert found_rows == versions.rows_of(latest) and len(found_rows) == len(rows)
    assert found_penalties == versions.penalties_of(latest) == penalties
    assert sorted(seats) == sorted(SessionPair.objects.filter(section__session=session).values_list("pk"))
