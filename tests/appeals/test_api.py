"""The appeals API: the same steps and permissions as the pages."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from freezegun import freeze_time
from rest_framework.test import APIClient

from appeals.models import Appeal, FederationSettings, Intention
from appeals.services import filing

from .conftest import at, decide, user_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    return APIClient()


def test_the_whole_case_through_the_api(world, api, fake_effect):
    event, session, entry = world.event, world.sessions[0], world.pairs[0]
    api.force_authenticate(world.director)
    desk = reverse("appeal-event-detail", args=[event.pk])
    with freeze_time(at(12)):  # during the session (the world's day): an intention counts only before its end
        assert api.post(f"{desk}start/").status_code == 200
        api.post(
            f"{desk}intentions/", {"session": session.pk, "entry": entry.pk, "board_number": 7}, format="json"
        )
    assert Intention.objects.filter(entry=entry, source="director").exists()
    filing.end_session(session, world.director, at=at(13))
    with freeze_time(at(13, 5)):
        api.force_authenticate(user_of(entry))
        response = api.post(
            reverse("appeal-list"),
            {
                "session": session.pk,
                "entry": entry.pk,
                "respondent_entry": world.pairs[1].pk,
                "board_number": 7,
                "ns_pair": "3",
                "ew_pair": "5",
                "director": world.director.pk,
                "ruling": "Áll.",
                "request": "4S-1",
                "statement": "Hezitálás.",
            },
            format="json",
        )
        assert response.status_code == 201, response.content
        pk = response.json()["id"]
        assert response.json()["status"] == "awaiting_partner"
        api.force_authenticate(user_of(entry, 1))
        assert api.post(reverse("appeal-agree", args=[pk])).json()["status"] == "awaiting_deposit"
    case = reverse("appeal-detail", args=[pk])
    api.force_authenticate(user_of(entry))
    assert api.post(f"{case}deposit/").status_code == 403
    api.force_authenticate(world.director)
    assert api.post(f"{case}deposit/").json()["status"] == "lodged"
    assert api.post(f"{case}panel/", {}, format="json").json()["status"] == "hearing"
    seated = [m["member"] for m in api.get(case).json()["case_file"]["panel"]]
    users = [m.user for m in world.members if m.pk in seated]
    api.force_authenticate(users[0])
    for speaker in ("director", "appellant", "respondent"):
        r = api.post(
            f"{case}statements/", {"speaker": speaker, "speaker_name": "x", "text": "y"}, format="json"
        )
        assert r.status_code == 200
    refused = api.post(f"{case}decisions/", {"outcome": "changed", "text": "x"}, format="json")
    assert refused.status_code == 400
    r = api.post(
        f"{case}decisions/",
        {
            "outcome": "changed",
            "text": "4S-1.",
            "board_number": 7,
            "ns_pair": "3",
            "ew_pair": "5",
            "ns_score": -50,
        },
        format="json",
    )
    decision = r.json()["decisions"][0]["id"]
    for user in users[1:]:
        api.force_authenticate(user)
        api.post(f"{case}vote/", {"decision": decision, "agrees": True}, format="json")
    published = api.post(f"{case}publish/", {"decision": decision}, format="json").json()
    assert published["status"] == "decided" and published["deposit_outcome"] == "returned"
    assert len(fake_effect) == 1
    api.force_authenticate(None)
    public = api.get(case).json()
    assert public["case_file"] is None and public["decisions"][0]["ns_score"] == -50


def test_the_api_hides_open_cases_and_anonymises(world, api, heard_case, file_case, fake_effect):
    decided = heard_case()
    decide(decided, [s.member.user for s in decided.panel.all()])
    file_case(entry=world.pairs[2], respondent=world.pairs[3], board=9)
    rows = api.get(reverse("appeal-list")).json()["results"]
    assert [r["id"] for r in rows] == [decided.pk] and rows[0]["appellant"]
    FederationSettings.objects.create(federation=world.event.federation, anonymise_public=True)
    assert api.get(reverse("appeal-list")).json()["results"][0]["appellant"] is None
    api.force_authenticate(user_of(world.pairs[2]))
    assert {r["id"] for r in api.get(reverse("appeal-list")).json()["results"]} == {
        decided.pk,
        decided.pk + 1,
    }


def test_attachments_through_the_api(world, api, file_case, settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)
    appeal = file_case()
    url = reverse("appeal-attachments", args=[appeal.pk])
    api.force_authenticate(user_of(world.pairs[0]))
    bad = api.post(url, {"file": SimpleUploadedFile("a.pdf", b"<svg onload=alert(1)>")}, format="multipart")
    assert bad.status_code == 400
    good = api.post(url, {"file": SimpleUploadedFile("a.pdf", b"%PDF-1.4 ok")}, format="multipart")
    assert good.status_code == 201 and good.json()["content_type"] == "application/pdf"
    api.force_authenticate(user_of(world.pairs[4]))
    assert (
        api.post(url, {"file": SimpleUploadedFile("b.pdf", b"%PDF-1.4")}, format="multipart").status_code
        == 404
    )


def test_measures_and_reports_through_the_api(world, api):
    person = world.pairs[0].members.first().person
    api.force_authenticate(user_of(world.pairs[1]))
    assert api.post(
        reverse("discipline-measure-list"),
        {"event": world.event.pk, "person": person.pk, "kind": "warning", "reason": "x"},
        format="json",
    ).status_code in (403, 404)
    api.force_authenticate(world.director)
    r = api.post(
        reverse("discipline-measure-list"),
        {"event": world.event.pk, "person": person.pk, "kind": "report", "reason": "Súlyos."},
        format="json",
    )
    assert r.status_code == 201
    assert api.get(reverse("discipline-report-list")).status_code == 403
    api.force_authenticate(world.staff)
    reports = api.get(reverse("discipline-report-list")).json()["results"]
    refused = api.post(
        reverse("discipline-report-decide", args=[reports[0]["id"]]),
        {"outcome": "warning", "text": "Figyelmeztetés."},
        format="json",
    )
    assert refused.status_code == 403
    api.force_authenticate(world.disciplinary)
    reports = api.get(reverse("discipline-report-list")).json()["results"]
    decided = api.post(
        reverse("discipline-report-decide", args=[reports[0]["id"]]),
        {"outcome": "suspension", "text": "Egy hónap.", "starts_on": "2026-12-06", "ends_on": "2027-01-06"},
        format="json",
    )
    assert decided.json()["outcome"] == "suspension"


def test_the_schema_lists_the_appeals_endpoints(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    assert "/api/v1/appeals/{id}/second-instance/" in schema["paths"]
    assert "/api/v1/appeal-events/{id}/start/" in schema["paths"]


def test_an_appeal_status_is_never_set_by_the_client(world, api, file_case):
    appeal = file_case()
    api.force_authenticate(user_of(world.pairs[0]))
    assert api.patch(
        reverse("appeal-detail", args=[appeal.pk]), {"status": "decided"}, format="json"
    ).status_code in (403, 405)
    appeal.refresh_from_db()
    assert appeal.status == Appeal.Status.LODGED
