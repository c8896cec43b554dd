"""The round clock (VSz 31, issue #18): a round's time limit and the tables that are late.

VSz 31 ("Időkorlátok, lassú játék"): the playing time of a table is set by the organisers (the director),
who must take into account these guideline figures, which include the change of tables but not shuffling,
duplicating or checking the cards: 2 boards 15 minutes, 3 boards 22 minutes, 4 boards 28 minutes. The
organisers may allow one minute more per change; at an event with screens or with beginners the allowed
time may be one minute more per board.

The rule gives figures for 2, 3 and 4 boards only and leaves every other count to the director. For
those counts this engine proposes a time the director may overrule: one board 8 minutes (the 2-board
figure less the 7 minutes a board takes on the rule's figures), five boards or more 7 minutes a board
(the 4-board figure's 28 / 4). So the proposal keeps growing with the boards, and meets the rule's own
figures where it gives them.

Plain Python: no Django. Times are aware or naive datetimes, the caller's choice, used consistently.
"""

from dataclasses import dataclass
from datetime import datetime

# The clock's arithmetic is the games' shared one; VSz 31's time limit and late tables are bridge's.
from tournaments.engine.clock import ends_at

# VSz 31: boards of a round -> minutes (change of tables included).
GUIDELINE = {2: 15, 3: 22, 4: 28}
ONE_BOARD = 8  # not in the rule: 15 - 7 (see the module's comment)
PER_BOARD_BEYOND = 7  # not in the rule: 28 / 4 minutes a board from five boards on


def time_limit(boards: int, *, screens_or_beginners: bool = False, change_minute: bool = False) -> int:
    """The minutes a round of `boards` boards may take (VSz 31).

    `screens_or_beginners`: one minute more per board; `change_minute`: the organisers' one extra
    minute per change."""
    if boards < 1:
        raise ValueError("A round has at least one board.")
    if boards in GUIDELINE:
        minutes = GUIDELINE[boards]
    elif boards == 1:
        minutes = ONE_BOARD
    else:
        minutes = PER_BOARD_BEYOND * boards
    if screens_or_beginners:
        minutes += boards
    if change_minute:
        minutes += 1
    return minutes


@dataclass(frozen=True)
class TableState:
    """One table as the clock sees it: which round it is in (None: finished) and its boards done."""

    table: object  # the caller's key of the table (a number, "A3", a code)
    round: int | None
    boards: int  # boards of that round at this table
    done: int  # of them, entered and confirmed (or filed by the director)

    @property
    def missing(self) -> int:
        return max(self.boards - self.done, 0)


def late_tables(
    clock_round: int, started_at: datetime, minutes: int, now: datetime, tables: list[TableState]
) -> list[TableState]:
    """The tables late for the round whose clock started at `started_at`: once its time is over, every
    table still in that round (or an earlier one) with a board missing. Before the time is over, none."""
    if now < ends_at(started_at, minutes):
        return []
    return [t for t in tables if t.round is not None and t.round <= clock_round and t.missing > 0]
