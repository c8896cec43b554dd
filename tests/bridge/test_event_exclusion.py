"""VSz 23 exclusion in the recompute: the excluded results leave the standings, the opponents get average-plus,
and the measure is a decision layer a re-upload keeps."""

import random

import pytest

from bridge.models import BoardScore, EventStanding, Exclusion, ResultVersion, SessionPair, SessionStanding
from bridge.services import decisions, roster, setup, upload_readers, uploads, versions
from bridge.services.compute import recompute_event
from demo import bridge_sample as sample
from federation.models import Role

from .test_event_roster import CSV, START, future_opponents

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(mbsz):
    return sample.event_with_pairs(mbsz, pairs=14, title="Kizárás", start=START)


@pytest.fixture
def director(make_user, event):
    return make_user("td@example.hu", kind=Role.DIRECTOR, event=event)


@pytest.fixture
def session(event):
    return setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )


def _upload(session, director, seed=11):
    rows = sample.play(session, random.Random(seed))
    uploads.upload(
        session, upload_readers.parse_csv(sample.csv_text(session, rows)), source=CSV, user=director
    )
    return rows


def _late_boards(plan, number, rounds):
    return sorted(
        {b for a in plan.assignments if a.round > rounds and number in (a.ns, a.ew) for b in a.boards}
    )


def test_excluded_from_the_last_rounds_those_results_go_and_the_opponents_get_average_plus(
    event, session, director
):
    _upload(session, director)
    seat = SessionPair.objects.get(section__session=session, number=1)
    plan = session.sections.get().plan()
    late = _late_boards(plan, 1, 4)  # rounds 5-7: 6 of its 14 boards
    roster.record_exclusion(
        session, seat.pair, director, Exclusion.SESSION, late, "sportszerűtlen viselkedés"
    )
    recompute_event(event.pk)
    mine = BoardScore.objects.filter(session=session).filter(ns_id=seat.pk) | BoardScore.objects.filter(
        session=session, ew_id=seat.pk
    )
    assert sorted(mine.values_list("board", flat=True)) == sorted(
        {b for a in plan.assignments if a.round <= 4 and 1 in (a.ns, a.ew) for b in a.boards}
    )
    ghosts = BoardScore.objects.filter(session=session, ns__isnull=True) | BoardScore.objects.filter(
        session=session, ew__isnull=True
    )
    numbers = {s.pk: s.number for s in SessionPair.objects.filter(section__session=session)}
    met = {(numbers[b.ew_id or b.ns_id], b.board) for b in ghosts}
    assert met == future_opponents(plan, 1, 4)
    for ghost in ghosts:
        assert ghost.artificial and (ghost.pct_ew if ghost.ew_id else ghost.pct_ns) >= 60
    standing = SessionStanding.objects.get(pair_id=seat.pk)
    assert standing.boards == 14 - len(late)
    assert EventStanding.objects.filter(pair=seat.pair).exists()  # still ranked


def test_exclusion_from_the_event_needs_the_committee_and_takes_the_pair_out(event, session, director):
    _upload(session, director)
    seat = SessionPair.objects.get(section__session=session, number=3)
    with pytest.raises(ValueError):
        roster.record_exclusion(session, seat.pair, director, Exclusion.EVENT, [], "tettlegesség")
    with pytest.raises(ValueError):
        roster.record_exclusion(session, seat.pair, director, Exclusion.SESSION, [], "")  # no reason
    assert not Exclusion.objects.exists()
    roster.record_exclusion(
        session, seat.pair, director, Exclusion.EVENT, [], "tettlegesség", "Óvási Bizottság 2026/3. határozat"
    )
    recompute_event(event.pk)
    assert not SessionStanding.objects.filter(pair_id=seat.pk).exists()
    assert not EventStanding.objects.filter(pair=seat.pair).exists()
    assert SessionStanding.objects.filter(session=session).count() == 13
    ghosts = (
        BoardScore.objects.filter(session=session, ns__isnull=True).count()
        + BoardScore.objects.filter(session=session, ew__isnull=True).count()
    )
    assert ghosts == 14  # every board it had, played or not, is average-plus for its opponent there


def test_a_re_upload_keeps_the_exclusion(event, session, director):
    _upload(session, director)
    seat = SessionPair.objects.get(section__session=session, number=2)
    roster.record_exclusion(session, seat.pair, director, Exclusion.SESSION, [], "figyelmeztetés után is")
    decision = ResultVersion.objects.filter(session=session).order_by("-number").first()
    assert [d["kind"] for d in decisions.summary(decision)] == ["exclusion"]
    _upload(session, director, seed=12)  # the scorer's file again, other scores: nothing asks the director
    latest = versions.latest_version(session)
    assert latest.pk != decision.pk
    assert [d["kind"] for d in decisions.summary(latest)] == ["exclusion"]
    recompute_event(event.pk)
    assert not SessionStanding.objects.filter(pair_id=seat.pk).exists()  # excluded from the whole session
    assert EventStanding.objects.filter(pair=seat.pair).count() == 0  # its only session
