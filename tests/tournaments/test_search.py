"""The search (/search/?q=): players, clubs and events, accent- and case-insensitive; only published
events; throttled per address; the navbar box on every page."""

import datetime

import pytest
from django.db import connection
from django.urls import reverse

from federation.engine.text import search_key
from federation.models import Club, Person
from tournaments.models import Event
from tournaments.services.search import search

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english(client, settings):
    """The pages' English text is asserted (the Hungarian catalogue is filled at merge time)."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"


def test_search_key_folds_hungarian_accents_and_case():
    assert search_key("  Székely   ÁRPÁD ") == "szekely arpad"
    assert search_key("Őri Űrsula Ödön Ügyes") == "ori ursula odon ugyes"


@pytest.fixture
def data(mbsz, bridge_club, make_person):
    szekely = make_person(mbsz, club=bridge_club, last_name="Székely", first_name="Árpád")
    make_person(mbsz, last_name="Kovács", first_name="Anna")
    today = datetime.date.today()
    public = Event.objects.create(
        federation=mbsz,
        club=bridge_club,
        title="Székelyföldi Kupa",
        format="pairs",
        start_date=today,
        status="approved",
    )
    draft = Event.objects.create(
        federation=mbsz, title="Székely titkos verseny", format="pairs", start_date=today, status="draft"
    )
    return {"szekely": szekely, "public": public, "draft": draft, "club": bridge_club}


def test_unaccented_lower_case_query_finds_accented_names(data):
    results = search("szekely")
    assert [p.pk for p in results.people] == [data["szekely"].pk]
    assert data["public"] in results.events
    assert search("SZÉKELY árpád").people == [data["szekely"]]
    assert search("arpad szek").people == [data["szekely"]]  # word order and prefixes


def test_clubs_are_found_by_name_and_city(data):
    assert search("budapesti bridzs").clubs == [data["club"]]
    assert search("BUDAPEST").clubs == [data["club"]]


def test_unpublished_events_are_never_found(data):
    assert data["draft"] not in search("titkos").events
    assert search("titkos").empty


def test_too_short_query_finds_nothing(data):
    assert search("s").empty and search("  ").empty


def test_name_change_updates_the_search_column(data):
    person = data["szekely"]
    person.last_name = "Öreg"
    person.save(update_fields=["last_name"])
    assert Person.objects.get(pk=person.pk).search_name == "oreg arpad"
    assert search("oreg").people == [person]


@pytest.mark.parametrize("logged_in", [False, True])
def test_search_page_for_anonymous_and_logged_in(client, data, make_user, logged_in):
    if logged_in:
        client.force_login(make_user("valaki@example.hu"))
    response = client.get(reverse("search"), {"q": "szekely"})
    html = response.content.decode()
    assert response.status_code == 200
    assert reverse("person_detail", args=[data["szekely"].pk]) in html
    assert reverse("event_detail", args=[data["public"].pk]) in html
    assert "titkos" not in html
    assert "p1@example.hu" not in html and "1970" not in html  # nothing personal in the hits


def test_search_page_is_throttled_per_address(client, data, settings):
    settings.SEARCH_THROTTLE_PER_MINUTE = 3
    for _ in range(3):
        assert client.get(reverse("search"), {"q": "kovacs"}).status_code == 200
    response = client.get(reverse("search"), {"q": "kovacs"})
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert client.get(reverse("search")).status_code == 200  # the empty form is not counted


def test_navbar_has_the_search_box(client, db):
    html = client.get(reverse("home")).content.decode()
    assert f'action="{reverse("search")}"' in html


def test_a_typo_is_forgiven_on_postgresql(data):
    if connection.vendor != "postgresql":
        pytest.skip("trigram similarity needs PostgreSQL (pg_trgm)")
    assert data["szekely"] in search("szekly arpad").people


def test_names_starting_with_the_query_come_first(mbsz, make_person):
    inside = make_person(mbsz, last_name="Kovács", first_name="Anna")
    starting = make_person(mbsz, last_name="Annási", first_name="Béla")
    assert search("anna").people[:2] == [starting, inside]


def test_a_common_name_fills_the_limit_alphabetically_from_the_prefix_tier(mbsz, make_person):
    for first in ["Zoltán", "Ádám", "Mária"]:
        make_person(mbsz, last_name="Szabó", first_name=first)
    make_person(mbsz, last_name="Kis", first_name="Szabolcs")  # "szab" inside, not at the start
    people = search("szab", limit=2).people
    assert [p.first_name for p in people] == ["Ádám", "Mária"]


def test_clubs_rank_names_starting_with_the_query_first(mbsz):
    inside = Club.objects.create(federation=mbsz, name="Pécsi Kártya Kör", city="Pécs")
    starting = Club.objects.create(federation=mbsz, name="Kártya Klub", city="Győr")
    assert search("kartya").clubs == [starting, inside]


def test_the_fuzzy_threshold_is_set_on_every_connection(db):
    if connection.vendor != "postgresql":
        pytest.skip("pg_trgm is PostgreSQL's")
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('pg_trgm.word_similarity_threshold')")
        assert float(cursor.fetchone()[0]) == pytest.approx(0.5)
