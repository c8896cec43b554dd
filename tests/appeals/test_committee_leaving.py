"""A committee member leaves only with the director's consent (VSz 9); an alternate steps in, history kept."""

import pytest
from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import translation

from appeals.models import CommitteeMember, TimelineEntry
from appeals.services import committee, panel
from federation.models import Notification, Role

pytestmark = pytest.mark.django_db
A = TimelineEntry.Action


@pytest.fixture
def api():
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture
def started(world):
    committee.start_event(world.event, world.director)
    return world


def test_after_the_start_the_organisers_cannot_simply_remove_a_member(started):
    member = started.members[0]
    with pytest.raises(ValidationError, match="director's consent"):
        committee.remove_member(member, started.director)
    assert CommitteeMember.objects.filter(pk=member.pk, left_at__isnull=True).exists()


def test_a_member_asks_and_the_director_consents_then_an_alternate_steps_in(started):
    member, first_alternate = started.members[0], started.members[3]
    committee.request_leave(member, member.user, "Hazautazom.")
    member.refresh_from_db()
    assert member.wants_to_leave and member.left_at is None  # asking alone changes nothing
    with translation.override(settings.LANGUAGE_CODE):  # mails go out in the portal's language
        step = str(A.LEAVE_ASKED.label)
    assert Notification.objects.filter(recipient=started.director.email, subject__contains=step)
    committee.decide_leave(member, started.director, True)

    member.refresh_from_db()
    first_alternate.refresh_from_db()
    assert member.left_at is not None and member.leave_consented_by == started.director
    assert not first_alternate.is_alternate and first_alternate.replaces == member
    found = committee.committee_of(started.event)
    assert len(found.regular_members()) == 3 and found.former_members() == [member]
    assert not Role.objects.filter(user=member.user, kind=Role.APPEALS, event=started.event).exists()
    assert list(committee.history(found).values_list("action", flat=True)) == [
        A.LEAVE_ASKED,
        A.LEAVE_CONSENTED,
        A.STEPPED_IN,
    ]
    assert not started.members[0].user.has_perm("appeals.view_event_desk", started.event)


def test_leaving_without_the_directors_consent_is_refused(started):
    member = started.members[1]
    with pytest.raises(ValidationError, match="has not asked"):
        committee.decide_leave(member, started.director, True)  # nobody asked
    committee.request_leave(member, member.user)
    with pytest.raises(PermissionDenied):
        committee.decide_leave(member, member.user, True)  # the member himself
    with pytest.raises(PermissionDenied):
        committee.decide_leave(member, started.staff, True)  # the staff is not the director
    with pytest.raises(PermissionDenied):
        committee.request_leave(started.members[2], member.user)  # for somebody else
    committee.decide_leave(member, started.director, False)
    member.refresh_from_db()
    assert member.left_at is None and not member.wants_to_leave
    assert TimelineEntry.objects.filter(committee=member.committee, action=A.LEAVE_REFUSED).exists()


def test_the_committee_keeps_three_members(started):
    for alternate in started.members[3:]:
        committee.request_leave(alternate, alternate.user)
        committee.decide_leave(alternate, started.director, True)  # alternates may go
    member = started.members[0]
    committee.request_leave(member, member.user)
    with pytest.raises(ValidationError, match="at least 3 members"):
        committee.decide_leave(member, started.director, True)
    member.refresh_from_db()
    assert member.left_at is None


def test_a_member_on_an_undecided_case_stays_until_it_is_decided(started, file_case):
    appeal = file_case()
    panel.form_panel(appeal, started.director)
    member = appeal.panel.first().member
    committee.request_leave(member, member.user)
    with pytest.raises(ValidationError, match="sits on the panel"):
        committee.decide_leave(member, started.director, True)


def test_a_member_who_left_is_not_seated_again(started, file_case):
    member = started.members[0]
    committee.request_leave(member, member.user)
    committee.decide_leave(member, started.director, True)
    appeal = file_case()
    seats = panel.form_panel(appeal, started.director)
    assert member.pk not in {s.member_id for s in seats}
    member.refresh_from_db()
    with pytest.raises(ValidationError, match="left the committee"):
        panel.seat(appeal, member, started.director)


def test_leaving_through_the_desk_pages(started, client):
    member, other = started.members[0], started.members[1]
    leave = reverse("appeals_committee_leave", args=[started.event.pk])
    decide = reverse("appeals_committee_leave_decide", args=[started.event.pk, member.pk])
    client.force_login(started.outsider)
    assert client.post(leave, {"reason": "x"}).status_code in (403, 404)
    client.force_login(member.user)
    page = client.get(reverse("appeals_event", args=[started.event.pk]))
    assert b'id="leave-committee"' in page.content
    client.post(leave, {"reason": "Beteg lettem."})
    member.refresh_from_db()
    assert member.leave_reason == "Beteg lettem."
    for refused in (member.user, other.user, started.staff):
        client.force_login(refused)
        assert client.post(decide, {"consents": "1"}).status_code == 403
    member.refresh_from_db()
    assert member.left_at is None
    client.force_login(started.director)
    client.post(decide, {"consents": "1"})
    member.refresh_from_db()
    assert member.left_at is not None
    page = client.get(reverse("appeals_event", args=[started.event.pk]))
    assert f"<s>{member.name}</s>".encode() in page.content


def test_leaving_through_the_api(started, api):
    member = started.members[2]
    url = reverse("appeal-event-leave", args=[started.event.pk])
    decide = reverse("appeal-event-leave-decision", args=[started.event.pk])
    api.force_authenticate(started.outsider)
    assert api.post(url, {"reason": ""}, format="json").status_code in (403, 404)
    api.force_authenticate(member.user)
    assert api.post(url, {"reason": "Elutazom."}, format="json").status_code == 200
    assert api.post(decide, {"member": member.pk, "consents": True}, format="json").status_code == 403
    api.force_authenticate(started.director)
    desk = api.post(decide, {"member": member.pk, "consents": True}, format="json")
    assert desk.status_code == 200
    row = next(m for m in desk.json()["committee"] if m["id"] == member.pk)
    assert row["left_at"] is not None
    stepped = next(m for m in desk.json()["committee"] if m["replaces"] == member.pk)
    assert stepped["is_alternate"] is False
