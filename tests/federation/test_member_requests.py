"""Member requests decided on the portal: the staff's approval creates the member and links the account."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from federation.models import MemberRequest, Membership, Notification, Person
from federation.services import member_requests

pytestmark = pytest.mark.django_db


@pytest.fixture
def applicant(make_user):
    return make_user("jelentkezo@example.hu")


@pytest.fixture
def request_mbsz(applicant, mbsz, bridge_club):
    return MemberRequest.objects.create(
        user=applicant,
        federation=mbsz,
        club=bridge_club,
        first_name="Béla",
        last_name="Új",
        birth_date=datetime.date(1990, 4, 2),
        gender="M",
    )


def test_approval_creates_the_member_and_links_the_account(
    client, staff_mbsz, request_mbsz, applicant, member
):
    client.force_login(staff_mbsz)
    response = client.post(reverse("member_request_decide", args=[request_mbsz.pk]), {"decision": "approve"})
    assert response.status_code == 302
    person = Person.objects.get(user=applicant)
    assert (person.last_name, person.first_name, person.birth_date) == (
        "Új",
        "Béla",
        datetime.date(1990, 4, 2),
    )
    membership = Membership.objects.get(person=person)
    assert membership.club == request_mbsz.club and membership.federation == request_mbsz.federation
    highest = int(member.memberships.get().member_number[1:])
    assert membership.member_number == f"B{highest + 1}"
    request_mbsz.refresh_from_db()
    assert request_mbsz.status == MemberRequest.APPROVED and request_mbsz.decided_by == staff_mbsz
    assert request_mbsz.person == person
    assert Notification.objects.filter(recipient="jelentkezo@example.hu").exists()


def test_approval_with_a_given_number_and_a_taken_one(staff_mbsz, request_mbsz, member, applicant):
    taken = member.memberships.get().member_number
    with pytest.raises(ValidationError) as info:
        member_requests.approve(request_mbsz, staff_mbsz, taken)
    assert taken in " ".join(info.value.messages)
    assert not Person.objects.filter(user=applicant).exists()
    request_mbsz.refresh_from_db()
    assert request_mbsz.status == MemberRequest.PENDING
    member_requests.approve(request_mbsz, staff_mbsz, "B7777")
    assert Membership.objects.get(person__user=applicant).member_number == "B7777"


def test_rejection_creates_nobody(client, staff_mbsz, request_mbsz, applicant):
    client.force_login(staff_mbsz)
    client.post(reverse("member_request_decide", args=[request_mbsz.pk]), {"decision": "reject"})
    request_mbsz.refresh_from_db()
    assert request_mbsz.status == MemberRequest.REJECTED
    assert not Person.objects.filter(user=applicant).exists()


def test_a_decided_request_cannot_be_approved(client, staff_mbsz, request_mbsz, applicant):
    member_requests.reject(request_mbsz, staff_mbsz)
    client.force_login(staff_mbsz)
    response = client.post(reverse("member_request_decide", args=[request_mbsz.pk]), {"decision": "approve"})
    assert response.status_code == 404
    assert not Person.objects.filter(user=applicant).exists()


@pytest.fixture
def roles(applicant, other_member, club_admin, staff_mbsz, staff_mausz):
    return {
        "person": applicant,
        "another_person": other_member.user,
        "club_admin": club_admin,
        "staff_of_other_federation": staff_mausz,
        "staff": staff_mbsz,
    }


@pytest.mark.parametrize(
    "role,status,sees",
    [
        ("person", 403, False),
        ("another_person", 403, False),
        ("club_admin", 403, False),
        ("staff_of_other_federation", 200, False),
        ("staff", 200, True),
    ],
)
def test_list_page_permissions(client, roles, request_mbsz, role, status, sees):
    client.force_login(roles[role])
    response = client.get(reverse("member_request_list"))
    assert response.status_code == status
    if status == 200:
        assert ("jelentkezo@example.hu" in response.content.decode()) is sees


@pytest.mark.parametrize(
    "role", ["person", "another_person", "club_admin", "staff_of_other_federation", "staff"]
)
def test_decide_permissions(client, roles, request_mbsz, applicant, role):
    client.force_login(roles[role])
    response = client.post(reverse("member_request_decide", args=[request_mbsz.pk]), {"decision": "approve"})
    allowed = role == "staff"
    assert response.status_code == (302 if allowed else 404)
    assert Person.objects.filter(user=applicant).exists() is allowed


def test_anonymous_visitor_is_sent_to_login(client, request_mbsz):
    for response in (
        client.get(reverse("member_request_list")),
        client.post(reverse("member_request_decide", args=[request_mbsz.pk]), {"decision": "approve"}),
    ):
        assert response.status_code == 302 and reverse("login") in response.url
    request_mbsz.refresh_from_db()
    assert request_mbsz.status == MemberRequest.PENDING
