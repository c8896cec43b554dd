"""PBN files from other programs through the one upload seam: a line with an unreadable contract but a legal
score is taken by its score with a warning naming the line, and nothing is saved until the director has
read the warnings (the page's confirmation step, the API's 409)."""

import datetime
import random

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from bridge.models import BoardResult, ResultVersion, SessionStanding
from bridge.services import decisions, setup, upload_readers, uploads, versions
from bridge.services.compute import recompute_event
from demo import bridge_sample as sample
from federation.models import Role
from results.models import VersionedUpload

pytestmark = pytest.mark.django_db
Source = VersionedUpload.Source
START = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def world(mbsz, make_user):
    event = sample.event_with_pairs(mbsz, pairs=8, title="Idegen program", start=START)
    director = make_user("td-foreign@example.hu", kind=Role.DIRECTOR, event=event)
    session = setup.create_session(
        event,
        movement="mitchell",
        pairs=setup.pairs_from_entries(event),
        announced=event.sessions.first(),
        boards_per_round=2,
    )
    rows = sample.play(session, random.Random(5))
    return event, director, session, rows


def with_typo(text: str) -> tuple[str, int, int]:
    """The first played row's contract replaced by '42' (its score kept); returns text, line, score."""
    lines = text.splitlines()
    for index, line in enumerate(lines):
        if line.startswith("[ScoreTable"):
            header = line.split('"')[1].split(";")
            names = [column.split("\\")[0] for column in header]
            row = lines[index + 1].split()
            if row[names.index("Contract")] not in ("Pass", "-"):
                row[names.index("Contract")] = "42"
                lines[index + 1] = " ".join(row)
                return "\n".join(lines) + "\n", index + 2, int(row[names.index("Score_NS")])
    raise AssertionError("no played row")


def english_client(user):
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(user)
    return client


def counts():
    return ResultVersion.objects.count(), BoardResult.objects.count()


def standings(session):
    return sorted(
        SessionStanding.objects.filter(session=session).values_list("pair__number", "total", "place")
    )


def test_the_service_waits_for_the_warnings_then_scores_the_line_by_its_score(world):
    event, director, session, rows = world
    native = sample.pbn_text(session, rows)
    text, line, score = with_typo(native)
    before = counts()
    with pytest.raises(decisions.DecisionsPending) as pending:
        uploads.submit(session, upload_readers.PBN, user=director, text=text, file_name="other.pbn")
    [warning] = pending.value.warnings
    assert warning.startswith(f"line {line}: ") and "'42'" in warning and str(score) in warning
    assert counts() == before

    version = uploads.submit(
        session, upload_readers.PBN, user=director, text=text, file_name="other.pbn", accept_warnings=True
    )
    assert version.source == Source.PBN
    recompute_event(event.pk)
    foreign = standings(session)
    row = versions.results_of(version).get(score=score, contract="")
    assert row.tricks is None

    uploads.submit(session, upload_readers.PBN, user=director, text=native, file_name="native.pbn")
    recompute_event(event.pk)
    assert standings(session) == foreign  # the same standings as the native upload


def test_a_file_without_warnings_is_saved_at_once(world):
    _event, director, session, rows = world
    version = uploads.submit(session, upload_readers.PBN, user=director, text=sample.pbn_text(session, rows))
    assert versions.latest_version(session) == version


def test_the_page_shows_the_warnings_and_asks_to_confirm(world):
    _event, director, session, rows = world
    text, line, _score = with_typo(sample.pbn_text(session, rows))
    client = english_client(director)
    before = counts()
    response = client.post(
        reverse("bridge_upload", args=[session.pk]),
        {"format": "pbn", "file": SimpleUploadedFile("other.pbn", text.encode()), "note": ""},
    )
    confirm = reverse("bridge_upload_confirm", args=[session.pk])
    assert response.status_code == 302 and response.url == confirm
    page = client.get(confirm)
    html = page.content.decode()
    assert page.status_code == 200 and 'id="upload-warnings"' in html and f"line {line}: " in html
    assert 'name="accept_warnings"' in html
    refused = client.post(confirm, {"base": ""})
    assert refused.status_code == 400 and counts() == before
    done = client.post(confirm, {"base": "", "accept_warnings": "1"})
    assert done.status_code == 302 and done.url == reverse("bridge_session", args=[session.pk])
    assert counts()[0] == before[0] + 1


def test_the_api_returns_the_warnings_in_a_409_and_saves_when_they_are_accepted(world):
    _event, director, session, rows = world
    text, line, _score = with_typo(sample.pbn_text(session, rows))
    client = english_client(director)
    url = f"/api/v1/bridge/sessions/{session.pk}/upload/"
    before = counts()
    response = client.post(url, {"file": SimpleUploadedFile("other.pbn", text.encode())})
    assert response.status_code == 409
    body = response.json()
    assert len(body["warnings"]) == 1 and body["warnings"][0].startswith(f"line {line}: ")
    assert body["decisions"] == [] and counts() == before
    saved = client.post(
        url, {"file": SimpleUploadedFile("other.pbn", text.encode()), "accept_warnings": "true"}
    )
    assert saved.status_code == 201, saved.content
    assert counts()[0] == before[0] + 1


def test_another_user_cannot_upload_or_confirm(world, make_user):
    _event, _director, session, rows = world
    text, _line, _score = with_typo(sample.pbn_text(session, rows))
    stranger = make_user("stranger@example.hu")
    client = Client()
    client.force_login(stranger)
    before = counts()
    response = client.post(
        reverse("bridge_upload", args=[session.pk]),
        {"format": "pbn", "file": SimpleUploadedFile("other.pbn", text.encode())},
    )
    assert response.status_code in (403, 404)
    assert client.post(
        reverse("bridge_upload_confirm", args=[session.pk]), {"accept_warnings": "1"}
    ).status_code in (
        403,
        404,
    )
    assert counts() == before
