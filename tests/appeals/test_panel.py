"""The panel: three impartial members; each kind of involvement refused, an alternate steps in (VSz 9)."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from appeals.models import Appeal, PanelSeat
from appeals.services import committee, panel
from tournaments.models import Entry, EntryMember, Event

pytestmark = pytest.mark.django_db


def _enter(event, *people):
    entry = Entry.objects.create(event=event, status=Entry.Status.ACTIVE)
    for i, person in enumerate(people):
        EntryMember.objects.create(entry=entry, person=person, position=i + 1)
    return entry


def test_an_impartial_panel_of_three_regular_members(world, file_case):
    appeal = file_case()
    seats = panel.form_panel(appeal, world.director)
    assert [s.member for s in seats] == world.members[:3]
    appeal.refresh_from_db()
    assert appeal.status == Appeal.Status.HEARING


def test_a_member_who_played_in_the_section_is_refused(world, file_case, make_person, mbsz):
    appeal = file_case()
    member = world.members[0]
    _enter(world.event, member.person, make_person(federation=mbsz))
    with pytest.raises(ValidationError, match="played in the section concerned"):
        panel.seat(appeal, member, world.director)


def test_a_player_of_another_division_may_judge(world, file_case, make_person, mbsz):
    from tournaments.models import Division

    a, b = (
        Division.objects.create(event=world.event, name="A"),
        Division.objects.create(event=world.event, name="B"),
    )
    Entry.objects.filter(pk=world.pairs[0].pk).update(division=a)
    appeal = file_case()
    member = world.members[0]
    other = _enter(world.event, member.person, make_person(federation=mbsz))
    other.division = b
    other.save()
    assert panel.seat(appeal, member, world.director)


def test_a_partner_of_a_party_is_refused(world, file_case, mbsz, bridge_club):
    appeal = file_case()
    member = world.members[1]
    earlier = Event.objects.create(
        federation=mbsz,
        club=bridge_club,
        title="Tavaszi páros",
        format="pairs",
        start_date=world.event.start_date - datetime.timedelta(days=60),
        status=Event.Status.APPROVED,
    )
    respondent = world.pairs[1].members.first().person
    _enter(earlier, member.person, respondent)
    with pytest.raises(ValidationError, match="partner or team-mate of a party"):
        panel.seat(appeal, member, world.director)


def test_an_old_partnership_does_not_count(world, file_case, mbsz, bridge_club):
    appeal = file_case()
    member = world.members[1]
    long_ago = Event.objects.create(
        federation=mbsz,
        club=bridge_club,
        title="Régi páros",
        format="pairs",
        start_date=world.event.start_date - datetime.timedelta(days=800),
        status=Event.Status.APPROVED,
    )
    _enter(long_ago, member.person, world.pairs[0].members.first().person)
    assert panel.seat(appeal, member, world.director)


def test_the_director_who_ruled_is_refused(world, file_case):
    appeal = file_case()
    member = committee.add_member(world.event, world.director, by=world.staff)
    with pytest.raises(ValidationError, match="director who ruled"):
        panel.seat(appeal, member, world.staff)


def test_an_alternate_steps_in_for_an_involved_member(world, file_case, make_person, mbsz):
    appeal = file_case()
    involved = world.members[0]
    _enter(world.event, involved.person, make_person(federation=mbsz))
    seats = panel.form_panel(appeal, world.director)
    seated = [s.member for s in seats]
    assert involved not in seated and world.members[3] in seated and seated[-1].is_alternate
    assert appeal.timeline.filter(action="panel_refused").count() == 1


def test_too_few_impartial_members_refuses_the_panel(world, file_case, make_person, mbsz):
    appeal = file_case()
    for member in world.members[:3]:
        _enter(world.event, member.person, make_person(federation=mbsz))
    with pytest.raises(ValidationError, match="Fewer than 3"):
        panel.form_panel(appeal, world.director)
    assert not PanelSeat.objects.filter(appeal=appeal).exists()


def test_a_member_of_another_events_committee_is_refused(world, file_case, mbsz, bridge_club):
    appeal = file_case()
    other = Event.objects.create(
        federation=mbsz,
        club=bridge_club,
        title="Másik",
        format="pairs",
        start_date=world.event.start_date,
        status=Event.Status.APPROVED,
    )
    stranger = committee.add_member(other, world.staff, by=world.staff)
    with pytest.raises(ValidationError, match="not on this event's committee"):
        panel.seat(appeal, stranger, world.director)
