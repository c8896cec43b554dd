"""Issue #14: a decision can no longer get stuck.

A decision naming a board or pairs the session does not have is refused when proposed (the same dry run of the
game's ruling that the publication runs), on the service, the page and the API, each error at its field and
naming pair and board numbers; a decision the results no longer take at its publication says why and is
replaced; the chair withdraws a proposal and the panel votes again.
"""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.urls import reverse
from rest_framework.test import APIClient

pytest.importorskip("bridge.services.adjustments")

from appeals.models import Appeal, Decision, TimelineEntry, Vote  # noqa: E402
from appeals.services import decision as decisions  # noqa: E402
from appeals.services import hearing, panel  # noqa: E402
from bridge.engine.scoring.contract import board_vulnerability, contract_score, vulnerable_sides  # noqa: E402
from bridge.models import BoardScore, ResultVersion  # noqa: E402
from bridge.services import versions  # noqa: E402
from demo import bridge_sample as sample  # noqa: E402

from .conftest import user_of  # noqa: E402
from .test_ulti_effect import ulti_case  # noqa: E402, F401 - the ulti fixture, shared

pytestmark = pytest.mark.django_db


@pytest.fixture
def scored_case(scored_bridge_event):
    """A heard appeal on a real scored session: (appeal, session, panel users, the table appealed)."""
    event, session, director = scored_bridge_event("Beragadt döntés", seed=11)
    labels = sample.pair_labels(session)
    score = BoardScore.objects.filter(session=session).order_by("board", "pk").first()
    appeal = Appeal.objects.create(
        event=event,
        number=1,
        session=session.announced,
        board_number=score.board,
        ns_pair=labels[score.ns_id],
        ew_pair=labels[score.ew_id],
        appellant_pair=labels[score.ns_id],
        entry=score.ns.pair.entry,
        director=director,
        director_name="Versenyvezető",
        ruling="Az eredmény áll.",
        request="Módosított eredmény.",
        statement="Jogosulatlan információ.",
        filed_by=director,
        status=Appeal.Status.LODGED,
    )
    panel.form_panel(appeal, director)
    seated = [s.member.user for s in appeal.panel.all()]
    for speaker in ("director", "appellant"):
        hearing.record_statement(appeal, seated[0], speaker=speaker, speaker_name=speaker, text="...")
    appeal.refresh_from_db()
    table = dict(board_number=score.board, ns_pair=labels[score.ns_id], ew_pair=labels[score.ew_id])
    return appeal, session, seated, table


def _score(board, contract="4S", declarer="N", tricks=10):
    return contract_score(contract, declarer, tricks, *vulnerable_sides(board_vulnerability(board)))


def _changed(table, **extra):
    values = dict(outcome="changed", text="Módosítva.", ns_score=_score(table["board_number"]), **table)
    values.update(extra)
    return values


def test_a_decision_naming_a_board_and_pairs_not_in_the_session_is_refused_when_proposed(scored_case):
    appeal, session, seated, table = scored_case
    stuck = dict(outcome="changed", text="x", board_number=44, ns_pair="33", ew_pair="55", ns_score=420)
    with pytest.raises(ValidationError) as refused:
        decisions.propose(appeal, seated[0], **stuck)
    errors = refused.value.message_dict
    assert "44" in " ".join(errors["board_number"])
    assert "33" in " ".join(errors["ns_pair"]) and "55" in " ".join(errors["ew_pair"])
    assert not Decision.objects.filter(appeal=appeal).exists()
    # A penalty on a pair the session does not have, and on a board not played, is refused at its field too.
    with pytest.raises(ValidationError) as refused:
        decisions.propose(
            appeal, seated[0], **_changed(table, penalty_pair="33", penalty_percent=25, penalty_board=44)
        )
    assert {"penalty_pair", "penalty_board"} <= set(refused.value.message_dict)
    # A score no contract makes on that board's vulnerability.
    with pytest.raises(ValidationError) as refused:
        decisions.propose(appeal, seated[0], **_changed(table, ns_score=421))
    assert "ns_score" in refused.value.message_dict
    # The pairs of another table on that board: refused, naming the pair.
    others = BoardScore.objects.filter(session=session, board=table["board_number"]).exclude(
        ns__number=table["ns_pair"]
    )
    other_ew = str(others.first().ew.number)
    with pytest.raises(ValidationError) as refused:
        decisions.propose(appeal, seated[0], **_changed(dict(table, ew_pair=other_ew)))
    assert other_ew in " ".join(refused.value.messages)
    # The valid decision is proposed: nothing was left behind by the refusals.
    proposal = decisions.propose(appeal, seated[0], **_changed(table))
    assert proposal.status == Decision.Status.PROPOSED


