"""Age categories of VSz 3, as pure functions (no Django).

Junior: did NOT turn 25 in the calendar year before the event.
Senior: turned 55 (or more) in the calendar year before the event.
"""

from datetime import date

JUNIOR_AGE_LIMIT = 25
SENIOR_AGE = 55


def age_reached_in_year_before(birth_date: date, event_date: date) -> int:
    """The age the person turned (or turns) during the calendar year before the event."""
    return (event_date.year - 1) - birth_date.year


def is_junior(birth_date: date, event_date: date) -> bool:
    return age_reached_in_year_before(birth_date, event_date) < JUNIOR_AGE_LIMIT


def is_senior(birth_date: date, event_date: date) -> bool:
    return age_reached_in_year_before(birth_date, event_date) >= SENIOR_AGE


def category(birth_date: date, event_date: date) -> str:
    """'junior', 'senior' or 'open' for an event date."""
    if is_junior(birth_date, event_date):
        return "junior"
    if is_senior(birth_date, event_date):
        return "senior"
    return "open"
