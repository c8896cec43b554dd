"""Every change of a director's qualification follows through to the events (VSz 9: "a verseny színvonalának
megfelelő képesítéssel"): a renewal that shortens it or lowers its level releases exactly the events not yet
finished it no longer covers; a renewal or a withdrawn revocation that covers such an event again gives it
back, unless the organiser named somebody else meanwhile."""

import datetime

import pytest
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.urls import reverse

from federation.models import Notification, QualifiedDirector, Role
from federation.services import directors as register
from tournaments import tasks
from tournaments.models import Event, EventChange
from tournaments.services import directors

pytestmark = pytest.mark.django_db
DAYS = datetime.timedelta
A = EventChange.Action


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
def kiss(make_user, make_person, mbsz, today):
    user = make_user("kiss@example.hu")
    person = make_person(federation=mbsz, last_name="Kiss", first_name="Anna", user=user)
    return QualifiedDirector.objects.create(
        federation=mbsz,
        person=person,
        level="national",
        valid_from=today - DAYS(10),
        valid_until=today + DAYS(900),
    )


@pytest.fixture
def events(make_event, hajdu, club_admin, bridge_club, today):
    """Hajdú directs (pick and role) a finished club event, an ongoing one ending in 10 days, a national
    championship on day 60 and a club event on day 200."""
    bridge_club.email = "titkar@bbe.hu"
    bridge_club.save()
    made = {}
    for key, start, end, event_class in (
        ("finished", today - DAYS(10), today - DAYS(9), "club"),
        ("ongoing", today - DAYS(1), today + DAYS(10), "club"),
        ("national", today + DAYS(60), today + DAYS(61), "championship"),
        ("late", today + DAYS(200), None, "club"),
    ):
        event = make_event(
            title=f"Verseny {key}",
            start_date=start,
            end_date=end,
            event_class=event_class,
            director=hajdu,
            director_name="Hajdú Gábor",
            created_by=club_admin,
        )
        Role.objects.create(user=hajdu.person.user, kind=Role.DIRECTOR, event=event)
        made[key] = event
    return made


def _directs(qualification, event) -> bool:
    event.refresh_from_db()
    role = Role.objects.filter(user=qualification.person.user, kind=Role.DIRECTOR, event=event).exists()
    assert role == (event.director_id == qualification.pk), event.title
    return event.director_id == qualification.pk


def _subjects(address):
    return list(Notification.objects.filter(recipient=address).values_list("subject", flat=True))


def test_a_shortened_renewal_releases_only_the_events_after_the_new_end(hajdu, events, staff_mbsz, today):
    Notification.objects.all().delete()
    row = register.renew(staff_mbsz, hajdu.pk, today + DAYS(100), "national")
    assert (row.released_events, row.restored_events) == (1, 0)
    assert not _directs(hajdu, events["late"])  # day 200 is after day 100
    for key in ("finished", "ongoing", "national"):  # day 61 and before: still covered
        assert _directs(hajdu, events[key]), key
    late = events["late"]
    assert late.director_name == ""
    change = late.changes.get(action=A.RELEASED)
    assert change.user == staff_mbsz and change.details == {
        "director": "Hajdú Gábor",
        "qualification": hajdu.pk,
    }
    assert (today + DAYS(100)).strftime("%Y. %m. %d.") in change.reason
    for address in ("admin@bbe.hu", "titkar@bbe.hu", "staff@mbsz.hu", "hajdu@example.hu"):
        (subject,) = _subjects(address)
        assert "Verseny late" in subject, address


def test_a_renewal_that_keeps_covering_everything_releases_nothing(hajdu, events, staff_mbsz, today):
    Notification.objects.all().delete()
    row = register.renew(staff_mbsz, hajdu.pk, today + DAYS(200), "national")  # the last day exactly
    assert (row.released_events, row.restored_events) == (0, 0)
    assert all(_directs(hajdu, event) for event in events.values())
    assert not Notification.objects.exists()
    assert not EventChange.objects.filter(action__in=(A.RELEASED, A.RESTORED)).exists()


def test_a_lower_level_releases_the_championship_only(hajdu, events, staff_mbsz):
    row = register.renew(staff_mbsz, hajdu.pk, hajdu.valid_until, "club")
    assert row.released_events == 1
    national = events["national"]
    assert not _directs(hajdu, national)
    assert str(dict(QualifiedDirector.LEVELS)["club"]) in national.changes.get(action=A.RELEASED).reason
    assert all(_directs(hajdu, events[key]) for key in ("finished", "ongoing", "late"))
    # Raised again: the championship gets its director back.
    row = register.renew(staff_mbsz, hajdu.pk, hajdu.valid_until, "national")
    assert (row.released_events, row.restored_events) == (0, 1)
    assert _directs(hajdu, national) and national.director_name == "Hajdú Gábor"


def test_a_renewal_that_covers_the_event_again_gives_it_back_once(hajdu, events, staff_mbsz, today):
    register.renew(staff_mbsz, hajdu.pk, today + DAYS(100), "national")
    late = events["late"]
    # Longer, but still before day 200: nothing comes back.
    assert register.renew(staff_mbsz, hajdu.pk, today + DAYS(150), "national").restored_events == 0
    assert not _directs(hajdu, late)
    Notification.objects.all().delete()
    row = register.renew(staff_mbsz, hajdu.pk, today + DAYS(365), "national")
    assert (row.released_events, row.restored_events) == (0, 1)
    assert _directs(hajdu, late) and late.director_name == "Hajdú Gábor"
    back = late.changes.get(action=A.RESTORED)
    assert back.user == staff_mbsz and back.details["qualification"] == hajdu.pk
    assert (today + DAYS(365)).strftime("%Y. %m. %d.") in back.reason
    for address in ("admin@bbe.hu", "titkar@bbe.hu", "staff@mbsz.hu", "hajdu@example.hu"):
        (subject,) = _subjects(address)
        assert "Verseny late" in subject, address
    body = Notification.objects.get(recipient="admin@bbe.hu").body
    assert "Hajdú Gábor" in body and reverse("event_detail", args=[late.pk]) in body
    # Again: the event names him already, nothing more happens.
    mails = Notification.objects.count()
    assert directors.give_back(hajdu, staff_mbsz) == 0
    assert Notification.objects.count() == mails and late.changes.filter(action=A.RESTORED).count() == 1


