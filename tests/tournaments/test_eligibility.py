"""Every eligibility rule: one allowed and one refused entry each; a refusal names the player and the rule."""

import datetime

import pytest
from django.utils import timezone, translation

from federation.models import Person, Suspension
from tournaments.engine import eligibility
from tournaments.models import Entry, EntryMember, Event, RegionNotice
from tournaments.refusals import EntryRefused
from tournaments.services.entries import create_entry

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def enter(event, players, **kwargs):
    return create_entry(event.pk, players[0].user, players, **kwargs)


def refused(event, players, keep=False, **kwargs):
    """The refusal's text; a refused entry leaves no row behind."""
    before = Entry.objects.filter(event=event).count()
    with pytest.raises(EntryRefused) as info:
        enter(event, players, **kwargs)
    assert Entry.objects.filter(event=event).count() == before
    return " ".join(info.value.messages)


def test_suspended_playing_rights(pairs_event, make_player, mbsz):
    me, partner = make_player(first_name="Aladár"), make_player(first_name="Béla", last_name="Bánatos")
    Suspension.objects.create(
        person=partner,
        federation=mbsz,
        starts_on=pairs_event.start_date - datetime.timedelta(days=10),
        reason="teszt",
    )
    message = refused(pairs_event, [me, partner])
    assert "Bánatos Béla" in message and "suspended" in message and "VSz 6" in message

    Suspension.objects.update(ends_on=pairs_event.start_date - datetime.timedelta(days=1))
    assert enter(pairs_event, [me, partner]).status == Entry.Status.ACTIVE


def test_members_only(make_event, make_player, make_person):
    event = make_event(members_only=True)
    me = make_player()
    guest = make_person(first_name="Vendel", last_name="Vendég")  # no membership
    message = refused(event, [me, guest])
    assert "Vendég Vendel" in message and "members only" in message and "MBSz" in message

    assert enter(event, [me, make_player()]).status == Entry.Status.ACTIVE


def test_citizens_only(make_event, make_player):
    event = make_event(citizens_only=True)
    me = make_player()
    message = refused(event, [me, make_player(last_name="Huber", first_name="Hans", citizenship="AT")])
    assert "Huber Hans" in message and "citizen" in message
    assert enter(event, [me, make_player(citizenship="HU")])


def test_foreign_members_must_live_in_hungary(make_event, make_player):
    event = make_event(residency_required=True)
    me = make_player()
    abroad = make_player(last_name="Huber", first_name="Hans", citizenship="AT", resident_in_hungary=False)
    message = refused(event, [me, abroad])
    assert "Huber Hans" in message and "resident in Hungary" in message and "VSz 2" in message
    assert enter(event, [me, make_player(citizenship="AT", resident_in_hungary=True)])


@pytest.mark.parametrize(
    "restriction, wrong, right, word",
    [("women", Person.MALE, Person.FEMALE, "women only"), ("men", Person.FEMALE, Person.MALE, "men only")],
)
def test_gender_restriction(make_event, make_player, restriction, wrong, right, word):
    event = make_event(gender_restriction=restriction)
    me = make_player(gender=right)
    message = refused(event, [me, make_player(gender=wrong, last_name="Másik", first_name="Nem")])
    assert "Másik Nem" in message and word in message and "VSz 3" in message
    assert enter(event, [me, make_player(gender=right)])


def test_mixed_pairs_are_one_lady_and_one_man(make_event, make_player):
    event = make_event(gender_restriction=Event.Gender.MIXED)
    me = make_player(gender=Person.MALE, last_name="Kiss", first_name="Ádám")
    message = refused(event, [me, make_player(gender=Person.MALE, last_name="Nagy", first_name="Béla")])
    assert "Kiss Ádám" in message and "Nagy Béla" in message and "mixed pair" in message
    assert enter(event, [me, make_player(gender=Person.FEMALE)])


def test_juniors_by_the_vsz3_rule_on_the_event_date(make_event, make_player, today):
    y = today.year + 1  # a junior did not turn 25 in the year before the event (y - 1)
    event = make_event(start_date=datetime.date(y, 3, 1), age_restriction=Event.Age.JUNIOR)
    me = make_player(birth_date=datetime.date(y - 24, 1, 1))
    too_old = make_player(birth_date=datetime.date(y - 26, 12, 31), last_name="Öreg", first_name="Olivér")
    message = refused(event, [me, too_old])
    assert "Öreg Olivér" in message and "junior" in message and "25" in message
    assert enter(event, [me, make_player(birth_date=datetime.date(y - 25, 1, 1))])  # turned 24 in y - 1


def test_seniors_by_the_vsz3_rule_on_the_event_date(make_event, make_player, today):
    y = today.year + 1  # a senior turned 55 in the year before the event (y - 1)
    event = make_event(start_date=datetime.date(y, 3, 1), age_restriction=Event.Age.SENIOR)
    me = make_player(birth_date=datetime.date(y - 56, 12, 31))
    young = make_player(birth_date=datetime.date(y - 55, 1, 1), last_name="Fiatal", first_name="Ferenc")
    message = refused(event, [me, young])
    assert "Fiatal Ferenc" in message and "senior" in message
    assert enter(event, [me, make_player(birth_date=datetime.date(y - 70, 1, 1))])


