"""Hearing, votes, publication, the deposit, the effect on the results, the second instance."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation
from freezegun import freeze_time

from appeals.models import Appeal, Decision, TimelineEntry
from appeals.services import decision as decisions
from appeals.services import hearing, panel, second_instance
from appeals.services.panel import seated_users
from federation.models import Notification
from federation.services.notifications import address_of

from .conftest import decide, user_of

pytestmark = pytest.mark.django_db


def panel_users(appeal):
    return [s.member.user for s in appeal.panel.select_related("member__user")]


def test_the_panel_hears_the_director_and_the_parties_before_deciding(world, file_case):
    appeal = file_case()
    panel.form_panel(appeal, world.director)
    chair = world.members[0].user
    hearing.record_statement(appeal, chair, speaker="director", speaker_name="TV", text="...")
    with pytest.raises(ValidationError, match="not yet heard"):
        decisions.propose(appeal, chair, outcome="upheld", text="x")


def test_only_a_seated_member_records_a_statement(world, file_case):
    from django.core.exceptions import PermissionDenied

    appeal = file_case()
    panel.form_panel(appeal, world.director)
    with pytest.raises(PermissionDenied):
        hearing.record_statement(
            appeal, world.members[4].user, speaker="director", speaker_name="x", text="y"
        )


def test_a_changed_ruling_is_applied_through_the_effect(world, heard_case, fake_effect):
    appeal = heard_case()
    users = panel_users(appeal)
    decision = decide(
        appeal,
        users,
        outcome="changed",
        text="4S-1, NS +50.",
        board_number=7,
        ns_pair="3",
        ew_pair="5",
        ns_score=-50,
    )
    assert decision.status == Decision.Status.PUBLISHED and decision.effect == "fake-v1"
    assert fake_effect == [decision]
    appeal.refresh_from_db()
    assert appeal.status == Appeal.Status.DECIDED
    assert appeal.deposit_outcome == Appeal.Deposit.RETURNED
    actions = list(appeal.timeline.values_list("action", flat=True))
    assert actions[-2:] == ["published", "effect"]


def test_an_upheld_ruling_changes_no_result(world, heard_case, fake_effect):
    appeal = heard_case()
    decide(appeal, panel_users(appeal))
    assert fake_effect == []


def test_the_deposit_is_kept_when_the_appeal_is_unfounded(world, heard_case, fake_effect):
    appeal = heard_case()
    decide(appeal, panel_users(appeal), unfounded=True)
    appeal.refresh_from_db()
    assert appeal.deposit_outcome == Appeal.Deposit.KEPT


def test_a_frivolous_appeal_at_a_masterpoint_event_costs_points(world, heard_case, fake_effect):
    appeal = heard_case()
    decision = decide(appeal, panel_users(appeal), unfounded=True, frivolous=True, point_deduction_percent=25)
    assert fake_effect == [decision]
    appeal.refresh_from_db()
    assert appeal.deposit_outcome == Appeal.Deposit.KEPT


def test_no_point_deduction_at_an_event_without_masterpoints(world, heard_case):
    world.event.masterpoint_multiplier = None
    world.event.save()
    appeal = heard_case()
    with pytest.raises(ValidationError, match="masterpoint events only"):
        decisions.propose(
            appeal,
            panel_users(appeal)[0],
            outcome="upheld",
            text="x",
            unfounded=True,
            frivolous=True,
            point_deduction_percent=10,
        )


def test_a_changed_ruling_needs_a_structured_adjustment(world, heard_case):
    appeal = heard_case()
    with pytest.raises(ValidationError):
        decisions.propose(appeal, panel_users(appeal)[0], outcome="changed", text="x")
    with pytest.raises(ValidationError, match="A\\+"):
        decisions.propose(
            appeal,
            panel_users(appeal)[0],
            outcome="changed",
            text="x",
            board_number=7,
            ns_pair="3",
            ew_pair="5",
            artificial="B+",
        )


def test_every_member_votes_and_a_majority_against_rejects(world, heard_case):
    appeal = heard_case()
    users = panel_users(appeal)
    proposal = decisions.propose(appeal, users[0], outcome="upheld", text="x")
    with pytest.raises(ValidationError, match="Every panel member votes"):
        decisions.publish(proposal, users[0])
    decisions.vote(proposal, users[1], False)
    decisions.vote(proposal, users[2], False)
    proposal.refresh_from_db()
    assert proposal.status == Decision.Status.REJECTED
    with pytest.raises(ValidationError):
        decisions.publish(proposal, users[0])
    again = decide(appeal, users)
    assert again.status == Decision.Status.PUBLISHED


def test_a_member_not_on_the_panel_cannot_vote(world, heard_case):
    from django.core.exceptions import PermissionDenied

    appeal = heard_case()
    proposal = decisions.propose(appeal, panel_users(appeal)[0], outcome="upheld", text="x")
    assert world.members[4].user.pk not in seated_users(appeal)
    with pytest.raises(PermissionDenied):
        decisions.vote(proposal, world.members[4].user, True)


def test_parties_and_panel_are_mailed_at_each_step(world, heard_case):
    appeal = heard_case()
    decide(appeal, panel_users(appeal))
    with translation.override("hu"):
        label = str(TimelineEntry.Action.PUBLISHED.label)
    published = Notification.objects.filter(subject__endswith=label)
    recipients = set(published.values_list("recipient", flat=True))
    parties = {address_of(m.person) for e in world.pairs[:2] for m in e.members.all()}
    panel_mails = {u.email for u in panel_users(appeal)}
    assert parties | panel_mails | {world.director.email} <= recipients


def test_second_instance_overrides_the_first_and_flows_to_the_results(world, heard_case, fake_effect):
    from appeals.models import FederationSettings

    FederationSettings.objects.create(federation=world.event.federation, second_instance_deposit=10000)
    appeal = heard_case()
    with freeze_time("2026-12-05 14:00:00"):
        decide(appeal, panel_users(appeal), unfounded=True)
    with freeze_time("2026-12-10 10:00:00"):
        second = second_instance.file(appeal, user_of(world.pairs[0]), "A bizottság tévedett.")
    assert second.deposit_amount == 10000
    with pytest.raises(ValidationError, match="deposit"):
        second_instance.propose(
            appeal,
            world.ethics,
            outcome="changed",
            text="x",
            board_number=7,
            ns_pair="3",
            ew_pair="5",
            artificial="A+/A-",
        )
    second_instance.confirm_deposit(appeal, world.ethics)
    decision = second_instance.propose(
        appeal,
        world.ethics,
        outcome="changed",
        text="Átlag plusz / átlag mínusz.",
        board_number=7,
        ns_pair="3",
        ew_pair="5",
        artificial="a+/a-",
    )
    assert decision.artificial == "A+/A-" and fake_effect == [decision]
    appeal.refresh_from_db()
    assert appeal.status == Appeal.Status.CLOSED
    assert second_instance.current_decision(appeal) == decision
    second.refresh_from_db()
    assert second.deposit_outcome == Appeal.Deposit.RETURNED


def test_second_instance_is_refused_after_one_week(world, heard_case):
    appeal = heard_case()
    with freeze_time("2026-12-05 14:00:00"):
        decide(appeal, panel_users(appeal))
    assert second_instance.deadline(appeal).date() == datetime.date(2026, 12, 12)
    with freeze_time("2026-12-12 14:00:01"), pytest.raises(ValidationError, match="one week"):
        second_instance.file(appeal, user_of(world.pairs[1]), "Késő.")
    appeal.refresh_from_db()
    assert appeal.status == Appeal.Status.DECIDED


def test_only_a_party_appeals_to_the_second_instance(world, heard_case):
    from django.core.exceptions import PermissionDenied

    appeal = heard_case()
    decide(appeal, panel_users(appeal))
    with pytest.raises(PermissionDenied):
        second_instance.file(appeal, user_of(world.pairs[3]), "Nem vagyok fél.")


def test_a_game_without_a_handler_publishes_and_leaves_the_results_to_the_director(world, heard_case):
    from appeals import effects

    with effects.replaced("bridge", None):
        appeal = heard_case()
        decision = decide(
            appeal,
            panel_users(appeal),
            outcome="changed",
            text="A+/A-.",
            board_number=7,
            ns_pair="3",
            ew_pair="5",
            artificial="A+/A-",
        )
    assert decision.status == Decision.Status.PUBLISHED and decision.effect == ""
    assert appeal.timeline.filter(action="no_effect").exists()


def test_a_refused_effect_refuses_the_publication(world, heard_case):
    from appeals import effects

    def refuse(decision):
        raise ValidationError("no such pair")

    with effects.replaced("bridge", refuse):  # (and the check it was registered with restored after)
        appeal = heard_case()
        users = panel_users(appeal)
        proposal = decisions.propose(
            appeal,
            users[0],
            outcome="changed",
            text="x",
            board_number=7,
            ns_pair="3",
            ew_pair="5",
            ns_score=420,
        )
        for user in users[1:]:
            decisions.vote(proposal, user, True)
        with pytest.raises(ValidationError, match="no such pair"):
            decisions.publish(proposal, users[0])
    appeal.refresh_from_db()
    assert appeal.status == Appeal.Status.HEARING
