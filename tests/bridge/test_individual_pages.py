"""Individual event pages: standings (place, player, club, matchpoints, %), travellers in Hungarian notation,
a player's boards, the director's upload and publication; who may see and do what."""

import datetime
import random
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from bridge.engine.individual_movements import individual as individual_movement
from bridge.models import IndividualBoardScore, IndividualEvent, IndividualResult, IndividualVersion
from bridge.services import individual, uploads
from demo import individual_sample as sample
from federation.models import Role

START = timezone.make_aware(datetime.datetime(2026, 4, 11, 10, 0))


@pytest.fixture
def event(mbsz, bridge_club):
    event = sample.event_with_players(mbsz, players=8, title="Tavaszi egyéni", start=START, club=bridge_club)
    return event


@pytest.fixture
def director(make_user, event):
    return make_user("td@example.hu", kind=Role.DIRECTOR, event=event)


@pytest.fixture
def other_director(make_user, mbsz):
    from tournaments.models import Event

    other = Event.objects.create(federation=mbsz, title="Másik", format="pairs", start_date=START.date())
    return make_user("td2@example.hu", kind=Role.DIRECTOR, event=other)


@pytest.fixture
def scored(event, director):
    setup = individual.setup_for(event)
    rows = sample.play(individual_movement(2, boards_per_round=2), random.Random(5))
    uploads.submit(setup, "csv", user=director, text=sample.csv_text(rows))
    individual.recompute_event(event.pk)
    return setup


def page(client, name, event, *args, **params):
    return client.get(reverse(name, args=[event.pk, *args]), params)


def test_unpublished_results_are_the_directors_only(client, event, scored, director, other_director):
    assert page(client, "bridge_individual", event).status_code == 302  # anonymous: the login page
    client.force_login(other_director)
    assert page(client, "bridge_individual", event).status_code == 403
    assert page(client, "bridge_individual_boards", event).status_code == 403
    client.force_login(director)
    html = page(client, "bridge_individual", event).content.decode()
    assert "individual-standings" in html and reverse("bridge_individual_publish", args=[event.pk]) in html


def test_published_standings_for_everybody_in_hungarian(client, event, scored, director):
    individual.publish(scored, director)
    response = page(client, "bridge_individual", event)
    assert response.status_code == 200
    html = response.content.decode()
    table = html.split('id="individual-standings"')[1].split("<tbody>")[1].split("</table>")[0]
    rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)
    assert len(rows) == 8
    assert scored.event.club.name in table  # the players' club (their entries' home club or membership)
    assert re.search(r"\d+,\d\d</td>", table)  # decimal comma
    assert "Közzététel" not in html and reverse("bridge_individual_upload", args=[event.pk]) not in html
    first = individual.IndividualStanding.objects.filter(event=event).order_by("rank").first()
    assert first.player.display_name in rows[0]
    assert "Computed from version 1" in html or "1. verziójából" in html


def test_travellers_in_hungarian_notation(client, event, scored, director):
    individual.publish(scored, director)
    html = page(client, "bridge_individual_boards", event, board=1).content.decode()
    head = html.split("<thead>")[1].split("</thead>")[0]
    for seat in ("É", "D", "K", "Ny"):
        assert f"<th>{seat}</th>" in head
    assert 'id="board-1"' in html and 'id="board-2"' not in html
    body = html.split('id="board-1"')[1]
    assert any(symbol in body for symbol in "♠♥♦♣") or "SZA" in body or "passz" in body.lower()


def test_a_players_boards(client, event, scored, director):
    individual.publish(scored, director)
    response = page(client, "bridge_individual_player", event, 3)
    assert response.status_code == 200
    card = response.content.decode().split('id="individual-score-card"')[1]
    assert card.count("<tr>") == 1 + 14  # header + every board he played
    # Partner and opponents by number and name, each a link to his own boards.
    boards = IndividualBoardScore.objects.filter(event=event).order_by("board")
    three = next(s for s in boards if 3 in (s.north, s.south, s.east, s.west))
    partner = {
        three.north: three.south,
        three.south: three.north,
        three.east: three.west,
        three.west: three.east,
    }[3]
    opponents = (three.east, three.west) if 3 in (three.north, three.south) else (three.north, three.south)
    name = event.bridge_individual_players.get(number=partner).display_name
    row = card.split("<tr>")[2]
    assert (
        f'{reverse("bridge_individual_player", args=[event.pk, partner])}">{partner}. {escape(name)}</a>'
        in row
    )
    for n in opponents:
        assert reverse("bridge_individual_player", args=[event.pk, n]) in row
    assert page(client, "bridge_individual_player", event, 99).status_code == 404