def test_sport_ulti_needs_a_licence_from_every_team_member(make_event, make_player, mausz, ulti_club):
    year = datetime.date.today().year + 1
    event = make_event(
        federation=mausz,
        club=ulti_club,
        format=Event.Format.SPORT_ULTI,
        event_class=Event.EventClass.SPORT_ULTI,
        start_date=datetime.date(year, 8, 1),
    )
    licensed = [make_player(federation=mausz, club=ulti_club, licence_year=year) for _ in range(2)]
    unlicensed = make_player(federation=mausz, club=ulti_club, last_name="Engedély", first_name="Nincs")
    message = refused(event, [*licensed, unlicensed], team_name="Piros Ászok")
    assert "Engedély Nincs" in message and "licence" in message and str(year) in message
    third = make_player(federation=mausz, club=ulti_club, licence_year=year)
    entry = enter(event, [*licensed, third], team_name="Piros Ászok")
    assert [m.line for m in entry.members.all()] == ["A", "B", "C"]


def test_sport_ulti_accepts_teams_of_three_only(make_event, make_player, mausz, ulti_club):
    year = datetime.date.today().year + 1
    event = make_event(
        federation=mausz,
        club=ulti_club,
        format=Event.Format.SPORT_ULTI,
        event_class=Event.EventClass.SPORT_ULTI,
        start_date=datetime.date(year, 8, 1),
    )
    me = make_player(federation=mausz, club=ulti_club, licence_year=year)
    message = refused(event, [me], team_name="Egyedül")
    assert "3 players" in message


def test_nub_licence_is_needed_from_the_third_qualifier(make_event, make_player, mausz, ulti_club, regions):
    year = datetime.date.today().year + 1
    common = dict(
        federation=mausz,
        club=ulti_club,
        format=Event.Format.ULTI_INDIVIDUAL,
        event_class=Event.EventClass.NUB_QUALIFIER,
        region=regions[0],
        season=year,
    )
    second = make_event(title="NUB 2.", qualifier_number=2, start_date=datetime.date(year, 3, 1), **common)
    third = make_event(title="NUB 3.", qualifier_number=3, start_date=datetime.date(year, 4, 1), **common)
    me = make_player(federation=mausz, club=ulti_club, last_name="Ulti", first_name="Ubul")
    assert enter(second, [me]).status == Entry.Status.ACTIVE
    message = refused(third, [me])
    assert "Ulti Ubul" in message and "licence" in message


def test_licence_rules_pure():
    assert eligibility.licence_required("sport_ulti", "sport_ulti", None, False)
    assert not eligibility.licence_required("ulti_individual", "nub_qualifier", 2, False)
    assert eligibility.licence_required("ulti_individual", "nub_qualifier", 3, False)
    assert eligibility.licence_required("ulti_individual", "nub_semifinal", 1, False)
    assert not eligibility.licence_required("ulti_team", "team_regional", None, False)
    assert eligibility.licence_required("ulti_team", "team_regional", None, True)


def test_region_needs_a_recorded_notice(make_event, make_player, mausz, ulti_club, regions):
    dt, ft = regions
    event = make_event(
        federation=mausz,
        club=None,
        format=Event.Format.ULTI_INDIVIDUAL,
        event_class=Event.EventClass.NUB_QUALIFIER,
        region=ft,
        qualifier_number=1,
    )
    me = make_player(
        federation=mausz, club=ulti_club, last_name="Szolnoki", first_name="Simon"
    )  # Duna-Tisza köz
    message = refused(event, [me])
    assert "Szolnoki Simon" in message and "Duna-Tisza köz" in message and "Felső-Tisza" in message
    RegionNotice.objects.create(person=me, federation=mausz, region=ft, season=event.season_year)
    assert enter(event, [me]).status == Entry.Status.ACTIVE


def test_deadline_only_the_organiser_accepts_late(pairs_event, make_player, club_admin):
    pairs_event.entry_deadline = timezone.now() - datetime.timedelta(hours=1)
    pairs_event.save()
    me, partner = make_player(), make_player()
    message = refused(pairs_event, [me, partner])
    assert "deadline" in message and "organiser" in message
    entry = create_entry(pairs_event.pk, club_admin, [me, partner], by_organiser=True)
    assert entry.late and entry.by_organiser and entry.is_confirmed


def test_already_entered(pairs_event, make_player):
    me, partner, other = make_player(), make_player(last_name="Dupla", first_name="Dénes"), make_player()
    enter(pairs_event, [me, partner])
    message = refused(pairs_event, [other, partner])
    assert "Dupla Dénes" in message and "already entered" in message
    assert EntryMember.objects.filter(person=other).count() == 0


def test_several_refusals_are_all_reported(make_event, make_player, make_person):
    event = make_event(members_only=True, gender_restriction=Event.Gender.WOMEN)
    me = make_player(gender=Person.FEMALE)
    guest = make_person(gender=Person.MALE, last_name="Vendég", first_name="Viktor")
    with pytest.raises(EntryRefused) as info:
        enter(event, [me, guest])
    assert len([m for m in info.value.messages if "Vendég Viktor" in m]) == 2
