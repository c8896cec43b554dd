"""The public pages after two rounds: round tables, standings after each round with the inline SVG chart
of places, the player card; the director's event page, table cards and versions."""

import datetime

import pytest

from federation.models import Role
from tournaments.models import Entry, EntryMember, Event
from ulti.services import draw, setup, uploads

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(mausz, ulti_club, make_person, make_user, django_capture_on_commit_callbacks):
    event = Event.objects.create(
        federation=mausz,
        club=ulti_club,
        title="Oldalak kupa",
        format="ulti_individual",
        event_class="nub_qualifier",
        start_date=datetime.date(2026, 7, 4),
        status="approved",
        rule_set="mausz",
    )
    for _ in range(7):
        entry = Entry.objects.create(event=event)
        EntryMember.objects.create(entry=entry, person=make_person(mausz, ulti_club))
    user = make_user("oldal@example.hu", kind=Role.DIRECTOR, event=event)
    group = setup.start_event(event, user).groups.get()
    rounds = []
    for _ in range(2):
        rnd = draw.publish_round(draw.generate_round(group, user), user)
        results = {}
        for table in rnd.tables.all():
            ids = list(table.seats.order_by("position").values_list("participant_id", flat=True))
            results[table.number] = dict(
                zip(ids, (240 * table.number, -90, -240 * table.number + 90), strict=True)
            )
        with django_capture_on_commit_callbacks(execute=True):
            uploads.upload_round(rnd, results, user=user)
        rounds.append(rnd)
    return event, user, group, rounds


def test_standings_after_each_round_with_the_chart(client, played):
    event, user, group, rounds = played
    html = client.get(f"/ulti/events/{event.pk}/standings/").content.decode()
    assert "<svg" in html and "<polyline" in html and "cdn" not in html.lower()
    assert html.count("<tr") >= 8  # header and seven players
    first = client.get(f"/ulti/events/{event.pk}/standings/?after=1").content.decode()
    assert "<svg" in first
    someone = rounds[0].tables.first().seats.first().participant_id
    marked = client.get(f"/ulti/events/{event.pk}/standings/?player={someone}").content.decode()
    assert "table-warning" in marked and 'stroke-width="3"' in marked


def test_round_page_and_player_card(client, played):
    event, user, group, rounds = played
    html = client.get(f"/ulti/rounds/{rounds[1].pk}/").content.decode()
    seat = rounds[1].tables.first().seats.first().participant
    assert str(seat.person) in html
    card = client.get(f"/ulti/events/{event.pk}/players/{seat.person_id}/").content.decode()
    assert "<svg" in card and str(seat.person) in card


def test_director_pages(client, played):
    event, user, group, rounds = played
    client.force_login(user)
    html = client.get(f"/ulti/events/{event.pk}/").content.decode()
    assert f"/ulti/groups/{group.pk}/draw/" in html
    assert client.get(f"/ulti/rounds/{rounds[0].pk}/cards/").status_code == 200
    versions = client.get(f"/ulti/rounds/{rounds[0].pk}/versions/").content.decode()
    assert "v1" in versions
    assert client.post(f"/ulti/events/{event.pk}/recompute/").status_code == 302
