"""The API: events with the calendar filters, entries created and withdrawn under the same rules."""

import datetime

import pytest
from django.urls import reverse

from tournaments.models import Entry, Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def events(make_event, mausz, ulti_club, today):
    y = today.year + 1
    return [
        make_event(title="API páros", start_date=datetime.date(y, 2, 1)),
        make_event(title="API piszkozat", status=Event.Status.DRAFT, start_date=datetime.date(y, 2, 2)),
        make_event(
            title="API ulti",
            federation=mausz,
            club=ulti_club,
            format="ulti_individual",
            event_class="rating",
            entry_fee=1000,
            start_date=datetime.date(y, 3, 1),
        ),
    ]


def titles(response):
    assert response.status_code == 200
    return {e["title"] for e in response.json()["results"]}


def test_event_list_is_public_and_filtered(client, events, today):
    url = reverse("event-list")
    assert titles(client.get(url)) == {"API páros", "API ulti"}
    assert titles(client.get(url, {"federation": "mausz"})) == {"API ulti"}
    assert titles(client.get(url, {"event_format": "pairs"})) == {"API páros"}
    assert titles(client.get(url, {"year": today.year + 1, "month": 3})) == {"API ulti"}
    assert titles(client.get(url, {"open": "true"})) == {"API páros", "API ulti"}


def test_event_detail_hides_drafts_from_the_public(client, events, club_admin):
    assert client.get(reverse("event-detail", args=[events[1].pk])).status_code == 404
    detail = client.get(reverse("event-detail", args=[events[0].pk])).json()
    assert detail["fee_per_player"] == 2000 and detail["sessions"] == []
    client.force_login(club_admin)
    assert client.get(reverse("event-detail", args=[events[1].pk])).status_code == 200


def test_create_and_withdraw_an_entry(client, events, make_player):
    me, partner = make_player(), make_player()
    client.force_login(me.user)
    response = client.post(
        reverse("entry-list"),
        {"event": events[0].pk, "member_numbers": [partner.memberships.get().member_number]},
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["status"] == "active" and [p["confirmed"] for p in body["players"]] == [True, False]
    assert "birth_date" not in str(body) and "phone" not in str(body)

    listed = client.get(reverse("entry-list"), {"event": events[0].pk}).json()["results"]
    assert [e["id"] for e in listed] == [body["id"]]
    assert client.get(reverse("event-entries", args=[events[0].pk])).json()["count"] == 1

    client.force_login(partner.user)
    assert client.post(reverse("entry-confirm", args=[body["id"]])).json()["players"][1]["confirmed"] is True
    response = client.post(reverse("entry-withdraw", args=[body["id"]]))
    assert response.status_code == 200 and response.json()["status"] == "withdrawn"


def test_refused_entry_gives_reasons_and_writes_nothing(client, make_event, make_player, make_person):
    event = make_event(members_only=True)
    me = make_player()
    client.force_login(me.user)
    response = client.post(
        reverse("entry-list"),
        {"event": event.pk, "member_numbers": ["NINCS"]},
        content_type="application/json",
    )
    assert response.status_code == 400 and "NINCS" in str(response.json())
    assert not Entry.objects.exists()


def test_entry_permissions(client, events, make_player, club_admin, other_club_admin):
    me, partner, stranger = make_player(), make_player(), make_player()
    payload = {"event": events[0].pk, "member_numbers": [partner.memberships.get().member_number]}
    assert client.post(reverse("entry-list"), payload, content_type="application/json").status_code in (
        401,
        403,
    )
    client.force_login(me.user)
    entry_id = client.post(reverse("entry-list"), payload, content_type="application/json").json()["id"]

    client.force_login(stranger.user)
    assert client.post(reverse("entry-withdraw", args=[entry_id])).status_code == 403
    assert client.post(reverse("entry-confirm", args=[entry_id])).status_code == 403
    client.force_login(other_club_admin)
    assert client.post(reverse("entry-withdraw", args=[entry_id])).status_code == 403
    by_organiser = {
        "event": events[0].pk,
        "by_organiser": True,
        "member_numbers": [
            make_player().memberships.get().member_number,
            make_player().memberships.get().member_number,
        ],
    }
    assert (
        client.post(reverse("entry-list"), by_organiser, content_type="application/json").status_code == 403
    )
    client.force_login(club_admin)
    assert (
        client.post(reverse("entry-list"), by_organiser, content_type="application/json").status_code == 201
    )
    assert client.post(reverse("entry-withdraw", args=[entry_id])).status_code == 200


def test_entry_into_a_draft_is_refused(client, events, make_player):
    me, partner = make_player(), make_player()
    client.force_login(me.user)
    response = client.post(
        reverse("entry-list"),
        {"event": events[1].pk, "member_numbers": [partner.memberships.get().member_number]},
        content_type="application/json",
    )
    assert response.status_code == 400 and not Entry.objects.exists()


def test_schema_lists_the_endpoints(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    for path in (
        "/api/v1/events/",
        "/api/v1/events/{id}/entries/",
        "/api/v1/entries/",
        "/api/v1/entries/{id}/withdraw/",
    ):
        assert path in schema["paths"]


@pytest.mark.django_db
def test_an_impossible_year_is_a_clear_400_not_a_500(client):
    # Found by the schema fuzzer (docs/reliability.md): year=0 used to raise deep in the date lookup.
    assert client.get("/api/v1/events/?year=0").status_code == 400
    assert client.get("/api/v1/events/?year=2026").status_code == 200
