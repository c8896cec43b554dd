"""Permissions per object on every page and API call, a may and a may-not for each role."""

import datetime
import random

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from bridge.models import CorrectionRequest, Exclusion, ResultVersion, SessionPair
from bridge.services import corrections, setup, upload_readers, uploads
from bridge.services.compute import recompute_event
from demo import bridge_sample as sample
from federation.models import Role
from results.models import VersionedUpload

START = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))


@pytest.fixture
def world(mbsz, mausz, bridge_club, make_user):
    event = sample.event_with_pairs(mbsz, pairs=8, title="Jogosultság", start=START, club=bridge_club)
    other_event = sample.event_with_pairs(mbsz, pairs=6, title="Másik verseny", start=START)
    director = make_user("td@example.hu", kind=Role.DIRECTOR, event=event)
    session = setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )
    rows = sample.play(session, random.Random(9))
    uploads.upload(
        session,
        upload_readers.parse_csv(sample.csv_text(session, rows)),
        source=VersionedUpload.Source.CSV,
        user=director,
    )
    recompute_event(event.pk)
    seat = SessionPair.objects.get(section__session=session, number=1)
    player = make_user("player@example.hu")
    seat.pair.player1.user = player
    seat.pair.player1.save()
    users = {
        "anonymous": None,
        "stranger": make_user("stranger@example.hu"),
        "player": player,
        "director": director,
        "other_director": make_user("td2@example.hu", kind=Role.DIRECTOR, event=other_event),
        "staff": make_user("staff@example.hu", kind=Role.FEDERATION_STAFF, federation=mbsz),
        "other_staff": make_user("staff@mausz.hu", kind=Role.FEDERATION_STAFF, federation=mausz),
        "club_admin": make_user("club@example.hu", kind=Role.CLUB_ADMIN, club=bridge_club),
        "superuser": get_user_model().objects.create_superuser("root", "root@example.hu", "jelszo-12345"),
    }
    return {
        "event": event,
        "session": session,
        "seat": seat,
        "rows": rows,
        "users": users,
        "director": director,
    }


RUNS = {"director", "staff", "superuser"}
ROLES = [
    "anonymous",
    "stranger",
    "player",
    "director",
    "other_director",
    "staff",
    "other_staff",
    "club_admin",
    "superuser",
]


def login(client, world, role):
    user = world["users"][role]
    if user is not None:
        client.force_login(user)
    return user


