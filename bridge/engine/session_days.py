"""VSz 24 c: a pairs event plays at most two sessions a day, with at least an hour's break between them.

"Egy nap maximum két fordulót lehet játszani (legalább 1 óra szünettel)." A session ends when its rounds are
played: the expected length is its rounds times the VSz 31 time limit of a round (`round_clock.time_limit`);
a session whose movement is not made yet has no known length, and only its start is compared (the next
session must start at least an hour after it starts, the least the rule allows).

Plain Python: starts are naive local datetimes (the day is the local calendar day).
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from .round_clock import time_limit

MAX_SESSIONS_A_DAY = 2
MIN_BREAK = timedelta(hours=1)


@dataclass(frozen=True)
class PlannedSession:
    label: str  # the session's name as the director knows it
    starts_at: datetime
    minutes: int | None = None  # expected length, None when not known


@dataclass(frozen=True)
class DayFinding:
    code: str  # "too_many_sessions" or "short_break"
    params: dict


def expected_minutes(rounds: int, boards_per_round: int) -> int:
    """The playing time of a session: every round at the VSz 31 time limit of its boards."""
    return rounds * time_limit(boards_per_round)


def check(sessions: list[PlannedSession]) -> list[DayFinding]:
    """The VSz 24 c findings over an event's sessions, day by day, in start order."""
    ordered = sorted(sessions, key=lambda s: s.starts_at)
    by_day: dict = {}
    for s in ordered:
        by_day.setdefault(s.starts_at.date(), []).append(s)
    findings = []
    for day, same_day in by_day.items():
        if len(same_day) > MAX_SESSIONS_A_DAY:
            findings.append(
                DayFinding(
                    "too_many_sessions",
                    {"day": day, "count": len(same_day), "sessions": [s.label for s in same_day]},
                )
            )
        for first, second in zip(same_day, same_day[1:], strict=False):
            ends = first.starts_at + timedelta(minutes=first.minutes or 0)
            gap = second.starts_at - ends
            if gap < MIN_BREAK:
                findings.append(
                    DayFinding(
                        "short_break",
                        {
                            "first": first.label,
                            "second": second.label,
                            "minutes": max(int(gap.total_seconds() // 60), 0),
                            "known_length": first.minutes is not None,
                        },
                    )
                )
    return findings
