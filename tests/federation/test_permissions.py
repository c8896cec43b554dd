"""One allowed and one refused request per role, through the one permission mechanism."""

import pytest
from django.urls import reverse

from federation.models import Role
from tournaments.models import Event


@pytest.fixture
def event(mbsz, bridge_club):
    import datetime

    return Event.objects.create(
        federation=mbsz,
        club=bridge_club,
        title="Klubverseny",
        format="pairs",
        start_date=datetime.date(2026, 12, 12),
    )


@pytest.fixture
def other_event(mbsz, other_bridge_club):
    import datetime

    return Event.objects.create(
        federation=mbsz,
        club=other_bridge_club,
        title="Másik verseny",
        format="pairs",
        start_date=datetime.date(2026, 12, 19),
    )


def club_patch(client, club, token_user=None):
    return client.patch(
        reverse("club-detail", args=[club.pk]), {"phone": "+36 1 234 5678"}, content_type="application/json"
    )


@pytest.mark.django_db
def test_anonymous_may_read_clubs_but_not_change_them(client, bridge_club):
    assert client.get(reverse("club-list")).status_code == 200
    assert club_patch(client, bridge_club).status_code in (401, 403)


@pytest.mark.django_db
def test_club_admin_may_change_own_club_only(client, make_user, bridge_club, other_bridge_club):
    client.force_login(make_user("admin@bbe.hu", kind=Role.CLUB_ADMIN, club=bridge_club))
    assert club_patch(client, bridge_club).status_code == 200
    assert club_patch(client, other_bridge_club).status_code == 403
    bridge_club.refresh_from_db()
    other_bridge_club.refresh_from_db()
    assert bridge_club.phone == "+36 1 234 5678" and other_bridge_club.phone == ""


@pytest.mark.django_db
def test_federation_staff_acts_for_own_federation_only(
    client, make_user, mbsz, mausz, bridge_club, ulti_club
):
    client.force_login(make_user("staff@mbsz.hu", kind=Role.FEDERATION_STAFF, federation=mbsz))
    assert club_patch(client, bridge_club).status_code == 200
    assert club_patch(client, ulti_club).status_code == 403


@pytest.mark.django_db
def test_player_may_not_change_a_club(client, make_user, bridge_club):
    client.force_login(make_user("jatekos@example.hu"))
    assert club_patch(client, bridge_club).status_code == 403


@pytest.mark.django_db
def test_director_role_is_per_event(make_user, event, other_event):
    from federation.predicates import is_event_director

    director = make_user("vezeto@example.hu", kind=Role.DIRECTOR, event=event)
    assert is_event_director(director, event)
    assert not is_event_director(director, other_event)


@pytest.mark.django_db
def test_appeals_member_role_is_per_event(make_user, event, other_event):
    from federation.predicates import is_appeals_member

    member = make_user("fb@example.hu", kind=Role.APPEALS, event=event)
    assert is_appeals_member(member, event)
    assert not is_appeals_member(member, other_event)


@pytest.mark.django_db
def test_ethics_member_role_is_per_federation(make_user, mbsz, mausz):
    from federation.predicates import is_ethics_member

    member = make_user("etika@example.hu", kind=Role.ETHICS, federation=mbsz)
    assert is_ethics_member(member, mbsz)
    assert not is_ethics_member(member, mausz)


@pytest.mark.django_db
def test_private_data_in_the_api(client, make_user, mbsz, mausz, make_person):
    person = make_person(mbsz)
    url = reverse("person-detail", args=[person.pk])
    assert "birth_date" not in client.get(url).json()
    client.force_login(make_user("staff@mausz.hu", kind=Role.FEDERATION_STAFF, federation=mausz))
    assert "birth_date" not in client.get(url).json()
    client.force_login(make_user("staff@mbsz.hu", kind=Role.FEDERATION_STAFF, federation=mbsz))
    assert client.get(url).json()["birth_date"] == "1970-05-17"


@pytest.mark.django_db
def test_token_authentication(client, make_user):
    from rest_framework.authtoken.models import Token

    user = make_user("api@example.hu")
    token = Token.objects.create(user=user)
    assert client.get(reverse("api_me")).status_code in (401, 403)
    response = client.get(reverse("api_me"), HTTP_AUTHORIZATION=f"Token {token.key}")
    assert response.status_code == 200 and response.json()["email"] == "api@example.hu"


@pytest.mark.django_db
def test_role_scope_is_validated(make_user, mbsz, bridge_club):
    from django.core.exceptions import ValidationError

    user = make_user("x@example.hu")
    with pytest.raises(ValidationError):
        Role(user=user, kind=Role.CLUB_ADMIN, federation=mbsz).full_clean()
    Role(user=user, kind=Role.CLUB_ADMIN, club=bridge_club).full_clean()
