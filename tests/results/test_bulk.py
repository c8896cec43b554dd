"""results.bulk: reads compiled once per shape, and the garbage collector held off around a recompute."""

import gc

import pytest
from django.db import connection

from bridge.models import BoardResult
from bridge.services.compute import boards
from results import bulk


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


def test_the_recomputes_run_with_the_collector_held_off(monkeypatch):
    seen = []

    def fake(*args, **kwargs):
        seen.append(gc.isenabled())
        raise RuntimeError("stop")

    monkeypatch.setattr(boards, "recompute", fake)
    with pytest.raises(RuntimeError):
        boards.recompute_boards(1, 1, [1])
    assert seen == [False] and gc.isenabled()
