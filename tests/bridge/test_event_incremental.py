"""One table's result at a time (compute.recompute_boards): the board and the standings are rescored from
the worker's engine state and the stored rows are exactly those the full recompute writes."""

import datetime
import random
from collections import defaultdict

import pytest
from django.utils import timezone

from bridge.models import (
    BoardScore,
    EventStanding,
    Exclusion,
    ResultVersion,
    SessionPair,
    SessionStanding,
)
from bridge.services import compute, roster, setup, upload_readers, uploads, versions
from bridge.services.compute import recompute_boards, recompute_event
from demo import bridge_sample as sample
from federation.models import Role
from results.models import VersionedUpload

Source = VersionedUpload.Source
START = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))


@pytest.fixture
def event(mbsz):
    return sample.event_with_pairs(mbsz, pairs=14, title="Élő verseny", start=START)


@pytest.fixture
def director(make_user, event):
    return make_user("td@example.hu", kind=Role.DIRECTOR, event=event)


@pytest.fixture
def session(event, director):
    session = setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )
    rows = sample.play(session, random.Random(5))
    uploads.upload(
        session, upload_readers.parse_pbn(sample.pbn_text(session, rows)), source=Source.PBN, user=director
    )
    recompute_event(event.pk)
    compute.boards._LIVE.clear()  # every test starts with a worker that has not scored the session
    return session


def stored(event):
    """Every stored column of every standings row but its id and its version stamp (a one-board rescore
    leaves the stamp of the version a row was computed from on the BoardScore rows of the boards it did not
    rewrite and on the SessionStanding / EventStanding rows that did not change: see
    `assert_stamps_truthful`)."""

    def rows(model, *left_out, **where):
        names = [f.attname for f in model._meta.concrete_fields if f.attname not in ("id", *left_out)]
        return sorted(model.objects.filter(**where).values_list(*names), key=repr)

    return (
        rows(BoardScore, "version_id", session__event=event),
        rows(SessionStanding, "version_id", session__event=event),
        rows(EventStanding, "event_version", event=event),
    )


def assert_stamps_truthful(session, rewritten=(), standings_rewritten=False):
    """Every BoardScore row's version is one of the session's versions up to the latest, and the board's
    results in it are those of the latest version: the row is what that version computed and is still
    right (that the rows are right: `stored` equal to the full recompute's). The boards `rewritten` carry
    the latest. Every standings row's stamp is a version up to the latest (the session's, the event's):
    the latest on all of them when `standings_rewritten` (the full recompute)."""
    latest = versions.latest_version(session)
    found = set(SessionStanding.objects.filter(session=session).values_list("version_id", flat=True))
    numbers = dict(ResultVersion.objects.filter(session=session).values_list("pk", "number"))
    assert found and all(numbers[pk] <= latest.number for pk in found), found
    event_versions = set(
        EventStanding.objects.filter(event_id=session.event_id).values_list("event_version", flat=True)
    )
    assert max(event_versions) <= latest.event_version, event_versions
    if standings_rewritten:
        assert found == {latest.pk}
        assert event_versions == {latest.event_version}
    now = defaultdict(list)
    for row in versions.rows_of(latest):
        now[row["board"]].append(row)
    stamps = defaultdict(set)
    for board, version_id in BoardScore.objects.filter(session=session).values_list("board", "version_id"):
        stamps[board].add(version_id)
    for board, found in stamps.items():
        assert len(found) == 1, (board, found)
        stamp = ResultVersion.objects.get(pk=found.pop())
        assert stamp.session_id == session.pk and stamp.number <= latest.number
        assert [r for r in versions.rows_of(stamp) if r["board"] == board] == now[board], board
        if board in rewritten:
            assert stamp == latest, board


def traveller(session, board, change):
    """The board's traveller as the web form sends it, each line passed through `change` (None: left out)."""
    labels = sample.pair_labels(session)
    lines = []
    for row in versions.rows_of(versions.latest_version(session)):
        if row["board"] != board:
            continue
        line = change({"ns": labels[row["ns_id"]], "ew": labels[row["ew_id"]], "score": str(row["score"])})
        if line is not None:
            lines.append(line)
    return upload_readers.parse_traveller(board, lines)


def post(session, director, board, change):
    uploads.upload(session, traveller(session, board, change), source=Source.FORM, user=director)


def first_changed(score):
    seen = []

    def change(line):
        if not seen:
            seen.append(line)
            return {**line, "score": str(int(line["score"]) + score)} if score else None
        return line

    return change


@pytest.mark.django_db
def test_a_changed_result_rescores_its_board_only_and_stores_the_full_recompute_rows(
    event, session, director
):
    post(session, director, 3, first_changed(+20))
    summary = recompute_boards(event.pk, session.pk, [3])
    assert summary["incremental"] is True
    assert summary["boards"] == [3]
    assert_stamps_truthful(session, rewritten=[3])
    first = versions.latest_version(session).base
    assert set(
        BoardScore.objects.filter(session=session).exclude(board=3).values_list("version", flat=True)
    ) == {first.pk}  # the unchanged boards' rows were not rewritten
    incremental = stored(event)
    recompute_event(event.pk, force=True)
    assert stored(event) == incremental

    # The next result of the session: this worker's engine state of the version before is used.
    post(session, director, 5, first_changed(-30))
    summary = recompute_boards(event.pk, session.pk, [5])
    assert summary["incremental"] is True and summary["boards"] == [5]
    incremental = stored(event)
    recompute_event(event.pk, force=True)
    assert stored(event) == incremental


