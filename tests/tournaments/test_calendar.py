"""The public calendar, the event page and the iCalendar feeds."""

import datetime

import icalendar
import pytest
from django.urls import reverse
from django.utils import timezone

from tournaments.models import Division, Event
from tournaments.services.entries import create_entry

pytestmark = pytest.mark.django_db
Status = Event.Status


@pytest.fixture
def calendar(make_event, mausz, ulti_club, regions, today):
    year = today.year + 1
    return {
        "approved": make_event(title="Jóváhagyott páros", start_date=datetime.date(year, 3, 7)),
        "draft": make_event(
            title="Piszkozat verseny", status=Status.DRAFT, start_date=datetime.date(year, 3, 8)
        ),
        "submitted": make_event(
            title="Beküldött verseny", status=Status.SUBMITTED, start_date=datetime.date(year, 3, 9)
        ),
        "proposed": make_event(
            title="Javasolt verseny", status=Status.PROPOSED, start_date=datetime.date(year, 4, 4)
        ),
        "ulti": make_event(
            title="Ulti selejtező",
            federation=mausz,
            club=ulti_club,
            format="ulti_individual",
            event_class="nub_qualifier",
            region=regions[0],
            qualifier_number=1,
            start_date=datetime.date(year, 3, 14),
        ),
    }


def titles(response):
    return {
        t
        for t in (
            "Jóváhagyott páros",
            "Piszkozat verseny",
            "Beküldött verseny",
            "Javasolt verseny",
            "Ulti selejtező",
        )
        if t in response.content.decode()
    }


def test_calendar_shows_approved_and_proposed_only(client, calendar, today):
    response = client.get(reverse("calendar_year", args=[today.year + 1]))
    assert titles(response) == {"Jóváhagyott páros", "Javasolt verseny", "Ulti selejtező"}


def test_calendar_by_month_and_filters(client, calendar, today, regions, bridge_club):
    y = today.year + 1
    assert titles(client.get(reverse("calendar_month", args=[y, 4]))) == {"Javasolt verseny"}
    assert titles(client.get(reverse("calendar_year", args=[y]) + "?federation=mausz")) == {"Ulti selejtező"}
    assert titles(client.get(reverse("calendar_year", args=[y]) + f"?region={regions[0].pk}")) == {
        "Ulti selejtező"
    }
    assert titles(
        client.get(reverse("calendar_year", args=[y]) + f"?club={bridge_club.pk}&event_format=pairs")
    ) == {"Jóváhagyott páros", "Javasolt verseny"}
    Division.objects.create(event=calendar["approved"], name="Kezdők")
    assert titles(client.get(reverse("calendar_year", args=[y]) + "?division=kezd")) == {"Jóváhagyott páros"}
    assert titles(client.get(reverse("calendar_year", args=[y]) + "?open=on")) == {
        "Jóváhagyott páros",
        "Ulti selejtező",
    }
    assert client.get(reverse("calendar_month", args=[y, 13])).status_code == 404


def test_calendar_links_the_feeds(client, calendar):
    html = client.get(reverse("calendar")).content.decode()
    assert reverse("calendar_ics") in html and reverse("calendar_ics_federation", args=["mbsz"]) in html


def test_drafts_are_hidden_from_the_public(client, calendar, club_admin, other_club_admin):
    url = reverse("event_detail", args=[calendar["draft"].pk])
    assert client.get(url).status_code == 404
    client.force_login(other_club_admin)
    assert client.get(url).status_code == 404
    client.force_login(club_admin)
    assert client.get(url).status_code == 200


def test_event_page_lists_names_and_clubs_never_birth_dates_or_phones(client, pairs_event, make_player):
    me = make_player(
        last_name="Kovács", first_name="Kata", phone="+36 30 123 4567", birth_date=datetime.date(1961, 7, 13)
    )
    partner = make_player(last_name="Szabó", first_name="Sári", phone="+36 20 765 4321")
    create_entry(pairs_event.pk, me.user, [me, partner])
    html = client.get(reverse("event_detail", args=[pairs_event.pk])).content.decode()
    assert "Kovács Kata" in html and "Szabó Sári" in html and "BBE" in html
    assert "123 4567" not in html and "765 4321" not in html and "1961" not in html


def feed(client, url):
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/calendar")
    cal = icalendar.Calendar.from_ical(response.content)
    return {str(e["SUMMARY"]): e for e in cal.walk("VEVENT")}


def test_ical_feed_parses_and_holds_approved_events_only(client, calendar):
    events = feed(client, reverse("calendar_ics"))
    assert set(events) == {"Jóváhagyott páros", "Ulti selejtező"}
    item = events["Jóváhagyott páros"]
    assert item.decoded("DTSTART") == calendar["approved"].start_date
    assert item.decoded("DTEND") == calendar["approved"].start_date + datetime.timedelta(days=1)
    assert str(item["UID"]).startswith(f"event-{calendar['approved'].pk}@")


def test_ical_feeds_per_federation_club_and_region(client, calendar, ulti_club, regions, bridge_club):
    assert set(feed(client, reverse("calendar_ics_federation", args=["mausz"]))) == {"Ulti selejtező"}
    assert set(feed(client, reverse("calendar_ics_club", args=[bridge_club.pk]))) == {"Jóváhagyott páros"}
    assert set(feed(client, reverse("calendar_ics_region", args=[regions[0].pk]))) == {"Ulti selejtező"}
    assert set(feed(client, reverse("calendar_ics_region", args=[regions[1].pk]))) == set()


def test_home_links_calendar_and_feed(client, calendar):
    html = client.get("/").content.decode()
    assert reverse("calendar") in html and reverse("calendar_ics") in html


def test_cancelled_published_event_stays_visible_marked(client, make_event, today):
    event = make_event(title="Elmaradt verseny", status=Status.CANCELLED, published_at=timezone.now())
    assert client.get(reverse("event_detail", args=[event.pk])).status_code == 200
    assert "Elmaradt verseny" not in feed(client, reverse("calendar_ics"))
