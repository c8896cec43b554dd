"""A round's clock, as the games' control rooms and phones show it (issue #18): when the time is over, the
seconds left (negative once over), and which tables are late. The games decide the time limit itself
(bridge: VSz 31 by boards, `bridge/engine/round_clock.py`; ulti: the rule set's minimum round time,
`ulti/engine/round_clock.py`). Plain Python."""

from dataclasses import dataclass
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


@dataclass(frozen=True)
class Reading:
    """A started round clock read at `now`, as the control room and the phone first show it (the countdown
    script carries on from `seconds_left`). `row` is the game's stored clock: it has `started_at` and
    `minutes` (bridge's also its round number, ulti's its round)."""

    row: object
    now: datetime

    @property
    def minutes(self) -> int:
        return self.row.minutes

    @property
    def ends_at(self) -> datetime:
        return ends_at(self.row.started_at, self.row.minutes)

    @property
    def seconds_left(self) -> int:
        return seconds_left(self.row.started_at, self.row.minutes, self.now)

    @property
    def over(self) -> bool:
        return self.seconds_left <= 0

    @property
    def shown(self) -> str:
        return shown(self.seconds_left)

    def late(self, finished: bool) -> bool:
        return is_late(self.row.started_at, self.row.minutes, self.now, finished)
