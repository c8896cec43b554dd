"""Ulti licences on the portal: the staff issue and revoke them (audited); a player buys the year's licence
on entering an event that needs one, owed until the staff record the payment."""

import datetime

import pytest
from auditlog.models import LogEntry
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from federation.models import Licence, LicenceFee
from federation.services import licences
from tournaments.models import Entry, Event
from tournaments.refusals import EntryRefused
from tournaments.services.entries import create_entry

pytestmark = pytest.mark.django_db
YEAR = timezone.localdate().year


def _number(person):
    return person.memberships.get().member_number


def test_staff_issues_a_licence_on_the_page_and_it_is_audited(client, staff_mausz, ulti_player):
    player = ulti_player()
    client.force_login(staff_mausz)
    response = client.post(
        reverse("licence_list"), {"member_number": _number(player), "year": YEAR, "number": "E-1"}
    )
    assert response.status_code == 302
    licence = Licence.objects.get(person=player)
    assert licence.issued_by == staff_mausz and licence.number == "E-1" and player.has_licence(YEAR)
    assert LogEntry.objects.get_for_object(licence).filter(actor=staff_mausz).exists()


def test_unknown_member_number_is_a_form_error(client, staff_mausz, mausz):
    client.force_login(staff_mausz)
    response = client.post(reverse("licence_list"), {"member_number": "NINCS", "year": YEAR})
    assert response.status_code == 200 and "member_number" in response.context["form"].errors
    assert not Licence.objects.exists()


def test_a_second_licence_for_the_year_is_refused(staff_mausz, ulti_player, mausz):
    player = ulti_player(licence_year=YEAR)
    with pytest.raises(ValidationError):
        licences.issue(player, mausz, YEAR, staff_mausz)
    assert Licence.objects.filter(person=player).count() == 1


def test_bridge_federation_issues_no_licence(staff_mbsz, member, mbsz):
    with pytest.raises(ValidationError):
        licences.issue(member, mbsz, YEAR, staff_mbsz)
    assert not Licence.objects.exists()


def test_revocation_needs_a_reason_then_the_licence_no_longer_counts(client, staff_mausz, ulti_player, mausz):
    player = ulti_player(licence_year=YEAR)
    licence = Licence.objects.get(person=player)
    client.force_login(staff_mausz)
    client.post(reverse("licence_revoke", args=[licence.pk]), {"reason": ""})
    assert player.has_licence(YEAR, mausz)
    client.post(reverse("licence_revoke", args=[licence.pk]), {"reason": "Fegyelmi határozat"})
    licence.refresh_from_db()
    assert licence.revoked_at and licence.revoked_by == staff_mausz and licence.revoke_reason
    assert not player.has_licence(YEAR, mausz)
    restored = licences.issue(player, mausz, YEAR, staff_mausz)
    assert restored.pk == licence.pk and player.has_licence(YEAR, mausz)


@pytest.fixture
def roles(member, other_member, club_admin, ulti_admin, staff_mbsz, staff_mausz, ulti_player):
    return {
        "person": ulti_player(),
        "another_person": other_member.user,
        "club_admin": ulti_admin,
        "staff_of_other_federation": staff_mbsz,
        "staff": staff_mausz,
    }


def _user(roles, role):
    value = roles[role]
    return value.user if hasattr(value, "user") else value


@pytest.mark.parametrize(
    "role,status",
    [
        ("person", 403),
        ("another_person", 403),
        ("club_admin", 403),
        ("staff_of_other_federation", 403),
        ("staff", 200),
    ],
)
def test_licence_page_permissions(client, roles, role, status):
    client.force_login(_user(roles, role))
    assert client.get(reverse("licence_list")).status_code == status


@pytest.mark.parametrize(
    "role", ["person", "another_person", "club_admin", "staff_of_other_federation", "staff"]
)
def test_revoke_and_payment_permissions(client, roles, role, ulti_player, mausz, staff_mausz):
    holder = ulti_player()
    licence = licences.issue(holder, mausz, YEAR, staff_mausz)
    fee = LicenceFee.objects.create(licence=licence, amount=3000)
    client.force_login(_user(roles, role))
    revoke = client.post(reverse("licence_revoke", args=[licence.pk]), {"reason": "x"})
    paid = client.post(reverse("licence_fee_paid", args=[fee.pk]))
    licence.refresh_from_db()
    fee.refresh_from_db()
    allowed = role == "staff"
    assert (revoke.status_code, paid.status_code) == ((302, 302) if allowed else (404, 404))
    assert (licence.revoked_at is not None) is allowed and fee.is_paid is allowed


