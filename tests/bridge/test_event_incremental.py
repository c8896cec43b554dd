"""One table's result at a time (compute.recompute_boards): the board and the standings are rescored from
the worker's engine state and the stored rows are exactly those the full recompute writes."""

import datetime
import random

import pytest
from django.utils import timezone

from bridge.models import BoardScore, EventStanding, SessionStanding
from bridge.services import compute, setup, uploads, versions
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
        session, uploads.parse_pbn(sample.pbn_text(session, rows)), source=Source.PBN, user=director
    )
    recompute_event(event.pk)
    compute.boards._LIVE.clear()  # every test starts with a worker that has not scored the session
    return session


def stored(event):
    """Every stored column of every standings row but its id."""

    def rows(model, **where):
        names = [f.attname for f in model._meta.concrete_fields if f.attname != "id"]
        return sorted(model.objects.filter(**where).values_list(*names), key=repr)

    return (
        rows(BoardScore, session__event=event),
        rows(SessionStanding, session__event=event),
        rows(EventStanding, event=event),
    )


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
    return uploads.parse_traveller(board, lines)


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
