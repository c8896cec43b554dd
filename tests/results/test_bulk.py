"""results.bulk: reads compiled once per shape, and the garbage collector held off around a recompute."""

import contextlib
import gc

import pytest
from django.db import connection

from bridge.models import BoardResult
from bridge.services import individual
from bridge.services.compute import boards
from bridge.services.compute import event as bridge_event
from results import bulk, services
from teams.services import recompute as teams_recompute
from ulti.services import recompute as ulti_recompute


def _rows_of(version_id, board_numbers):
    return [
        BoardResult.objects.filter(version_id=version_id, board__in=board_numbers)
        .order_by("board", "table")
        .values_list("board", "table")
    ]


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_shape_is_compiled_once_and_each_call_reads_its_own_values(monkeypatch):
    """A board number is a SmallIntegerField: psycopg wraps it (Int2), which must still count as a value
    whose place is known (else every call compiled its querysets again: a sixth of a one-board rescore)."""
    if connection.vendor != "postgresql":
        pytest.skip("compiled shapes are kept on PostgreSQL only")
    built = []

    def build(version_id, board_numbers):
        built.append((version_id, list(board_numbers)))
        return _rows_of(version_id, board_numbers)

    monkeypatch.setattr(bulk, "_SHAPES", {})
    key = ("test-boards", 2)
    params = []
    original = bulk._fetch_all

    def fetch(compilers, statements):
        params.append([list(p) for _sql, p in statements])
        return original(compilers, statements)

    monkeypatch.setattr(bulk, "_fetch_all", fetch)
    assert bulk.read_shaped(key, build, 7, [3, 4]) == [[]]
    assert bulk.read_shaped(key, build, 8, [5, 6]) == [[]]
    assert len(built) == 1  # the second call reused the compiled statement
    assert sorted(int(v) for v in params[0][0]) == [3, 4, 7]
    assert sorted(int(v) for v in params[1][0]) == [5, 6, 8]  # the second call's own values


def test_gc_paused_holds_the_collector_off_and_restores_it():
    assert gc.isenabled()
    with bulk.gc_paused():
        assert not gc.isenabled()
        with bulk.gc_paused():  # nested: still off, and the outer one turns it back on
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(RuntimeError), bulk.gc_paused():
        raise RuntimeError("a failed recompute")
    assert gc.isenabled()


@pytest.mark.parametrize(
    "recompute_of",
    [
        lambda: boards.recompute_boards(1, 1, [1]),
        lambda: bridge_event.recompute_event(1, force=True),
        lambda: individual.recompute_event(1),
        lambda: teams_recompute.recompute_event(1, force=True),
        lambda: ulti_recompute.recompute_event(1, force=True),
    ],
    ids=["bridge-board", "bridge-event", "bridge-individual", "teams", "ulti"],
)
def test_every_games_recompute_runs_with_the_collector_held_off(recompute_of, monkeypatch):
    # Each game's recompute goes through results.services.recompute, which locks the event's state first:
    # that is where the collector must already be off.
    seen = []

    def locking(*args, **kwargs):
        seen.append(gc.isenabled())
        raise RuntimeError("stop")

    monkeypatch.setattr(services, "lock_state", locking)
    monkeypatch.setattr(services, "_derived_commit", lambda: None)
    monkeypatch.setattr(services.transaction, "atomic", contextlib.nullcontext)
    with pytest.raises(RuntimeError):
        recompute_of()
    assert seen == [False] and gc.isenabled()
