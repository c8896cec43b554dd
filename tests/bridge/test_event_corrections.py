"""Corrections (VSz 12): a pair asks within the window the server enforces; the director countersigns."""

import datetime
import random

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation
from freezegun import freeze_time

from bridge.models import BoardResult, BoardScore, CorrectionRequest, ResultVersion, SessionPair
from bridge.services import corrections, setup, upload_readers, uploads, versions
from bridge.services.compute import recompute_event
from demo import bridge_sample as sample
from federation.models import Notification, Role
from results.models import VersionedUpload

START = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))
PUBLISHED = START + datetime.timedelta(hours=4)


@pytest.fixture(autouse=True)
def _urls_loaded_before_freezing():
    # The URLconf imports psycopg; importing a C extension under freezegun's fake datetime warns.
    reverse("results")


@pytest.fixture(autouse=True)
def english():
    # Refusals are translated; these tests read the English ones.
    with translation.override("en"):
        yield


@pytest.fixture
def event(mbsz):
    return sample.event_with_pairs(mbsz, pairs=10, title="Kétfordulós páros", start=START, sessions=2)


@pytest.fixture
def director(make_user, event):
    return make_user("td@example.hu", kind=Role.DIRECTOR, event=event)


def _session(event, director, number):
    announced = event.sessions.order_by("starts_at")[number - 1]
    session = setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=announced
    )
    rows = sample.play(session, random.Random(number))
    uploads.upload(
        session,
        upload_readers.parse_csv(sample.csv_text(session, rows)),
        source=VersionedUpload.Source.CSV,
        user=director,
    )
    recompute_event(event.pk)
    return session


@pytest.fixture
def first(event, director):
    with freeze_time(PUBLISHED):
        session = _session(event, director, 1)
        return setup.publish(session, director)


@pytest.fixture
def player(make_user, first):
    seat = SessionPair.objects.get(section__session=first, number=1)
    user = make_user("player@example.hu")
    seat.pair.player1.user = user
    seat.pair.player1.save()
    return user, seat


def a_result(session, seat):
    row = (
        BoardResult.objects.filter(version=versions.latest_version(session), ns=seat)
        .exclude(contract="Pass")
        .first()
    )
    return row


def ask(session, seat, user, row, now):
    tricks = row.tricks + 1 if row.tricks < 13 else row.tricks - 1
    return corrections.request_correction(
        session,
        board=row.board,
        ns=row.ns,
        ew=row.ew,
        requester=seat,
        contract=row.contract,
        declarer=row.declarer,
        result=str(tricks),
        reason="elírás",
        user=user,
        now=now,
    )


@pytest.mark.django_db
def test_multi_session_window_closes_15_minutes_before_the_next_session(event, first, player, director):
    user, seat = player
    next_start = event.sessions.order_by("starts_at")[1].starts_at
    assert corrections.correction_deadline(first) == next_start - datetime.timedelta(minutes=15)
    row = a_result(first, seat)
    ok = ask(first, seat, user, row, next_start - datetime.timedelta(minutes=16))
    assert ok.status == CorrectionRequest.Status.PENDING
    with pytest.raises(corrections.CorrectionRefused):
        ask(first, seat, user, row, next_start - datetime.timedelta(minutes=14))


@pytest.mark.django_db
def test_single_or_last_session_window_is_30_minutes_after_publication(mbsz, make_user):
    event = sample.event_with_pairs(mbsz, pairs=8, title="Egyfordulós", start=START)
    director = make_user("d1@example.hu", kind=Role.DIRECTOR, event=event)
    with freeze_time(PUBLISHED):
        session = setup.publish(_session(event, director, 1), director)
    seat = SessionPair.objects.get(section__session=session, number=2)
    user = make_user("p2@example.hu")
    row = a_result(session, seat)
    assert corrections.correction_deadline(session) == PUBLISHED + datetime.timedelta(minutes=30)
    ask(session, seat, user, row, PUBLISHED + datetime.timedelta(minutes=29))
    with pytest.raises(corrections.CorrectionRefused, match="closed"):
        ask(session, seat, user, row, PUBLISHED + datetime.timedelta(minutes=31))