def test_director_uploads_and_publishes_from_the_page(client, event, director):
    client.force_login(director)
    # reachable from the event: the announcement's results button leads to the page with the upload tab
    detail = client.get(reverse("event_detail", args=[event.pk])).content.decode()
    assert reverse("bridge_individual", args=[event.pk]) in detail
    assert (
        reverse("bridge_individual_upload", args=[event.pk])
        in page(client, "bridge_individual", event).content.decode()
    )

    bad = SimpleUploadedFile("e.csv", b"1;1;1;2;3;4;4S;N;;10;\n1;2;5;6;7;1;4S;N;;9;\n")
    response = client.post(
        reverse("bridge_individual_upload", args=[event.pk]), {"format": "csv", "file": bad}
    )
    assert response.status_code == 400 and 'id="upload-errors"' in response.content.decode()
    assert IndividualVersion.objects.count() == IndividualResult.objects.count() == 0

    rows = sample.play(individual_movement(2), random.Random(1))
    good = SimpleUploadedFile("e.csv", sample.csv_text(rows).encode())
    response = client.post(
        reverse("bridge_individual_upload", args=[event.pk]), {"format": "csv", "file": good, "note": "első"}
    )
    assert response.status_code == 302
    assert IndividualVersion.objects.get(event=event).note == "első"
    individual.recompute_event(event.pk)
    assert client.post(reverse("bridge_individual_publish", args=[event.pk])).status_code == 302
    assert IndividualEvent.objects.get(event=event).published_at is not None
    client.logout()
    assert page(client, "bridge_individual", event).status_code == 200


def test_others_may_not_upload_or_publish(client, event, scored, other_director, make_user):
    for user in (None, other_director):
        if user:
            client.force_login(user)
        assert page(client, "bridge_individual_upload", event).status_code in (302, 403)
        assert client.post(reverse("bridge_individual_publish", args=[event.pk])).status_code in (302, 403)
    assert IndividualEvent.objects.get(event=event).published_at is None


def test_a_pairs_event_has_no_individual_page(client, mbsz, director):
    from demo import bridge_sample

    pairs = bridge_sample.event_with_pairs(mbsz, pairs=4, title="Páros", start=START)
    assert page(client, "bridge_individual", pairs).status_code == 404


def test_standings_and_travellers_on_paper(client, event, scored, director, other_director):
    from tests.pdf_reading import pdf_of

    client.force_login(other_director)  # not published: the pages' own permission
    assert client.get(reverse("bridge_individual_pdf", args=[event.pk])).status_code == 403
    individual.publish(scored, director)
    client.logout()
    first = individual.IndividualStanding.objects.filter(event=event).order_by("rank").first()
    text = pdf_of(client.get(reverse("bridge_individual_pdf", args=[event.pk]))).text
    assert first.player.person.last_name in text and "Meccspont" in text and "%" in text
    boards = pdf_of(client.get(reverse("bridge_individual_boards_pdf", args=[event.pk]), {"board": 2})).text
    assert "2. leosztás" in boards and "Ny" in boards and "3. leosztás" not in boards


def test_the_pbn_deals_show_as_the_pairs_hand_diagram_on_the_page_and_on_paper(client, event, director):
    """Issue #20: the deals of the PBN upload on the travellers and their PDF (É/K/D/Ny, suit symbols)."""
    from bridge.engine.dealing import deal_board, parse_pbn_deal
    from tests.pdf_reading import pdf_of

    setup = individual.setup_for(event)
    rows = sample.play(individual_movement(2, boards_per_round=2), random.Random(5))
    deals = {
        board: deal_board(b"egyeni-teszt-seed-20", "egyéni", board) for board in {r["board"] for r in rows}
    }
    uploads.submit(setup, "pbn", user=director, text=sample.pbn_text(rows, deals))
    individual.recompute_event(event.pk)
    assert individual.latest_version(event).deals["3"] == deals[3]
    individual.publish(setup, director)
    html = page(client, "bridge_individual_boards", event, board=3).content.decode()
    hand = html.split('class="mb-2 individual-hand"')[1].split("</table>")[0]
    north_spades = parse_pbn_deal(deals[3])["N"][0].replace("T", "10") or "—"
    assert f"♠</span> {north_spades}<br>" in hand or f"♠ {north_spades}<br>" in hand
    assert "♥" in hand and "♦" in hand and "♣" in hand
    assert "<br>D<br>" in hand  # board 3: dealer South, in Hungarian (D)
    assert html.count('class="mb-2 individual-hand"') == 1
    text = pdf_of(client.get(reverse("bridge_individual_boards_pdf", args=[event.pk]), {"board": 3})).text
    assert "3. leosztás" in text and "osztó: D" in text
    west_hearts = parse_pbn_deal(deals[3])["W"][1].replace("T", "10")
    assert west_hearts in text


def test_a_csv_upload_has_no_deals_and_no_diagram(client, event, scored, director):
    individual.publish(scored, director)
    assert "individual-hand" not in page(client, "bridge_individual_boards", event).content.decode()
