"""Filing (VSz 22): the deadline, the intention, the partner's agreement, the deposit, the committee."""

import pytest
from django.core.exceptions import ValidationError
from freezegun import freeze_time

from appeals.models import Appeal, Intention
from appeals.services import committee, filing
from appeals.tasks import lapse_overdue_appeals

from .conftest import at, user_of

pytestmark = pytest.mark.django_db


def test_a_pair_appeal_waits_for_the_partner_then_the_deposit(world, file_case):
    appeal = file_case(agree=False, deposit=False)
    assert appeal.status == Appeal.Status.AWAITING_PARTNER
    assert appeal.deposit_amount == 3000
    filing.agree(appeal, user_of(world.pairs[0], 1), now=at(13, 15))
    appeal.refresh_from_db()
    assert appeal.status == Appeal.Status.AWAITING_DEPOSIT
    filing.confirm_deposit(appeal, world.director)
    appeal.refresh_from_db()
    assert appeal.status == Appeal.Status.LODGED and appeal.deposit_received_by == world.director
    assert list(appeal.timeline.values_list("action", flat=True)) == ["filed", "agreed", "deposit", "lodged"]


def test_filing_after_the_deadline_is_refused(world, file_case):
    with pytest.raises(ValidationError, match="deadline"):
        file_case(now=at(13, 31))
    assert not Appeal.objects.exists()


def test_filing_before_the_session_ended_is_refused(world):
    session, entry = world.sessions[0], world.pairs[0]
    Intention.objects.create(
        session=session, entry=entry, source="director", recorded_by=world.director, recorded_at=at(12)
    )
    with pytest.raises(ValidationError, match="ended"):
        filing.file_appeal(
            user_of(entry),
            session=session,
            entry=entry,
            board_number=1,
            ruling="r",
            request="q",
            statement="s",
            now=at(12, 30),
        )


def test_the_intention_must_precede_the_end_of_the_session(world):
    session, entry = world.sessions[0], world.pairs[0]
    filing.end_session(session, world.director, at=at(13))
    with pytest.raises(ValidationError, match="before its end"):
        filing.record_intention(
            session, entry, user_of(entry), source=Intention.Source.APPELLANT, now=at(13, 5)
        )
    with pytest.raises(ValidationError, match="intention"):
        filing.file_appeal(
            user_of(entry),
            session=session,
            entry=entry,
            board_number=1,
            ruling="r",
            request="q",
            statement="s",
            now=at(13, 10),
        )


def test_declared_and_ticked_intentions_are_both_kept(world):
    session, entry = world.sessions[0], world.pairs[0]
    filing.record_intention(session, entry, user_of(entry), source=Intention.Source.APPELLANT, now=at(12))
    filing.record_intention(session, entry, world.director, source=Intention.Source.DIRECTOR, now=at(12, 5))
    assert Intention.objects.filter(entry=entry).count() == 2
    filing.end_session(session, world.director, at=at(13))
    assert filing.intention_in_time(session, entry)


def test_only_a_player_of_the_entry_files(world):
    session, entry = world.sessions[0], world.pairs[0]
    filing.record_intention(session, entry, world.director, source=Intention.Source.DIRECTOR, now=at(12))
    filing.end_session(session, world.director, at=at(13))
    with pytest.raises(ValidationError):
        filing.file_appeal(
            user_of(world.pairs[2]),
            session=session,
            entry=entry,
            board_number=1,
            ruling="r",
            request="q",
            statement="s",
            now=at(13, 5),
        )


def test_the_partner_agreeing_after_the_deadline_is_too_late_and_the_case_lapses(world, file_case):
    appeal = file_case(agree=False, deposit=False)
    with pytest.raises(ValidationError, match="lapsed"):
        filing.agree(appeal, user_of(world.pairs[0], 1), now=at(13, 45))
    with freeze_time(at(13, 45)):
        assert lapse_overdue_appeals.delay().get() == 1  # the periodic task, eager here
    assert filing.lapse_overdue(now=at(13, 46)) == 0
    appeal.refresh_from_db()
    assert appeal.status == Appeal.Status.LAPSED


def test_the_partner_can_refuse(world, file_case):
    appeal = file_case(agree=False, deposit=False)
    filing.decline(appeal, user_of(world.pairs[0], 1))
    appeal.refresh_from_db()
    assert appeal.status == Appeal.Status.LAPSED


def test_a_team_captain_files_alone(world, make_person, make_user, mbsz):
    event = world.event
    event.format = "teams"
    event.save()
    entry = world.pairs[0]
    captain = entry.members.get(position=1)
    captain.is_captain = True
    captain.save()
    session = world.sessions[0]
    Intention.objects.create(
        session=session, entry=entry, source="director", recorded_by=world.director, recorded_at=at(12)
    )
    filing.end_session(session, world.director, at=at(13))
    with pytest.raises(ValidationError, match="captain"):
        filing.file_appeal(
            user_of(entry, 1),
            session=session,
            entry=entry,
            board_number=1,
            ruling="r",
            request="q",
            statement="s",
            now=at(13, 5),
        )
    appeal = filing.file_appeal(
        user_of(entry),
        session=session,
        entry=entry,
        board_number=1,
        ruling="r",
        request="q",
        statement="s",
        now=at(13, 5),
    )
    assert appeal.status == Appeal.Status.AWAITING_DEPOSIT


def test_the_event_does_not_start_without_a_committee(world, mbsz, bridge_club):
    from tournaments.models import Event

    bare = Event.objects.create(
        federation=mbsz,
        club=bridge_club,
        title="Bizottság nélkül",
        format="pairs",
        start_date=world.event.start_date,
        status=Event.Status.APPROVED,
    )
    with pytest.raises(ValidationError, match="at least 3 members and 2 alternates"):
        committee.check_can_start(bare)
    with pytest.raises(ValidationError):
        committee.start_event(bare, world.director)
    started = committee.start_event(world.event, world.director)
    assert committee.start_event(world.event, world.director) == started


def test_an_ulti_event_needs_no_committee_unless_the_federation_says_so(mausz):
    import datetime

    from appeals.models import FederationSettings
    from tournaments.models import Event

    event = Event.objects.create(
        federation=mausz,
        title="Ulti",
        format="ulti_individual",
        start_date=datetime.date(2026, 12, 1),
        status=Event.Status.APPROVED,
    )
    committee.check_can_start(event)
    FederationSettings.objects.create(federation=mausz, committee_required=True)
    with pytest.raises(ValidationError):
        committee.check_can_start(event)
