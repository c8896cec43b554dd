"""Erasure as anonymisation: requested by the person, carried out by the staff or by the person after a
confirmation step; results stay attached; every request audited."""

import datetime

import pytest
from auditlog.models import LogEntry
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.urls import reverse

from federation.models import ErasureRequest, Person
from federation.services import erasure
from tournaments.models import EntryMember

pytestmark = pytest.mark.django_db
User = get_user_model()


def _request(client, member):
    client.force_login(member.user)
    client.post(reverse("erasure_request"), {"reason": "Nem játszom többet."})
    return ErasureRequest.objects.get(person=member)


def test_person_files_a_request_which_changes_nothing_yet(client, member):
    req = _request(client, member)
    assert req.state == ErasureRequest.PENDING and req.requested_by == member.user
    member.refresh_from_db()
    assert member.last_name == "Kovács" and member.anonymised_at is None


def test_second_request_while_one_is_pending_is_the_same_request(client, member):
    first = _request(client, member)
    client.post(reverse("erasure_request"), {"reason": "még egyszer"})
    assert ErasureRequest.objects.filter(person=member).count() == 1
    assert ErasureRequest.objects.get() == first


def test_staff_carries_out_the_erasure_and_results_stay_attached(client, member, staff_mbsz, make_entry):
    entry = make_entry([member])
    req = _request(client, member)
    user_id = member.user_id
    client.force_login(staff_mbsz)
    response = client.post(reverse("erasure_decide", args=[req.pk]), {"decision": "carry_out", "note": "ok"})
    assert response.status_code == 302
    person = Person.objects.get(pk=member.pk)
    assert person.last_name == f"Törölt #{person.pk}" and "Péter" not in str(person)
    assert person.birth_date == erasure.ERASED_BIRTH_DATE
    assert person.email == "" and person.phone == "" and person.user_id is None
    assert person.anonymised_at is not None
    assert EntryMember.objects.filter(entry=entry, person=person).exists()  # results keep their player
    assert person.memberships.count() == 1
    user = User.objects.get(pk=user_id)
    assert not user.is_active and not user.has_usable_password()
    assert user.email == "" and "tag@" not in user.username
    req.refresh_from_db()
    assert req.state == ErasureRequest.DONE and req.decided_by == staff_mbsz and req.decided_at
    assert "birth_date" in req.erased and "account" in req.erased


def test_erased_person_cannot_log_in(client, member, staff_mbsz):
    req = _request(client, member)
    erasure.carry_out(req, staff_mbsz)
    client.logout()
    client.post(reverse("login"), {"username": "tag@example.hu", "password": "jelszo-12345"})
    assert "_auth_user_id" not in client.session


def test_each_request_is_audited_and_the_log_forgets_the_name(client, member, staff_mbsz):
    req = _request(client, member)
    erasure.carry_out(req, staff_mbsz)
    rows = LogEntry.objects.get_for_object(req)
    assert rows.count() >= 2  # filed, then carried out
    assert {row.additional_data["federation"] for row in rows} == {member.memberships.get().federation_id}
    assert not LogEntry.objects.filter(object_repr__contains="Kovács").exists()


def test_refusal_needs_a_reason_and_keeps_the_data(client, member, staff_mbsz):
    req = _request(client, member)
    client.force_login(staff_mbsz)
    client.post(reverse("erasure_decide", args=[req.pk]), {"decision": "reject", "note": ""})
    req.refresh_from_db()
    assert req.state == ErasureRequest.PENDING
    client.post(
        reverse("erasure_decide", args=[req.pk]), {"decision": "reject", "note": "Folyamatban lévő fegyelmi."}
    )
    req.refresh_from_db()
    member.refresh_from_db()
    assert req.state == ErasureRequest.REJECTED and member.last_name == "Kovács"


def test_a_decided_request_cannot_be_carried_out_again(member, staff_mbsz):
    req = erasure.request_erasure(member, member.user)
    erasure.reject(req, staff_mbsz, "nem")
    with pytest.raises(ValidationError):
        erasure.carry_out(req, staff_mbsz)
    member.refresh_from_db()
    assert member.last_name == "Kovács"


