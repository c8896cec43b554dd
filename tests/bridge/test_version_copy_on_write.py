"""Copy on write (ResultVersion.sources): a version stores the rows of the boards it changed and keeps the
others by reference to the version that stores them; every reader sees a version's complete rows."""

import datetime
import random

import pytest
from django.db import transaction
from django.utils import timezone

from bridge.models import BoardResult, BoardScore, ResultVersion, SessionStanding
from bridge.services import compute, setup, upload_readers, uploads, versions
from bridge.services.compute import recompute_boards, recompute_event
from demo import bridge_sample as sample
from federation.models import Role
from results.models import VersionedUpload

from .test_event_incremental import first_changed, post, replaced, stored

Source = VersionedUpload.Source
START = timezone.make_aware(datetime.datetime(2026, 4, 18, 10, 0))


@pytest.fixture
def event(mbsz):
    return sample.event_with_pairs(mbsz, pairs=14, title="Másolás írásra", start=START)


@pytest.fixture
def director(make_user, event):
    return make_user("cow@example.hu", kind=Role.DIRECTOR, event=event)


@pytest.fixture
def session(event, director):
    session = setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )
    rows = sample.play(session, random.Random(11))
    uploads.upload(
        session, upload_readers.parse_pbn(sample.pbn_text(session, rows)), source=Source.PBN, user=director
    )
    recompute_event(event.pk)
    compute.boards._LIVE.clear()
    return session


def stored_of(version) -> set[int]:
    """The boards whose rows the version itself stores."""
    return set(BoardResult.objects.filter(version=version).values_list("board", flat=True))


def by_board(rows) -> dict[int, list[dict]]:
    out: dict[int, list[dict]] = {}
    for row in rows:
        out.setdefault(row["board"], []).append(row)
    return out


def assert_holders_store_their_boards(session):
    """Every kept board points at a version of the session that stores that board itself (never at one that
    keeps it too), older than the version keeping it."""
    for version in ResultVersion.objects.filter(session=session):
        for board, holder_pk in versions.sources_of(version.sources).items():
            holder = ResultVersion.objects.get(pk=holder_pk)
            assert holder.session_id == session.pk and holder.number < version.number
            assert str(board) not in holder.sources and board in stored_of(holder), (version, board)


@pytest.mark.django_db
def test_a_traveller_stores_its_board_and_keeps_the_others(session, director):
    first = versions.latest_version(session)
    before = by_board(versions.rows_of(first))
    written = BoardResult.objects.count()
    post(session, director, 3, first_changed(+20))
    second = versions.latest_version(session)
    assert second.base == first
    assert stored_of(second) == {3}
    assert BoardResult.objects.count() - written == len(before[3])  # one board's rows, not the session's
    assert versions.sources_of(second.sources) == {board: first.pk for board in before if board != 3}
    after = by_board(versions.rows_of(second))
    assert after.keys() == before.keys()
    assert all(after[board] == before[board] for board in before if board != 3)
    # the web form's traveller gives scores only: the board's rows are all new, one score moved
    moved = [
        (a["score"], b["score"]) for a, b in zip(after[3], before[3], strict=True) if a["score"] != b["score"]
    ]
    assert [new - old for new, old in moved] == [20]
    # every reader of one board or of the whole version sees the same rows
    assert versions.rows_of(second, boards=[5]) == after[5]
    assert versions.results_of(second).count() == sum(len(rows) for rows in after.values())
    assert versions.results_of(second, boards=[3, 5]).count() == len(after[3]) + len(after[5])


@pytest.mark.django_db
def test_a_chain_of_versions_points_at_the_version_that_stores_each_board(session, director):
    rng = random.Random(3)
    expected = by_board(versions.rows_of(versions.latest_version(session)))
    for _ in range(6):
        board = rng.choice(sorted(expected))
        scores = sorted({r["score"] for r in expected[board]})  # another table's (legal) score, or none
        post(session, director, board, replaced(rng.choice([None, *scores])))
        latest = versions.latest_version(session)
        expected = by_board(versions.rows_of(latest.base))
        now = by_board(versions.rows_of(latest))
        assert all(now[b] == expected[b] for b in now.keys() | expected.keys() if b != board)
        assert stored_of(latest) == {board}
        expected = now
    assert_holders_store_their_boards(session)
    # a version written whole (a director's change without the rows before) reads back the same rows
    latest = versions.latest_version(session)
    rows = versions.rows_of(latest)
    with transaction.atomic():
        versions.lock_event(session.event_id)
        whole = versions.write_version(
            session, rows, versions.penalties_of(latest), source=Source.FORM, user=director, base=latest
        )
    assert whole.sources == {} and versions.rows_of(whole) == rows
    assert stored_of(whole) == set(by_board(rows))


@pytest.mark.django_db
def test_the_same_whole_file_again_stores_no_row(session, director):
    first = versions.latest_version(session)
    rows = versions.rows_of(first)
    written = BoardResult.objects.count()
    uploads.submit(session, upload_readers.PBN, user=director, text=sample.pbn_text(session, rows))
    again = versions.latest_version(session)
    assert again.number == first.number + 1
    assert BoardResult.objects.count() == written
    assert versions.rows_of(again) == rows
    # and a whole file with one result changed stores that board alone
    on_board = [r for r in rows if r["board"] == 6]
    other = next(r for r in on_board if r["score"] != on_board[0]["score"])
    for name in ("contract", "declarer", "tricks", "score"):
        on_board[0][name] = other[name]
    uploads.submit(session, upload_readers.PBN, user=director, text=sample.pbn_text(session, rows))
    third = versions.latest_version(session)
    assert stored_of(third) == {6} and versions.rows_of(third) == rows
    assert_holders_store_their_boards(session)


@pytest.mark.django_db
def test_kept_boards_score_as_a_whole_copy_would(event, session, director):
    """The full recompute of versions that keep boards by reference gives the standings a version holding
    every row gives."""
    for board, change in ((2, +20), (4, 0), (3, +20)):
        post(session, director, board, first_changed(change))
    latest = versions.latest_version(session)
    assert latest.sources
    recompute_event(event.pk, force=True)
    by_reference = stored(event)
    with transaction.atomic():
        versions.lock_event(session.event_id)
        versions.write_version(
            session,
            versions.rows_of(latest),
            versions.penalties_of(latest),
            source=Source.FORM,
            user=director,
            base=latest,
        )
    recompute_event(event.pk, force=True)
    assert stored(event) == by_reference
    assert SessionStanding.objects.filter(session=session).exists()


@pytest.mark.django_db
def test_a_rescore_of_a_board_the_version_kept_falls_back_to_the_full_recompute(event, session, director):
    post(session, director, 3, first_changed(+20))
    summary = recompute_boards(event.pk, session.pk, [5])  # 5 is kept from the version before, not stored
    assert summary["incremental"] is False
    full = stored(event)
    recompute_event(event.pk, force=True)
    assert stored(event) == full
    assert BoardScore.objects.filter(session=session, board=3).exists()
