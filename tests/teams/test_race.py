"""Uploads and recomputes of one event racing each other (PostgreSQL row locks): every version is
counted once, and the last recompute leaves every match scored and nothing "processing"."""

import threading

import pytest
from django.db import connection, connections

from results.services import state_of
from teams.models import SCOPE, MatchResult, Standing
from teams.services import pairing, results


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_uploads_and_recomputes(make_team_event, director, level):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL row locks (SQLite serialises writers differently)")
    event = make_team_event(teams=8, first_round="seeding")
    user = director(event)
    round_ = pairing.publish_round(pairing.generate_round(event, user), user)  # recompute runs on commit
    matches = list(round_.matches.all())
    start = threading.Barrier(len(matches))
    errors = []

    def upload(match):
        try:
            start.wait()
            # Each commit publishes a recompute (eager Celery: it runs here, racing the others).
            results.upload_result(match, user, level(round_.boards, 50))
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=upload, args=(m,)) for m in matches]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert errors == []
    state = state_of(event.pk, SCOPE)
    assert state.latest_version == 1 + len(matches) and not state.processing
    assert MatchResult.objects.filter(match__round=round_).count() == len(matches)
    assert Standing.objects.filter(event=event, after_round=1).count() == 8