def test_the_api_and_the_page_name_the_refused_fields(scored_case, client):
    appeal, session, seated, table = scored_case
    api = APIClient()
    api.force_authenticate(seated[0])
    url = reverse("appeal-detail", args=[appeal.pk]) + "decisions/"
    stuck = dict(outcome="changed", text="x", board_number=44, ns_pair="33", ew_pair="55", ns_score=420)
    response = api.post(url, stuck, format="json")
    assert response.status_code == 400
    body = response.json()
    assert {"board_number", "ns_pair", "ew_pair"} <= set(body)
    assert "33" in body["ns_pair"][0] and "44" in body["board_number"][0]
    assert not Decision.objects.filter(appeal=appeal).exists()

    client.force_login(seated[0])
    page = client.post(reverse("appeal_propose", args=[appeal.pk]), stuck)
    assert page.status_code == 400
    form = page.context["decision_form"]
    assert {"board_number", "ns_pair", "ew_pair"} <= set(form.errors)
    assert "33" in page.content.decode() and 'value="44"' in page.content.decode()
    assert not Decision.objects.filter(appeal=appeal).exists()


def _swap_the_opponents(session, board, ns_label, user):
    """The director corrects the results: on `board` the EW pairs of the appealed table and another table
    were recorded the wrong way round."""
    with transaction.atomic():
        versions.lock_event(session.event_id)
        base = versions.latest_version(session)
        rows = versions.rows_of(base)
        labels = sample.pair_labels(session)
        on_board = [r for r in rows if r["board"] == board]
        mine = next(r for r in on_board if labels[r["ns_id"]] == ns_label)
        other = next(r for r in on_board if r is not mine)
        mine["ew_id"], other["ew_id"] = other["ew_id"], mine["ew_id"]
        versions.write_version(
            session,
            rows,
            versions.penalties_of(base),
            source="correction",
            user=user,
            note="EW pairs swapped",
            deals=base.deals,
            base=base,
        )
    return labels[mine["ew_id"]]


def test_a_decision_the_results_no_longer_take_says_why_and_is_replaced(
    scored_case, client, django_capture_on_commit_callbacks
):
    appeal, session, seated, table = scored_case
    proposal = decisions.propose(appeal, seated[0], **_changed(table))
    for user in seated[1:]:
        decisions.vote(proposal, user, True)
    # The results change underneath: the appealed pairs did not meet on that board after all.
    real_ew = _swap_the_opponents(session, table["board_number"], table["ns_pair"], appeal.director)
    before = ResultVersion.objects.filter(session=session).count()

    with pytest.raises(ValidationError) as refused:
        decisions.publish(proposal, seated[0])
    assert table["ns_pair"] in str(refused.value) and str(table["board_number"]) in str(refused.value)
    proposal.refresh_from_db()
    appeal.refresh_from_db()
    assert proposal.status == Decision.Status.NOT_APPLIED
    assert table["ns_pair"] in proposal.refusal and str(table["board_number"]) in proposal.refusal
    assert appeal.status == Appeal.Status.HEARING
    assert ResultVersion.objects.filter(session=session).count() == before
    row = appeal.timeline.filter(action=TimelineEntry.Action.NOT_APPLIED).get()
    assert row.note == proposal.refusal
    client.force_login(seated[1])
    page = client.get(reverse("appeal_detail", args=[appeal.pk])).content.decode()
    assert proposal.refusal in page or proposal.refusal.replace("'", "&#x27;") in page

    # Replaced: a new proposal on the corrected table is voted on and published.
    replacement = decisions.propose(appeal, seated[0], **_changed(dict(table, ew_pair=real_ew)))
    for user in seated[1:]:
        decisions.vote(replacement, user, True)
    with django_capture_on_commit_callbacks(execute=True):
        decisions.publish(replacement, seated[0])
    replacement.refresh_from_db()
    assert replacement.status == Decision.Status.PUBLISHED
    latest = ResultVersion.objects.filter(session=session).order_by("-number").first()
    assert latest.source == "appeal" and str(latest) == replacement.effect


