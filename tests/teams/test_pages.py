"""The pages: standings with the chart of places (inline SVG), score cards, the bracket, boards played,
the Butler, and the director's upload and line-up forms (a refused upload says why and saves nothing)."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from results.services import mark_uploaded
from teams.models import SCOPE, LineUp, MatchUpload

pytestmark = pytest.mark.django_db


def winner_by_start(level):
    def score(match):
        sign = 1 if match.home.start_number < match.away.start_number else -1
        return level(match.round.boards, 50 * sign)

    return score


@pytest.fixture
def played(make_team_event, director, play, level):
    event = make_team_event(teams=4, first_round="seeding", rounds=2, knockout_teams=2)
    user = director(event)
    for _ in range(3):
        play(event, user, winner_by_start(level))
    return event, user


def test_public_pages(client, played):
    event, _user = played
    standings = client.get(f"/teams/events/{event.pk}/standings/").content.decode()
    assert "<svg" in standings and standings.count("<polyline") == 4 and "Csapat 1" in standings
    assert 'points="40,20' in standings  # coordinates unlocalised (no "40,0" from a Hungarian decimal comma)
    bracket = client.get(f"/teams/events/{event.pk}/bracket/").content.decode()
    assert "bracket-game" in bracket and "Csapat 2" in bracket
    match = event.team_rounds.get(number=1).matches.order_by("table").first()
    card = client.get(f"/teams/matches/{match.pk}/").content.decode()
    assert card.count("<tr>") >= 9  # header and 8 boards
    for page in ("players", "butler", "rounds/3"):
        assert client.get(f"/teams/events/{event.pk}/{page}/").status_code == 200
    assert client.get(f"/teams/events/{event.pk}/standings/?after=1").status_code == 200


def test_processing_banner(client, played):
    event, _user = played
    mark_uploaded(event.pk, SCOPE)
    assert "processing" in client.get(f"/teams/events/{event.pk}/standings/").content.decode()


def test_director_round_page_shows_the_engine_flags(client, make_team_event, director):
    event = make_team_event(teams=5, first_round="seeding")
    client.force_login(director(event))
    client.post(f"/teams/events/{event.pk}/generate/")
    page = client.get(f"/teams/events/{event.pk}/rounds/1/").content.decode()
    assert "seed 1 v seed 5" in page and "middle seed 3" in page  # the engine's explanation per match


def test_upload_and_lineup_forms(client, make_team_event, director):
    event = make_team_event(teams=2, first_round="seeding", boards_per_match=6)
    user = director(event)
    client.force_login(user)
    client.post(f"/teams/events/{event.pk}/generate/")
    round_ = event.team_rounds.get()
    client.post(f"/teams/rounds/{round_.pk}/publish/")
    match = round_.matches.get()
    url = f"/teams/matches/{match.pk}/upload/"
    bad = SimpleUploadedFile("m.pbn", b'[Board "1"]\n[Room "Open"]\n[Contract "9S"]\n')
    response = client.post(url, {"kind": "file", "file-kind": "pbn", "file-file": bad})
    assert response.status_code == 400 and "line 1 (board 1)" in response.content.decode()
    assert not MatchUpload.objects.exists()
    card = {"kind": "card", "card-note": ""}
    for i in range(6):
        card |= {
            f"card-board_{i}": i + 1,
            f"card-open_{i}": "4S N =" if i == 0 else "110",
            f"card-closed_{i}": "-50" if i == 0 else "110",
        }
    assert client.post(url, card).status_code == 302
    assert MatchUpload.objects.get().boards.get(board=1).open_ns == 420
    assert (
        client.post(url, {"kind": "imps", "imps-home_imps": "12", "imps-away_imps": "3"}).status_code == 302
    )
    assert MatchUpload.objects.count() == 2

    home, away = (
        [m.person_id for m in match.home.entry.members.all()],
        [m.person_id for m in match.away.entry.members.all()],
    )
    form = {}
    for team, people in ((match.home_id, home), (match.away_id, away)):
        for room, pair in (("open", people[:2]), ("closed", people[2:])):
            for slot, person in enumerate(pair, start=1):
                form[f"s1_{team}_{room}_{slot}"] = person
    assert client.post(f"/teams/matches/{match.pk}/lineup/", form).status_code == 302
    assert LineUp.objects.get().seats.count() == 8


def test_pages_speak_hungarian_first(played):
    from django.test import Client

    event, _user = played
    page = Client().get(f"/teams/events/{event.pk}/standings/").content.decode()
    assert "Állás a(z) 3. forduló után" not in page  # the knockout round has no stage standings
    assert "Állás a(z) 2. forduló után" in page and "Helyezések fordulóról fordulóra" in page


def test_the_header_names_the_knockout_size_in_a_hungarian_sentence(client, played):
    event, _user = played
    client.cookies["django_language"] = "hu"
    standings = client.get(f"/teams/events/{event.pk}/standings/").content.decode()
    assert "majd 2 csapatos kieséses szakasz" in standings and "csapatok:" not in standings
    client.cookies["django_language"] = "en"
    assert "then a knockout of 2 teams" in client.get(f"/teams/events/{event.pk}/standings/").content.decode()
