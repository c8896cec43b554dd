"""Substitutes and withdrawals (VSz 25): whose rights, whose results stand, who gets average-plus."""

import datetime
import random

import pytest
from django.utils import timezone

from bridge.models import BoardScore, EventStanding, SessionPair, SessionStanding
from bridge.services import roster, setup, upload_readers, uploads
from bridge.services.compute import recompute_event
from bridge.services.roster import PlayerRight, SessionPlay, player_rights, sessions_that_stand
from demo import bridge_sample as sample
from federation.models import Person, Role
from results.models import VersionedUpload

START = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))
CSV = VersionedUpload.Source.CSV


# --- the rules alone ---------------------------------------------------------------------------------------


def test_a_player_under_half_the_boards_has_no_rights_and_the_substitute_with_more_has_them():
    rights = player_rights(14, [1, 2], [(2, 3, 8)])
    assert rights == [PlayerRight(1, 14, True), PlayerRight(2, 6, False), PlayerRight(3, 8, True, 2)]


def test_equal_boards_leave_the_rights_with_the_original_entrant():
    rights = {r.person_id: r.has_rights for r in player_rights(14, [1, 2], [(2, 3, 7)])}
    assert rights == {1: True, 2: True, 3: False}


def test_a_short_substitution_changes_nothing_for_the_original():
    rights = {r.person_id: (r.boards, r.has_rights) for r in player_rights(14, [1, 2], [(1, 3, 3)])}
    assert rights == {1: (11, True), 2: (14, True), 3: (3, False)}


@pytest.mark.parametrize(
    "plays, multi, stand",
    [
        ([SessionPlay(1, 14, 7)], False, {1}),  # exactly half of one session: stands
        ([SessionPlay(1, 14, 6)], False, set()),
        ([SessionPlay(1, 26, 26), SessionPlay(2, 26, 13)], True, {1, 2}),  # one full + half of the unfinished
        ([SessionPlay(1, 26, 26), SessionPlay(2, 26, 8)], True, {1}),
        ([SessionPlay(1, 26, 20)], True, set()),  # no full session in a multi-session event: all deleted
    ],
)
def test_which_results_of_a_withdrawn_pair_stand(plays, multi, stand):
    assert sessions_that_stand(plays, multi) == stand


# --- in the recompute --------------------------------------------------------------------------------------


@pytest.fixture
def event(mbsz):
    return sample.event_with_pairs(mbsz, pairs=14, title="Visszalépés", start=START)


@pytest.fixture
def director(make_user, event):
    return make_user("td@example.hu", kind=Role.DIRECTOR, event=event)


@pytest.fixture
def session(event):
    return setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )


def play_until(session, pair_number, rounds):
    """Everybody's results, but pair `pair_number` leaves after `rounds` rounds."""
    plan = session.sections.get().plan()
    gone = {
        board
        for a in plan.assignments
        if a.round > rounds and pair_number in (a.ns, a.ew)
        for board in a.boards
    }
    seat = SessionPair.objects.get(section__session=session, number=pair_number).pk
    rows = sample.play(session, random.Random(11))
    return [r for r in rows if not (r["board"] in gone and seat in (r["ns_id"], r["ew_id"]))], seat, plan


def future_opponents(plan, number, rounds):
    return {
        (a.ew if a.ns == number else a.ns, board)
        for a in plan.assignments
        if a.round > rounds and number in (a.ns, a.ew)
        for board in a.boards
    }


@pytest.mark.django_db
def test_a_pair_leaving_before_half_its_boards_is_deleted_and_its_missing_opponents_get_average_plus(
    event, session, director
):
    rows, seat, plan = play_until(session, 1, 3)  # 6 of 14 boards
    uploads.upload(
        session, upload_readers.parse_csv(sample.csv_text(session, rows)), source=CSV, user=director
    )
    pair = SessionPair.objects.get(pk=seat).pair
    roster.record_withdrawal(session, pair, director, "rosszul lett")
    recompute_event(event.pk)
    assert not SessionStanding.objects.filter(pair_id=seat).exists()
    assert not BoardScore.objects.filter(session=session, ns_id=seat).exists()
    absent = BoardScore.objects.filter(session=session, ns__isnull=True)
    numbers = {s.pk: s.number for s in SessionPair.objects.filter(section__session=session)}
    assert {(numbers[b.ew_id], b.board) for b in absent} == future_opponents(plan, 1, 3)
    assert all(b.artificial == "A-/A+" and b.pct_ew >= 60 for b in absent)
    assert not EventStanding.objects.filter(pair=pair).exists()
    assert SessionStanding.objects.filter(session=session).count() == 13