@pytest.mark.django_db
def test_a_removed_result_is_scored_by_neuberg_like_the_full_recompute(event, session, director):
    post(session, director, 2, first_changed(0))  # one table's result of board 2 taken away
    summary = recompute_boards(event.pk, session.pk, [2])
    assert summary["incremental"] is True
    incremental = stored(event)
    recompute_event(event.pk, force=True)
    assert stored(event) == incremental
    assert BoardScore.objects.filter(session=session, board=2).count() + 1 == (
        BoardScore.objects.filter(session=session, board=1).count()
    )


@pytest.mark.django_db
def test_a_board_whose_rows_changed_but_not_their_scores_is_rewritten(event, session, director):
    """The web form's traveller gives scores only: the board's contracts are gone, every score the same. The
    engine's input is unchanged, the BoardScore rows (which show the contracts) are not."""
    assert BoardScore.objects.filter(session=session, board=3).exclude(contract="").exists()
    post(session, director, 3, lambda line: line)
    summary = recompute_boards(event.pk, session.pk, [3])
    assert summary["incremental"] is True and summary["boards"] == [3]
    assert not BoardScore.objects.filter(session=session, board=3).exclude(contract="").exists()
    assert_stamps_truthful(session, rewritten=[3])
    incremental = stored(event)
    recompute_event(event.pk, force=True)
    assert stored(event) == incremental


@pytest.mark.django_db
def test_stored_rows_behind_by_more_than_one_version_fall_back_to_the_full_recompute(
    event, session, director
):
    post(session, director, 3, first_changed(+20))
    post(session, director, 4, first_changed(+20))  # two versions since the stored standings
    summary = recompute_boards(event.pk, session.pk, [4])
    assert summary["incremental"] is False
    incremental = stored(event)
    recompute_event(event.pk, force=True)
    assert stored(event) == incremental
    assert recompute_boards(event.pk, session.pk, [4])["skipped"] is True  # current: nothing to do


def replaced(score):
    """The first line's score replaced by `score` (None: the line left out)."""
    seen = []

    def change(line):
        if not seen:
            seen.append(line)
            return None if score is None else {**line, "score": str(score)}
        return line

    return change


@pytest.mark.django_db
def test_any_sequence_of_single_result_changes_stores_the_full_recompute_rows(event, session, director):
    """Random single-result changes (a score moved, a result taken away) each rescored incrementally: after
    each, the stored rows are those of the full recompute, and every stamp is truthful."""
    rng = random.Random(17)
    boards = sorted(set(BoardScore.objects.filter(session=session).values_list("board", flat=True)))
    for _step in range(6):
        board = rng.choice(boards)
        scores = sorted(
            {r["score"] for r in versions.rows_of(versions.latest_version(session)) if r["board"] == board}
        )
        # the first table's result taken away, or given another table's (legal) score on the board
        post(session, director, board, replaced(rng.choice([None, *scores])))
        summary = recompute_boards(event.pk, session.pk, [board])
        assert summary["incremental"] is True
        assert board in summary["boards"]
        assert_stamps_truthful(session, rewritten=summary["boards"])
        incremental = stored(event)
        recompute_event(event.pk, force=True)  # leaves the next rescore its engine's input (event._seed_live)
        assert stored(event) == incremental
        if rng.random() < 0.25:
            compute.boards._LIVE.clear()  # sometimes the next change reaches a worker that has no state
        # the full recompute stamps every row
        assert_stamps_truthful(session, rewritten=boards, standings_rewritten=True)


def published(callbacks):
    """(task name, arguments) of the messages the transaction left for its commit."""
    return [(c.task.name, c.args) for c in callbacks if hasattr(c, "task")]


@pytest.mark.django_db
def test_a_traveller_upload_requests_the_partial_recompute_of_its_board(
    event, session, director, django_capture_on_commit_callbacks
):
    labels = sample.pair_labels(session)
    lines = [
        {"ns": labels[r["ns_id"]], "ew": labels[r["ew_id"]], "score": str(r["score"])}
        for r in versions.rows_of(versions.latest_version(session))
        if r["board"] == 4
    ]
    lines[0]["score"] = str(int(lines[0]["score"]) + 20)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        uploads.submit(session, upload_readers.FORM, user=director, board=4, lines=lines)
    assert published(callbacks) == [("bridge.tasks.recompute_pair_boards", (event.pk, session.pk, [4]))]
    # run eagerly on commit (no broker in the tests): the board rescored alone, the full recompute's rows
    assert set(
        BoardScore.objects.filter(session=session).exclude(board=4).values_list("version", flat=True)
    ) == {versions.latest_version(session).base_id}
    assert_stamps_truthful(session, rewritten=[4])
    incremental = stored(event)
    recompute_event(event.pk, force=True)
    assert stored(event) == incremental


