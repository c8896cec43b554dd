"""The director's qualification an event needs (VSz 9: "a verseny színvonalának megfelelő képesítéssel").

The VSz asks for a qualification matching the event's standing without listing the levels; the register
knows three (club, national, international). National and championship events, selection matches and the
ulti federation's semifinals, finals and sport ulti championship need a national director at least; every
other event a club director."""

CLUB, NATIONAL, INTERNATIONAL = "club", "national", "international"

NATIONAL_CLASSES = frozenset(
    {"national", "championship", "selection", "nub_semifinal", "nub_final", "team_final", "sport_ulti"}
)


def required_level(event_class: str) -> str:
    return NATIONAL if event_class in NATIONAL_CLASSES else CLUB
