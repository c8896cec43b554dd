"""A round's clock, as the games' control rooms and phones show it (issue #18): when the time is over, the
seconds left (negative once over), and which tables are late. The games decide the time limit itself
(bridge: VSz 31 by boards, `bridge/engine/round_clock.py`; ulti: the rule set's minimum round time,
`ulti/engine/round_clock.py`). Plain Python."""

from datetime import datetime, timedelta


def ends_at(started_at: datetime, minutes: int) -> datetime:
    return started_at + timedelta(minutes=minutes)


def seconds_left(started_at: datetime, minutes: int, now: datetime) -> int:
    """Whole seconds until the round's time is over; negative once it is over (how much over)."""
    left = (ends_at(started_at, minutes) - now).total_seconds()
    return int(left) if left >= 0 else -int(-left + 0.999999)


def shown(seconds: int) -> str:
    """The time left as m:ss ("−m:ss" once over)."""
    left = abs(seconds)
    return f"{'−' if seconds < 0 else ''}{left // 60}:{left % 60:02d}"


def is_late(started_at: datetime, minutes: int, now: datetime, finished: bool) -> bool:
    """A table is late once the round's time is over and it has not finished the round."""
    return not finished and now >= ends_at(started_at, minutes)
