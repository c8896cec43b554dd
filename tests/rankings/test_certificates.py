"""Masterpoint certificates: one player's current award for one event, as an A4 PDF from the ledger."""

import datetime

import pytest
from django.urls import reverse
from django.utils import translation

from rankings.services.ledger import record_result
from tests.pdf_reading import pdf_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def awarded(mbsz, make_person, make_event, build_result):
    winner = make_person(mbsz, first_name="Győző", last_name="Kőrösi")
    event = make_event(mbsz, event_class="national", date=datetime.date(2026, 4, 1), title="Őszi bajnokság")
    others = [make_person(mbsz) for _ in range(9)]
    record_result(
        event, build_result(event, [(1, 1, [winner])] + [(i + 2, i + 2, [p]) for i, p in enumerate(others)])
    )
    return event, winner, others


def test_the_certificate_names_the_player_the_event_and_the_masterpoints(client, awarded):
    event, winner, _others = awarded
    url = reverse("rankings_certificate", args=[event.pk, winner.pk])
    with translation.override("hu"):
        read = pdf_of(client.get(url, HTTP_ACCEPT_LANGUAGE="hu"))
    assert read.pages == 1 and read.ink > 1000
    assert "Kőrösi Győző" in read.text and "Őszi bajnokság" in read.text
    amount = winner.masterpoint_awards.get(is_current=True).amount
    assert f"{amount:.2f}".replace(".", ",") in read.text
    assert winner.memberships.get().member_number in read.text
    page = client.get(reverse("rankings_event", args=[event.pk])).content.decode()
    assert url in page


def test_no_certificate_without_an_award(client, awarded, mbsz, make_person):
    event, _winner, _others = awarded
    stranger = make_person(mbsz)
    assert client.get(reverse("rankings_certificate", args=[event.pk, stranger.pk])).status_code == 404
    assert client.get(reverse("rankings_certificate", args=[event.pk + 999, stranger.pk])).status_code == 404