@pytest.mark.django_db
def test_a_pair_leaving_after_half_its_boards_keeps_its_results(event, session, director):
    rows, seat, plan = play_until(session, 1, 4)  # 8 of 14 boards
    uploads.upload(
        session, upload_readers.parse_csv(sample.csv_text(session, rows)), source=CSV, user=director
    )
    pair = SessionPair.objects.get(pk=seat).pair
    roster.record_withdrawal(session, pair, director)
    recompute_event(event.pk)
    standing = SessionStanding.objects.get(pair_id=seat)
    assert standing.boards == 8
    absent = BoardScore.objects.filter(session=session, ns__isnull=True)
    assert absent.count() == len(future_opponents(plan, 1, 4))
    assert EventStanding.objects.filter(pair=pair).exists()


@pytest.mark.django_db
def test_substitutes_rights_in_the_event_standings(event, session, director, make_person):
    rows = sample.play(session, random.Random(4))
    uploads.upload(
        session, upload_readers.parse_csv(sample.csv_text(session, rows)), source=CSV, user=director
    )
    seat = SessionPair.objects.get(section__session=session, number=2)
    played = sorted({r["board"] for r in rows if seat.pk in (r["ns_id"], r["ew_id"])})
    substitute = make_person()
    roster.record_substitution(session, seat.pair, seat.pair.player2, substitute, played[:8], director)
    recompute_event(event.pk)
    rights = {
        r["person_id"]: (r["boards"], r["has_rights"])
        for r in EventStanding.objects.get(pair=seat.pair).rights
    }
    assert rights == {
        seat.pair.player1_id: (14, True),
        seat.pair.player2_id: (6, False),
        substitute.pk: (8, True),
    }
    with pytest.raises(ValueError):
        roster.record_substitution(
            session,
            seat.pair,
            Person.objects.exclude(pk__in=seat.pair.player_ids).first(),
            substitute,
            [1],
            director,
        )


def test_board_lists():
    assert roster.parse_boards("1-3, 7;9") == [1, 2, 3, 7, 9]
    with pytest.raises(ValueError):
        roster.parse_boards("3-1")


@pytest.mark.django_db
def test_multi_session_one_full_session_keeps_it_and_drops_the_unfinished_one(mbsz, make_user):
    event = sample.event_with_pairs(mbsz, pairs=10, title="Kétfordulós visszalépés", start=START, sessions=2)
    director = make_user("td2@example.hu", kind=Role.DIRECTOR, event=event)
    announced = list(event.sessions.order_by("starts_at"))
    pairs = setup.pairs_from_entries(event)
    first = setup.create_session(event, movement="mitchell", pairs=pairs, announced=announced[0])
    second = setup.create_session(event, movement="mitchell", pairs=pairs, announced=announced[1])
    rows = sample.play(first, random.Random(1))
    uploads.upload(first, upload_readers.parse_csv(sample.csv_text(first, rows)), source=CSV, user=director)
    rows, seat, plan = play_until(second, 1, 1)  # one round of five in the second session: under half
    uploads.upload(second, upload_readers.parse_csv(sample.csv_text(second, rows)), source=CSV, user=director)
    pair = SessionPair.objects.get(pk=seat).pair
    roster.record_withdrawal(second, pair, director)
    recompute_event(event.pk)
    assert SessionStanding.objects.filter(session=first, pair__pair=pair).exists()
    assert not SessionStanding.objects.filter(session=second, pair__pair=pair).exists()
    absent = BoardScore.objects.filter(session=second, ns__isnull=True)
    assert absent.count() == len(future_opponents(plan, 1, 1))
    standing = EventStanding.objects.get(pair=pair)
    assert standing.boards == SessionStanding.objects.get(session=first, pair__pair=pair).boards
