"""The full recompute rewrites only the boards whose engine input changed (bridge.ScoredBoard's digests), and
what it leaves is exactly what a rewrite of everything (`force`) stores; the computed rows' relations hold
without database constraints (Django's on_delete)."""

import random
from decimal import Decimal

import pytest
from django.contrib.admin.utils import NestedObjects
from django.db import transaction
from django.db.models import ProtectedError
from django.db.models.deletion import Collector

from bridge.models import BoardScore, PairEvent, ScoredBoard, SessionStanding
from bridge.services import versions
from bridge.services.compute import recompute_event
from results.models import VersionedUpload
from tests.bridge import test_event_incremental as incremental

event, director, session = incremental.event, incremental.director, incremental.session  # fixtures
assert_stamps_truthful, stored = incremental.assert_stamps_truthful, incremental.stored

Source = VersionedUpload.Source


def new_version(session, director, change=lambda rows: rows, penalties=None):
    """A new version of the session's results (`change` edits a copy of the latest rows), as a correction
    writes it; the recompute is left to the test."""
    with transaction.atomic():
        versions.lock_event(session.event_id)
        base = versions.latest_version(session)
        rows = change(versions.rows_of(base))
        versions.write_version(
            session,
            rows,
            versions.penalties_of(base) if penalties is None else penalties,
            source=Source.FORM,
            user=director,
            deals=base.deals,
            base=base,
        )
    return versions.latest_version(session)


def stamps(session):
    return dict(BoardScore.objects.filter(session=session).values_list("board", "version_id").distinct())


def one_result_moved(board):
    """The first line of `board` given another table's score on the board (a legal score)."""

    def change(rows):
        on_board = [r for r in rows if r["board"] == board]
        other = next(r for r in on_board if r["score"] != on_board[0]["score"])
        for key in ("contract", "declarer", "lead", "tricks", "score", "artificial"):
            on_board[0][key] = other[key]
        return rows

    return change


def assert_same_as_a_rewrite_of_everything(event):
    kept = stored(event)
    recompute_event(event.pk, force=True)
    assert stored(event) == kept


@pytest.mark.django_db
def test_a_new_version_rewrites_only_the_board_it_changed(event, session, director):
    before = stamps(session)
    assert ScoredBoard.objects.filter(session=session).count() == len(before)
    latest = new_version(session, director, one_result_moved(4))
    summary = recompute_event(event.pk)
    after = stamps(session)
    assert after[4] == latest.pk
    assert {b: v for b, v in after.items() if b != 4} == {b: v for b, v in before.items() if b != 4}
    assert summary["results"] == BoardScore.objects.filter(session=session, board=4).count()
    assert set(SessionStanding.objects.filter(session=session).values_list("version", flat=True)) == {
        latest.pk
    }
    assert_stamps_truthful(session, rewritten=[4])
    assert_same_as_a_rewrite_of_everything(event)
    assert set(stamps(session).values()) == {latest.pk}  # `force` rewrites and stamps every row


@pytest.mark.django_db
def test_an_unchanged_version_rewrites_no_board(event, session, director):
    before = stamps(session)
    new_version(session, director)  # the same rows again
    assert recompute_event(event.pk)["results"] == 0
    assert stamps(session) == before
    assert_stamps_truthful(session)
    assert_same_as_a_rewrite_of_everything(event)


@pytest.mark.django_db
def test_a_board_taken_out_of_the_version_loses_its_rows_and_digest(event, session, director):
    new_version(session, director, lambda rows: [r for r in rows if r["board"] != 2])
    recompute_event(event.pk)
    assert not BoardScore.objects.filter(session=session, board=2).exists()
    assert not ScoredBoard.objects.filter(session=session, board=2).exists()
    assert_same_as_a_rewrite_of_everything(event)


@pytest.mark.django_db
def test_a_penalty_or_a_scoring_option_rewrites_every_board(event, session, director):
    pair_id = BoardScore.objects.filter(session=session, board=1).values_list("ns_id", flat=True).first()
    latest = new_version(
        session,
        director,
        penalties=[{"pair_id": pair_id, "board": 1, "percent": Decimal(25), "reason": "VSz 32"}],
    )
    recompute_event(event.pk)
    assert set(stamps(session).values()) == {latest.pk}
    penalised = BoardScore.objects.get(session=session, board=1, ns_id=pair_id)
    assert penalised.penalty_ns > 0
    assert_same_as_a_rewrite_of_everything(event)

    settings = PairEvent.objects.get(event=event)
    settings.method = "cross-imps"  # cross-IMPs: every board earns something else
    settings.save()
    latest = new_version(session, director)
    recompute_event(event.pk)
    assert set(stamps(session).values()) == {latest.pk}
    assert BoardScore.objects.filter(session=session, imp_ns__isnull=False).exists()
    assert_same_as_a_rewrite_of_everything(event)


@pytest.mark.django_db
def test_rows_written_before_there_were_digests_are_all_replaced(event, session, director):
    ScoredBoard.objects.filter(session=session).delete()
    # A stray row of a board the version does not have: a session never digested is rewritten whole.
    stray = BoardScore.objects.filter(session=session).first()
    stray.pk, stray.board = None, 99
    stray.save()
    new_version(session, director, one_result_moved(3))
    recompute_event(event.pk)
    assert not BoardScore.objects.filter(session=session, board=99).exists()
    assert ScoredBoard.objects.filter(session=session).count() == len(stamps(session))
    assert_same_as_a_rewrite_of_everything(event)


@pytest.mark.django_db
def test_random_versions_leave_what_a_rewrite_of_everything_stores(event, session, director):
    rng = random.Random(29)
    boards = sorted(stamps(session))
    for _step in range(5):
        changed = rng.sample(boards, rng.choice((1, 2)))

        def change(rows, changed=changed):
            for board in changed:
                rows = one_result_moved(board)(rows)
            return rows

        new_version(session, director, change)
        recompute_event(event.pk)
        assert_stamps_truthful(session, rewritten=changed)
        kept = stored(event)
        recompute_event(event.pk, force=True)
        assert stored(event) == kept


@pytest.mark.django_db
def test_the_computed_rows_still_cascade_and_protect_without_database_constraints(event, session):
    version = versions.latest_version(session)
    # Versions are append-only anyway; beneath that, Django's PROTECT still refuses to let a stamped one go.
    with pytest.raises(ProtectedError):
        Collector(using="default").collect([version])
    # A session's computed rows go with it (what Django's deletion would take, protected inputs aside).
    nested = NestedObjects(using="default")
    nested.collect([session])
    for model in (BoardScore, ScoredBoard, SessionStanding):
        taken = {obj.pk for obj in nested.data.get(model, ())}
        assert taken and taken == set(model.objects.filter(session=session).values_list("pk", flat=True))
