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


@dataclass(frozen=True)
class Offence:
    """A catalogue entry: the rule that sets it and the range of the penalty, in percent of the top (a low
    of 0 means the director may also only warn; low == high is a fixed, automatic penalty)."""

    code: str
    clause: str
    low: Decimal
    high: Decimal

    @property
    def fixed(self) -> bool:
        return self.low == self.high


OTHER = "other"
FOULING_DUPLICATION = "fouling_duplication"
FOULING_UNNOTICED = "fouling_unnoticed"
_CLAUSES = {
    "leaving_table": "VSz 32 a",
    "wrong_or_missing_score": "VSz 32 b",
    "wrong_board": "VSz 32 c",
    "board_without_13_cards": "VSz 32 d",
    "taking_other_cards": "VSz 32 e",
    "early_card_exchange": "VSz 32 f",
    "incomplete_convention_card": "VSz 32 g",
    "missing_convention_card": "VSz 32 g",
}
PENALTY_CATALOGUE = {
    **{code: Offence(code, _CLAUSES[code], low, high) for code, (low, high) in PENALTY_RANGES.items()},
    # VSz 27: the first wrong duplication 50%, each further one 25%; the size follows from the pair's record.
    FOULING_DUPLICATION: Offence(
        FOULING_DUPLICATION, "VSz 27", FURTHER_FOULING_PERCENT, FIRST_FOULING_PERCENT
    ),
    FOULING_UNNOTICED: Offence(
        FOULING_UNNOTICED, "VSz 27", UNNOTICED_FOULING_PERCENT, UNNOTICED_FOULING_PERCENT
    ),
    # VSz 32 h: any other breach, up to exclusion (which is not a percentage): the director names the size.
    OTHER: Offence(OTHER, "VSz 32 h", Decimal(0), Decimal(100)),
}


class PenaltyOutOfRange(ValueError):
    def __init__(self, offence: Offence, percent: Decimal):
        self.offence, self.percent = offence, percent
        super().__init__(f"{offence.clause}: {offence.code} is {offence.low}-{offence.high}%, not {percent}%")


def check_penalty(code: str, percent: Decimal) -> Offence:
    """The catalogue entry of `code`, if `percent` is within its range (KeyError for an unknown code).
    A percentage of 0 is a warning: no penalty row is written for it, so it is refused here."""
    offence = PENALTY_CATALOGUE[code]
    percent = Decimal(percent)
    if not (offence.low <= percent <= offence.high) or percent <= 0:
        raise PenaltyOutOfRange(offence, percent)
    return offence


# VSz 30: the boards a late pair could not play are scored as VSz 29 says: average-minus (40%) to the late
# pair, average-plus to its opponents; average (50%) to the late pair when it was vis major (an accident, a
# late train). Keyed by (late line, vis major), the award as NS/EW.
LATENESS_AWARDS = {
    ("NS", False): "A-/A+",
    ("EW", False): "A+/A-",
    ("NS", True): "A/A+",
    ("EW", True): "A+/A",
}


def fouling_penalty_percent(previous_offences: int) -> Decimal:
    """Penalty for a wrongly duplicated board, given how many the pair has already been penalised for."""
    return FIRST_FOULING_PERCENT if previous_offences == 0 else FURTHER_FOULING_PERCENT
