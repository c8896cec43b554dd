"""The Rules and Ethics Committee decides as a body: each member votes, majority rule, published when decided."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from freezegun import freeze_time

from appeals.models import Appeal, Decision, Vote
from appeals.services import second_instance
from federation.models import Role

from .conftest import decide, user_of

pytestmark = pytest.mark.django_db

CHANGED = dict(
    outcome="changed",
    text="Átlag plusz / átlag mínusz.",
    board_number=7,
    ns_pair="3",
    ew_pair="5",
    artificial="A+/A-",
)


@pytest.fixture
def before_ethics(world, heard_case, make_user):
    """A case at second instance, deposit paid, before an ethics committee of three."""
    ethics = [
        world.ethics,
        make_user("ethics2@example.hu", kind=Role.ETHICS, federation=world.event.federation),
        make_user("ethics3@example.hu", kind=Role.ETHICS, federation=world.event.federation),
    ]
    appeal = heard_case()
    with freeze_time("2026-12-05 14:00:00"):
        decide(appeal, [s.member.user for s in appeal.panel.all()], unfounded=True)
    with freeze_time("2026-12-08 10:00:00"):
        second_instance.file(appeal, user_of(world.pairs[0]), "A bizottság tévedett.")
    second_instance.confirm_deposit(appeal, world.ethics)
    appeal.refresh_from_db()
    return appeal, ethics


def test_each_member_votes_and_the_majority_publishes(before_ethics, fake_effect):
    appeal, ethics = before_ethics
    proposal = second_instance.propose(appeal, ethics[0], **CHANGED)
    assert proposal.status == Decision.Status.PROPOSED and fake_effect == []
    proposal = second_instance.vote(proposal, ethics[1], False, "Nem értek egyet.")
    assert proposal.status == Decision.Status.PROPOSED  # 1 for, 1 against: the third decides
    with pytest.raises(ValidationError, match="already voted"):
        second_instance.vote(proposal, ethics[1], True)
    proposal = second_instance.vote(proposal, ethics[2], True)
    assert proposal.status == Decision.Status.PUBLISHED and fake_effect == [proposal]
    votes = {v.user_id: v.agrees for v in Vote.objects.filter(decision=proposal)}
    assert votes == {ethics[0].pk: True, ethics[1].pk: False, ethics[2].pk: True}
    appeal.refresh_from_db()
    assert appeal.status == Appeal.Status.CLOSED
    assert second_instance.current_decision(appeal) == proposal


def test_a_majority_against_rejects_and_another_may_be_proposed(before_ethics, fake_effect):
    appeal, ethics = before_ethics
    proposal = second_instance.propose(appeal, ethics[0], **CHANGED)
    with pytest.raises(ValidationError, match="still being voted"):
        second_instance.propose(appeal, ethics[1], outcome="upheld", text="x")
    second_instance.vote(proposal, ethics[1], False)
    proposal = second_instance.vote(proposal, ethics[2], False)
    assert proposal.status == Decision.Status.REJECTED and fake_effect == []
    appeal.refresh_from_db()
    assert appeal.status == Appeal.Status.SECOND_INSTANCE
    upheld = second_instance.propose(appeal, ethics[1], outcome="upheld", text="Az első fok döntése áll.")
    upheld = second_instance.vote(upheld, ethics[0], True)
    assert upheld.status == Decision.Status.PUBLISHED  # 2 of 3: decided, the third vote cannot undo it
    with pytest.raises(ValidationError):
        second_instance.vote(upheld, ethics[2], False)
    appeal.refresh_from_db()
    assert appeal.status == Appeal.Status.CLOSED and fake_effect == []


def test_only_the_federations_ethics_members_vote(before_ethics, world, make_user, mausz, fake_effect):
    appeal, ethics = before_ethics
    foreign = make_user("ethics.mausz@example.hu", kind=Role.ETHICS, federation=mausz)
    for outsider in (world.staff, world.director, world.members[0].user, foreign):
        with pytest.raises(PermissionDenied):
            second_instance.propose(appeal, outsider, **CHANGED)
    proposal = second_instance.propose(appeal, ethics[0], **CHANGED)
    for outsider in (world.staff, foreign, world.members[0].user):
        with pytest.raises(PermissionDenied):
            second_instance.vote(proposal, outsider, True)


def test_a_party_on_the_ethics_committee_does_not_vote(before_ethics, world):
    appeal, ethics = before_ethics
    party = user_of(world.pairs[1])
    Role.objects.create(user=party, kind=Role.ETHICS, federation=world.event.federation)
    assert party.pk not in second_instance.ethics_voters(appeal)
    with pytest.raises(PermissionDenied):
        second_instance.propose(appeal, party, **CHANGED)


def test_the_votes_through_the_pages_and_the_api(before_ethics, client, fake_effect):
    from rest_framework.test import APIClient

    appeal, ethics = before_ethics
    client.force_login(ethics[0])
    client.post(
        reverse("appeal_second_decide", args=[appeal.pk]),
        {f"second-{k}": v for k, v in CHANGED.items()},
    )
    proposal = appeal.decisions.get(instance=Decision.Instance.SECOND)
    assert proposal.status == Decision.Status.PROPOSED
    client.force_login(ethics[1])
    page = client.get(reverse("appeal_detail", args=[appeal.pk]))
    assert b'id="second-vote"' in page.content
    client.post(reverse("appeal_second_vote", args=[appeal.pk, proposal.pk]), {"agrees": "0"})
    api = APIClient()
    api.force_authenticate(ethics[2])
    reply = api.post(
        reverse("appeal-second-vote", args=[appeal.pk]),
        {"decision": proposal.pk, "agrees": True},
        format="json",
    )
    assert reply.status_code == 200
    proposal.refresh_from_db()
    assert proposal.status == Decision.Status.PUBLISHED and fake_effect == [proposal]
    votes = [v for v in reply.json()["case_file"]["votes"] if v["instance"] == "second"]
    assert [(v["user"], v["agrees"]) for v in votes] == [
        (ethics[0].pk, True),
        (ethics[1].pk, False),
        (ethics[2].pk, True),
    ]
