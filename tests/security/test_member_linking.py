"""Member linking: throttled, one answer for every failure, effective only once the member confirms.

The probe (issue #15): member numbers are public, /accounts/link/ had no limit and answered "already linked
to another account" once the birth date was right; 123 attempts in 7.8 s recovered a birth date, and an
unlinked record could be taken over outright.
"""

import datetime

import pytest
from django.urls import reverse

from federation.models import LinkRequest, Notification, Role
from tournaments.models import Entry, Event

from .conftest import BIRTH, mailed_path

pytestmark = pytest.mark.django_db


def link(client, person, birth_date, number=None, **extra):
    membership = person.memberships.get()
    return client.post(
        reverse("link_member"),
        {
            "federation": membership.federation_id,
            "member_number": number or membership.member_number,
            "birth_date": birth_date.isoformat(),
        },
        **extra,
    )


def errors(response):
    return list(response.context["form"].non_field_errors())


def test_guessing_birth_dates_is_throttled_per_account(client, make_user, member):
    client.force_login(make_user("tamado@example.hu"))
    for day in range(1, 6):
        response = link(client, member, datetime.date(1961, 1, day))
        assert response.status_code == 200 and errors(response)
    # The sixth attempt is refused before the record is looked at: even the right date does not get through.
    response = link(client, member, BIRTH)
    assert response.status_code == 429
    assert 0 < int(response["Retry-After"]) <= 3600
    member.refresh_from_db()
    assert member.user is None and not LinkRequest.objects.exists()


def test_guessing_is_throttled_per_member_record_across_accounts(client, make_user, member):
    for n in range(5):
        client.force_login(make_user(f"tamado{n}@example.hu"))
        assert link(client, member, datetime.date(1960, 1, n + 1)).status_code == 200
    client.force_login(make_user("tamado-hatodik@example.hu"))
    response = link(client, member, BIRTH)
    assert response.status_code == 429 and "Retry-After" in response
    assert not LinkRequest.objects.exists()


def test_guessing_is_throttled_per_address_across_accounts_and_records(
    client, make_user, mbsz, make_person, settings
):
    settings.ACCOUNT_THROTTLE_LIMITS = {**settings.ACCOUNT_THROTTLE_LIMITS, "link_ip": 3}
    people = [make_person(mbsz, birth_date=BIRTH) for _ in range(4)]
    for n, person in enumerate(people[:3]):
        client.force_login(make_user(f"tamado{n}@example.hu"))
        assert link(client, person, datetime.date(1950, 1, 1)).status_code == 200
    client.force_login(make_user("tamado3@example.hu"))
    assert link(client, people[3], BIRTH).status_code == 429
    # Another address is not held back by this one.
    assert link(client, people[3], BIRTH, REMOTE_ADDR="198.51.100.9").status_code == 302


def test_one_answer_for_wrong_date_unknown_number_and_a_record_linked_to_somebody(
    client, make_user, mbsz, make_person, member
):
    owner = make_user("tulaj@example.hu")
    linked = make_person(mbsz, birth_date=BIRTH, user=owner)
    client.force_login(make_user("tamado@example.hu"))
    wrong_date = link(client, member, datetime.date(1961, 4, 10))
    unknown = link(client, member, BIRTH, number="B999999")
    already_linked = link(client, linked, BIRTH)  # the right date of a record linked to another account
    answers = [wrong_date, unknown, already_linked]
    assert {r.status_code for r in answers} == {200}
    assert errors(wrong_date) == errors(unknown) == errors(already_linked) != []
    for response in answers:
        assert "already linked" not in response.content.decode()
    linked.refresh_from_db()
    assert linked.user == owner


def test_the_link_takes_effect_only_when_the_member_confirms_by_mail(client, make_user, member, mbsz):
    user = make_user("anna@example.hu")
    client.force_login(user)
    response = link(client, member, BIRTH)
    assert response.status_code == 302
    member.refresh_from_db()
    assert member.user is None
    request = LinkRequest.objects.get()
    assert (request.user, request.person, request.method) == (user, member, LinkRequest.BY_EMAIL)

    # Until confirmed the account cannot act as the member: entering an event sends it back to linking.
    event = Event.objects.create(
        federation=mbsz,
        club=member.memberships.get().club,
        title="Klubverseny",
        format=Event.Format.INDIVIDUAL,
        event_class=Event.EventClass.CLUB,
        start_date=datetime.date.today() + datetime.timedelta(days=30),
        status=Event.Status.APPROVED,
    )
    response = client.post(reverse("entry_create", args=[event.pk]), {})
    assert response.status_code == 302 and response.url == reverse("link_member")
    assert not Entry.objects.exists()

    # The member opens the link mailed to the record's address (no login needed) and confirms with a button;
    # opening it alone (a mail scanner) changes nothing.
    path = mailed_path(member.email, r"/accounts/link/confirm/[^/\s]+/")
    assert client.get(path).status_code == 200
    member.refresh_from_db()
    assert member.user is None
    client.logout()
    client.post(path, {"decision": "confirm"})
    member.refresh_from_db()
    assert member.user == user
    assert LinkRequest.objects.get().status == LinkRequest.CONFIRMED
    # Used once: a second confirmation finds nothing to confirm.
    assert "validlink" in client.get(path).context and client.get(path).context["validlink"] is False


