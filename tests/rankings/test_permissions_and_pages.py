"""Permissions (staff of this federation only) and every page and API endpoint answering."""

import datetime

import pytest
from django.urls import reverse

from rankings.models import AwardScheme, Season
from rankings.services.ledger import record_result
from rankings.services.lists import recompute_all_lists
from rankings.services.schemes import current_scheme, ensure_default_scheme

pytestmark = pytest.mark.django_db


@pytest.fixture
def users(make_user, mbsz, mausz, make_person):
    player = make_user("jatekos@example.hu")
    make_person(mbsz, user=player)
    return {
        "staff_mbsz": make_user("staff@mbsz.hu", kind="federation_staff", federation=mbsz),
        "staff_mausz": make_user("staff@mausz.hu", kind="federation_staff", federation=mausz),
        "player": player,
    }


def scheme_post(federation):
    scheme = current_scheme(federation)
    classes = list(scheme.rules["classes"].items())
    data = {
        "cls-TOTAL_FORMS": str(len(classes)),
        "cls-INITIAL_FORMS": str(len(classes)),
        "cls-MIN_NUM_FORMS": "0",
        "cls-MAX_NUM_FORMS": "1000",
        "qual-TOTAL_FORMS": "0",
        "qual-INITIAL_FORMS": "0",
        "qual-MIN_NUM_FORMS": "0",
        "qual-MAX_NUM_FORMS": "1000",
        "valid_from": "2026-01-01",
        "note": "Új pontozás",
    }
    for i, (name, rule) in enumerate(classes):
        data.update(
            {
                f"cls-{i}-event_class": name,
                f"cls-{i}-first": str(int(rule["first"]) + 1),
                f"cls-{i}-per_entry": rule["per_entry"],
                f"cls-{i}-max_first": str(int(rule["max_first"]) + 1) if rule["max_first"] else "",
                f"cls-{i}-share": rule["share"],
                f"cls-{i}-min_field": rule["min_field"],
            }
        )
    return data


@pytest.mark.parametrize(
    "who, allowed", [("staff_mbsz", True), ("staff_mausz", False), ("player", False), (None, False)]
)
def test_only_staff_of_this_federation_may_edit_its_scheme(
    client, users, mbsz, who, allowed, django_capture_on_commit_callbacks
):
    if who:
        client.force_login(users[who])
    url = reverse("rankings_scheme", args=[mbsz.code])
    page = client.get(url).content.decode()
    assert ("cls-TOTAL_FORMS" in page) is allowed
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, scheme_post(mbsz))
    if who is None:  # one rule (federation.access): an anonymous visitor is sent to log in, not refused
        assert response.status_code == 302 and response.url.startswith(reverse("login"))
    else:
        assert response.status_code == (302 if allowed else 403)
    assert AwardScheme.objects.filter(federation=mbsz).count() == (2 if allowed else 1)
    if allowed:
        new = AwardScheme.objects.get(federation=mbsz, version=2)
        assert new.created_by == users["staff_mbsz"] and new.note == "Új pontozás"
        assert new.rules["classes"]["club"]["first"] == "3"


@pytest.mark.parametrize(
    "who, status", [("staff_mausz", 201), ("staff_mbsz", 403), ("player", 403), (None, 403)]
)
def test_scheme_api_permissions(client, users, mausz, who, status):
    ensure_default_scheme(mausz)
    if who:
        client.force_login(users[who])
    payload = {
        "federation": "mausz",
        "valid_from": "2026-01-01",
        "rules": {"classes": {"sport_ulti": {"first": "12", "share": "0.3"}}},
        "note": "API",
    }
    response = client.post("/api/v1/rankings/schemes/", payload, content_type="application/json")
    assert response.status_code == status
    assert AwardScheme.objects.filter(federation=mausz).count() == (2 if status == 201 else 1)


def test_invalid_scheme_is_refused_by_the_api(client, users, mausz):
    client.force_login(users["staff_mausz"])
    payload = {
        "federation": "mausz",
        "valid_from": "2026-01-01",
        "rules": {"classes": {"x": {"first": "1", "share": "2"}}},
    }
    response = client.post("/api/v1/rankings/schemes/", payload, content_type="application/json")
    assert response.status_code == 400 and "share" in str(response.json())


def test_season_management_is_staff_only(client, users, mausz):
    Season.objects.create(federation=mausz, year=2026)
    url = reverse("rankings_season_recompute", args=[mausz.code, 2026])
    client.force_login(users["staff_mbsz"])
    assert client.post(url).status_code == 403
    client.force_login(users["staff_mausz"])
    assert client.post(url).status_code == 302


def test_pages_and_api_answer(client, mbsz, mausz, make_person, make_event, build_result):
    person = make_person(mbsz)
    event = make_event(mbsz, event_class="national", date=datetime.date(2026, 4, 1))
    record_result(
        event,
        build_result(event, [(1, 1, [person])] + [(i + 2, i + 2, [make_person(mbsz)]) for i in range(9)]),
    )
    recompute_all_lists(mbsz)
    Season.objects.create(federation=mausz, year=2026)
    urls = [
        reverse("rankings"),
        reverse("rankings_masterpoints", args=["mbsz"]),
        reverse("rankings_masterpoints", args=["mbsz"]) + "?year=all&category=senior&q=teszt",
        reverse("rankings_rating", args=["mausz"]),
        reverse("rankings_rating_csv", args=["mausz"]),
        reverse("rankings_player", args=["mbsz", person.pk]),
        reverse("rankings_player", args=["mausz", person.pk]),
        reverse("rankings_scheme", args=["mausz"]),
        reverse("rankings_season", args=["mausz", 2026]),
        reverse("rankings_event", args=[event.pk]),
        "/api/v1/rankings/lists/?federation=mbsz&kind=annual&year=2026&category=senior",
        f"/api/v1/rankings/awards/?person={person.pk}",
        "/api/v1/rankings/ratings/",
        "/api/v1/rankings/schemes/",
        "/api/v1/rankings/season-entries/?season__year=2026",
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
    assert client.get(reverse("rankings_rating", args=["mbsz"])).status_code == 404
    assert client.get(reverse("rankings_masterpoints", args=["mbsz"]) + "?year=xx").status_code == 404
    api = client.get("/api/v1/rankings/lists/?federation=mbsz&kind=annual&year=2026").json()
    assert api["results"][0]["person"] == person.pk and api["results"][0]["place"] == "1"
    # The navigation link appears now that the 'rankings' URL exists.
    assert reverse("rankings") in client.get("/").content.decode()
