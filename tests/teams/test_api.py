"""The API: rounds and pairings (read; generate and publish for the director), matches (read, upload),
standings (read), through the same services and permissions as the pages."""

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from federation.models import Role
from teams.services.recompute import recompute_event

pytestmark = pytest.mark.django_db


class EnglishClient(APIClient):
    """English answers (the source texts), also after a logout clears the cookies."""

    def logout(self):
        super().logout()
        self.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"


@pytest.fixture
def api():
    client = EnglishClient()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def event(make_team_event):
    return make_team_event(teams=4, first_round="seeding", boards_per_match=6)


def test_generate_publish_upload_and_read(api, event, make_user, bridge_club):
    director = make_user("d@api.hu", kind=Role.DIRECTOR, event=event)
    api.force_authenticate(make_user("c@api.hu", kind=Role.CLUB_ADMIN, club=bridge_club))
    assert api.post("/api/v1/team-rounds/generate/", {"event": event.pk}, format="json").status_code == 403
    api.force_authenticate(director)
    response = api.post("/api/v1/team-rounds/generate/", {"event": event.pk}, format="json")
    assert response.status_code == 201 and response.json()["status"] == "draft"
    round_id = response.json()["id"]
    api.force_authenticate(None)
    assert api.get(f"/api/v1/team-rounds/?event={event.pk}").json()["count"] == 0  # a preview is not public
    assert api.get(f"/api/v1/team-rounds/{round_id}/").status_code == 404
    api.force_authenticate(director)
    assert api.post(f"/api/v1/team-rounds/{round_id}/publish/").json()["status"] == "published"

    api.force_authenticate(None)
    matches = api.get(f"/api/v1/team-matches/?event={event.pk}").json()["results"]
    assert len(matches) == 2 and matches[0]["home"]["start_number"] == 1
    first, second = matches[0]["id"], matches[1]["id"]
    boards = [{"board": b, "open_ns": 420, "closed_ns": 420 if b > 1 else -50} for b in range(1, 7)]
    assert (
        api.post(f"/api/v1/team-matches/{first}/upload/", {"boards": boards}, format="json").status_code
        == 403
    )

    api.force_authenticate(director)
    response = api.post(f"/api/v1/team-matches/{first}/upload/", {"boards": boards[:4]}, format="json")
    assert response.status_code == 400 and "has 6 boards" in response.json()["errors"][0]
    response = api.post(f"/api/v1/team-matches/{first}/upload/", {"boards": boards}, format="json")
    assert response.status_code == 201 and response.json()["version"] == 1
    csv = b"board,room,ns_score\n" + b"".join(b"%d,open,100\n%d,closed,100\n" % (b, b) for b in range(1, 7))
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = api.post(
        f"/api/v1/team-matches/{second}/upload/",
        {"file_format": "csv", "file": SimpleUploadedFile("m.csv", csv)},
        format="multipart",
    )
    assert response.status_code == 201
    recompute_event(event.pk)

    api.force_authenticate(None)
    rows = api.get(f"/api/v1/team-standings/?event={event.pk}").json()["results"]
    assert [(r["place"], r["team"]["start_number"]) for r in rows][:1] == [(1, 1)]
    assert rows[0]["imps"] == "10.00"
    match = api.get(f"/api/v1/team-matches/{first}/").json()
    assert match["result"]["home_imps"] == "10.00"


@pytest.mark.django_db
def test_generate_with_a_list_body_is_refused_not_a_500(client, make_user):
    # Found by the schema fuzzer (docs/reliability.md): a JSON array body used to crash the permission check.
    admin = make_user("su@example.hu")
    admin.is_superuser = True
    admin.save()
    client.force_login(admin)
    response = client.post(
        "/api/v1/team-rounds/generate/", data="[null, null]", content_type="application/json"
    )
    assert 400 <= response.status_code < 500
