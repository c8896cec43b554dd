"""What an entry looks like in each event format (pure: no Django).

Bridge pairs are two players, bridge teams four to six (VSz 34: a team may have substitutes); ulti teams
and sport ulti entries are exactly three players with a team name, seated on lines A, B, C (MAUSZ 11, 12).
"""

from dataclasses import dataclass

INDIVIDUAL = "individual"
PAIRS = "pairs"
TEAMS = "teams"
ULTI_INDIVIDUAL = "ulti_individual"
ULTI_TEAM = "ulti_team"
SPORT_ULTI = "sport_ulti"

ULTI_LINES = ("A", "B", "C")

# The ulti event classes that fix the format.
FORMAT_OF_ULTI_CLASS = {
    "nub_qualifier": ULTI_INDIVIDUAL,
    "nub_semifinal": ULTI_INDIVIDUAL,
    "nub_final": ULTI_INDIVIDUAL,
    "team_regional": ULTI_TEAM,
    "team_final": ULTI_TEAM,
    "sport_ulti": SPORT_ULTI,
}


@dataclass(frozen=True)
class Shape:
    min_players: int
    max_players: int
    team_name_required: bool = False
    lines: tuple[str, ...] = ()
    partner_confirms: bool = False

    @property
    def is_team(self) -> bool:
        return self.max_players > 2


SHAPES = {
    INDIVIDUAL: Shape(1, 1),
    ULTI_INDIVIDUAL: Shape(1, 1),
    PAIRS: Shape(2, 2, partner_confirms=True),
    TEAMS: Shape(4, 6, partner_confirms=True),
    ULTI_TEAM: Shape(3, 3, team_name_required=True, lines=ULTI_LINES, partner_confirms=True),
    SPORT_ULTI: Shape(3, 3, team_name_required=True, lines=ULTI_LINES, partner_confirms=True),
}


def shape_of(event_format: str) -> Shape:
    return SHAPES[event_format]
