"""Hostile bridge individual uploads through the director's page: whatever the file holds, no 500, nothing
executable echoed back, and either a clean refusal that writes nothing or a normal new version."""

import random

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from bridge.engine.individual_movements import individual as individual_movement
from bridge.models import IndividualVersion
from bridge.services import individual, uploads
from demo import individual_sample as sample
from federation.models import Role

from .helpers import (
    DEFECT_BOARD,
    HUGE,
    INJECTIONS,
    SCRIPT,
    START,
    assert_safe,
    garbage,
    refused_cleanly,
    snapshot,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(mbsz, make_user, client):
    event = sample.event_with_players(mbsz, players=8, title="Ellenséges egyéni", start=START)
    director = make_user("td-hostile-indiv@example.hu", kind=Role.DIRECTOR, event=event)
    rows = sample.play(individual_movement(2), random.Random(4))
    text = sample.csv_text(rows)
    uploads.submit(individual.setup_for(event), "csv", user=director, text=text)
    client.force_login(director)
    return event, text


def post(client, event, kind, data: bytes, name="e.csv", note=""):
    return client.post(
        reverse("bridge_individual_upload", args=[event.pk]),
        {"format": kind, "file": SimpleUploadedFile(name, data), "note": note},
    )


def line_with(text: str, column: int, value: str, line: int = 2) -> str:
    lines = text.splitlines()
    cells = lines[line - 1].split(";")
    cells[column] = value
    lines[line - 1] = ";".join(cells)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("kind", ["csv", "pbn"])
@pytest.mark.parametrize("seed", [1, 2])
def test_random_bytes_are_refused_cleanly(client, world, kind, seed):
    event, _text = world
    before = snapshot()
    response = post(client, event, kind, garbage(seed))
    assert_safe(response)
    refused_cleanly(response, before)


@pytest.mark.parametrize(
    "column, value",
    [(0, DEFECT_BOARD), (0, HUGE), (2, HUGE), (2, "-3"), (3, SCRIPT), (6, SCRIPT), (10, HUGE), (9, "99")]
    + [(10, injection) for injection in INJECTIONS],
)
def test_a_bad_cell_is_refused_with_nothing_written(client, world, column, value):
    event, text = world
    before = snapshot()
    response = post(client, event, "csv", line_with(text, column, value).encode())
    body = assert_safe(response)
    refused_cleanly(response, before)
    assert "Nothing was saved" in body
    assert IndividualVersion.objects.filter(event=event).count() == 1


def test_a_script_in_the_note_is_stored_as_text_and_never_echoed(client, world):
    event, text = world
    response = post(client, event, "csv", text.encode(), note=SCRIPT)
    assert response.status_code == 302
    assert IndividualVersion.objects.filter(event=event).latest("number").note == SCRIPT
    assert_safe(client.get(reverse("bridge_individual_upload", args=[event.pk])))


def test_a_pbn_cut_in_the_middle_is_refused(client, world):
    event, _text = world
    pbn = sample.pbn_text(sample.play(individual_movement(2), random.Random(4)))
    before = snapshot()
    response = post(
        client, event, "pbn", pbn[: pbn.index("[ScoreTable", len(pbn) // 2) + 6].encode(), "e.pbn"
    )
    assert_safe(response)
    refused_cleanly(response, before)
