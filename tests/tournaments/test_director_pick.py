"""The announcement picks its director from the register (VSz 9) and the director role follows the pick."""

import datetime

import pytest
from django.urls import reverse

from federation.models import QualifiedDirector, Role
from tournaments.models import Event
from tournaments.services import workflow

from .test_workflow import form_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def register(make_user, make_person, mbsz, mausz, today):
    def qualify(person, level="club", federation=mbsz, **dates):
        return QualifiedDirector.objects.create(
            federation=federation,
            person=person,
            level=level,
            valid_from=dates.get("valid_from", today - datetime.timedelta(days=100)),
            valid_until=dates.get("valid_until", today + datetime.timedelta(days=400)),
        )

    hajdu_user, kiss_user = make_user("hajdu@example.hu"), make_user("kiss@example.hu")
    hajdu = make_person(federation=mbsz, last_name="Hajdú", first_name="Gábor", user=hajdu_user)
    kiss = make_person(federation=mbsz, last_name="Kiss", first_name="Anna", user=kiss_user)
    reho = make_person(federation=mausz, last_name="Rehó", first_name="Lajos", user=make_user("reho@x.hu"))
    return {
        "hajdu": qualify(hajdu),
        "kiss": qualify(kiss, "national"),
        "expired": qualify(
            make_person(federation=mbsz, last_name="Régi", first_name="Béla"),
            valid_from=today - datetime.timedelta(days=800),
            valid_until=today + datetime.timedelta(days=10),
        ),
        "reho": qualify(reho, "international", mausz),
        "hajdu_user": hajdu_user,
        "kiss_user": kiss_user,
    }


def _director_roles(event):
    return set(Role.objects.filter(kind=Role.DIRECTOR, event=event).values_list("user__username", flat=True))


