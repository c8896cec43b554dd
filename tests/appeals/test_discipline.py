"""Discipline (VSz 23): measures, the committee's consent to an exclusion, suspensions that block entries."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from appeals.models import DisciplinaryReport, Measure
from appeals.services import discipline
from federation.models import Notification, Suspension
from tournaments.models import Event
from tournaments.refusals import EntryRefused
from tournaments.services import entries

pytestmark = pytest.mark.django_db


def _player(world, pair=0, position=0):
    return world.pairs[pair].members.order_by("position")[position].person


def test_a_warning_is_in_force_at_once(world):
    measure = discipline.take_measure(world.event, world.director, _player(world), "warning", "Hangoskodás.")
    assert measure.status == Measure.Status.IN_FORCE


def test_a_point_deduction_needs_its_percentage(world):
    with pytest.raises(ValidationError):
        discipline.take_measure(world.event, world.director, _player(world), "deduction", "Lassú játék.")
    measure = discipline.take_measure(
        world.event, world.director, _player(world), "deduction", "Lassú játék.", percent=10
    )
    assert measure.percent == 10


def test_exclusion_from_the_event_waits_for_the_committee(world):
    measure = discipline.take_measure(
        world.event, world.director, _player(world), "event_excl", "Durva modor."
    )
    assert measure.status == Measure.Status.AWAITING_CONSENT
    with pytest.raises(PermissionDenied):
        discipline.consent(measure, world.outsider, True)
    with pytest.raises(PermissionDenied):  # an alternate does not consent for the committee
        discipline.consent(measure, world.members[4].user, True)
    measure = discipline.consent(measure, world.members[0].user, True)
    assert measure.status == Measure.Status.IN_FORCE and measure.consent_by == world.members[0].user
    # VSz 23: in force, it is reported to the Disciplinary Committee at once (the player, the committee, the
    # staff and the event's director mailed).
    (case,) = DisciplinaryReport.objects.filter(measure=measure)
    assert (case.person, case.event, case.reported_by) == (_player(world), world.event, world.director)
    subjects = Notification.objects.filter(subject__contains=str(_player(world)))
    for user in (world.disciplinary, world.director):
        assert subjects.filter(recipient=user.email).count() == 1, user
    with pytest.raises(ValidationError):  # consent is given once: no second case
        discipline.consent(measure, world.members[1].user, True)
    assert DisciplinaryReport.objects.filter(measure=measure).count() == 1


def test_a_refused_exclusion_or_a_session_exclusion_opens_no_case(world):
    measure = discipline.take_measure(
        world.event, world.director, _player(world), "event_excl", "Durva modor."
    )
    discipline.consent(measure, world.members[0].user, False)
    session = world.sessions[0]
    discipline.take_measure(
        world.event, world.director, _player(world, 1), "session_excl", "Késés.", session=session
    )
    assert not DisciplinaryReport.objects.exists()


def test_only_a_player_of_the_event_is_measured(world):
    with pytest.raises(ValidationError):
        discipline.take_measure(world.event, world.director, world.outsider.person, "warning", "x")


def test_a_suspension_blocks_entries_through_the_entry_service(world, mbsz, bridge_club):
    person = _player(world)
    measure = discipline.take_measure(
        world.event, world.director, person, "report", "Súlyos sportszerűtlenség."
    )
    report = DisciplinaryReport.objects.get(measure=measure)
    today = datetime.date.today()
    decision = discipline.decide(
        report,
        world.disciplinary,
        "suspension",
        "Hat hónap eltiltás.",
        starts_on=today,
        ends_on=today + datetime.timedelta(days=180),
    )
    assert Suspension.objects.get(pk=decision.suspension_id).person == person
    report.refresh_from_db()
    assert report.status == DisciplinaryReport.Status.DECIDED
    assert list(report.timeline.values_list("action", flat=True)) == ["reported", "discipline"]
    upcoming = Event.objects.create(
        federation=mbsz,
        club=bridge_club,
        title="Téli páros",
        format="pairs",
        start_date=today + datetime.timedelta(days=20),
        status=Event.Status.APPROVED,
    )
    partner = _player(world, pair=0, position=1)
    with pytest.raises(EntryRefused, match="VSz 6"):
        entries.create_entry(upcoming.pk, person.user, [person, partner])
    assert entries.create_entry(upcoming.pk, partner.user, [partner, _player(world, pair=2)])


def test_a_report_is_decided_once(world):
    report = discipline.report(world.event.federation, _player(world), world.director, "x", event=world.event)
    discipline.decide(report, world.disciplinary, "warning", "Figyelmeztetés.")
    with pytest.raises(ValidationError):
        discipline.decide(report, world.disciplinary, "none", "Mégsem.")
