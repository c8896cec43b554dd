"""A decision on an ulti table flows through the ulti results: the round's next version (source "appeal"),
the recompute in Celery (eager), new standings; a correction that does not sum to zero is refused with the
table named and nothing written."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from appeals import effects
from appeals.forms import DecisionForm
from appeals.models import Appeal, Decision, TimelineEntry, Vote
from appeals.services import committee, hearing, panel
from appeals.services import decision as decisions
from federation.models import Role
from tournaments.models import Entry, EntryMember, Event, Session
from ulti.models import RoundUpload, Standing
from ulti.services import draw, setup, uploads

pytestmark = pytest.mark.django_db

START = timezone.make_aware(datetime.datetime(2026, 11, 28, 9, 0))


def seats(table):
    return [s.participant for s in table.seats.select_related("participant__person").order_by("position")]


@pytest.fixture
def ulti_case(mausz, ulti_club, make_person, make_user, django_capture_on_commit_callbacks):
    """Nine players, round 1 played (seat 1 wins at every table); a lodged appeal heard by a seated panel."""
    event = Event.objects.create(
        federation=mausz,
        club=ulti_club,
        title="Ulti selejtező",
        format="ulti_individual",
        event_class="nub_qualifier",
        start_date=START.date(),
        status="approved",
        rule_set="mausz",
    )
    session = Session.objects.create(event=event, name="1-5. forduló", starts_at=START)
    entries = []
    for _ in range(9):
        entry = Entry.objects.create(event=event, status=Entry.Status.ACTIVE)
        EntryMember.objects.create(entry=entry, person=make_person(mausz, ulti_club))
        entries.append(entry)
    director = make_user("td@example.hu", kind=Role.DIRECTOR, event=event)
    for i in range(5):
        committee.add_member(event, make_user(f"ob{i}@example.hu"), is_alternate=i >= 3, by=director)
    group = setup.start_event(event, director).groups.get()
    rnd = draw.publish_round(draw.generate_round(group, director), director)
    results = {
        t.number: dict(zip([p.pk for p in seats(t)], (300, -50, -250), strict=True)) for t in rnd.tables.all()
    }
    with django_capture_on_commit_callbacks(execute=True):
        uploads.upload_round(rnd, results, user=director)
    table = rnd.tables.get(number=2)
    winner, middle, loser = seats(table)
    appeal = Appeal.objects.create(
        event=event,
        number=1,
        session=session,
        board_number=5,
        entry=loser.entry,
        director=director,
        director_name="Rehó Lajos",
        ruling="Az eredmény áll.",
        request="A 2. asztal eredménye forduljon meg.",
        statement="Revokált az ellenfél.",
        filed_by=director,
        status=Appeal.Status.LODGED,
    )
    panel.form_panel(appeal, director)
    seated = [s.member.user for s in appeal.panel.all()]
    for speaker in ("director", "appellant"):
        hearing.record_statement(appeal, seated[0], speaker=speaker, speaker_name=speaker, text="...")
    appeal.refresh_from_db()
    return appeal, rnd, table, (winner, middle, loser), seated


def test_the_ulti_handler_is_registered_at_start_up():
    from appeals.ulti_effect import apply_ulti_decision

    assert effects.handler_for("ulti") is apply_ulti_decision


def test_a_changed_ruling_on_a_table_changes_the_ulti_standings(
    ulti_case, django_capture_on_commit_callbacks
):
    appeal, rnd, table, (winner, middle, loser), seated = ulti_case
    stage = rnd.group.stage

    def row(participant):
        return Standing.objects.get(stage=stage, group=None, after_round=1, participant=participant)

    assert row(winner).forint == 300 and row(loser).forint == -250
    forints = {str(winner.number): -250, str(middle.number): -50, str(loser.number): 300}
    proposal = decisions.propose(
        appeal,
        seated[0],
        outcome="changed",
        text="A 2. asztal eredménye megfordul.",
        ulti_round=1,
        ulti_table=2,
        ulti_forints=forints,
    )
    for user in seated[1:]:
        decisions.vote(proposal, user, True)
    with django_capture_on_commit_callbacks(execute=True):
        decisions.publish(proposal, seated[0])

    proposal.refresh_from_db()
    version = RoundUpload.objects.filter(round=rnd).order_by("-number").first()
    assert version.number == 2 and version.source == "appeal" and str(version) == proposal.effect
    assert version.note.startswith(appeal.reference)
    assert row(loser).forint == 300 and row(winner).forint == -250
    assert row(loser).points > row(winner).points
    assert appeal.timeline.filter(action=TimelineEntry.Action.EFFECT).exists()


def test_a_correction_that_does_not_sum_to_zero_is_refused_and_nothing_is_written(ulti_case):
    appeal, rnd, table, (winner, middle, loser), seated = ulti_case
    forints = {str(winner.number): -250, str(middle.number): -50, str(loser.number): 350}
    fields = dict(outcome="changed", text="Hibás.", ulti_round=1, ulti_table=2, ulti_forints=forints)
    # Proposed: the decision itself is checked.
    with pytest.raises(ValidationError) as refused:
        decisions.propose(appeal, seated[0], **fields)
    assert "Table 2" in str(refused.value) and "+50" in str(refused.value)
    assert not Decision.objects.exists()
    # Published past that check (a decision stored before it): the ulti results refuse it, naming the table.
    proposal = Decision.objects.create(appeal=appeal, proposed_by=seated[0], **fields)
    for user in seated:
        Vote.objects.create(decision=proposal, user=user, agrees=True)
    with pytest.raises(ValidationError) as refused:
        decisions.publish(proposal, seated[0])
    assert "Table 2" in str(refused.value)
    proposal.refresh_from_db()
    appeal.refresh_from_db()
    # Not published and not stuck: marked as not applied with the reason, so the panel proposes anew.
    assert proposal.status == Decision.Status.NOT_APPLIED and "Table 2" in proposal.refusal
    assert appeal.status == Appeal.Status.HEARING
    assert RoundUpload.objects.filter(round=rnd).count() == 1


def test_ulti_and_bridge_fields_stay_with_their_game(ulti_case):
    appeal, rnd, table, (winner, middle, loser), seated = ulti_case
    with pytest.raises(ValidationError, match="not a bridge score"):
        decisions.propose(appeal, seated[0], outcome="changed", text="x", ns_score=100, board_number=5)
    with pytest.raises(ValidationError, match="names the round and the table"):
        decisions.propose(appeal, seated[0], outcome="changed", text="x", ulti_round=1)
    with pytest.raises(ValidationError, match="upheld ruling"):
        decisions.propose(appeal, seated[0], outcome="upheld", text="x", ulti_table=2)

    form = DecisionForm(appeal=appeal)
    assert "ulti_forints" in form.fields and "ns_pair" not in form.fields
    data = {
        "outcome": "changed",
        "text": "Megfordul.",
        "ulti_round": "1",
        "ulti_table": "2",
        "ulti_forints": f"{winner.number}: -250, {middle.number}: -50; {loser.number}: +300",
    }
    form = DecisionForm(data)  # as posted: the appeal is not known to the form
    assert form.is_valid(), form.errors
    values = form.values()
    assert values["ulti_forints"] == {
        str(winner.number): -250,
        str(middle.number): -50,
        str(loser.number): 300,
    }
    assert not DecisionForm({**data, "ulti_forints": "1: x"}).is_valid()


def test_a_bridge_decision_names_no_ulti_table(world, heard_case):
    appeal = heard_case()
    users = [s.member.user for s in appeal.panel.all()]
    with pytest.raises(ValidationError, match="ulti"):
        decisions.propose(
            appeal, users[0], outcome="upheld", text="x", ulti_round=1, ulti_table=2, ulti_forints={}
        )
    form = DecisionForm(appeal=appeal)
    assert "ulti_forints" not in form.fields and form.initial["board_number"] == appeal.board_number


def test_the_panel_proposes_an_ulti_decision_on_the_page(ulti_case, client):
    from django.urls import reverse

    appeal, rnd, table, (winner, middle, loser), seated = ulti_case
    client.force_login(seated[0])
    page = client.get(reverse("appeal_detail", args=[appeal.pk])).content.decode()
    assert 'name="ulti_forints"' in page and 'name="ns_pair"' not in page
    client.post(
        reverse("appeal_propose", args=[appeal.pk]),
        {
            "outcome": "changed",
            "text": "Megfordul.",
            "ulti_round": "1",
            "ulti_table": "2",
            "ulti_forints": f"{winner.number}: -250, {middle.number}: -50, {loser.number}: 300",
        },
    )
    decision = appeal.decisions.get()
    assert (decision.ulti_round, decision.ulti_table) == (1, 2)
    assert decision.ulti_forints == {
        str(winner.number): -250,
        str(middle.number): -50,
        str(loser.number): 300,
    }


def test_the_ulti_recompute_tells_the_rankings_it_was_an_appeal(
    ulti_case, django_capture_on_commit_callbacks, monkeypatch
):
    """The recompute after an appeal's version reports reason "appeal", a director's correction "correction"."""
    import rankings.services
    from ulti.services.recompute import change_reason

    told = []
    real = rankings.services.results_changed

    def spy(event_id, reason=""):
        told.append(reason)
        return real(event_id, reason)

    import ulti.services.recompute

    # The ulti recompute binds the hand-off at import time (no guarded local import): spy on its name.
    monkeypatch.setattr(ulti.services.recompute, "results_changed", spy)
    appeal, rnd, table, (winner, middle, loser), seated = ulti_case
    assert change_reason(appeal.event_id) == "correction"  # the first upload is no appeal
    forints = {str(winner.number): -250, str(middle.number): -50, str(loser.number): 300}
    proposal = decisions.propose(
        appeal,
        seated[0],
        outcome="changed",
        text="Megfordul.",
        ulti_round=1,
        ulti_table=2,
        ulti_forints=forints,
    )
    for user in seated[1:]:
        decisions.vote(proposal, user, True)
    with django_capture_on_commit_callbacks(execute=True):
        decisions.publish(proposal, seated[0])
    assert told == ["appeal"]
    assert change_reason(appeal.event_id) == "appeal"

    from ulti.services.adjustments import apply_ruling

    forints = {winner: 300, middle: -50, loser: -250}
    with django_capture_on_commit_callbacks(execute=True):
        apply_ruling(rnd, 2, forints=forints, reason="Elírás.", user=appeal.director, source="adjustment")
    assert told == ["appeal", "correction"]


def test_a_directors_point_deduction_at_an_ulti_event_lowers_the_standings(
    ulti_case, django_capture_on_commit_callbacks
):
    from appeals.models import Measure
    from appeals.services import discipline
    from ulti.models import PointDeduction

    appeal, rnd, table, (winner, middle, loser), seated = ulti_case
    stage = rnd.group.stage
    before = Standing.objects.get(stage=stage, group=None, after_round=1, participant=winner)
    middle_before = Standing.objects.get(stage=stage, group=None, after_round=1, participant=middle)
    assert before.place.startswith("1")
    with pytest.raises(ValidationError, match="table points"):
        discipline.take_measure(appeal.event, appeal.director, winner.person, "deduction", "x", percent=10)
    with django_capture_on_commit_callbacks(execute=True):
        measure = discipline.take_measure(
            appeal.event,
            appeal.director,
            winner.person,
            Measure.Kind.POINT_DEDUCTION,
            "Sértegetés.",
            points=5,
        )
    measure.refresh_from_db()
    version = RoundUpload.objects.filter(round=rnd).order_by("-number").first()
    assert version.number == 2 and str(version) == measure.effect
    assert version.source == "adjustment" and version.uploaded_by == appeal.director
    assert "Sértegetés." in version.note
    assert PointDeduction.objects.get(upload=version).participant == winner
    after = Standing.objects.get(stage=stage, group=None, after_round=1, participant=winner)
    assert after.points == before.points - 5 and after.forint == before.forint
    other = Standing.objects.get(stage=stage, group=None, after_round=1, participant=middle)
    assert other.points == middle_before.points  # the others keep theirs
    assert appeal.timeline.model.objects.filter(measure=measure, action="deducted").exists()


def test_a_frivolous_ulti_appeal_costs_the_appellant_table_points(
    ulti_case, django_capture_on_commit_callbacks
):
    appeal, rnd, table, (winner, middle, loser), seated = ulti_case
    stage = rnd.group.stage
    before = Standing.objects.get(stage=stage, group=None, after_round=1, participant=loser)
    with pytest.raises(ValidationError, match="frivolous"):
        decisions.propose(appeal, seated[0], outcome="upheld", text="x", point_deduction_points=2)
    proposal = decisions.propose(
        appeal,
        seated[0],
        outcome="upheld",
        text="Komolytalan óvás: 2 pont levonás.",
        unfounded=True,
        frivolous=True,
        point_deduction_points=2,
    )
    for user in seated[1:]:
        decisions.vote(proposal, user, True)
    with django_capture_on_commit_callbacks(execute=True):
        decisions.publish(proposal, seated[0])
    proposal.refresh_from_db()
    version = RoundUpload.objects.filter(round=rnd).order_by("-number").first()
    assert version.source == "appeal" and str(version) == proposal.effect
    assert version.uploaded_by == seated[0] and version.note.startswith(appeal.reference)
    after = Standing.objects.get(stage=stage, group=None, after_round=1, participant=loser)
    assert after.points == before.points - 2


def test_a_bridge_decision_gives_no_table_points(world, heard_case):
    appeal = heard_case()
    with pytest.raises(ValidationError, match="table points"):
        decisions.propose(
            appeal,
            appeal.panel.first().member.user,
            outcome="upheld",
            text="x",
            unfounded=True,
            frivolous=True,
            point_deduction_points=2,
        )
