"""Per-object permissions: the director of THIS event and the staff of its federation may draw, publish
and upload; a director of another event, another federation's staff, a club admin, a player and an
anonymous visitor may not. Everybody reads the published pages; a draft round is nobody else's business."""

import datetime

import pytest
from django.utils import translation

from federation.models import Role
from tournaments.models import Entry, EntryMember, Event
from ulti.models import Round, RoundUpload
from ulti.services import draw, setup

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    """Services speak the active language; these tests read their English wording."""
    with translation.override("en"):
        yield


@pytest.fixture
def event(mausz, ulti_club, make_person):
    event = Event.objects.create(
        federation=mausz,
        club=ulti_club,
        title="Jogosultság kupa",
        format="ulti_individual",
        event_class="rating",
        entry_fee=1000,
        start_date=datetime.date(2026, 4, 4),
        status="approved",
        rule_set="mausz",
    )
    for _ in range(6):
        entry = Entry.objects.create(event=event)
        EntryMember.objects.create(entry=entry, person=make_person(mausz, ulti_club))
    return event


@pytest.fixture
def other_event(event):
    return Event.objects.create(
        federation=event.federation,
        title="Másik verseny",
        format="ulti_individual",
        start_date=event.start_date,
        status="approved",
    )


@pytest.fixture
def users(make_user, event, other_event, mausz, mbsz, ulti_club, make_person):
    player = make_user("jatekos@example.hu")
    make_person(mausz, ulti_club, user=player)
    return {
        "director": make_user("d@example.hu", kind=Role.DIRECTOR, event=event),
        "staff": make_user("s@example.hu", kind=Role.FEDERATION_STAFF, federation=mausz),
        "other_director": make_user("od@example.hu", kind=Role.DIRECTOR, event=other_event),
        "bridge_staff": make_user("bs@example.hu", kind=Role.FEDERATION_STAFF, federation=mbsz),
        "club_admin": make_user("ca@example.hu", kind=Role.CLUB_ADMIN, club=ulti_club),
        "player": player,
    }


@pytest.fixture
def rounds(event, users):
    user = users["director"]
    group = setup.start_event(event, user).groups.get()
    published = draw.publish_round(draw.generate_round(group, user), user)
    return group, published


MAY = ["director", "staff"]
MAY_NOT = ["other_director", "bridge_staff", "club_admin", "player"]


@pytest.mark.parametrize("who", MAY + MAY_NOT)
def test_has_perm_per_role(users, event, rounds, who):
    group, published = rounds
    user = users[who]
    for obj in (event, group, published, published.tables.first()):
        assert user.has_perm("ulti.manage_event", obj) is (who in MAY)
        assert user.has_perm("ulti.view_results", obj)


@pytest.mark.parametrize("who", MAY)
def test_may_draw_publish_and_upload(client, users, rounds, who):
    group, published = rounds
    client.force_login(users[who])
    assert client.get(f"/ulti/rounds/{published.pk}/upload/").status_code == 200
    data = {}
    for table in published.tables.all():
        ids = list(table.seats.order_by("position").values_list("participant_id", flat=True))
        data.update(
            {f"f{table.pk}_{ids[0]}": "300", f"f{table.pk}_{ids[1]}": "-100", f"f{table.pk}_{ids[2]}": "-200"}
        )
    assert client.post(f"/ulti/rounds/{published.pk}/upload/", data).status_code == 302
    assert RoundUpload.objects.filter(round=published).count() == 1
    response = client.post(f"/ulti/groups/{group.pk}/draw/")
    assert response.status_code == 302 and "/ulti/rounds/" in response.url
    draft = Round.objects.get(group=group, number=2)
    assert client.post(f"/ulti/rounds/{draft.pk}/publish/").status_code == 302
    draft.refresh_from_db()
    assert draft.is_published
    assert client.get(f"/ulti/rounds/{published.pk}/cards/").status_code == 200
    assert client.get(f"/ulti/tables/{published.tables.first().pk}/sheet/").status_code == 200


@pytest.mark.parametrize("who", MAY_NOT)
def test_may_not_draw_publish_or_upload(client, users, rounds, who):
    group, published = rounds
    client.force_login(users[who])
    assert client.post(f"/ulti/groups/{group.pk}/draw/").status_code == 403
    assert client.post(f"/ulti/rounds/{published.pk}/publish/").status_code == 403
    assert client.post(f"/ulti/rounds/{published.pk}/upload/", {}).status_code == 403
    assert client.get(f"/ulti/rounds/{published.pk}/edit/").status_code == 403
    assert client.post(f"/ulti/tables/{published.tables.first().pk}/sheet/preview/").status_code == 403
    assert Round.objects.filter(group=group).count() == 1 and not RoundUpload.objects.exists()


def test_anonymous_goes_to_login_for_director_pages(client, rounds):
    group, published = rounds
    response = client.post(f"/ulti/groups/{group.pk}/draw/")
    assert response.status_code == 302 and "/accounts/login/" in response.url


def test_everyone_reads_published_pages_but_not_drafts(client, users, event, rounds):
    group, published = rounds
    person = published.tables.first().seats.first().participant.person_id
    for url in (
        "/ulti/",
        f"/ulti/events/{event.pk}/",
        f"/ulti/events/{event.pk}/standings/",
        f"/ulti/rounds/{published.pk}/",
        f"/ulti/events/{event.pk}/players/{person}/",
    ):
        assert client.get(url).status_code == 200, url


def test_a_draft_round_is_a_404_for_the_public(client, users, event):
    user = users["director"]
    group = setup.start_event(event, user).groups.get()
    draft = draw.generate_round(group, user)
    assert client.get(f"/ulti/rounds/{draft.pk}/").status_code == 404
    client.force_login(users["player"])
    assert client.get(f"/ulti/rounds/{draft.pk}/").status_code == 404
    client.force_login(user)
    assert client.get(f"/ulti/rounds/{draft.pk}/").status_code == 200


def test_a_draft_event_is_hidden(client, users, event, rounds):
    event.status = Event.Status.DRAFT
    event.save()
    assert client.get(f"/ulti/events/{event.pk}/").status_code == 404
    client.force_login(users["staff"])
    assert client.get(f"/ulti/events/{event.pk}/").status_code == 200
