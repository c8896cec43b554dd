"""The round clock engine (VSz 31, issue #18): time limits and late tables."""

from datetime import datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridge.engine.round_clock import TableState, late_tables, time_limit
from tournaments.engine.clock import seconds_left

START = datetime(2026, 5, 9, 10, 0)


@pytest.mark.parametrize("boards,minutes", [(2, 15), (3, 22), (4, 28)])
def test_the_rules_figures(boards, minutes):
    assert time_limit(boards) == minutes


def test_screens_or_beginners_add_a_minute_a_board_and_the_change_minute_one():
    assert time_limit(3, screens_or_beginners=True) == 25
    assert time_limit(4, screens_or_beginners=True, change_minute=True) == 33
    assert time_limit(2, change_minute=True) == 16


def test_counts_the_rule_leaves_to_the_director():
    assert time_limit(1) == 8
    assert time_limit(5) == 35
    assert time_limit(6) == 42
    with pytest.raises(ValueError):
        time_limit(0)


@given(st.integers(1, 40), st.booleans(), st.booleans())
def test_the_limit_grows_with_the_boards(boards, screens, change):
    fewer = time_limit(boards, screens_or_beginners=screens, change_minute=change)
    more = time_limit(boards + 1, screens_or_beginners=screens, change_minute=change)
    assert more > fewer > 0
    assert time_limit(boards, screens_or_beginners=True, change_minute=change) == fewer + (
        0 if screens else boards
    )


def test_seconds_left_counts_down_and_below_zero():
    assert seconds_left(START, 15, START) == 900
    assert seconds_left(START, 15, START + timedelta(minutes=14, seconds=30)) == 30
    assert seconds_left(START, 15, START + timedelta(minutes=15, seconds=1, microseconds=5)) == -2


def test_late_tables_once_the_time_is_over():
    tables = [
        TableState(1, 2, 2, 2),  # round 2 done: in the next round already would be round 3
        TableState(2, 2, 2, 1),  # a board missing
        TableState(3, 1, 2, 0),  # still in an earlier round
        TableState(4, 3, 2, 0),  # already in the next round
        TableState(5, None, 0, 0),  # finished
    ]
    assert late_tables(2, START, 15, START + timedelta(minutes=14), tables) == []
    late = late_tables(2, START, 15, START + timedelta(minutes=15), tables)
    assert [t.table for t in late] == [2, 3]
    assert late[0].missing == 1