def test_the_member_can_refuse_the_link(client, make_user, member):
    client.force_login(make_user("tamado@example.hu"))
    link(client, member, BIRTH)
    path = mailed_path(member.email, r"/accounts/link/confirm/[^/\s]+/")
    client.logout()
    client.post(path, {"decision": "refuse"})
    member.refresh_from_db()
    assert member.user is None and LinkRequest.objects.get().status == LinkRequest.REJECTED


def test_a_forged_or_expired_confirmation_link_confirms_nothing(client, make_user, member, settings):
    client.force_login(make_user("anna@example.hu"))
    link(client, member, BIRTH)
    path = mailed_path(member.email, r"/accounts/link/confirm/[^/\s]+/")
    pk = LinkRequest.objects.get().pk
    forged = reverse("link_confirm", args=[f"{pk}:forged:signature"])
    client.post(forged, {"decision": "confirm"})
    settings.LINK_CONFIRMATION_MAX_AGE = -1
    response = client.post(path, {"decision": "confirm"})
    assert response.status_code == 200 and response.context["validlink"] is False
    member.refresh_from_db()
    assert member.user is None and LinkRequest.objects.get().status == LinkRequest.PENDING


def test_a_record_without_email_needs_the_clubs_or_the_federations_approval(
    client, make_user, member, mbsz, bridge_club, other_bridge_club
):
    member.email = ""
    member.save()
    admin = make_user("klubadmin@example.hu", kind=Role.CLUB_ADMIN, club=bridge_club)
    admin.email = admin.username
    admin.save()
    other_admin = make_user("masik@example.hu", kind=Role.CLUB_ADMIN, club=other_bridge_club)
    user = make_user("anna@example.hu")
    client.force_login(user)
    assert link(client, member, BIRTH).status_code == 302
    request = LinkRequest.objects.get()
    assert request.method == LinkRequest.BY_APPROVAL and request.club == bridge_club
    assert Notification.objects.filter(recipient="klubadmin@example.hu").exists()
    member.refresh_from_db()
    assert member.user is None

    decide = reverse("link_request_decide", args=[request.pk])
    # The requester himself and a plain user may not look or decide.
    assert client.get(reverse("link_requests")).status_code == 403
    assert client.post(decide, {"decision": "approve"}).status_code == 403
    # Another club's admin is refused.
    client.force_login(other_admin)
    assert str(member) not in client.get(reverse("link_requests")).content.decode()
    assert client.post(decide, {"decision": "approve"}).status_code == 403
    member.refresh_from_db()
    assert member.user is None

    client.force_login(admin)
    assert str(member) in client.get(reverse("link_requests")).content.decode()
    client.post(decide, {"decision": "approve"})
    member.refresh_from_db()
    assert member.user == user
    request.refresh_from_db()
    assert (request.status, request.decided_by) == (LinkRequest.CONFIRMED, admin)


def test_federation_staff_approves_and_nobody_approves_his_own_request(client, make_user, member, mbsz):
    member.email = ""
    member.save()
    staff = make_user("staff@example.hu", kind=Role.FEDERATION_STAFF, federation=mbsz)
    # Staff asking to be this member cannot approve his own request.
    client.force_login(staff)
    link(client, member, BIRTH)
    own = LinkRequest.objects.get()
    assert (
        client.post(reverse("link_request_decide", args=[own.pk]), {"decision": "approve"}).status_code == 403
    )
    member.refresh_from_db()
    assert member.user is None
    other_staff = make_user("staff2@example.hu", kind=Role.FEDERATION_STAFF, federation=mbsz)
    client.force_login(other_staff)
    client.post(reverse("link_request_decide", args=[own.pk]), {"decision": "reject"})
    own.refresh_from_db()
    member.refresh_from_db()
    assert own.status == LinkRequest.REJECTED and member.user is None
