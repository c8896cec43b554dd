"""Artificial adjusted scores (VSz 29) and procedural penalties (VSz 27, 32).

An artificial score is given per line, so one table can produce two different awards (average-plus for
the blameless side, average-minus for the offenders: "A+/A-"). Penalties are a percentage of a board's top,
taken from one pair on one board or from its session total; they never change the opponents' score.
"""

from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from bridge.engine.scoring.matchpoints import HUNDRED, HUNDREDTH, round_half_up


class Award(StrEnum):
    AVERAGE_PLUS = "A+"
    AVERAGE = "A"
    AVERAGE_MINUS = "A-"


# VSz 29: average-plus is at least 60% of the top (more if the pair's session average is higher).
AWARD_PERCENT = {
    Award.AVERAGE_PLUS: Decimal(60),
    Award.AVERAGE: Decimal(50),
    Award.AVERAGE_MINUS: Decimal(40),
}
# Law 12C2 for IMP scoring: plus or minus 3 IMPs.
AWARD_IMPS = {Award.AVERAGE_PLUS: 3, Award.AVERAGE: 0, Award.AVERAGE_MINUS: -3}


@dataclass(frozen=True)
class ArtificialScore:
    """The award of each line at one table."""

    ns: Award
    ew: Award

    @classmethod
    def parse(cls, text: str) -> "ArtificialScore":
        """'A', 'A+', 'A-' (both lines the same) or 'A+/A-' (NS/EW); a leading PBN '^' is allowed."""
        parts = text.strip().lstrip("^").split("/")
        if len(parts) > 2:
            raise ValueError(f"not an artificial score: {text!r}")
        try:
            awards = [Award(part.strip().upper()) for part in parts]
        except ValueError:
            raise ValueError(f"not an artificial score: {text!r} (use A+, A, A- or NS/EW like A+/A-)")
        return cls(awards[0], awards[-1])

    def __str__(self) -> str:
        return str(self.ns) if self.ns == self.ew else f"{self.ns}/{self.ew}"


def session_average(mp: Decimal, top: Decimal) -> Decimal | None:
    """A pair's percentage on the boards it played normally in the session (VSz 29), or None if none."""
    if not top:
        return None
    return round_half_up(mp * HUNDRED / top, HUNDREDTH)


def award_percentage(award: Award, average: Decimal | None = None) -> Decimal:
    """Percentage of the top an award is worth; average-plus is the larger of 60% and the session average."""
    percent = AWARD_PERCENT[award]
    if award == Award.AVERAGE_PLUS and average is not None:
        return max(percent, average)
    return percent


@dataclass(frozen=True)
class Penalty:
    """A procedural penalty in percent of a board's top; board None takes it from the session total."""

    pair: str
    percent: Decimal
    board: int | None = None
    reason: str = ""

    def __post_init__(self) -> None:
        if not 0 < Decimal(self.percent) <= 100:
            raise ValueError(f"a penalty is a percentage of the top between 0 and 100, not {self.percent}")


# VSz 27: a wrongly duplicated or laid-out board costs both pairs 50% the first time, 25% each further time;
# not noticing such a board costs 25%.
FIRST_FOULING_PERCENT = Decimal(50)
FURTHER_FOULING_PERCENT = Decimal(25)
UNNOTICED_FOULING_PERCENT = Decimal(25)

# VSz 32: the range a director chooses from for each offence, in percent of the top (0: a warning).
PENALTY_RANGES = {
    "leaving_table": (Decimal(0), Decimal(50)),
    "wrong_or_missing_score": (Decimal(0), Decimal(50)),
    "wrong_board": (Decimal(0), Decimal(25)),
    "board_without_13_cards": (Decimal(0), Decimal(25)),
    "taking_other_cards": (Decimal(0), Decimal(50)),
    "early_card_exchange": (Decimal(0), Decimal(25)),
    "incomplete_convention_card": (Decimal(0), Decimal(50)),
    "missing_convention_card": (Decimal(50), Decimal(100)),
}


def fouling_penalty_percent(previous_offences: int) -> Decimal:
    """Penalty for a wrongly duplicated board, given how many the pair has already been penalised for."""
    return FIRST_FOULING_PERCENT if previous_offences == 0 else FURTHER_FOULING_PERCENT
