"""USEBIO 1.2 files through the one upload seam (`bridge.services.uploads.submit`): recorded as a USEBIO
version, scored into the same standings as the equivalent native upload, read leniently with warnings the
director confirms (page and API), and the portal's own USEBIO export read back identically."""

import datetime
import random

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from bridge.engine.pbn.reader import read_session
from bridge.engine.pbn.usebio import write_usebio
from bridge.models import ResultVersion, SessionStanding
from bridge.services import decisions, exports, setup, upload_readers, uploads, versions
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
    event = sample.event_with_pairs(mbsz, pairs=8, title="USEBIO klub", start=START)
    director = make_user("td-usebio@example.hu", kind=Role.DIRECTOR, event=event)
    session = setup.create_session(
        event,
        movement="mitchell",
        pairs=setup.pairs_from_entries(event),
        announced=event.sessions.first(),
        boards_per_round=2,
    )
    rows = sample.play(session, random.Random(7))
    return event, director, session, rows


def usebio_of(session, rows) -> str:
    """The sample's contracts and scores as another program's USEBIO file (no match points)."""
    return write_usebio(read_session(sample.pbn_text(session, rows)), program="Other Scorer 3.1")


def with_typo(text: str) -> tuple[str, int, str]:
    """The first played line's CONTRACT replaced by '42' (its SCORE kept): text, its line, the score."""
    lines = text.splitlines()
    for index, line in enumerate(lines):
        if "<CONTRACT>" in line and "Pass" not in line:
            lines[index] = line.split("<CONTRACT>")[0] + "<CONTRACT>42</CONTRACT>"
            score = next(x for x in lines[index:] if "<SCORE>" in x).split(">")[1].split("<")[0]
            return "\n".join(lines) + "\n", index + 1, score
    raise AssertionError("no played line")


def standings(session):
    return sorted(
        SessionStanding.objects.filter(session=session).values_list("pair__number", "total", "place")
    )


def results_of(version):
    return sorted(
        versions.results_of(version).values_list(
            "board", "ns_id", "ew_id", "contract", "declarer", "lead", "tricks", "score", "artificial"
        )
    )


def english_client(user):
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(user)
    return client


def test_a_usebio_file_gives_the_same_standings_as_the_native_upload(world):
    event, director, session, rows = world
    native = uploads.submit(session, upload_readers.PBN, user=director, text=sample.pbn_text(session, rows))
    recompute_event(event.pk)
    expected = standings(session)
    assert expected

    version = uploads.submit(
        session, upload_readers.USEBIO, user=director, text=usebio_of(session, rows), file_name="club.xml"
    )
    assert version.source == Source.USEBIO == "usebio" and version.file_name == "club.xml"
    recompute_event(event.pk)
    assert standings(session) == expected
    assert results_of(version) == results_of(native)


def test_the_portal_reads_its_own_usebio_export_back_identically(world):
    event, director, session, rows = world
    first = uploads.submit(session, upload_readers.CSV, user=director, text=sample.csv_text(session, rows))
    recompute_event(event.pk)
    expected, record = standings(session), exports.session_record(session)
    exported = exports.usebio_text(session)

    again = uploads.submit(
        session, upload_readers.USEBIO, user=director, text=exported, file_name="export.xml"
    )
    recompute_event(event.pk)
    assert results_of(again) == results_of(first)
    assert standings(session) == expected
    assert exports.usebio_text(session) == exported
    assert exports.session_record(session).boards == record.boards


def test_a_line_with_an_unreadable_contract_waits_for_the_warnings(world):
    event, director, session, rows = world
    text, line, score = with_typo(usebio_of(session, rows))
    before = ResultVersion.objects.count()
    with pytest.raises(decisions.DecisionsPending) as pending:
        uploads.submit(session, upload_readers.USEBIO, user=director, text=text, file_name="other.xml")
    [warning] = pending.value.warnings
    assert warning.startswith(f"line {line}: <CONTRACT>") and "'42'" in warning and score in warning
    assert ResultVersion.objects.count() == before

    version = uploads.submit(
        session, upload_readers.USEBIO, user=director, text=text, file_name="other.xml", accept_warnings=True
    )
    recompute_event(event.pk)
    foreign = standings(session)
    assert versions.results_of(version).get(score=int(score), contract="").tricks is None
    uploads.submit(session, upload_readers.PBN, user=director, text=sample.pbn_text(session, rows))
    recompute_event(event.pk)
    assert standings(session) == foreign


def test_the_page_takes_a_usebio_file_and_asks_to_confirm_its_warnings(world):
    _event, director, session, rows = world
    text, line, _score = with_typo(usebio_of(session, rows))
    client = english_client(director)
    page = client.get(reverse("bridge_upload", args=[session.pk]))
    assert page.status_code == 200 and 'value="usebio"' in page.content.decode()
    before = ResultVersion.objects.count()
    response = client.post(
        reverse("bridge_upload", args=[session.pk]),
        {"format": "usebio", "file": SimpleUploadedFile("other.xml", text.encode())},
    )
    confirm = reverse("bridge_upload_confirm", args=[session.pk])
    assert response.status_code == 302 and response.url == confirm
    html = client.get(confirm).content.decode()
    assert 'id="upload-warnings"' in html and f"line {line}: " in html
    assert ResultVersion.objects.count() == before
    done = client.post(confirm, {"base": "", "accept_warnings": "1"})
    assert done.status_code == 302
    assert ResultVersion.objects.latest("pk").source == Source.USEBIO


def test_the_api_reads_an_xml_file_as_usebio(world):
    _event, director, session, rows = world
    text, line, _score = with_typo(usebio_of(session, rows))
    client = english_client(director)
    url = f"/api/v1/bridge/sessions/{session.pk}/upload/"
    response = client.post(url, {"file": SimpleUploadedFile("other.xml", text.encode())})
    assert response.status_code == 409, response.content[:300]
    assert response.json()["warnings"][0].startswith(f"line {line}: ")
    saved = client.post(
        url, {"file": SimpleUploadedFile("other.xml", text.encode()), "accept_warnings": "true"}
    )
    assert saved.status_code == 201, saved.content
    assert ResultVersion.objects.latest("pk").source == Source.USEBIO


def test_a_stranger_cannot_upload_usebio(world, make_user):
    _event, _director, session, rows = world
    client = english_client(make_user("stranger-usebio@example.hu"))
    before = ResultVersion.objects.count()
    data = usebio_of(session, rows).encode()
    page = client.post(
        reverse("bridge_upload", args=[session.pk]),
        {"format": "usebio", "file": SimpleUploadedFile("x.xml", data)},
    )
    api = client.post(
        f"/api/v1/bridge/sessions/{session.pk}/upload/", {"file": SimpleUploadedFile("x.xml", data)}
    )
    assert page.status_code in (403, 404) and api.status_code in (403, 404)
    assert ResultVersion.objects.count() == before