@pytest.mark.django_db
def test_the_page_enforces_the_window_on_the_server(client, event, first, player):
    user, seat = player
    row = a_result(first, seat)
    client.force_login(user)
    url = reverse("bridge_correction_request", args=[first.pk])
    data = {
        "board": row.board,
        "contract": row.contract,
        "declarer": row.declarer,
        "result": str(row.tricks - 1 if row.tricks else 1),
        "reason": "elírás",
    }
    with freeze_time(PUBLISHED + datetime.timedelta(minutes=10)):
        assert client.post(url, data).status_code == 302
    with freeze_time(PUBLISHED + datetime.timedelta(minutes=46)):  # the next session starts at +60
        response = client.post(url, data)
    assert response.status_code == 200 and response.context["form"].non_field_errors()
    assert CorrectionRequest.objects.count() == 1


@pytest.mark.django_db
def test_countersigned_correction_is_a_new_version_and_refusals_are_kept(event, first, player, director):
    user, seat = player
    row = a_result(first, seat)
    request = ask(first, seat, user, row, PUBLISHED + datetime.timedelta(minutes=5))
    decided = corrections.decide(request, approve=True, user=director, note="ok")
    assert decided.status == "approved" and decided.decided_by == director and decided.decided_at
    version = ResultVersion.objects.get(session=first, number=2)
    assert version.source == "correction" and decided.version == version
    new_row = versions.results_of(version).get(board=row.board, ns=row.ns, ew=row.ew)
    assert new_row.tricks == request.tricks and new_row.score == request.score != row.score
    recompute_event(event.pk)
    assert BoardScore.objects.get(session=first, board=row.board, ns=row.ns).score == request.score
    with pytest.raises(corrections.CorrectionRefused):
        corrections.decide(request, approve=False, user=director)
    other = ask(
        first,
        seat,
        user,
        versions.results_of(version).filter(ew=seat).first() or new_row,
        PUBLISHED + datetime.timedelta(minutes=6),
    )
    corrections.decide(other, approve=False, user=director, note="nem elírás")
    assert list(CorrectionRequest.objects.order_by("pk").values_list("status", flat=True)) == [
        "approved",
        "refused",
    ]
    assert ResultVersion.objects.filter(session=first).count() == 2
    # Both mails link absolutely (issue #14): the director's queue, the requester's session page; each to
    # the account's address.
    asked = Notification.objects.filter(recipient=director.email).first()
    assert asked and settings.PORTAL_URL + reverse("bridge_corrections", args=[event.pk]) in asked.body
    told = Notification.objects.filter(recipient=user.email).first()
    assert told and settings.PORTAL_URL + reverse("bridge_session", args=[first.pk]) in told.body


@pytest.mark.django_db
def test_a_pair_may_only_correct_its_own_results(event, first, player):
    user, seat = player
    other = SessionPair.objects.get(section__session=first, number=2)
    row = a_result(first, other)
    with pytest.raises(corrections.CorrectionRefused):
        corrections.request_correction(
            first,
            board=row.board,
            ns=row.ns,
            ew=row.ew,
            requester=seat,
            contract="1NT",
            declarer="N",
            result="7",
            reason="x",
            user=user,
            now=PUBLISHED,
        )


@pytest.mark.django_db
def test_corrections_through_the_api(client, event, first, player, director):
    user, seat = player
    row = a_result(first, seat)
    client.force_login(user)
    body = {
        "session": first.pk,
        "board": row.board,
        "contract": row.contract,
        "declarer": row.declarer,
        "result": str(row.tricks - 1 if row.tricks else 1),
        "reason": "elírás",
    }
    with freeze_time(PUBLISHED + datetime.timedelta(minutes=3)):
        created = client.post("/api/v1/bridge/corrections/", body, content_type="application/json")
    assert created.status_code == 201, created.content
    pk = created.json()["id"]
    assert (
        client.post(
            f"/api/v1/bridge/corrections/{pk}/approve/", {}, content_type="application/json"
        ).status_code
        == 403
    )
    client.force_login(director)
    approved = client.post(
        f"/api/v1/bridge/corrections/{pk}/approve/", {"note": "ok"}, content_type="application/json"
    )
    assert approved.status_code == 200 and approved.json()["status"] == "approved"
    with freeze_time(PUBLISHED + datetime.timedelta(hours=2)):
        client.force_login(user)
        late = client.post("/api/v1/bridge/corrections/", body, content_type="application/json")
    assert late.status_code == 400
