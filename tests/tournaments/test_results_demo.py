"""The seeded demo shows every scored format in the results index, each row linking to its own page."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.conftest import seeded_demo
from tournaments import results_pages
from tournaments.models import Event

pytestmark = pytest.mark.django_db

PAGE_OF = {
    "pairs": "/bridge/events/",
    "individual": "/bridge/individual/",
    "teams": "/teams/events/",
    "ulti_individual": "/ulti/events/",
    "ulti_team": "/ulti/events/",
    "sport_ulti": "/ulti/events/",
}


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    with seeded_demo(django_db_blocker) as built:
        yield built


def rows(html):
    return re.findall(r'<tr data-format="([a-z_]+)">.*?<a href="([^"]+)">', html, re.S)


def test_demo_shows_every_format_in_the_results_index(demo):
    client = Client()
    page = client.get(reverse("results"), {"page": 1})
    assert page.status_code == 200
    found = {}
    # Every page of the index: collect the formats and their links.
    number = 1
    while True:
        html = client.get(reverse("results"), {"page": number}).content.decode()
        for fmt, url in rows(html):
            found.setdefault(fmt, url)
        if "page=" + str(number + 1) not in html:
            break
        number += 1
    assert set(found) == set(PAGE_OF), found
    assert set(results_pages.scored_formats()) == set(PAGE_OF)
    for fmt, url in found.items():
        assert url.startswith(PAGE_OF[fmt]), (fmt, url)
        assert client.get(url).status_code == 200, url


def test_demo_index_filters_by_format_and_federation(demo):
    client = Client()
    for fmt in PAGE_OF:
        html = client.get(reverse("results"), {"event_format": fmt}).content.decode()
        formats = {f for f, _ in rows(html)}
        assert formats == {fmt}, (fmt, formats)
    html = client.get(reverse("results"), {"federation": "mausz"}).content.decode()
    assert {f for f, _ in rows(html)} <= {"ulti_individual", "ulti_team", "sport_ulti"}
    assert rows(html)


def test_demo_home_lists_coming_events_and_latest_results(demo):
    html = Client().get(reverse("home")).content.decode()
    assert 'id="latest-results"' in html
    upcoming = html.split('id="upcoming-events"')[1].split("</ul>")[0]
    today = timezone.localdate()
    shown = [e for e in Event.objects.filter(status="approved") if f'/events/{e.pk}/"' in upcoming]
    assert shown and all(e.last_day >= today for e in shown)
    assert [e.start_date for e in shown] == sorted(e.start_date for e in shown)
