"""The session's PDFs (standings, frequency sheets, a score card, hand records): they render in Hungarian
and follow the pages' permissions (a draft session exists only for who may manage it)."""

import datetime
import random

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from bridge.models import BoardScore, HandRecord, SessionPair
from bridge.services import setup, upload_readers, uploads
from bridge.services.compute import recompute_event
from demo import bridge_sample as sample
from federation.models import Person, Role
from results.models import VersionedUpload
from tests.pdf_reading import pdf_of

START = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))
DEAL = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"


@pytest.fixture
def world(mbsz, bridge_club, make_user):
    event = sample.event_with_pairs(mbsz, pairs=8, title="Őszi páros", start=START, club=bridge_club)
    director = make_user("td-pdf@example.hu", kind=Role.DIRECTOR, event=event)
    session = setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )
    rows = sample.play(session, random.Random(9))
    uploads.upload(
        session,
        upload_readers.parse_csv(sample.csv_text(session, rows)),
        source=VersionedUpload.Source.CSV,
        user=director,
    )
    recompute_event(event.pk)
    seat = SessionPair.objects.get(section__session=session, number=1)
    Person.objects.filter(pk=seat.pair.player1_id).update(first_name="Győző", last_name="Kőrösi")
    for board in (1, 2, 3):
        HandRecord.objects.create(
            session=session,
            board=board,
            deal=DEAL,
            dealer="N",
            vulnerability="None",
            tricks={s: {"NT": 5, "S": 7, "H": 6, "D": 6, "C": 7} for s in "NSEW"},
            par_score=110,
            par_contracts="2SN=",
        )
    return {"event": event, "session": session, "seat": seat, "director": director}


def _urls(world):
    session, seat = world["session"], world["seat"]
    return [
        reverse("bridge_session_pdf", args=[session.pk]),
        reverse("bridge_frequencies_pdf", args=[session.pk]),
        reverse("bridge_score_card_pdf", args=[session.pk, seat.pk]),
        reverse("bridge_hand_records_pdf", args=[session.pk]),
    ]


@pytest.mark.django_db
def test_the_published_session_pdfs_render_in_hungarian(client, world):
    setup.publish(world["session"], world["director"])
    standings, frequencies, card, hands = _urls(world)
    with translation.override("hu"):
        read = pdf_of(client.get(standings, HTTP_ACCEPT_LANGUAGE="hu"))
        assert read.pages == 1 and read.ink > 2000
        assert "Eredmények" in read.text and "Kőrösi Győző" in read.text and "Őszi páros" in read.text
        assert "," in read.text.split("Kőrösi Győző", 1)[1][:40]  # matchpoints with a decimal comma
        boards = pdf_of(client.get(frequencies, HTTP_ACCEPT_LANGUAGE="hu"))
        assert boards.pages >= 1 and boards.ink > 2000  # every board of the session, one table each (below)
        played = sorted({r.board for r in BoardScore.objects.filter(session=world["session"])})
        assert len(played) > 1 and all(f"{n}. leosztás" in boards.text for n in played)
        assert "É-D" in boards.text and "K-Ny" in boards.text
        one_board = pdf_of(client.get(frequencies + "?board=1", HTTP_ACCEPT_LANGUAGE="hu"))
        assert (
            one_board.pages == 1 and "1. leosztás" in one_board.text and "2. leosztás" not in one_board.text
        )
        score_card = pdf_of(client.get(card, HTTP_ACCEPT_LANGUAGE="hu"))
        assert "Kőrösi Győző" in score_card.text and score_card.ink > 2000
        deals = pdf_of(client.get(hands, HTTP_ACCEPT_LANGUAGE="hu"))
    assert "♠" in deals.text and "AKQJ" in deals.text and "SZA" in deals.text and "osztó: É" in deals.text
    assert "Par: 2♠ É =" in deals.text and "3. leosztás" in deals.text


@pytest.mark.django_db
def test_the_event_totals_pdf(client, world):
    url = reverse("bridge_event_pdf", args=[world["event"].pk])
    client.force_login(world["director"])
    read = pdf_of(client.get(url))
    assert read.pages == 1 and read.ink > 1000 and "Kőrösi Győző" in read.text
    assert url in client.get(reverse("bridge_event", args=[world["event"].pk])).content.decode()


@pytest.mark.django_db
def test_the_pages_link_their_pdfs(client, world):
    setup.publish(world["session"], world["director"])
    session, seat = world["session"], world["seat"]
    standings, frequencies, card, hands = _urls(world)
    assert standings in client.get(reverse("bridge_session", args=[session.pk])).content.decode()
    assert frequencies in client.get(reverse("bridge_frequencies", args=[session.pk])).content.decode()
    assert card in client.get(reverse("bridge_score_card", args=[session.pk, seat.pk])).content.decode()
    assert hands in client.get(reverse("bridge_hand_records", args=[session.pk])).content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["anonymous", "stranger", "other_director", "director", "staff"])
def test_unpublished_session_pdfs_follow_the_page_permission(client, world, role, make_user, mbsz):
    users = {
        "stranger": lambda: make_user("s-pdf@example.hu"),
        "other_director": lambda: make_user(
            "td2-pdf@example.hu",
            kind=Role.DIRECTOR,
            event=sample.event_with_pairs(mbsz, pairs=6, title="Másik", start=START),
        ),
        "director": lambda: world["director"],
        "staff": lambda: make_user("st-pdf@example.hu", kind=Role.FEDERATION_STAFF, federation=mbsz),
    }
    if role in users:
        client.force_login(users[role]())
    for url in _urls(world):
        status = client.get(url).status_code
        if role in ("director", "staff"):
            assert status == 200, (url, role)
        else:
            assert status in (302, 403, 404) and status != 200, (url, role, status)
