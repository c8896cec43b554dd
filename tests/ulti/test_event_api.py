"""The API: rounds and tables (read), generate and publish (director only), round upload (POST; a bad
table is refused by name and writes nothing), standings (read)."""

import datetime

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from federation.models import Role
from tournaments.models import Entry, EntryMember, Event
from ulti.models import Round, RoundUpload

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def api(settings):
    client = APIClient()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"  # the portal speaks Hungarian unless chosen
    return client


@pytest.fixture
def event(mausz, ulti_club, make_person):
    event = Event.objects.create(
        federation=mausz,
        club=ulti_club,
        title="API kupa",
        format="ulti_individual",
        event_class="nub_qualifier",
        start_date=datetime.date(2026, 6, 6),
        status="approved",
        rule_set="mausz",
    )
    for _ in range(6):
        entry = Entry.objects.create(event=event)
        EntryMember.objects.create(entry=entry, person=make_person(mausz, ulti_club))
    return event


@pytest.fixture
def director(make_user, event):
    return make_user("api.vezeto@example.hu", kind=Role.DIRECTOR, event=event)


@pytest.fixture
def group(event, director):
    from ulti.services import setup

    return setup.start_event(event, director).groups.get()


def test_director_generates_publishes_and_uploads(
    api, event, director, group, django_capture_on_commit_callbacks
):
    api.force_authenticate(director)
    drawn = api.post(f"/api/v1/ulti/groups/{group.pk}/generate/")
    assert drawn.status_code == 201, drawn.content
    body = drawn.json()
    assert body["status"] == "draft" and len(body["tables"]) == 2
    rid = body["id"]
    assert api.post(f"/api/v1/ulti/rounds/{rid}/publish/").json()["status"] == "published"
    detail = api.get(f"/api/v1/ulti/rounds/{rid}/").json()
    tables = [
        {
            "table": t["number"],
            "results": [
                {"participant": s["participant"], "forint": f}
                for s, f in zip(t["seats"], (500, -200, -300), strict=True)
            ],
        }
        for t in detail["tables"]
    ]
    bad = [dict(t) for t in tables]
    bad[1] = {"table": bad[1]["table"], "results": [dict(r) for r in bad[1]["results"]]}
    bad[1]["results"][0]["forint"] = 501
    refused = api.post(f"/api/v1/ulti/rounds/{rid}/upload/", {"tables": bad}, format="json")
    assert refused.status_code == 400 and refused.json()["errors"][0].startswith("Table 2:")
    assert not RoundUpload.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        done = api.post(
            f"/api/v1/ulti/rounds/{rid}/upload/", {"tables": tables, "note": "API"}, format="json"
        )
    assert done.status_code == 201 and done.json()["version"] == 1
    standings = api.get(f"/api/v1/ulti/standings/?event={event.pk}").json()["results"]
    assert len(standings) == 6 and standings[0]["points"] == 4 and standings[0]["forint"] == 500
    seats = api.get(f"/api/v1/ulti/rounds/{rid}/").json()["tables"][0]["seats"]
    assert [s["points"] for s in seats] == [4, 2, 0]


def test_others_may_read_but_not_act(api, make_user, event, director, group):
    from ulti.services import draw

    rnd = draw.publish_round(draw.generate_round(group, director), director)
    draft_group_round = Round.objects.get(pk=rnd.pk)
    player = make_user("api.jatekos@example.hu")
    api.force_authenticate(player)
    assert api.post(f"/api/v1/ulti/groups/{group.pk}/generate/").status_code == 403
    assert (
        api.post(f"/api/v1/ulti/rounds/{rnd.pk}/upload/", {"csv": "1;1;0"}, format="json").status_code == 403
    )
    assert api.get(f"/api/v1/ulti/rounds/?event={event.pk}").json()["count"] == 1
    assert api.get(f"/api/v1/ulti/rounds/{draft_group_round.pk}/").status_code == 200
    api.force_authenticate(None)
    assert api.post(f"/api/v1/ulti/rounds/{rnd.pk}/publish/").status_code in (401, 403)
    assert api.get("/api/v1/ulti/standings/").status_code == 400  # the event is required


def test_drafts_are_the_directors_only(api, make_user, event, director, group):
    from ulti.services import draw

    draft = draw.generate_round(group, director)
    assert api.get(f"/api/v1/ulti/rounds/{draft.pk}/").status_code == 404
    api.force_authenticate(director)
    assert api.get(f"/api/v1/ulti/rounds/{draft.pk}/").status_code == 200


def test_csv_upload_through_the_api(api, event, director, group):
    from ulti.services import draw

    rnd = draw.publish_round(draw.generate_round(group, director), director)
    lines = []
    for table in rnd.tables.all():
        for seat, forint in zip(table.seats.order_by("position"), (100, 0, -100), strict=True):
            lines.append(f"{table.number};{seat.participant.number};{forint}")
    api.force_authenticate(director)
    response = api.post(f"/api/v1/ulti/rounds/{rnd.pk}/upload/", {"csv": "\n".join(lines)}, format="json")
    assert response.status_code == 201 and RoundUpload.objects.get().source == "csv"
