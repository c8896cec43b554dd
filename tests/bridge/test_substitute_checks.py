"""VSz 25: nobody substitutes in an event he plays in, or for a second pair in one session; a pair never plays
with two substitutes (both its players replaced on one board). The refused substitution writes nothing."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from bridge.models import SessionPair, Substitution
from bridge.services import roster, setup
from demo import bridge_sample as sample
from federation.models import Membership, Role

pytestmark = pytest.mark.django_db
START = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))


@pytest.fixture
def event(mbsz):
    return sample.event_with_pairs(mbsz, pairs=8, title="Helyettes páros", start=START)


@pytest.fixture
def director(make_user, event):
    return make_user("td@example.hu", kind=Role.DIRECTOR, event=event)


@pytest.fixture
def seats(event):
    session = setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )
    return session, {s.number: s for s in SessionPair.objects.filter(section__session=session)}


@pytest.mark.usefixtures("english_pages")
def test_a_player_of_the_event_cannot_substitute(seats, director):
    session, seat = seats
    other_pairs_player = seat[3].pair.player1
    with pytest.raises(ValueError, match="plays in this event"):
        roster.record_substitution(
            session, seat[1].pair, seat[1].pair.player2, other_pairs_player, [1, 2], director
        )
    assert not Substitution.objects.exists()


@pytest.mark.usefixtures("english_pages")
def test_an_outsider_substitutes_once_per_session(seats, director, make_person):
    session, seat = seats
    outsider = make_person()
    roster.record_substitution(session, seat[1].pair, seat[1].pair.player2, outsider, [1, 2], director)
    # The same substitute for the same player on further boards: still one substitute.
    roster.record_substitution(session, seat[1].pair, seat[1].pair.player2, outsider, [3, 4], director)
    with pytest.raises(ValueError, match="another pair in this session"):
        roster.record_substitution(session, seat[2].pair, seat[2].pair.player1, outsider, [9, 10], director)
    assert Substitution.objects.count() == 2


@pytest.mark.usefixtures("english_pages")
def test_no_pair_plays_with_two_substitutes(seats, director, make_person):
    session, seat = seats
    pair = seat[1].pair
    first, second = make_person(), make_person()
    roster.record_substitution(session, pair, pair.player2, first, [1, 2, 3, 4], director)
    with pytest.raises(ValueError, match="two substitutes") as refused:
        roster.record_substitution(session, pair, pair.player1, second, [3, 4, 5], director)
    assert "3, 4" in str(refused.value)
    # The partner replaced on other boards (one substitute at the table at a time) is allowed.
    roster.record_substitution(session, pair, pair.player1, second, [5, 6], director)
    assert Substitution.objects.filter(pair=pair).count() == 2


@pytest.mark.usefixtures("english_pages")
def test_the_roster_page_names_the_refusal(client, seats, director, event, mbsz):
    session, seat = seats
    player = seat[3].pair.player1
    number = Membership.objects.get_or_create(
        person=player, federation=mbsz, defaults={"member_number": "B9999"}
    )[0].member_number
    client.force_login(director)
    response = client.post(
        reverse("bridge_roster", args=[session.pk]),
        {
            "substitution": "1",
            "sub-pair": seat[1].pair.pk,
            "sub-replaced": "2",
            "sub-substitute": number,
            "sub-boards": "1-4",
        },
    )
    assert response.status_code == 200
    assert "plays in this event and cannot be a substitute" in str(
        response.context["sub_form"].non_field_errors()
    )
    assert not Substitution.objects.exists()