def _panel(appeal):
    return [s.member.user for s in appeal.panel.select_related("member__user")]


def test_the_chair_withdraws_a_proposal_and_the_panel_votes_again(world, heard_case, fake_effect):
    appeal = heard_case()
    chair, second, third = _panel(appeal)
    assert chair == world.members[0].user
    first = decisions.propose(appeal, second, outcome="upheld", text="Helyben marad.")
    decisions.vote(first, third, True)
    decisions.withdraw(first, chair, "Új tény merült fel.")
    first.refresh_from_db()
    assert first.status == Decision.Status.WITHDRAWN
    with pytest.raises(ValidationError):
        decisions.vote(first, chair, True)
    with pytest.raises(ValidationError):
        decisions.publish(first, chair)
    withdrawn = appeal.timeline.get(action=TimelineEntry.Action.PROPOSAL_WITHDRAWN)
    assert "Új tény" in withdrawn.note and withdrawn.actor == chair

    # The panel votes again: the votes on the withdrawn proposal do not count for the new one.
    again = decisions.propose(appeal, chair, outcome="upheld", text="Helyben marad, indoklással.")
    assert decisions.tally(again) == (1, 0, 3)
    decisions.vote(again, second, True)
    decisions.vote(again, third, True)
    decisions.publish(again, chair)
    again.refresh_from_db()
    appeal.refresh_from_db()
    assert again.status == Decision.Status.PUBLISHED and appeal.status == Appeal.Status.DECIDED
    # History kept: both proposals, their votes, every step on the timeline.
    assert Vote.objects.filter(decision=first).count() == 2
    actions = list(appeal.timeline.values_list("action", flat=True))
    assert actions.index("prop_withdrawn") < actions.index("published")


def test_only_the_chair_withdraws_a_proposal(world, heard_case, fake_effect, client):
    appeal = heard_case()
    chair, member, _third = _panel(appeal)
    appellant = user_of(world.pairs[0])
    proposal = decisions.propose(appeal, member, outcome="upheld", text="Helyben marad.")
    for user in (member, appellant, world.director):
        with pytest.raises(PermissionDenied):
            decisions.withdraw(proposal, user)

    api = APIClient()
    url = reverse("appeal-detail", args=[appeal.pk]) + "withdraw-proposal/"
    for user in (member, appellant):
        api.force_authenticate(user)
        assert api.post(url, {"decision": proposal.pk}, format="json").status_code == 403
    page = reverse("appeal_withdraw_proposal", args=[appeal.pk, proposal.pk])
    for user in (member, appellant):
        client.force_login(user)
        assert client.post(page, {"confirm": "on"}).status_code == 403
    proposal.refresh_from_db()
    assert proposal.status == Decision.Status.PROPOSED

    # The chair: on the page only with the confirmation ticked; on the API with the decision's id.
    client.force_login(chair)
    client.post(page, {"reason": "x"})
    proposal.refresh_from_db()
    assert proposal.status == Decision.Status.PROPOSED
    detail = client.get(reverse("appeal_detail", args=[appeal.pk])).content.decode()
    assert 'id="withdraw-proposal"' in detail
    api.force_authenticate(chair)
    other = Decision.objects.create(
        appeal=heard_case(entry=world.pairs[2]), outcome="upheld", text="x", proposed_by=chair
    )
    response = api.post(url, {"decision": other.pk}, format="json")
    assert response.status_code == 400 and "decision" in response.json()
    response = api.post(url, {"decision": proposal.pk, "reason": "Újratárgyaljuk."}, format="json")
    assert response.status_code == 200
    proposal.refresh_from_db()
    assert proposal.status == Decision.Status.WITHDRAWN
    assert [d["status"] for d in response.json()["decisions"]] == ["withdrawn"]


