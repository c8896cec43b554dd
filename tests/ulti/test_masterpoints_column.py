"""Issue #20: the ulti standings of the last stage show the masterpoints each player earned."""

import datetime
from decimal import Decimal

import pytest
from django.conf import settings
from django.urls import reverse

from rankings.models import Award, AwardVersion
from results import page_cache
from tournaments.models import Entry, EntryMember, Event
from ulti.services import draw, setup, uploads

pytestmark = pytest.mark.django_db


def test_the_standings_show_the_earned_masterpoints(
    django_capture_on_commit_callbacks, client, mausz, ulti_club, make_person, make_user, monkeypatch
):
    monkeypatch.setattr(setup, "live_ratings", lambda ids, fed: {})
    event = Event.objects.create(
        federation=mausz,
        club=ulti_club,
        title="Ulti MP",
        format="ulti_individual",
        event_class="nub_qualifier",
        start_date=datetime.date(2026, 3, 7),
        status="approved",
        rule_set="mausz",
    )
    for _ in range(3):
        EntryMember.objects.create(
            entry=Entry.objects.create(event=event), person=make_person(mausz, ulti_club)
        )
    user = make_user("vezeto@example.hu")
    stage = setup.start_event(event, user)
    rnd = draw.generate_round(stage.groups.get(), user)
    draw.publish_round(rnd, user)
    table = rnd.tables.get()
    seats = [s.participant_id for s in table.seats.order_by("position")]
    with django_capture_on_commit_callbacks(execute=True):  # the recompute runs after the commit
        uploads.upload_round(rnd, {table.number: dict(zip(seats, (200, -50, -150), strict=True))}, user=user)
    url = reverse("ulti_standings", args=[event.pk])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "hu"
    assert 'id="mp-column"' not in client.get(url).content.decode()
    person = stage.participants.get(pk=seats[0]).person
    version = AwardVersion.objects.create(
        event=event, federation=mausz, version=1, date=event.start_date, field_size=3
    )
    Award.objects.create(
        version=version,
        event=event,
        federation=mausz,
        person=person,
        year=2026,
        date=event.start_date,
        amount=Decimal("4.00"),
        reason="final",
        place_from=1,
        place_to=1,
    )
    page_cache.bump(page_cache.event_scope(event.pk))  # as the ledger does when it writes awards
    html = client.get(url).content.decode()
    assert 'id="mp-column"' in html and '<td class="num">4,00</td>' in html
