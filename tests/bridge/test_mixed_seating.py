"""VSz 13 in mixed pairs (the lady sits South or West) and the VSz 10 seating requests on the movement page."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from bridge.engine import movements, seating
from bridge.models import Pair, SessionPair
from bridge.services import setup
from demo import bridge_sample as sample
from federation.models import Person, Role
from tournaments.models import Entry, Event

START = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))
F, M = Person.FEMALE, Person.MALE


def test_lady_index():
    assert seating.lady_index((M, F)) == 1 and seating.lady_index((F, M)) == 0
    assert seating.lady_index((M, M)) is None and seating.lady_index((F, None)) is None


def test_a_gentleman_first_pair_sits_right_in_a_plain_mitchell():
    plan = movements.mitchell(4, boards_per_round=2)
    cards = movements.guide_cards(plan)
    genders = {p: (M, F) for p in plan.pairs}
    assert seating.mixed_findings(cards, genders) == []


def test_a_lady_entered_first_is_flagged_every_round():
    plan = movements.mitchell(4, boards_per_round=2)
    cards = movements.guide_cards(plan)
    findings = seating.mixed_findings(cards, {1: (F, M), 5: (F, M), 2: (M, M)})
    by_pair = {f.pair: f for f in findings}
    assert by_pair[1].code == "lady_north_east" and by_pair[1].seats == ("N",) * 3
    assert by_pair[1].rounds == (1, 2, 3)
    assert by_pair[5].seats == ("E",) * 3  # an EW pair: the lady would sit East
    assert by_pair[2].code == "not_mixed"


def test_an_arrow_switch_puts_the_ew_lady_north():
    # VSz 13: after the switch E goes to S and W to N, so the EW pair's lady (W) would sit North.
    plan = movements.mitchell(4, boards_per_round=2, arrow_switch_rounds=(3,))
    cards = movements.guide_cards(plan)
    findings = seating.mixed_findings(cards, {1: (M, F), 5: (M, F)})
    assert [(f.pair, f.rounds, f.seats) for f in findings] == [(5, (3,), ("N",))]


@pytest.fixture
def mixed_session(mbsz):
    event = sample.event_with_pairs(mbsz, pairs=8, title="Vegyes páros", start=START)
    event.gender_restriction = Event.Gender.MIXED
    event.save(update_fields=["gender_restriction"])
    for entry in event.entries.all():
        second = entry.members.get(position=2).person
        second.gender = F
        second.save(update_fields=["gender"])
    session = setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )
    return event, session


def _seat(session, number):
    return SessionPair.objects.select_related("pair__player1", "pair__player2").get(
        section__session=session, number=number
    )


@pytest.mark.django_db
def test_the_movement_page_shows_who_sits_where_and_flags_a_lady_north(client, make_user, mixed_session):
    event, session = mixed_session
    director = make_user("vegyes@example.hu", kind=Role.DIRECTOR, event=event)
    client.force_login(director)
    url = reverse("bridge_guide_cards", args=[session.pk])
    client.cookies["django_language"] = "en"
    page = client.get(url).content.decode()
    assert "data-mixed" in page and 'data-finding="lady_north_east"' not in page
    assert "data-lady-wrong" not in page
    pair = _seat(session, 3).pair
    Pair.objects.filter(pk=pair.pk).update(player1=pair.player2, player2=pair.player1)  # entered lady first
    page = client.get(url).content.decode()
    assert page.count('data-finding="lady_north_east"') == 1
    assert "in pair 3" in page and "would sit N in round(s) 1, 2, 3;" in page
    assert page.count("data-lady-wrong=") == 3  # one per round
    assert f"N: {pair.player2.last_name}" in page  # the card shows her at North


@pytest.mark.django_db
def test_hungarian_page_uses_hungarian_seats(client, make_user, mixed_session):
    event, session = mixed_session
    pair = _seat(session, 5).pair
    Pair.objects.filter(pk=pair.pk).update(player1=pair.player2, player2=pair.player1)
    client.force_login(make_user("vegyes-hu@example.hu", kind=Role.DIRECTOR, event=event))
    page = client.get(reverse("bridge_guide_cards", args=[session.pk])).content.decode()
    assert f"K: {pair.player2.last_name}" in page  # East is K(elet) on the Hungarian page


@pytest.mark.django_db
def test_an_open_event_has_no_mixed_check(client, make_user, mbsz):
    event = sample.event_with_pairs(mbsz, pairs=8, title="Nyílt páros", start=START)
    session = setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )
    client.force_login(make_user("nyilt@example.hu", kind=Role.DIRECTOR, event=event))
    page = client.get(reverse("bridge_guide_cards", args=[session.pk])).content.decode()
    assert "data-mixed" not in page and "data-lady-wrong" not in page and "lady_north_east" not in page


@pytest.mark.django_db
def test_the_director_sees_the_seating_requests_a_player_does_not(client, make_user, mixed_session):
    event, session = mixed_session
    entry = _seat(session, 2).pair.entry
    Entry.objects.filter(pk=entry.pk).update(seating_request="stationary", seating_note="kerekesszék")
    client.force_login(make_user("kerek@example.hu", kind=Role.DIRECTOR, event=event))
    page = client.get(reverse("bridge_guide_cards", args=[session.pk])).content.decode()
    assert 'data-seating-request="stationary"' in page and "kerekesszék" in page
    assert page.count("data-seating-request=") == 1
    other_player = _seat(session, 4).pair.player1  # a player of another entry of the event
    other_player.user = make_user("masik@example.hu")
    other_player.save(update_fields=["user"])
    client.force_login(other_player.user)
    response = client.get(reverse("bridge_guide_cards", args=[session.pk]))
    assert response.status_code in (403, 404)


@pytest.mark.django_db
def test_the_session_setup_page_lists_the_entries_requests(client, make_user, mixed_session):
    event, _session = mixed_session
    asked = event.entries.order_by("pk").first()
    Entry.objects.filter(pk=asked.pk).update(seating_request="non_smoking")
    withdrawn = event.entries.order_by("pk").last()
    Entry.objects.filter(pk=withdrawn.pk).update(
        seating_request="other", seating_note="visszalépett", status=Entry.Status.WITHDRAWN
    )
    url = reverse("bridge_setup", args=[event.pk])
    client.force_login(make_user("setup-tv@example.hu", kind=Role.DIRECTOR, event=event))
    page = client.get(url).content.decode()
    assert 'data-seating-request="non_smoking"' in page and "data-mixed" in page
    assert "visszalépett" not in page  # a withdrawn entry's request is no longer the director's concern
    player = asked.members.get(position=1).person
    player.user = make_user("setup-jatekos@example.hu")
    player.save(update_fields=["user"])
    client.force_login(player.user)
    assert client.get(url).status_code in (403, 404)