def test_anonymous_visitor(client, ulti_player, mausz, staff_mausz):
    licence = licences.issue(ulti_player(), mausz, YEAR, staff_mausz)
    response = client.get(reverse("licence_list"))
    assert response.status_code == 302 and reverse("login") in response.url
    revoke = client.post(reverse("licence_revoke", args=[licence.pk]), {"reason": "x"})
    assert revoke.status_code == 302 and reverse("login") in revoke.url
    licence.refresh_from_db()
    assert licence.revoked_at is None


# --- bought on entry ---------------------------------------------------------------------------------------


@pytest.fixture
def sport_ulti(mausz, ulti_club):
    mausz.licence_fee = 3000
    mausz.save()
    return Event.objects.create(
        federation=mausz,
        club=ulti_club,
        title="Sportulti bajnokság",
        format=Event.Format.SPORT_ULTI,
        event_class=Event.EventClass.SPORT_ULTI,
        start_date=timezone.localdate() + datetime.timedelta(days=20),
        season=YEAR,
        status=Event.Status.APPROVED,
        entry_fee=0,
    )


def test_sport_ulti_entry_without_licence_is_refused_unless_bought(sport_ulti, ulti_player):
    me, b, c = ulti_player(), ulti_player(licence_year=YEAR), ulti_player(licence_year=YEAR)
    with pytest.raises(EntryRefused):
        create_entry(sport_ulti.pk, me.user, [me, b, c], team_name="Piros")
    assert not Entry.objects.exists() and not LicenceFee.objects.exists()
    entry = create_entry(sport_ulti.pk, me.user, [me, b, c], team_name="Piros", buy_licences=True)
    assert entry.status == Entry.Status.ACTIVE
    licence = Licence.objects.get(person=me, year=YEAR)
    assert licence.fee.amount == 3000 and licence.fee.entry == entry and not licence.fee.is_paid
    assert LicenceFee.objects.count() == 1  # the licensed players buy nothing


def test_a_revoked_licence_is_not_bought_back_on_entry(sport_ulti, ulti_player, mausz, staff_mausz):
    me, b, c = ulti_player(licence_year=YEAR), ulti_player(licence_year=YEAR), ulti_player(licence_year=YEAR)
    licences.revoke(Licence.objects.get(person=me), staff_mausz, "eltiltás")
    with pytest.raises(EntryRefused):
        create_entry(sport_ulti.pk, me.user, [me, b, c], team_name="Piros", buy_licences=True)
    assert not Entry.objects.exists() and not LicenceFee.objects.exists()


def test_a_refused_entry_buys_no_licence(sport_ulti, ulti_player):
    me, b = ulti_player(), ulti_player()
    with pytest.raises(EntryRefused):
        create_entry(sport_ulti.pk, me.user, [me, b], team_name="Ketten", buy_licences=True)
    assert not Licence.objects.exists()


@pytest.mark.usefixtures("english_pages")
def test_bought_licence_on_the_entry_page_shows_unpaid_until_the_staff_record_it(
    client, sport_ulti, ulti_player, staff_mausz
):
    me, b, c = ulti_player(), ulti_player(licence_year=YEAR), ulti_player(licence_year=YEAR)
    client.force_login(me.user)
    form = client.get(reverse("entry_create", args=[sport_ulti.pk]))
    assert "buy_licences" in form.content.decode()
    response = client.post(
        reverse("entry_create", args=[sport_ulti.pk]),
        {"team_name": "Zöld", "player_2": _number(b), "player_3": _number(c), "buy_licences": "on"},
    )
    assert response.status_code == 302
    fee = LicenceFee.objects.get(licence__person=me)
    profile = client.get(reverse("profile")).content.decode()
    assert "unpaid" in profile and "3000 Ft" in profile
    client.force_login(staff_mausz)
    assert "unpaid" in client.get(reverse("licence_list")).content.decode()
    client.post(reverse("licence_fee_paid", args=[fee.pk]))
    fee.refresh_from_db()
    assert fee.is_paid and fee.paid_recorded_by == staff_mausz
    with pytest.raises(ValidationError):
        licences.record_payment(fee, staff_mausz)


def test_bridge_entry_buys_no_licence(member, other_member, mbsz, bridge_club):
    event = Event.objects.create(
        federation=mbsz,
        club=bridge_club,
        title="Páros",
        format=Event.Format.PAIRS,
        event_class=Event.EventClass.CLUB,
        start_date=timezone.localdate() + datetime.timedelta(days=5),
        status=Event.Status.APPROVED,
        entry_fee=0,
    )
    create_entry(event.pk, member.user, [member, other_member], buy_licences=True)
    assert not Licence.objects.exists()
