"""The person page (/people/<id>/) and "Saját oldal" (/me/): events played with place, score and
masterpoints, masterpoints by year; entries, waiting-list positions, suspensions and licences only for the
player himself and his federation's staff."""

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse

from federation.models import Licence, Role, Suspension
from rankings.services.ledger import record_result
from tournaments.models import Entry, EntryMember

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english(client, settings):
    """The pages' English text is asserted (the Hungarian catalogue is filled at merge time)."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"


@pytest.fixture
def played(client, mbsz, make_person, make_user, make_event, build_result, fake_sources):
    user = make_user("jatekos@example.hu")
    person = make_person(mbsz, user=user, last_name="Székely", first_name="Ádám")
    partner = make_person(mbsz)
    others = [make_person(mbsz) for _ in range(9)]
    event = make_event(mbsz, event_class="national", date=datetime.date(2025, 4, 1), title="Tavaszi páros")
    result = build_result(
        event,
        [(2, 2, [person, partner]), (1, 1, [others[0]])]
        + [(i + 3, i + 3, [p]) for i, p in enumerate(others[1:])],
    )
    fake_sources[event.pk] = result
    record_result(event, result)
    upcoming = make_event(
        mbsz, date=datetime.date.today() + datetime.timedelta(days=20), title="Őszi verseny"
    )
    upcoming.capacity = 1
    upcoming.save()
    first = Entry.objects.create(event=upcoming, status=Entry.Status.ACTIVE)
    EntryMember.objects.create(entry=first, person=partner)
    waiting = Entry.objects.create(
        event=upcoming,
        status=Entry.Status.WAITING,
        waiting_since=datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC),
    )
    EntryMember.objects.create(entry=waiting, person=person)
    Suspension.objects.create(
        person=person,
        federation=mbsz,
        starts_on=datetime.date(2020, 1, 1),
        ends_on=datetime.date(2020, 6, 1),
        reason="Sportszerűtlen viselkedés",
    )
    return {"person": person, "user": user, "event": event, "partner": partner}


def page(client, person):
    response = client.get(reverse("person_detail", args=[person.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_public_part_shows_events_played_with_place_and_masterpoints(client, played):
    html = page(client, played["person"])
    assert "Tavaszi páros" in html
    assert reverse("bridge_event", args=[played["event"].pk]) in html
    assert "2. / 10" in html
    award = played["person"].masterpoint_awards.get()
    assert str(award.amount) in html
    assert "Masterpoints by year" in html and "2025" in html


@pytest.mark.parametrize(
    "who, private", [(None, False), ("other", False), ("self", True), ("staff", True), ("other_staff", False)]
)
def test_private_part_only_for_the_player_and_his_staff(client, played, make_user, mbsz, mausz, who, private):
    users = {
        "other": lambda: make_user("masik@example.hu"),
        "self": lambda: played["user"],
        "staff": lambda: make_user("staff@mbsz.hu", kind=Role.FEDERATION_STAFF, federation=mbsz),
        "other_staff": lambda: make_user("staff@mausz.hu", kind=Role.FEDERATION_STAFF, federation=mausz),
    }
    if who:
        client.force_login(users[who]())
    html = page(client, played["person"])
    assert ("Sportszerűtlen viselkedés" in html) is private
    assert ("Őszi verseny" in html) is private
    assert ("waiting list, place 1" in html) is private
    assert "Tavaszi páros" in html  # the public part for everybody


def test_licence_status_for_an_ulti_player_himself(client, mausz, make_person, make_user):
    user = make_user("ulti@example.hu")
    person = make_person(mausz, user=user)
    client.force_login(user)
    year = datetime.date.today().year
    assert f"No ulti competition licence for {year}" in page(client, person)
    Licence.objects.create(person=person, federation=mausz, year=year, number="U-77")
    assert "valid (U-77)" in page(client, person)
    client.logout()
    assert "U-77" not in page(client, person)


def test_my_page_redirects_to_the_own_person_page(client, played, make_user):
    client.force_login(played["user"])
    response = client.get(reverse("my_page"))
    assert response.status_code == 302 and response.url == reverse(
        "person_detail", args=[played["person"].pk]
    )
    client.force_login(make_user("nobody@example.hu"))
    assert client.get(reverse("my_page")).url == reverse("profile")
    client.logout()
    assert "/accounts/login/" in client.get(reverse("my_page")).url


def test_unpublished_event_is_not_listed(client, played, make_event, mbsz):
    draft = make_event(mbsz, date=datetime.date(2025, 5, 1), title="Titkos verseny")
    draft.status = "draft"
    draft.save()
    entry = Entry.objects.create(event=draft, status=Entry.Status.ACTIVE)
    EntryMember.objects.create(entry=entry, person=played["person"])
    assert "Titkos verseny" not in page(client, played["person"])


def test_masterpoints_by_year_keep_the_columns_two_places(client, played):
    from rankings.services.player_page import masterpoints_by_year

    award = played["person"].masterpoint_awards.get()
    award.pk, award.amount = None, Decimal("0.10")  # 18.75 + 0.10: SQLite sums decimals as floats
    award.save()
    (year,) = masterpoints_by_year(played["person"])
    assert year.points == Decimal("18.85") and year.points.as_tuple().exponent == -2
    assert year.running_total.as_tuple().exponent == -2
    html = page(client, played["person"])
    by_year = html[html.index('id="masterpoints"') :]
    assert "18.85" in by_year and "00000" not in by_year
