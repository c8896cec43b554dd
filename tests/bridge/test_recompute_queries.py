"""The pairs recompute's queries do not grow with the number of pairs: not the full recompute's, not a
one-board rescore's (the reads in one round trip on PostgreSQL, the writes in one more plus COPY streams,
which are not queries)."""

import datetime
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from bridge.models import EventStanding
from bridge.services import compute, setup, upload_readers, uploads, versions
from bridge.services.compute import recompute_boards, recompute_event
from demo import bridge_sample as sample
from federation.models import Role
from results.models import VersionedUpload

pytestmark = pytest.mark.django_db
START = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))


def one_result_changed(session, director, board):
    """A new version whose first result on `board` scores 20 more (the web form's traveller)."""
    labels = sample.pair_labels(session)
    lines = []
    for row in versions.rows_of(versions.latest_version(session)):
        if row["board"] == board:
            lines.append({"ns": labels[row["ns_id"]], "ew": labels[row["ew_id"]], "score": str(row["score"])})
    lines[0]["score"] = str(int(lines[0]["score"]) + 20)
    uploads.upload(
        session,
        upload_readers.parse_traveller(board, lines),
        source=VersionedUpload.Source.FORM,
        user=director,
    )


def test_recompute_queries_do_not_grow_with_the_pairs(mbsz, make_user):
    full, incremental = [], []
    for pairs in (10, 26):
        event = sample.event_with_pairs(mbsz, pairs=pairs, title=f"Verseny {pairs}", start=START)
        director = make_user(f"td{pairs}@example.hu", kind=Role.DIRECTOR, event=event)
        session = setup.create_session(
            event,
            movement="mitchell",
            pairs=setup.pairs_from_entries(event),
            announced=event.sessions.first(),
        )
        rows = sample.play(session, random.Random(pairs))
        uploads.upload(
            session,
            upload_readers.parse_pbn(sample.pbn_text(session, rows)),
            source=VersionedUpload.Source.PBN,
            user=director,
        )
        recompute_event(event.pk)
        with CaptureQueriesContext(connection) as queries:
            recompute_event(event.pk, force=True)
        full.append(len(queries))
        assert EventStanding.objects.filter(event=event).count() == pairs

        # one result changed, rescored by a worker that holds the session's engine state (the usual case)
        # and by one that must read the session first: neither reads or writes per pair
        for fresh in (False, True):
            if fresh:
                compute.boards._LIVE.clear()
            one_result_changed(session, director, 2)
            with CaptureQueriesContext(connection) as queries:
                summary = recompute_boards(event.pk, session.pk, [2])
            assert summary["incremental"] is True
            incremental.append(len(queries))
    assert full[0] == full[1], full
    assert incremental[0] == incremental[2] and incremental[1] == incremental[3], incremental
