"""The person pickers: a member number, an exact name or a pick from the name search, every id checked on
the server; the pick endpoint (who may use it, what it shows, its throttle)."""

import pytest
from django.core.cache import cache
from django.urls import reverse

from federation.models import Membership
from tournaments.models import Entry, Event
from tournaments.refusals import EntryRefused
from tournaments.services.player_facts import find_player

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_throttle():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def agnes(make_player):
    return make_player(first_name="Ágnes", last_name="Székely")


def test_find_player_by_number_name_or_pick(pairs_event, agnes):
    number = agnes.memberships.get().member_number
    assert find_player(pairs_event, number) == agnes
    assert find_player(pairs_event, "szekely agnes") == agnes  # accent- and case-insensitive, exact
    assert find_player(pairs_event, f"Székely Ágnes (BBE) #{agnes.pk}") == agnes


def test_find_player_refuses_what_it_cannot_tell(pairs_event, agnes, make_player, make_person):
    make_player(first_name="Ágnes", last_name="Székely")
    with pytest.raises(EntryRefused):  # two of that name: a number or a pick is needed
        find_player(pairs_event, "Székely Ágnes")
    with pytest.raises(EntryRefused):  # a part of a name is no answer without the script
        find_player(pairs_event, "Székely")
    nobody = make_person()  # no membership: not someone a picker may name
    with pytest.raises(EntryRefused):
        find_player(pairs_event, f"x #{nobody.pk}")
    Membership.objects.filter(person=agnes).update(is_active=False)
    with pytest.raises(EntryRefused):
        find_player(pairs_event, f"Székely Ágnes #{agnes.pk}")
    with pytest.raises(EntryRefused):
        find_player(pairs_event, "")


def test_pick_endpoint_returns_names_and_clubs_only(pairs_event, agnes, make_player, client):
    client.force_login(make_player().user)
    response = client.get(reverse("player_pick", args=[pairs_event.pk]), {"q": "Szekely"})
    assert response.status_code == 200
    results = response.json()["results"]
    assert results == [{"label": "Székely Ágnes (BBE)", "value": f"Székely Ágnes (BBE) #{agnes.pk}"}]
    assert agnes.memberships.get().member_number not in response.content.decode()  # not public
    assert client.get(reverse("player_pick", args=[pairs_event.pk]), {"q": "S"}).json() == {"results": []}


def test_pick_endpoint_leaves_out_people_without_membership(pairs_event, make_person, make_player, client):
    make_person(first_name="Béla", last_name="Kovács")
    client.force_login(make_player().user)
    assert client.get(reverse("player_pick", args=[pairs_event.pk]), {"q": "kovacs"}).json()["results"] == []


def test_pick_endpoint_is_for_logged_in_users_of_a_visible_event(
    make_event, make_player, client, club_admin, staff_mbsz
):
    draft = make_event(status=Event.Status.DRAFT)
    url = reverse("player_pick", args=[draft.pk])
    assert client.get(url, {"q": "teszt"}).status_code == 302  # anonymous: to the login page
    client.force_login(make_player().user)
    assert client.get(url, {"q": "teszt"}).status_code == 404  # a draft does not exist for a player
    for user in (club_admin, staff_mbsz):
        client.force_login(user)
        assert client.get(url, {"q": "teszt"}).status_code == 200


def test_pick_endpoint_is_throttled(pairs_event, make_player, client, settings):
    settings.SEARCH_THROTTLE_PER_MINUTE = 2
    client.force_login(make_player().user)
    url = reverse("player_pick", args=[pairs_event.pk])
    assert [client.get(url, {"q": "teszt"}).status_code for _ in range(3)] == [200, 200, 429]


def test_entry_form_takes_a_pick_or_an_exact_name(pairs_event, agnes, make_player, client):
    me = make_player()
    client.force_login(me.user)
    page = client.get(reverse("entry_create", args=[pairs_event.pk])).content.decode()
    assert reverse("player_pick", args=[pairs_event.pk]) in page and "person-picker.js" in page
    response = client.post(reverse("entry_create", args=[pairs_event.pk]), {"player_2": "szekely agnes"})
    assert response.status_code == 302
    entry = Entry.objects.get()
    assert [m.person for m in entry.members.all()] == [me, agnes]


def test_entry_form_refuses_an_ambiguous_name(pairs_event, agnes, make_player, client):
    make_player(first_name="Ágnes", last_name="Székely")
    client.force_login(make_player().user)
    client.post(reverse("entry_create", args=[pairs_event.pk]), {"player_2": "Székely Ágnes"})
    assert not Entry.objects.exists()


def test_organiser_enters_on_site_by_pick(pairs_event, agnes, make_player, club_admin, client):
    other = make_player(first_name="Péter", last_name="Nagy")
    client.force_login(club_admin)
    data = {"player_1": f"Székely Ágnes (BBE) #{agnes.pk}", "player_2": "Nagy Péter"}
    client.post(reverse("entry_add", args=[pairs_event.pk]), data)
    entry = Entry.objects.get()
    assert [m.person for m in entry.members.all()] == [agnes, other] and entry.by_organiser
