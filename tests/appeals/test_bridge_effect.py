"""A decision that changes a score flows through the bridge results: a new version, the recompute in Celery
(eager), new standings and masterpoints; the cash prize already paid stays as it was (VSz 9)."""

import datetime

import pytest
from django.utils import timezone

pytest.importorskip("bridge.services.adjustments")

from appeals import effects  # noqa: E402
from appeals.models import Intention  # noqa: E402
from appeals.services import decision as decisions  # noqa: E402
from appeals.services import filing, hearing, panel  # noqa: E402
from bridge.engine.scoring.contract import board_vulnerability, contract_score, vulnerable_sides  # noqa: E402
from bridge.models import BoardScore, ResultVersion, SessionStanding  # noqa: E402
from demo import bridge_sample as sample  # noqa: E402
from rankings.models import Award, AwardVersion, PaymentResultChange, PrizePayment  # noqa: E402
from rankings.services.ledger import record_prize_payment  # noqa: E402

pytestmark = pytest.mark.django_db

START = timezone.make_aware(datetime.datetime(2026, 11, 28, 10, 0))


def after(minutes):
    return START + datetime.timedelta(minutes=minutes)


@pytest.fixture
def scored_event(scored_bridge_event):
    return scored_bridge_event("Fellebbezési páros", seed=7)


def _award_of(pair):
    person_ids = pair.pair.player_ids
    return sum(a.amount for a in Award.objects.filter(person_id__in=person_ids, is_current=True)) / len(
        person_ids
    )


def test_a_changed_score_changes_standings_and_masterpoints_but_not_the_paid_prize(
    scored_event, make_user, django_capture_on_commit_callbacks
):
    assert effects.handler_for("bridge") is not None, "the bridge handler is registered at start-up"
    event, session, director = scored_event
    labels = sample.pair_labels(session)
    ew_field = SessionStanding.objects.filter(session=session, field="EW").select_related("pair__pair")
    leader = min(ew_field, key=lambda s: s.order)
    assert leader.place.startswith("1") and AwardVersion.objects.filter(event=event, is_current=True).exists()
    mp_before = _award_of(leader.pair)
    assert mp_before > 0
    payment = record_prize_payment(
        event, 20000, entry_key=f"entry-{leader.pair.pair.entry_id}", user=director
    )
    assert payment.place == leader.place

    # The EW leader's best board: its NS opponents appeal the director's ruling there.
    best = BoardScore.objects.filter(session=session, ew=leader.pair).order_by("-mp_ew", "board").first()
    appellant = best.ns.pair.entry
    for i, member in enumerate(appellant.members.all()):
        member.person.user = make_user(f"ns{i}@example.hu")
        member.person.save()
    users = [m.person.user for m in appellant.members.order_by("position")]
    announced = session.announced
    Intention.objects.create(
        session=announced,
        entry=appellant,
        board_number=best.board,
        source="director",
        recorded_by=director,
        recorded_at=after(200),
    )
    filing.end_session(announced, director, at=after(210))
    table = dict(board_number=best.board, ns_pair=labels[best.ns_id], ew_pair=labels[leader.pair_id])
    appeal = filing.file_appeal(
        users[0],
        session=announced,
        entry=appellant,
        respondent_entry=leader.pair.pair.entry,
        appellant_pair=labels[best.ns_id],
        director=director,
        ruling="Az eredmény áll.",
        request="7NTXX= Észak.",
        statement="Jogosulatlan információ.",
        now=after(215),
        **table,
    )
    filing.agree(appeal, users[1], now=after(220))
    filing.confirm_deposit(appeal, director)
    panel.form_panel(appeal, director)
    seated = [s.member.user for s in appeal.panel.all()]
    for speaker in ("director", "appellant", "respondent"):
        hearing.record_statement(appeal, seated[0], speaker=speaker, speaker_name=speaker, text="...")
    top = contract_score("7NTXX", "N", 13, *vulnerable_sides(board_vulnerability(best.board)))
    proposal = decisions.propose(
        appeal,
        seated[0],
        outcome="changed",
        text="Észak 7NTXX=; a K-Ny pár 100% büntetést kap.",
        ns_score=top,
        penalty_pair=labels[leader.pair_id],
        penalty_percent=100,
        **table,
    )
    for user in seated[1:]:
        decisions.vote(proposal, user, True)
    with django_capture_on_commit_callbacks(execute=True):
        decisions.publish(proposal, seated[0])

    proposal.refresh_from_db()
    version = ResultVersion.objects.filter(session=session).order_by("-number").first()
    assert version.source == "appeal" and str(version) == proposal.effect
    moved = SessionStanding.objects.get(session=session, pair=leader.pair)
    assert moved.total < leader.total and not moved.place.startswith("1")
    current = AwardVersion.objects.get(event=event, is_current=True)
    assert current.reason == "appeal"
    assert _award_of(leader.pair) < mp_before
    payment.refresh_from_db()
    assert (payment.amount, payment.place) == (20000, leader.place)
    change = PaymentResultChange.objects.get(payment=payment)
    assert (change.old_place, change.new_place) == (leader.place, moved.place)
    assert PrizePayment.objects.count() == 1
