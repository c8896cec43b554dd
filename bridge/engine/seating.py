"""VSz 13 seating in a mixed-pairs event: the lady always sits South or West, the gentleman North or East.

The movement seats a pair's first player North (East on the EW line) and, after an arrow switch, moves N to E,
S to W, E to S and W to N (`movements.guide_cards`); so a pair entered lady first, or an EW pair in an
arrow-switched round, would put the lady North or East. The check names the pair and those rounds.
"""

from dataclasses import dataclass

from .movements import GuideEntry

FEMALE, MALE = "F", "M"
LADY_SEATS = frozenset({"S", "W"})


@dataclass(frozen=True)
class SeatingFinding:
    code: str  # "lady_north_east" or "not_mixed"
    pair: int
    rounds: tuple[int, ...] = ()
    seats: tuple[str, ...] = ()  # the lady's wrong seat in each of those rounds


def lady_index(genders: tuple[str | None, str | None]) -> int | None:
    """0 or 1: which of the pair's two players is the lady; None unless one lady and one gentleman."""
    if sorted(g or "" for g in genders) != [FEMALE, MALE]:
        return None
    return genders.index(FEMALE)


def mixed_findings(
    cards: dict[int, list[GuideEntry]], genders: dict[int, tuple[str | None, str | None]]
) -> list[SeatingFinding]:
    """`genders`: per seated pair number, the genders of its first and second player (a pair not seated
    yet is left out and not checked)."""
    findings = []
    for pair in sorted(genders):
        index = lady_index(genders[pair])
        if index is None:
            findings.append(SeatingFinding("not_mixed", pair))
            continue
        wrong = [
            (e.round, e.seats[index])
            for e in cards.get(pair, [])
            if e.seats and e.seats[index] not in LADY_SEATS
        ]
        if wrong:
            findings.append(
                SeatingFinding(
                    "lady_north_east", pair, tuple(r for r, _s in wrong), tuple(s for _r, s in wrong)
                )
            )
    return findings
