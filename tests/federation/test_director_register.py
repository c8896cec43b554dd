"""The register of qualified directors (VSz 9): the staff of its federation add, renew and revoke; audited."""

import datetime

import pytest
from auditlog.models import LogEntry
from django.urls import reverse

from federation.models import QualifiedDirector, Role

pytestmark = pytest.mark.django_db
DAY = datetime.date(2026, 1, 1)


@pytest.fixture
def people(make_user, make_person, mbsz, mausz, bridge_club):
    director_user = make_user("tv@example.hu")
    return {
        "staff": make_user("staff@mbsz.hu", kind=Role.FEDERATION_STAFF, federation=mbsz),
        "other_staff": make_user("staff@mausz.hu", kind=Role.FEDERATION_STAFF, federation=mausz),
        "club_admin": make_user("admin@bbe.hu", kind=Role.CLUB_ADMIN, club=bridge_club),
        "player": make_user("player@example.hu"),
        "director_user": director_user,
        "hajdu": make_person(federation=mbsz, last_name="Hajdú", first_name="Gábor", user=director_user),
        "ulti_member": make_person(federation=mausz, last_name="Rehó", first_name="Lajos"),
    }


def _add(client, mbsz, person, level="national", valid_from="2026-01-01", valid_until="2027-12-31"):
    return client.post(
        reverse("director_register", args=[mbsz.code]),
        {"person": person.pk, "level": level, "valid_from": valid_from, "valid_until": valid_until},
    )


def test_staff_finds_a_member_by_name_and_adds_him(client, people, mbsz):
    client.force_login(people["staff"])
    page = client.get(reverse("director_register", args=[mbsz.code]), {"q": "hajdu"})
    assert page.status_code == 200
    assert "Hajdú Gábor" in page.content.decode()
    assert _add(client, mbsz, people["hajdu"]).status_code == 302
    row = QualifiedDirector.objects.get()
    assert (row.person, row.level, row.valid_until) == (
        people["hajdu"],
        "national",
        datetime.date(2027, 12, 31),
    )
    assert row.created_by == people["staff"]
    assert LogEntry.objects.get_for_object(row).filter(action=LogEntry.Action.CREATE).exists()
    page = client.get(reverse("director_register", args=[mbsz.code]))
    assert f'id="director-{row.pk}"' in page.content.decode()


def test_a_member_of_another_federation_or_bad_dates_are_refused(client, people, mbsz):
    client.force_login(people["staff"])
    _add(client, mbsz, people["ulti_member"])
    _add(client, mbsz, people["hajdu"], valid_from="2027-01-01", valid_until="2026-01-01")
    assert not QualifiedDirector.objects.exists()


def test_renew_and_revoke_are_recorded(client, people, mbsz):
    row = QualifiedDirector.objects.create(
        federation=mbsz,
        person=people["hajdu"],
        level="club",
        valid_from=DAY,
        valid_until=datetime.date(2026, 6, 30),
    )
    client.force_login(people["staff"])
    client.post(reverse("director_renew", args=[row.pk]), {"level": "national", "valid_until": "2028-06-30"})
    row.refresh_from_db()
    assert (row.level, row.valid_until) == ("national", datetime.date(2028, 6, 30))
    client.post(reverse("director_revoke", args=[row.pk]), {"reason": ""})
    row.refresh_from_db()
    assert row.revoked_at is None  # a revocation needs its reason
    client.post(reverse("director_revoke", args=[row.pk]), {"reason": "Lejárt vizsga"})
    row.refresh_from_db()
    assert row.revoked_at and row.revoked_by == people["staff"] and row.revoke_reason == "Lejárt vizsga"
    assert not row.is_valid_on(datetime.date(2027, 1, 1))
    # A revoked qualification is not renewed back to life.
    client.post(reverse("director_renew", args=[row.pk]), {"level": "national", "valid_until": "2029-06-30"})
    row.refresh_from_db()
    assert row.valid_until == datetime.date(2028, 6, 30)
    assert LogEntry.objects.get_for_object(row).filter(action=LogEntry.Action.UPDATE).count() == 2


@pytest.mark.parametrize("who", ["other_staff", "club_admin", "director_user", "player"])
def test_only_the_federations_staff_reach_the_register(client, people, mbsz, who):
    row = QualifiedDirector.objects.create(
        federation=mbsz,
        person=people["hajdu"],
        level="club",
        valid_from=DAY,
        valid_until=datetime.date(2027, 1, 1),
    )
    client.force_login(people[who])
    assert client.get(reverse("director_register", args=[mbsz.code])).status_code == 403
    assert _add(client, mbsz, people["hajdu"]).status_code == 403
    renew = client.post(
        reverse("director_renew", args=[row.pk]), {"level": "club", "valid_until": "2030-01-01"}
    )
    revoke = client.post(reverse("director_revoke", args=[row.pk]), {"reason": "x"})
    # Who may not manage the register may not know its rows exist either.
    assert (renew.status_code, revoke.status_code) == (404, 404)
    row.refresh_from_db()
    assert row.valid_until == datetime.date(2027, 1, 1) and row.revoked_at is None
    assert QualifiedDirector.objects.count() == 1


def test_anonymous_is_sent_to_the_login(client, people, mbsz):
    row = QualifiedDirector.objects.create(
        federation=mbsz,
        person=people["hajdu"],
        level="club",
        valid_from=DAY,
        valid_until=datetime.date(2027, 1, 1),
    )
    for response in (
        client.get(reverse("director_register", args=[mbsz.code])),
        client.get(reverse("director_register_home")),
    ):
        assert response.status_code == 302 and reverse("login") in response["Location"]
    # A row of the register is not known to exist for a visitor who is not logged in.
    assert client.post(reverse("director_revoke", args=[row.pk]), {"reason": "x"}).status_code == 404
    row.refresh_from_db()
    assert row.revoked_at is None


def test_the_navbar_leads_staff_to_their_federations_register(client, people, mausz):
    client.force_login(people["other_staff"])
    response = client.get(reverse("director_register_home"))
    assert response.status_code == 302 and response["Location"] == reverse(
        "director_register", args=[mausz.code]
    )
    assert reverse("director_register_home") in client.get(reverse("home")).content.decode()
