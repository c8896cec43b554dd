"""A director's qualification ends (VSz 9): revoked in the register or expired, the events it covered that
have not finished lose the director (role, pick, history, mail); finished events keep theirs."""

import datetime

import pytest
from django.conf import settings
from django.urls import reverse

from federation.models import Notification, QualifiedDirector, Role
from federation.services import directors as register
from tournaments import tasks
from tournaments.models import Event, EventChange
from tournaments.services import directors

pytestmark = pytest.mark.django_db
DAYS = datetime.timedelta


@pytest.fixture
def hajdu(make_user, make_person, mbsz, today):
    user = make_user("hajdu@example.hu")
    person = make_person(federation=mbsz, last_name="Hajdú", first_name="Gábor", user=user)
    return QualifiedDirector.objects.create(
        federation=mbsz,
        person=person,
        level="national",
        valid_from=today - DAYS(400),
        valid_until=today + DAYS(400),
    )


@pytest.fixture
def events(make_event, hajdu, club_admin, bridge_club, today):
    """A finished, an ongoing and a future event, each directed by Hajdú (his account holds the role)."""
    bridge_club.email = "titkar@bbe.hu"
    bridge_club.save()
    made = {}
    for key, start, end in (
        ("finished", today - DAYS(10), today - DAYS(9)),
        ("ongoing", today - DAYS(1), today + DAYS(1)),
        ("today", today, None),
        ("future", today + DAYS(30), None),
    ):
        event = make_event(
            title=f"Verseny {key}",
            start_date=start,
            end_date=end,
            director=hajdu,
            director_name="Hajdú Gábor",
            created_by=club_admin,
        )
        Role.objects.create(user=hajdu.person.user, kind=Role.DIRECTOR, event=event)
        made[key] = event
    return made


def _has_role(qualification, event):
    return Role.objects.filter(user=qualification.person.user, kind=Role.DIRECTOR, event=event).exists()


def _subjects(address):
    return list(Notification.objects.filter(recipient=address).values_list("subject", flat=True))


def test_revoking_releases_the_ongoing_and_future_events_only(hajdu, events, staff_mbsz, client):
    Notification.objects.all().delete()
    client.force_login(staff_mbsz)
    response = client.post(reverse("director_revoke", args=[hajdu.pk]), {"reason": "Fegyelmi határozat"})
    assert response.status_code == 302
    for key in ("ongoing", "today", "future"):
        event = events[key]
        event.refresh_from_db()
        assert event.director is None and event.director_name == "", key
        assert not _has_role(hajdu, event), key
        change = event.changes.get(action=EventChange.Action.RELEASED)
        assert change.user == staff_mbsz and "Fegyelmi határozat" in change.reason
        assert change.details == {"director": "Hajdú Gábor", "qualification": hajdu.pk}
    finished = events["finished"]
    finished.refresh_from_db()
    assert finished.director == hajdu and finished.director_name == "Hajdú Gábor"
    assert _has_role(hajdu, finished)
    assert not finished.changes.filter(action=EventChange.Action.RELEASED).exists()
    # The organiser (the announcer and the club's address), the federation's staff and the director: one mail
    # per released event each.
    for address in ("admin@bbe.hu", "titkar@bbe.hu", "staff@mbsz.hu", "hajdu@example.hu"):
        subjects = _subjects(address)
        assert len(subjects) == 3, address
        assert not any("Verseny finished" in s for s in subjects)
        assert any("Verseny future" in s for s in subjects)
    body = Notification.objects.filter(recipient="admin@bbe.hu").first().body
    assert "Hajdú Gábor" in body and "Fegyelmi határozat" in body
    assert reverse("event_detail", args=[events["future"].pk]) in body
    # The staff's page says how many events lost their director.
    page = client.get(response.url)
    assert any("3" in str(m) for m in page.context["messages"])


def test_revoke_through_the_service_and_a_second_release_changes_nothing(hajdu, events, staff_mbsz):
    row = register.revoke(staff_mbsz, hajdu.pk, "Vizsga hiányzik")
    assert row.released_events == 3
    mails, history = Notification.objects.count(), EventChange.objects.count()
    assert directors.release(row, staff_mbsz) == 0
    assert (Notification.objects.count(), EventChange.objects.count()) == (mails, history)


def test_a_cancelled_event_and_another_directors_role_are_left_alone(
    hajdu, events, staff_mbsz, make_event, make_user, today
):
    cancelled = make_event(title="Elmarad", director=hajdu, status=Event.Status.CANCELLED)
    deputy = make_user("helyettes@example.hu", kind=Role.DIRECTOR, event=events["future"])
    register.revoke(staff_mbsz, hajdu.pk, "Visszavonva")
    cancelled.refresh_from_db()
    assert cancelled.director == hajdu
    assert Role.objects.filter(user=deputy, event=events["future"], kind=Role.DIRECTOR).exists()


def test_the_expiry_task_releases_once(hajdu, events, staff_mbsz, today):
    hajdu.valid_until = today - DAYS(1)
    hajdu.save()
    Notification.objects.all().delete()
    assert tasks.release_expired_directors.apply().get() == 3
    future = events["future"]
    future.refresh_from_db()
    assert future.director is None and not _has_role(hajdu, future)
    change = future.changes.get(action=EventChange.Action.RELEASED)
    assert change.user is None and hajdu.valid_until.strftime("%Y. %m. %d.") in change.reason
    mails, history = Notification.objects.count(), EventChange.objects.count()
    assert mails == 3 * 4
    # Run again (a beat tick later, or twice at once): nothing more happens.
    assert tasks.release_expired_directors.apply().get() == 0
    assert (Notification.objects.count(), EventChange.objects.count()) == (mails, history)
    events["finished"].refresh_from_db()
    assert events["finished"].director == hajdu and _has_role(hajdu, events["finished"])


def test_a_valid_qualification_is_not_touched_by_the_expiry_task(hajdu, events, today):
    hajdu.valid_until = today  # ends today: still valid today
    hajdu.save()
    assert directors.release_expired(today) == 0
    assert Event.objects.filter(director=hajdu).count() == 4


def test_the_expiry_task_is_on_the_beat():
    entry = settings.CELERY_BEAT_SCHEDULE["tournaments-release-expired-directors"]
    assert entry["task"] == tasks.release_expired_directors.name


def test_the_history_page_shows_the_release(hajdu, events, staff_mbsz, client):
    register.revoke(staff_mbsz, hajdu.pk, "Fegyelmi határozat")
    client.force_login(staff_mbsz)
    page = client.get(reverse("event_detail", args=[events["future"].pk]))
    assert page.status_code == 200
    released = [c for c, _rows in page.context["history"] if c.action == EventChange.Action.RELEASED]
    assert len(released) == 1
    assert "Fegyelmi határozat" in page.content.decode()