def test_the_pick_gives_the_role_and_a_new_pick_moves_it(
    client, club_admin, bridge_club, make_event, register
):
    event = make_event(status=Event.Status.DRAFT)
    client.force_login(club_admin)
    form = client.get(reverse("event_edit", args=[event.pk])).content.decode()
    assert f"#{register['hajdu'].pk}" in form and "Rehó" not in form  # the other federation's register
    base = dict(start_date=event.start_date.isoformat())
    # A name typed in full, as the browser's list leaves it, or just the name.
    response = client.post(
        reverse("event_edit", args=[event.pk]), form_data(bridge_club, director="hajdu gabor", **base)
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.director == register["hajdu"] and event.director_name == "Hajdú Gábor"
    assert _director_roles(event) == {"hajdu@example.hu"}
    assert register["hajdu_user"].has_perm("tournaments.manage_entries", event)
    label = f"Kiss Anna · national director · {register['kiss'].valid_until:%Y.%m.%d.} #{register['kiss'].pk}"
    client.post(reverse("event_edit", args=[event.pk]), form_data(bridge_club, director=label, **base))
    event.refresh_from_db()
    assert event.director == register["kiss"] and event.director_name == "Kiss Anna"
    assert _director_roles(event) == {"kiss@example.hu"}  # revoked from the previous pick
    assert event.changes.filter(action="director").count() == 2


def test_a_pick_not_valid_for_the_event_is_refused(
    client, staff_mbsz, bridge_club, make_event, register, today
):
    event = make_event(status=Event.Status.DRAFT)
    client.force_login(staff_mbsz)
    base = dict(start_date=event.start_date.isoformat())
    refused = {
        # expires ten days from now, the event is in thirty
        "expired": dict(director=f"x #{register['expired'].pk}"),
        # the other federation's register
        "other federation": dict(director=f"x #{register['reho'].pk}"),
        # a national championship needs a national director at least
        "level": dict(director=f"x #{register['hajdu'].pk}", event_class="national"),
        "unknown": dict(director="Senki Sem"),
    }
    for why, extra in refused.items():
        response = client.post(
            reverse("event_edit", args=[event.pk]), form_data(bridge_club, **base, **extra)
        )
        assert response.status_code == 200, why
        assert response.context["form"].errors["director"], why
    register["kiss"].revoked_at = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    register["kiss"].save()
    response = client.post(
        reverse("event_edit", args=[event.pk]),
        form_data(bridge_club, director=f"x #{register['kiss'].pk}", event_class="national", **base),
    )
    assert response.status_code == 200
    event.refresh_from_db()
    assert event.director is None and not _director_roles(event)
    # The national director may direct the championship.
    register["kiss"].revoked_at = None
    register["kiss"].save()
    response = client.post(
        reverse("event_edit", args=[event.pk]),
        form_data(bridge_club, director=f"x #{register['kiss'].pk}", event_class="national", **base),
    )
    assert response.status_code == 302


def test_two_directors_of_one_name_must_be_chosen_from_the_list(
    client, club_admin, bridge_club, make_event, make_person, register, mbsz, today
):
    twin = make_person(federation=mbsz, last_name="Hajdú", first_name="Gábor")
    QualifiedDirector.objects.create(
        federation=mbsz,
        person=twin,
        level="club",
        valid_from=today,
        valid_until=today + datetime.timedelta(days=90),
    )
    event = make_event(status=Event.Status.DRAFT)
    client.force_login(club_admin)
    response = client.post(
        reverse("event_edit", args=[event.pk]),
        form_data(bridge_club, director="Hajdú Gábor", start_date=event.start_date.isoformat()),
    )
    # The page speaks Hungarian first.
    assert "több ilyen nevű tornavezető" in str(response.context["form"].errors["director"])


def test_the_event_page_says_there_is_no_director_and_who_names_one(
    client, club_admin, make_event, make_player, register
):
    event = make_event()
    anonymous = client.get(reverse("event_detail", args=[event.pk])).content.decode()
    assert 'id="no-director"' in anonymous and "Budapesti Bridzs Egyesület" in anonymous
    assert reverse("event_edit", args=[event.pk]) not in anonymous
    client.force_login(club_admin)
    page = client.get(reverse("event_detail", args=[event.pk])).content.decode()
    assert 'id="no-director"' in page and reverse("event_edit", args=[event.pk]) in page
    Role.objects.create(user=register["hajdu_user"], kind=Role.DIRECTOR, event=event)
    assert 'id="no-director"' not in client.get(reverse("event_detail", args=[event.pk])).content.decode()


def test_the_ulti_event_page_says_so_too(
    client, make_event, mausz, ulti_club, staff_mausz, make_user, django_capture_on_commit_callbacks
):
    event = make_event(
        federation=mausz, club=ulti_club, format=Event.Format.ULTI_INDIVIDUAL, event_class="rating"
    )
    page = client.get(reverse("ulti_event", args=[event.pk])).content.decode()
    assert 'id="no-director"' in page and "Szolnoki Ulti Egyesület" in page
    # Named by e-mail: the anonymous page, served from the cache, is renewed.
    make_user("reho@example.hu")
    with django_capture_on_commit_callbacks(execute=True):
        workflow.assign_director(event.pk, staff_mausz, "reho@example.hu")
    assert 'id="no-director"' not in client.get(reverse("ulti_event", args=[event.pk])).content.decode()


def test_a_new_announcement_with_a_pick_gives_the_role(client, club_admin, bridge_club, register):
    client.force_login(club_admin)
    response = client.post(
        reverse("event_create"), form_data(bridge_club, director=f"Hajdú Gábor #{register['hajdu'].pk}")
    )
    assert response.status_code == 302
    event = Event.objects.get(title="Őszi páros")
    assert event.director == register["hajdu"] and _director_roles(event) == {"hajdu@example.hu"}
    # Taking the pick away takes the role with it.
    client.post(
        reverse("event_edit", args=[event.pk]),
        form_data(bridge_club, director="", start_date=event.start_date.isoformat()),
    )
    event.refresh_from_db()
    assert event.director is None and not _director_roles(event)
