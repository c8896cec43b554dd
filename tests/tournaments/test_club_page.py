"""A club's page: contacts, upcoming and past events linked (no unpublished ones), its iCalendar feed, and
members' names for logged-in users only."""

import datetime

import pytest
from django.urls import reverse

from tournaments.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english(client, settings):
    """The pages' English text is asserted (the Hungarian catalogue is filled at merge time)."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"


@pytest.fixture
def club_with_events(bridge_club, mbsz, make_person):
    bridge_club.email = "titkar@bbe.hu"
    bridge_club.contact_name = "Kiss Éva"
    bridge_club.save()
    today = datetime.date.today()

    def event(title, days, status="approved"):
        return Event.objects.create(
            federation=mbsz,
            club=bridge_club,
            title=title,
            format="pairs",
            start_date=today + datetime.timedelta(days=days),
            status=status,
        )

    events = {
        "next": event("Jövő heti páros", 7),
        "last": event("Múlt heti páros", -7),
        "draft": event("Tervezett páros", 14, status="draft"),
    }
    make_person(mbsz, club=bridge_club, last_name="Tagos", first_name="Tamás")
    return bridge_club, events


def test_club_page_lists_events_feed_and_contacts(client, club_with_events):
    club, events = club_with_events
    html = client.get(reverse("club_detail", args=[club.pk])).content.decode()
    upcoming, past = html.index('id="upcoming"'), html.index('id="past"')
    assert upcoming < html.index("Jövő heti páros") < past < html.index("Múlt heti páros")
    assert reverse("event_detail", args=[events["next"].pk]) in html
    assert "Tervezett páros" not in html
    assert reverse("calendar_ics_club", args=[club.pk]) in html
    assert "titkar@bbe.hu" in html and "Kiss Éva" in html


def test_members_names_only_for_logged_in_users(client, club_with_events, make_user):
    club, _ = club_with_events
    url = reverse("club_detail", args=[club.pk])
    anonymous = client.get(url).content.decode()
    assert "Tagos" not in anonymous and "1 active member." in anonymous
    client.force_login(make_user("valaki@example.hu"))
    assert "Tagos Tamás" in client.get(url).content.decode()


def test_unknown_club_is_404(client, db):
    assert client.get(reverse("club_detail", args=[999])).status_code == 404