@pytest.mark.django_db
def test_a_whole_file_again_with_one_result_changed_requests_the_partial_recompute_of_that_board(
    event, session, director, django_capture_on_commit_callbacks
):
    """A scoring program sends the whole session again after each table's result: only the boards whose
    rows changed are rescored, and the stored rows are those of the full recompute."""
    rows = versions.rows_of(versions.latest_version(session))
    on_board = [r for r in rows if r["board"] == 6]
    changed = on_board[0]
    other = next(r for r in on_board if r["score"] != changed["score"])  # another table's (legal) result
    for name in ("contract", "declarer", "tricks", "score"):
        changed[name] = other[name]
    text = sample.pbn_text(session, rows)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        uploads.submit(session, upload_readers.PBN, user=director, text=text)
    assert published(callbacks)[0] == ("bridge.tasks.recompute_pair_boards", (event.pk, session.pk, [6]))
    assert set(
        BoardScore.objects.filter(session=session).exclude(board=6).values_list("version", flat=True)
    ) == {versions.latest_version(session).base_id}
    assert_stamps_truthful(session, rewritten=[6])
    incremental = stored(event)
    recompute_event(event.pk, force=True)
    assert stored(event) == incremental

    # The same file once more: no board changed, the standings are written again from the same scores.
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        uploads.submit(session, upload_readers.PBN, user=director, text=text)
    assert published(callbacks)[0] == ("bridge.tasks.recompute_pair_boards", (event.pk, session.pk, []))
    assert_stamps_truthful(session)
    # nothing differs: no standings row was rewritten (each keeps the version it was computed from)
    before = versions.latest_version(session).base
    assert set(SessionStanding.objects.filter(session=session).values_list("version_id", flat=True)) == {
        before.pk
    }
    assert set(EventStanding.objects.filter(event=event).values_list("event_version", flat=True)) == {
        before.event_version
    }
    incremental = stored(event)
    recompute_event(event.pk, force=True)
    assert stored(event) == incremental


@pytest.mark.django_db
def test_a_whole_file_with_new_deals_requests_the_full_recompute(
    event, session, director, django_capture_on_commit_callbacks
):
    """New deals need their hand records, which only the full recompute asks for."""
    rows = versions.rows_of(versions.latest_version(session))
    deals = {1: "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"}
    with django_capture_on_commit_callbacks() as callbacks:
        uploads.submit(session, upload_readers.PBN, user=director, text=sample.pbn_text(session, rows, deals))
    assert published(callbacks) == [("bridge.tasks.recompute_pair_results", (event.pk,))]


@pytest.mark.django_db
@pytest.mark.parametrize("scope", [Exclusion.SESSION, Exclusion.EVENT])
def test_with_an_exclusion_single_result_changes_stay_incremental_and_store_the_full_recompute_rows(
    event, session, director, scope
):
    """VSz 23: the incremental path takes the excluded results out and seats the opponents' absent sides
    (average-plus) as the full recompute does: after each random change on any board (those of the
    excluded pair among them) the stored rows are those of the full recompute."""
    seat = SessionPair.objects.get(section__session=session, number=2)
    plan = session.sections.first().plan()
    mine = sorted({b for a in plan.assignments if seat.number in (a.ns, a.ew) for b in a.boards})
    late = mine[len(mine) // 2 :] if scope == Exclusion.SESSION else []
    consent = "a Fellebbviteli Bizottság hozzájárult" if scope == Exclusion.EVENT else ""
    roster.record_exclusion(session, seat.pair, director, scope, late, "sportszerűtlenség", consent)
    recompute_event(event.pk)
    assert (
        BoardScore.objects.filter(session=session, ns__isnull=True).exists()
        or BoardScore.objects.filter(session=session, ew__isnull=True).exists()
    )  # the opponents' absent sides are there
    compute.boards._LIVE.clear()
    rng = random.Random(23)
    boards = sorted(set(BoardScore.objects.filter(session=session).values_list("board", flat=True)))
    for step in range(6):
        # every other change on a board of the excluded pair's measure (its opponents' average-plus)
        board = rng.choice((late or mine) if step % 2 == 0 else boards)
        scores = sorted(
            {r["score"] for r in versions.rows_of(versions.latest_version(session)) if r["board"] == board}
        )
        post(session, director, board, replaced(rng.choice([None, *scores])))
        summary = recompute_boards(event.pk, session.pk, [board])
        # (a changed result of the excluded pair changes nothing the engine is given: no board rescored)
        assert summary["incremental"] is True
        incremental = stored(event)
        recompute_event(event.pk, force=True)
        assert stored(event) == incremental
        if rng.random() < 0.25:
            compute.boards._LIVE.clear()
    if scope == Exclusion.EVENT:  # not ranked at all
        assert not EventStanding.objects.filter(pair=seat.pair).exists()
    else:
        assert SessionStanding.objects.get(pair_id=seat.pk).boards == len(mine) - len(late)