def test_person_carries_out_his_own_erasure_with_his_password(client, member):
    req = _request(client, member)
    wrong = client.post(reverse("erasure_confirm", args=[req.pk]), {"password": "rossz", "understood": "on"})
    assert wrong.status_code == 302
    member.refresh_from_db()
    assert member.anonymised_at is None
    unticked = client.post(reverse("erasure_confirm", args=[req.pk]), {"password": "jelszo-12345"})
    assert unticked.status_code == 302
    member.refresh_from_db()
    assert member.anonymised_at is None
    done = client.post(
        reverse("erasure_confirm", args=[req.pk]), {"password": "jelszo-12345", "understood": "on"}
    )
    assert done.status_code == 200
    member.refresh_from_db()
    req.refresh_from_db()
    assert member.anonymised_at is not None and req.state == ErasureRequest.DONE
    assert req.decided_by_id == req.requested_by_id
    assert "_auth_user_id" not in client.session


def test_person_cancels_his_request(client, member):
    req = _request(client, member)
    client.post(reverse("erasure_cancel", args=[req.pk]))
    req.refresh_from_db()
    assert req.state == ErasureRequest.CANCELLED


@pytest.fixture
def roles(club_admin, staff_mbsz, staff_mausz, other_member, member):
    return {
        "person": member.user,
        "another_person": other_member.user,
        "club_admin": club_admin,
        "staff_of_other_federation": staff_mausz,
        "staff": staff_mbsz,
    }


@pytest.mark.parametrize(
    "role,allowed",
    [
        ("person", False),
        ("another_person", False),
        ("club_admin", False),
        ("staff_of_other_federation", False),
        ("staff", True),
    ],
)
def test_who_may_carry_out_through_the_staff_page(client, roles, member, role, allowed):
    req = erasure.request_erasure(member, member.user)
    client.force_login(roles[role])
    response = client.post(reverse("erasure_decide", args=[req.pk]), {"decision": "carry_out"})
    assert response.status_code == (302 if allowed else (403 if role == "person" else 404))
    member.refresh_from_db()
    assert (member.anonymised_at is not None) is allowed


@pytest.mark.parametrize(
    "role,status",
    [
        ("person", 403),
        ("another_person", 403),
        ("club_admin", 403),
        ("staff_of_other_federation", 200),
        ("staff", 200),
    ],
)
def test_staff_list_page(client, roles, member, role, status):
    erasure.request_erasure(member, member.user)
    client.force_login(roles[role])
    response = client.get(reverse("erasure_requests"))
    assert response.status_code == status
    if status == 200:
        assert ("Kovács" in response.content.decode()) is (role == "staff")


@pytest.mark.parametrize("role", ["another_person", "club_admin", "staff_of_other_federation", "staff"])
def test_nobody_else_confirms_or_cancels_the_persons_request(client, roles, member, role):
    req = erasure.request_erasure(member, member.user)
    client.force_login(roles[role])
    assert client.post(reverse("erasure_cancel", args=[req.pk])).status_code == 404
    assert (
        client.post(
            reverse("erasure_confirm", args=[req.pk]), {"password": "jelszo-12345", "understood": "on"}
        ).status_code
        == 404
    )
    req.refresh_from_db()
    assert req.state == ErasureRequest.PENDING


@pytest.mark.parametrize("name", ["erasure_requests"])
def test_anonymous_gets_login(client, name):
    response = client.get(reverse(name))
    assert response.status_code == 302 and reverse("login") in response.url


def test_anonymous_cannot_decide(client, member):
    req = erasure.request_erasure(member, member.user)
    response = client.post(reverse("erasure_decide", args=[req.pk]), {"decision": "carry_out"})
    assert response.status_code == 302 and reverse("login") in response.url
    member.refresh_from_db()
    assert member.anonymised_at is None


def test_erased_birth_date_is_a_date_no_player_has():
    assert erasure.ERASED_BIRTH_DATE < datetime.date(1920, 1, 1)


def test_carrying_out_refreshes_the_ranking_lists_after_the_commit(member, staff_mbsz, monkeypatch):
    import rankings.signals
    from rankings import tasks

    asked = []
    monkeypatch.setattr(rankings.signals, "enqueue_once_on_commit", lambda task, *args: asked.append(task))
    req = erasure.request_erasure(member, member.user)
    assert asked == []  # a pending request changes no name
    erasure.carry_out(req, staff_mbsz)
    assert asked == [tasks.refresh_current_lists]
