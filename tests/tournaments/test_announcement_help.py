"""Issue #20: the announcement form explains the rules of the event's own game: MAUSZ (ulti) help on an ulti
club's form, MBSz (VSz) help on a bridge club's, and on an existing event its federation's."""

import datetime

import pytest
from django.conf import settings
from django.urls import reverse

from federation.models import Role
from tournaments.models import Event

pytestmark = pytest.mark.django_db

MBSZ_HELP = "Championships admit MBSz members only"
ULTI_HELP = "NUB qualifiers (1,200 Ft)"


@pytest.fixture
def english(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def _form(client, make_user, email, club, url=None):
    client.force_login(make_user(email, kind=Role.CLUB_ADMIN, club=club))
    page = client.get(url or reverse("event_create")).content.decode()
    return page[page.index("<main") : page.index("</main>")]  # the footer names both federations


def test_an_ulti_club_gets_ulti_help(english, make_user, ulti_club):
    page = _form(english, make_user, "ulti@example.hu", ulti_club)
    assert ULTI_HELP in page and "Only players of MAUSZ member clubs." in page
    assert "Deals per round (MAUSZ regional qualifier: 12" in page
    assert MBSZ_HELP not in page and "VSz 4" not in page and "VSz 7" not in page and "VSz 5" not in page


def test_a_bridge_club_gets_mbsz_help(english, make_user, bridge_club):
    page = _form(english, make_user, "bridzs@example.hu", bridge_club)
    assert MBSZ_HELP in page and "VSz 4" in page
    assert ULTI_HELP not in page and "MAUSZ" not in page


def test_an_existing_ulti_event_keeps_ulti_help(english, make_user, ulti_club, mausz):
    event = Event.objects.create(
        federation=mausz,
        club=ulti_club,
        title="Ulti kupa",
        format="ulti_individual",
        start_date=datetime.date(2026, 5, 1),
    )
    page = _form(english, make_user, "ulti2@example.hu", ulti_club, reverse("event_edit", args=[event.pk]))
    assert ULTI_HELP in page and MBSZ_HELP not in page
