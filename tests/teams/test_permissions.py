"""Who may do what: the event's director and its federation's staff run it; everyone reads published
pages of a public event; a team's player reads his own score card even before the event is public."""

import pytest

from federation.models import Role
from teams.models import Round
from teams.services import pairing
from tournaments.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(make_team_event):
    return make_team_event(teams=4)


@pytest.fixture
def users(event, make_user, make_team_event, mbsz, mausz, bridge_club):
    other = make_team_event(teams=2)
    return {
        "director": make_user("d@x.hu", kind=Role.DIRECTOR, event=event),
        "other_director": make_user("od@x.hu", kind=Role.DIRECTOR, event=other),
        "staff": make_user("s@x.hu", kind=Role.FEDERATION_STAFF, federation=mbsz),
        "ulti_staff": make_user("u@x.hu", kind=Role.FEDERATION_STAFF, federation=mausz),
        "club_admin": make_user("c@x.hu", kind=Role.CLUB_ADMIN, club=bridge_club),
        "nobody": make_user("n@x.hu"),
    }


@pytest.mark.parametrize(
    ("role", "allowed"),
    [
        ("director", True),
        ("staff", True),
        ("other_director", False),
        ("ulti_staff", False),
        ("club_admin", False),
        ("nobody", False),
    ],
)
def test_generate_a_round(client, event, users, role, allowed):
    client.force_login(users[role])
    response = client.post(f"/teams/events/{event.pk}/generate/")
    assert (response.status_code == 302 and event.team_rounds.exists()) is allowed
    if not allowed:
        assert response.status_code == 403 and not event.team_rounds.exists()


def test_anonymous_is_sent_to_log_in(client, event):
    response = client.post(f"/teams/events/{event.pk}/generate/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.fixture
def published_match(event, users):
    round_ = pairing.publish_round(pairing.generate_round(event, users["director"]), users["director"])
    return round_.matches.order_by("table").first()


@pytest.mark.parametrize(
    ("role", "status"), [("director", 200), ("staff", 200), ("club_admin", 403), ("nobody", 403)]
)
def test_upload_page(client, users, published_match, role, status):
    client.force_login(users[role])
    assert client.get(f"/teams/matches/{published_match.pk}/upload/").status_code == status


def test_publish_needs_the_right(client, event, users):
    round_ = pairing.generate_round(event, users["director"])
    client.force_login(users["other_director"])
    assert client.post(f"/teams/rounds/{round_.pk}/publish/").status_code == 403
    client.force_login(users["staff"])
    assert client.post(f"/teams/rounds/{round_.pk}/publish/").status_code == 302
    assert Round.objects.get(pk=round_.pk).is_published


def test_everyone_reads_published_pages_of_a_public_event(client, event, published_match):
    for url in (
        f"/teams/events/{event.pk}/",
        f"/teams/events/{event.pk}/rounds/1/",
        f"/teams/events/{event.pk}/standings/",
        f"/teams/matches/{published_match.pk}/",
    ):
        assert client.get(url).status_code == 200, url


def test_a_player_reads_his_own_score_card_of_a_private_event(
    client, event, users, published_match, make_user
):
    Event.objects.filter(pk=event.pk).update(status=Event.Status.SUBMITTED)  # not public
    url = f"/teams/matches/{published_match.pk}/"
    assert client.get(url).status_code == 404
    player = published_match.home.entry.members.first().person
    player.user = make_user("player@x.hu")
    player.save()
    client.force_login(player.user)
    assert client.get(url).status_code == 200
    outsider = next(t for t in event.teams.all() if t.pk not in published_match.team_ids)
    other = outsider.entry.members.first().person
    other.user = make_user("outsider@x.hu")
    other.save()
    client.force_login(other.user)
    assert client.get(url).status_code == 404
    assert client.get(f"/teams/events/{event.pk}/standings/").status_code == 404
    client.force_login(users["staff"])
    assert client.get(f"/teams/events/{event.pk}/standings/").status_code == 200


def test_rules_per_role(users, event, published_match):
    assert users["director"].has_perm("teams.run_event", event)
    assert users["director"].has_perm("teams.run_event", published_match)
    assert not users["other_director"].has_perm("teams.run_event", event)
    assert not users["ulti_staff"].has_perm("teams.run_event", published_match)
