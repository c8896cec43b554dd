"""VSz 3: junior = did not turn 25 in the year before the event; senior = turned 55 in the year before."""

import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from federation.engine.age import category, is_junior, is_senior

EVENT = datetime.date(2026, 6, 15)


@pytest.mark.parametrize(
    ("birth", "junior"),
    [
        # Turned 24 in 2025: junior.
        (datetime.date(2001, 12, 31), True),
        # Turned 25 on 1 January 2025: no longer junior for any 2026 event.
        (datetime.date(2000, 1, 1), False),
        # Turns 25 only on 31 December 2025 - still "turned 25 in the year before": not junior.
        (datetime.date(2000, 12, 31), False),
        # Born 1 January 2001: turned 24 in 2025, junior all of 2026 even after turning 25 in 2026.
        (datetime.date(2001, 1, 1), True),
    ],
)
def test_junior_boundaries(birth, junior):
    assert is_junior(birth, EVENT) is junior


@pytest.mark.parametrize(
    ("birth", "senior"),
    [
        (datetime.date(1970, 12, 31), True),  # turned 55 on the last day of 2025
        (datetime.date(1970, 1, 1), True),
        (datetime.date(1971, 1, 1), False),  # turns 55 only in 2026: senior from 2027
        (datetime.date(1940, 3, 3), True),
    ],
)
def test_senior_boundaries(birth, senior):
    assert is_senior(birth, EVENT) is senior


def test_the_category_depends_on_the_event_year_not_the_day():
    birth = datetime.date(1971, 7, 1)
    assert category(birth, datetime.date(2026, 12, 31)) == "open"
    assert category(birth, datetime.date(2027, 1, 1)) == "senior"
    young = datetime.date(2001, 6, 1)
    assert category(young, datetime.date(2026, 12, 31)) == "junior"
    assert category(young, datetime.date(2027, 1, 1)) == "open"


@given(
    st.dates(min_value=datetime.date(1900, 1, 1), max_value=datetime.date(2030, 1, 1)),
    st.dates(min_value=datetime.date(1990, 1, 1), max_value=datetime.date(2040, 1, 1)),
)
def test_nobody_is_both_junior_and_senior(birth, event):
    assert not (is_junior(birth, event) and is_senior(birth, event))