def test_an_ulti_decision_naming_a_table_or_player_not_in_the_round_is_refused_when_proposed(ulti_case):  # noqa: F811
    appeal, rnd, table, (winner, middle, loser), seated = ulti_case
    forints = {str(winner.number): -250, str(middle.number): -50, str(loser.number): 300}
    with pytest.raises(ValidationError) as refused:
        decisions.propose(
            appeal, seated[0], outcome="changed", text="x", ulti_round=1, ulti_table=9, ulti_forints=forints
        )
    assert "ulti_table" in refused.value.message_dict and "9" in refused.value.message_dict["ulti_table"][0]
    stranger = rnd.tables.get(number=1).seats.first().participant
    wrong = {str(winner.number): -250, str(middle.number): -50, str(stranger.number): 300}
    with pytest.raises(ValidationError) as refused:
        decisions.propose(
            appeal, seated[0], outcome="changed", text="x", ulti_round=1, ulti_table=2, ulti_forints=wrong
        )
    assert "ulti_forints" in refused.value.message_dict or "ulti_table" in refused.value.message_dict
    assert not Decision.objects.filter(appeal=appeal).exists()
    proposal = decisions.propose(
        appeal, seated[0], outcome="changed", text="x", ulti_round=1, ulti_table=2, ulti_forints=forints
    )
    assert proposal.status == Decision.Status.PROPOSED


def test_a_second_instance_decision_the_results_refuse_is_not_applied_and_replaced(
    world, heard_case, fake_effect
):
    from freezegun import freeze_time

    from appeals import effects
    from appeals.models import FederationSettings
    from appeals.services import second_instance

    FederationSettings.objects.create(federation=world.event.federation, second_instance_deposit=10000)
    appeal = heard_case()
    users = _panel(appeal)
    with freeze_time("2026-12-05 14:00:00"):
        proposal = decisions.propose(
            appeal, users[0], outcome="upheld", text="Helyben marad.", unfounded=True
        )
        for user in users[1:]:
            decisions.vote(proposal, user, True)
        decisions.publish(proposal, users[0])
    with freeze_time("2026-12-10 10:00:00"):
        second_instance.file(appeal, user_of(world.pairs[0]), "A bizottság tévedett.")
    second_instance.confirm_deposit(appeal, world.ethics)
    changed = dict(
        outcome="changed", text="A+/A-.", board_number=7, ns_pair="3", ew_pair="5", artificial="A+/A-"
    )

    def refuse(decision):
        raise ValidationError("a(z) 3. pár nem játszik ebben a fordulóban")

    with effects.replaced("bridge", refuse):
        decision = second_instance.propose(appeal, world.ethics, **changed)  # the deciding (only) vote
    decision.refresh_from_db()
    appeal.refresh_from_db()
    assert decision.status == Decision.Status.NOT_APPLIED and "3. pár" in decision.refusal
    assert appeal.status == Appeal.Status.SECOND_INSTANCE
    assert appeal.timeline.filter(action=TimelineEntry.Action.NOT_APPLIED).exists()
    replacement = second_instance.propose(appeal, world.ethics, **changed)
    appeal.refresh_from_db()
    assert replacement.status == Decision.Status.PUBLISHED and appeal.status == Appeal.Status.CLOSED
    assert fake_effect == [replacement]