def test_no_give_back_when_the_organiser_named_somebody_else(
    hajdu, kiss, events, staff_mbsz, club_admin, today
):
    register.renew(staff_mbsz, hajdu.pk, today + DAYS(100), "national")
    late = events["late"]
    late.refresh_from_db()
    late.director = kiss
    late.save()
    directors.follow_pick(late, None, club_admin)  # the announcement form's pick of Kiss
    assert register.renew(staff_mbsz, hajdu.pk, today + DAYS(365), "national").restored_events == 0
    late.refresh_from_db()
    assert late.director == kiss and not Role.objects.filter(user=hajdu.person.user, event=late).exists()


def test_no_give_back_after_the_organiser_named_and_removed_somebody(
    hajdu, kiss, events, staff_mbsz, club_admin, today
):
    register.renew(staff_mbsz, hajdu.pk, today + DAYS(100), "national")
    late = events["late"]
    late.refresh_from_db()
    late.director = kiss
    late.save()
    directors.follow_pick(late, None, club_admin)
    late.director, late.director_name = None, ""
    late.save()
    directors.follow_pick(late, kiss.pk, club_admin)  # and taken back: the event has no director again
    assert register.renew(staff_mbsz, hajdu.pk, today + DAYS(365), "national").restored_events == 0
    assert not _directs(hajdu, late)


def test_no_give_back_when_another_account_got_the_director_role_since(
    hajdu, events, staff_mbsz, make_user, today
):
    register.renew(staff_mbsz, hajdu.pk, today + DAYS(100), "national")
    late = events["late"]
    make_user("helyettes@example.hu", kind=Role.DIRECTOR, event=late)
    assert register.renew(staff_mbsz, hajdu.pk, today + DAYS(365), "national").restored_events == 0
    assert not _directs(hajdu, late)


def test_a_withdrawn_revocation_gives_back_the_unfinished_events(hajdu, events, staff_mbsz, client, today):
    register.revoke(staff_mbsz, hajdu.pk, "Téves határozat")
    assert not any(_directs(hajdu, events[key]) for key in ("ongoing", "national", "late"))
    # A revoked qualification cannot be renewed; the event the organiser cancelled meanwhile stays as it is.
    with pytest.raises(ValidationError):
        register.renew(staff_mbsz, hajdu.pk, today + DAYS(500), "national")
    Event.objects.filter(pk=events["ongoing"].pk).update(status=Event.Status.CANCELLED)
    client.force_login(staff_mbsz)
    response = client.post(reverse("director_restore", args=[hajdu.pk]))
    assert response.status_code == 302
    hajdu.refresh_from_db()
    assert hajdu.revoked_at is None and hajdu.revoke_reason == ""
    assert _directs(hajdu, events["national"]) and _directs(hajdu, events["late"])
    assert not _directs(hajdu, events["ongoing"])
    assert _directs(hajdu, events["finished"])  # never released
    page = client.get(response.url)
    info = [str(m) for m in page.context["messages"] if m.level == messages.INFO]
    assert len(info) == 1 and "2" in info[0]
    # The history shows both steps.
    detail = client.get(reverse("event_detail", args=[events["late"].pk]))
    actions = [c.action for c, _rows in detail.context["history"]]
    assert A.RELEASED in actions and A.RESTORED in actions


def test_restoring_a_valid_qualification_is_refused(hajdu, staff_mbsz, client):
    client.force_login(staff_mbsz)
    response = client.post(reverse("director_restore", args=[hajdu.pk]), follow=True)
    assert [m.level for m in response.context["messages"]] == [messages.ERROR]


@pytest.mark.parametrize("who", ["staff_mausz", "club_admin", "anonymous", "hajdu_himself"])
def test_only_the_federations_staff_may_restore(hajdu, events, staff_mbsz, who, request, client):
    register.revoke(staff_mbsz, hajdu.pk, "Fegyelmi határozat")
    if who == "hajdu_himself":
        client.force_login(hajdu.person.user)
    elif who != "anonymous":
        client.force_login(request.getfixturevalue(who))
    response = client.post(reverse("director_restore", args=[hajdu.pk]))
    assert response.status_code in (302, 404)
    if response.status_code == 302:
        assert "login" in response.url
    hajdu.refresh_from_db()
    assert hajdu.revoked_at is not None
    assert not _directs(hajdu, events["late"])


def test_an_expired_qualification_renewed_gives_the_events_back(hajdu, events, staff_mbsz, today):
    hajdu.valid_until = today - DAYS(1)
    hajdu.save()
    assert tasks.release_expired_directors.apply().get() == 3
    row = register.renew(staff_mbsz, hajdu.pk, today + DAYS(60), "national")
    # Day 60 covers the ongoing event (ends day 10) but not the championship's second day (61) nor day 200.
    assert (row.released_events, row.restored_events) == (0, 1)
    assert _directs(hajdu, events["ongoing"])
    assert not _directs(hajdu, events["national"]) and not _directs(hajdu, events["late"])
