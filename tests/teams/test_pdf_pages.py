"""Team standings and the knockout bracket as PDFs: they render, and follow the pages' permission."""

import pytest
from django.utils import translation

from tests.pdf_reading import pdf_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(make_team_event, director, play, level):
    event = make_team_event(teams=4, first_round="seeding", rounds=2, knockout_teams=2)
    user = director(event)
    for _ in range(3):
        play(
            event,
            user,
            lambda m: level(m.round.boards, 50 if m.home.start_number < m.away.start_number else -50),
        )
    return event, user


def test_standings_and_bracket_pdfs(client, played):
    event, _user = played
    with translation.override("hu"):
        standings = pdf_of(client.get(f"/teams/events/{event.pk}/standings.pdf", HTTP_ACCEPT_LANGUAGE="hu"))
        bracket = pdf_of(client.get(f"/teams/events/{event.pk}/bracket.pdf", HTTP_ACCEPT_LANGUAGE="hu"))
    assert standings.pages == 1 and standings.ink > 1000
    assert all(f"Csapat {n}" in standings.text for n in range(1, 5))
    assert bracket.pages == 1 and bracket.ink > 1000
    assert "Csapat 1" in bracket.text and "Csapat 2" in bracket.text
    page = client.get(f"/teams/events/{event.pk}/standings/").content.decode()
    assert f"/teams/events/{event.pk}/standings.pdf" in page
    assert (
        f"/teams/events/{event.pk}/bracket.pdf"
        in client.get(f"/teams/events/{event.pk}/bracket/").content.decode()
    )


def test_a_draft_team_event_pdf_is_404_for_others_and_served_to_its_director(
    client, make_team_event, director, make_user
):
    event = make_team_event(teams=4, status="draft", first_round="seeding")
    runner, stranger = director(event), make_user("stranger-pdf@example.hu")
    for url in (f"/teams/events/{event.pk}/standings.pdf", f"/teams/events/{event.pk}/bracket.pdf"):
        assert client.get(url).status_code == 404
        client.force_login(stranger)
        assert client.get(url).status_code == 404
        client.force_login(runner)
        assert pdf_of(client.get(url)).pages == 1
        client.logout()
