"""The director's correction of a table's round result from the ulti control room (issue #18): a correction
version through the one upload seam with his name, the time and his reason, recorded beside the phones'
entries; only the event's director (and the federation's staff) may."""

import pytest
from django.test import Client
from django.urls import reverse

from federation.models import Club, Role
from results.models import VersionedUpload
from ulti.models import RoundUpload, TableEntry
from ulti.services import table_entry

from .conftest import fill, key

pytestmark = pytest.mark.django_db


def _form(code, forints, reason="elírás a lapon"):
    seats = table_entry.seats_of(code.table)
    data = {f"forint-{s.pk}": str(f) for s, f in zip(seats, forints, strict=True)}
    data["reason"] = reason
    return data


def _url(code):
    return reverse("ulti_correct_table", args=[code.table.pk])


@pytest.fixture
def more_clients(clients, make_user, mausz, regions):
    other_club = Club.objects.create(
        federation=mausz, name="Debreceni Ulti Kör", short_name="DUK", city="Debrecen", region=regions[0]
    )
    admin = make_user("klub-masik-ulti@example.hu", kind=Role.CLUB_ADMIN, club=other_club)
    clients["other_club_admin"] = Client()
    clients["other_club_admin"].force_login(admin)
    return clients


def test_the_director_corrects_a_disputed_table_from_the_control_room(clients, codes, director):
    code = codes[1]
    fill(code)
    state = table_entry.state_of(code)
    table_entry.send(
        code, key=key(), kind="dispute", seat=state.seats[0].pk, based_on=state.head.pk, note="9"
    )
    room = clients["director"].get(reverse("ulti_control_room", args=[code.table.round_id])).content.decode()
    assert 'id="correct-1" open' in room and _url(code) in room

    response = clients["director"].post(_url(code), _form(code, [200, -100, -100]))
    assert response.status_code == 302
    upload = RoundUpload.objects.get()
    assert upload.source == VersionedUpload.Source.CORRECTION and upload.uploaded_by == director
    assert "elírás a lapon" in upload.note and director.get_username() in upload.note
    lines = {line.participant_id: line.forint for line in upload.lines.all()}
    seats = table_entry.seats_of(code.table)
    assert lines == {seats[0].pk: 200, seats[1].pk: -100, seats[2].pk: -100}
    entry = TableEntry.objects.get(kind=TableEntry.Kind.DIRECTOR)
    assert entry.upload == upload and entry.note == "elírás a lapon" and entry.created_at is not None
    assert table_entry.state_of(code).status == "filed"  # the phones see the director's result
    # The other table keeps no result of its own; a second correction is the next version.
    clients["director"].post(_url(code), _form(code, [0, 0, 0], reason="mégsem"))
    assert RoundUpload.objects.count() == 2


def test_a_correction_needs_a_reason_and_a_result_the_round_accepts(clients, codes):
    code = codes[1]
    for data in (
        _form(code, [200, -100, -100], reason="  "),
        _form(code, [200, -100, -90]),  # does not add up to zero / not a unit multiple
        _form(code, ["x", 0, 0]),
    ):
        assert clients["director"].post(_url(code), data).status_code == 302
    assert not RoundUpload.objects.exists() and not TableEntry.objects.exists()


@pytest.mark.parametrize("role", ["other_director", "other_club_admin", "player", "anonymous"])
def test_who_may_not_correct(more_clients, codes, role):
    code = codes[1]
    response = more_clients[role].post(_url(code), _form(code, [200, -100, -100]))
    assert response.status_code in (302, 403, 404)
    if response.status_code == 302:
        assert "/login" in response["Location"]
    assert not RoundUpload.objects.exists()


def test_staff_may_correct(clients, codes):
    assert clients["staff"].post(_url(codes[2]), _form(codes[2], [0, 0, 0])).status_code == 302
    assert RoundUpload.objects.count() == 1