def refused(status, role):
    return status in (302, 401, 403, 404) if role == "anonymous" else status in (403, 404)


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_director_pages(client, world, role):
    login(client, world, role)
    session = world["session"]
    for name in (
        "bridge_upload",
        "bridge_versions",
        "bridge_adjust",
        "bridge_roster",
        "bridge_guide_cards",
        "bridge_dealing",
    ):
        status = client.get(reverse(name, args=[session.pk])).status_code
        assert (status == 200) if role in RUNS else refused(status, role), (name, role, status)
    status = client.get(reverse("bridge_setup", args=[world["event"].pk])).status_code
    assert (status == 200) if role in RUNS else refused(status, role)


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_recording_an_exclusion_through_the_roster_page(client, world, role):
    """VSz 23: only who runs the event excludes a pair; the page asks for the reason."""
    login(client, world, role)
    session, seat = world["session"], world["seat"]
    url = reverse("bridge_roster", args=[session.pk])
    data = {
        "exclusion": "",
        "ex-pair": seat.pair.pk,
        "ex-scope": "session",
        "ex-boards": "5-8",
        "ex-reason": "",
    }
    response = client.post(url, data)
    assert not Exclusion.objects.exists()  # no reason given: nothing recorded, for anybody
    response = client.post(url, {**data, "ex-reason": "sportszerűtlen viselkedés"})
    recorded = list(Exclusion.objects.values_list("pair_id", "scope", "boards", "recorded_by_id"))
    if role in RUNS:
        assert response.status_code == 302
        assert recorded == [(seat.pair.pk, "session", [5, 6, 7, 8], world["users"][role].pk)]
        page = client.get(url).content.decode()
        assert "sportszerűtlen viselkedés" in page
        # The whole event, without the committee's consent: refused on the page.
        response = client.post(url, {**data, "ex-scope": "event", "ex-boards": "", "ex-reason": "x"})
        assert response.status_code == 200 and Exclusion.objects.count() == 1
        assert response.context["ex_form"].non_field_errors()
    else:
        assert refused(response.status_code, role) and not recorded


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_uploading_through_the_page(client, world, role):
    login(client, world, role)
    session = world["session"]
    text = sample.csv_text(session, world["rows"]).encode()
    response = client.post(
        reverse("bridge_upload", args=[session.pk]),
        {"format": "csv", "file": SimpleUploadedFile("r.csv", text), "note": "x"},
    )
    uploaded = ResultVersion.objects.filter(session=session).count() == 2
    if role in RUNS:
        assert response.status_code == 302 and uploaded
    else:
        assert refused(response.status_code, role) and not uploaded


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_uploading_through_the_api(client, world, role):
    login(client, world, role)
    session = world["session"]
    if role != "anonymous":
        setup.publish(session, world["director"])  # published: everybody may read it, still only some upload
    text = sample.csv_text(session, world["rows"]).encode()
    response = client.post(
        f"/api/v1/bridge/sessions/{session.pk}/upload/",
        {"file": SimpleUploadedFile("r.csv", text)},
        format="multipart",
    )
    if role in RUNS:
        assert response.status_code == 201 and response.json()["number"] == 2
    else:
        assert refused(response.status_code, role)
        assert ResultVersion.objects.filter(session=session).count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_reading_published_and_unpublished_results(client, world, role):
    login(client, world, role)
    session = world["session"]
    url = reverse("bridge_session", args=[session.pk])
    api = f"/api/v1/bridge/sessions/{session.pk}/standings/"
    before, api_before = client.get(url).status_code, client.get(api).status_code
    if role in RUNS:
        assert before == 200 and api_before == 200
    else:
        assert refused(before, role) and api_before == 404
    setup.publish(session, world["director"])
    assert client.get(url).status_code == 200
    assert client.get(reverse("bridge_frequencies", args=[session.pk])).status_code == 200
    assert client.get(api).status_code == 200 and len(client.get(api).json()) == 8


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_correction_requests_and_countersigning(client, world, role):
    session = setup.publish(world["session"], world["director"])
    seat = world["seat"]
    row = next(r for r in world["rows"] if r["ns_id"] == seat.pk and r["contract"] != "Pass")
    user = login(client, world, role)
    page = client.get(reverse("bridge_correction_request", args=[session.pk])).status_code
    if role == "player":
        assert page == 200
    else:
        assert page in (302, 403)
    player = world["users"]["player"]
    ns, ew = SessionPair.objects.get(pk=row["ns_id"]), SessionPair.objects.get(pk=row["ew_id"])
    request = corrections.request_correction(
        session,
        board=row["board"],
        ns=ns,
        ew=ew,
        requester=seat,
        contract=row["contract"],
        declarer=row["declarer"],
        result=str(max(0, row["tricks"] - 1)),
        reason="elírás",
        user=player,
        now=session.published_at,
    )
    response = client.post(reverse("bridge_correction_decide", args=[request.pk]), {"approve": "1"})
    request.refresh_from_db()
    if role in RUNS:
        assert response.status_code == 302 and request.status == CorrectionRequest.Status.APPROVED
    else:
        assert refused(response.status_code, role) and request.status == CorrectionRequest.Status.PENDING
    del user


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["director", "player", "stranger"])
def test_adjusting_through_the_page(client, world, role):
    login(client, world, role)
    session, seat = world["session"], world["seat"]
    row = next(r for r in world["rows"] if r["ns_id"] == seat.pk)
    response = client.post(
        reverse("bridge_adjust", args=[session.pk]),
        {
            "board": row["board"],
            "ns": row["ns_id"],
            "ew": row["ew_id"],
            "award": "A+/A-",
            "reason": "lassú játék",
        },
    )
    adjusted = ResultVersion.objects.filter(session=session, source="adjustment").exists()
    if role == "director":
        assert response.status_code == 302 and adjusted
    else:
        assert response.status_code == 403 and not adjusted


@pytest.mark.django_db
def test_api_lists_only_what_the_user_may_read(client, world):
    session, event = world["session"], world["event"]
    assert client.get("/api/v1/bridge/sessions/").json()["results"] == []
    login(client, world, "director")
    listed = client.get("/api/v1/bridge/sessions/").json()["results"]
    assert [s["id"] for s in listed] == [session.pk] and listed[0]["processing"] is False
    client.logout()
    setup.publish(session, world["director"])
    detail = client.get(f"/api/v1/bridge/sessions/{session.pk}/").json()
    assert detail["boards"] == session.boards and detail["sections"][0]["movement"] == "mitchell"
    standings = client.get(f"/api/v1/bridge/events/{event.pk}/standings/").json()
    assert len(standings) == 8 and {row["field"] for row in standings} == {"NS", "EW"}
    assert all(len(row["rights"]) == 2 for row in standings)


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_reading_and_setting_the_tie_break_through_the_api(client, world, role):
    """Whoever may read the (public) event reads its scoring settings; its director and its organiser (the
    organising club's admin, federation staff) set the announced tie-break."""
    login(client, world, role)
    event = world["event"]
    url = f"/api/v1/bridge/events/{event.pk}/settings/"
    read = client.get(url)
    assert read.status_code == 200 and read.json()["tie_break"] == "shared"
    response = client.patch(url, {"tie_break": "best_boards"}, content_type="application/json")
    stored = setup.pair_event(event).tie_break
    if role in RUNS | {"club_admin"}:
        assert response.status_code == 200 and stored == "best_boards"
    else:
        assert refused(response.status_code, role) and stored == "shared", (role, response.status_code)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "role", ["anonymous", "stranger", "player", "other_director", "director", "club_admin"]
)
def test_the_settings_of_an_event_not_yet_public_are_read_by_those_who_run_it(client, world, role):
    event = world["event"]
    event.status = event.Status.SUBMITTED
    event.save(update_fields=["status"])
    assert not event.is_public
    login(client, world, role)
    status = client.get(f"/api/v1/bridge/events/{event.pk}/settings/").status_code
    assert status == 200 if role in ("director", "club_admin") else status == 404
