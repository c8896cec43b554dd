"""The calendar workflow: transitions, their history and who may take each step."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import timezone

from federation.models import Notification, Role
from tournaments.models import Event, EventChange, Session
from tournaments.refusals import Refused
from tournaments.services import entries as entry_service
from tournaments.services import workflow

pytestmark = pytest.mark.django_db
Status = Event.Status


def complete(event):
    """Fill in everything VSz 4 asks of an announcement."""
    for name, value in dict(
        venue="Klubterem",
        venue_address="1051 Budapest, Október 6. u. 12.",
        organiser_name="BBE",
        organiser_address="1051 Budapest",
        organiser_phone="+36 1 555 0000",
        director_name="Hajdu Gábor",
        entry_deadline=timezone.now() + datetime.timedelta(days=20),
        boards=26,
        prizes="Oklevél",
        masterpoint_multiplier="1.00",
    ).items():
        setattr(event, name, value)
    event.save()
    Session.objects.create(event=event, starts_at=timezone.now() + datetime.timedelta(days=30))
    return event


def form_data(club, **extra):
    data = {
        "federation": club.federation_id,
        "club": club.pk,
        "title": "Őszi páros",
        "event_class": "club",
        "format": "pairs",
        "in_federation_calendar": "on",
        "start_date": (timezone.localdate() + datetime.timedelta(days=40)).isoformat(),
        "entry_fee": "2000",
        "meal_fee": "0",
        "gender_restriction": "open",
        "age_restriction": "open",
        "appeal_deadline_minutes": "30",
        "appeal_deposit": "0",
        "sessions-TOTAL_FORMS": "1",
        "sessions-INITIAL_FORMS": "0",
        "sessions-0-name": "1. forduló",
        "sessions-0-starts_at": (timezone.localdate() + datetime.timedelta(days=40)).isoformat() + "T10:00",
        "divisions-TOTAL_FORMS": "0",
        "divisions-INITIAL_FORMS": "0",
    }
    data.update(extra)
    return data


def test_club_admin_drafts_on_the_page_and_history_records_it(client, club_admin, bridge_club):
    client.force_login(club_admin)
    response = client.post(reverse("event_create"), form_data(bridge_club))
    event = Event.objects.get()
    assert response.status_code == 302 and event.status == Status.DRAFT and event.created_by == club_admin
    assert event.sessions.count() == 1
    change = event.changes.get()
    assert change.action == EventChange.Action.CREATED and change.user == club_admin


def test_club_admin_cannot_announce_for_another_club(client, club_admin, other_bridge_club):
    client.force_login(club_admin)
    response = client.post(reverse("event_create"), form_data(other_bridge_club))
    assert response.status_code == 200 and not Event.objects.exists()  # the form refuses the club


def test_bad_input_changes_nothing(client, club_admin, bridge_club):
    client.force_login(club_admin)
    response = client.post(reverse("event_create"), form_data(bridge_club, format="sport_ulti"))
    assert response.status_code == 200 and not Event.objects.exists() and not Session.objects.exists()


def test_anonymous_may_not_create_or_act(client, make_event):
    event = make_event(status=Status.SUBMITTED)
    assert client.get(reverse("event_create")).status_code == 302
    client.post(reverse("event_approve", args=[event.pk]))
    event.refresh_from_db()
    assert event.status == Status.SUBMITTED


def test_submit_needs_a_complete_announcement(make_event, club_admin):
    event = make_event(status=Status.DRAFT)
    with pytest.raises(Refused) as info:
        workflow.submit(event.pk, club_admin)
    assert "VSz 4" in info.value.messages[0]
    complete(event)
    assert workflow.submit(event.pk, club_admin).status == Status.SUBMITTED


def test_club_admin_of_another_club_may_not_submit_or_edit(client, make_event, other_club_admin):
    event = complete(make_event(status=Status.DRAFT))
    with pytest.raises(PermissionDenied):
        workflow.submit(event.pk, other_club_admin)
    client.force_login(other_club_admin)
    assert (
        client.get(reverse("event_edit", args=[event.pk])).status_code == 404
    )  # another club's draft is hidden
    assert client.post(reverse("event_submit", args=[event.pk])).status_code == 403


def test_staff_of_this_federation_approves_other_federation_may_not(
    client, make_event, staff_mbsz, staff_mausz
):
    event = make_event(status=Status.SUBMITTED)
    client.force_login(staff_mausz)
    assert client.post(reverse("event_approve", args=[event.pk])).status_code == 403
    event.refresh_from_db()
    assert event.status == Status.SUBMITTED
    client.force_login(staff_mbsz)
    client.post(reverse("event_approve", args=[event.pk]))
    event.refresh_from_db()
    assert event.status == Status.APPROVED and event.published_at is not None
    change = event.changes.get()
    assert (change.action, change.user, change.status_before, change.status_after) == (
        "approved",
        staff_mbsz,
        "submitted",
        "approved",
    )


def test_club_admin_may_not_approve_own_event(make_event, club_admin):
    event = make_event(status=Status.SUBMITTED)
    with pytest.raises(PermissionDenied):
        workflow.approve(event.pk, club_admin)


def test_return_needs_a_reason_and_the_organiser_can_resubmit(make_event, staff_mbsz, club_admin):
    event = complete(make_event(status=Status.SUBMITTED, created_by=club_admin))
    with pytest.raises(Refused):
        workflow.return_event(event.pk, staff_mbsz, "  ")
    workflow.return_event(event.pk, staff_mbsz, "Hiányzik a díjazás részletezése.")
    event.refresh_from_db()
    assert event.status == Status.RETURNED
    assert event.changes.last().reason == "Hiányzik a díjazás részletezése."
    assert Notification.objects.filter(recipient=club_admin.email).exists()
    assert workflow.submit(event.pk, club_admin).status == Status.SUBMITTED


def test_next_years_events_are_proposed_before_approval(client, make_event, staff_mbsz, today):
    this_year = make_event(status=Status.SUBMITTED)
    next_year = make_event(
        status=Status.SUBMITTED, start_date=datetime.date(today.year + 1, 3, 1), title="Jövőre"
    )
    if this_year.start_date.year == today.year:
        with pytest.raises(Refused):
            workflow.propose(this_year.pk, staff_mbsz)
    workflow.propose(next_year.pk, staff_mbsz)
    next_year.refresh_from_db()
    assert next_year.status == Status.PROPOSED
    page = client.get(reverse("calendar_year", args=[today.year + 1])).content.decode()
    assert "Jövőre" in page
    workflow.approve(next_year.pk, staff_mbsz)
    assert [c.action for c in next_year.changes.all()] == ["proposed", "approved"]


def test_staff_move_the_date_and_entrants_are_notified(make_event, staff_mbsz, club_admin, make_player):
    event = make_event()
    session = Session.objects.create(
        event=event,
        starts_at=timezone.make_aware(datetime.datetime.combine(event.start_date, datetime.time(10))),
    )
    me, partner = make_player(), make_player()
    entry_service.create_entry(event.pk, me.user, [me, partner])
    Notification.objects.all().delete()
    with pytest.raises(PermissionDenied):
        workflow.move(event.pk, club_admin, event.start_date + datetime.timedelta(days=7), None, "Terem")
    old = event.start_date
    workflow.move(event.pk, staff_mbsz, old + datetime.timedelta(days=7), None, "Ütközik az OPB-vel.")
    event.refresh_from_db()
    session.refresh_from_db()
    assert event.start_date == old + datetime.timedelta(days=7)
    assert timezone.localtime(session.starts_at).date() == event.start_date
    change = event.changes.get(action="moved")
    assert change.reason == "Ütközik az OPB-vel." and change.details["start_date"] == [
        str(old),
        str(event.start_date),
    ]
    assert {n.recipient for n in Notification.objects.all()} == {
        me.user.email,
        partner.user.email,
    }  # the login addresses


def test_organiser_cancels_and_entrants_are_notified(
    client, make_event, club_admin, other_club_admin, make_player
):
    event = make_event()
    me, partner = make_player(), make_player()
    entry_service.create_entry(event.pk, me.user, [me, partner])
    Notification.objects.all().delete()
    client.force_login(other_club_admin)
    assert client.post(reverse("event_cancel", args=[event.pk]), {"reason": "x"}).status_code == 403
    client.force_login(club_admin)
    client.post(reverse("event_cancel", args=[event.pk]), {"reason": "Kevés nevező."})
    event.refresh_from_db()
    assert event.status == Status.CANCELLED and event.changes.get().reason == "Kevés nevező."
    assert {n.recipient for n in Notification.objects.all()} == {
        me.user.email,
        partner.user.email,
    }  # the login addresses


def test_club_admin_edits_a_draft_and_the_diff_is_kept(client, make_event, club_admin, bridge_club):
    event = make_event(status=Status.DRAFT, title="Régi cím")
    client.force_login(club_admin)
    data = form_data(bridge_club, title="Új cím", start_date=event.start_date.isoformat())
    response = client.post(reverse("event_edit", args=[event.pk]), data)
    assert response.status_code == 302
    change = event.changes.get(action="edited")
    assert change.details["title"] == ["Régi cím", "Új cím"] and change.user == club_admin


def test_after_submission_only_staff_edit(client, make_event, club_admin, staff_mbsz):
    event = make_event(status=Status.SUBMITTED)
    client.force_login(club_admin)
    assert client.get(reverse("event_edit", args=[event.pk])).status_code == 302
    client.force_login(staff_mbsz)
    assert client.get(reverse("event_edit", args=[event.pk])).status_code == 200


def test_director_role_is_assigned_per_event(client, make_event, club_admin, other_club_admin, make_user):
    event = make_event()
    director = make_user("tv@example.hu")
    client.force_login(other_club_admin)
    assert (
        client.post(reverse("event_assign_director", args=[event.pk]), {"email": director.email}).status_code
        == 403
    )
    client.force_login(club_admin)
    client.post(reverse("event_assign_director", args=[event.pk]), {"email": director.email})
    assert Role.objects.filter(user=director, kind=Role.DIRECTOR, event=event).exists()
    assert event.changes.get().details == {"director": director.username}
    assert director.has_perm("tournaments.manage_entries", event)


def test_history_rows_are_immutable(make_event, staff_mbsz):
    event = make_event(status=Status.SUBMITTED)
    workflow.approve(event.pk, staff_mbsz)
    change = event.changes.get()
    change.reason = "átírva"
    with pytest.raises(TypeError):
        change.save()
    with pytest.raises(TypeError):
        change.delete()
    with pytest.raises(TypeError):
        EventChange.objects.filter(pk=change.pk).update(reason="x")
    with pytest.raises(TypeError):
        EventChange.objects.all().delete()
    assert EventChange.objects.get().reason == ""
