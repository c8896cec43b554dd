"""What a bid is made of, and what can be achieved without bidding it (MAUSZ I.1-2).

Values are in units (egység) before the red (piros) doubling; the bid decides whether they are doubled.
"""

from enum import Enum


class Component(Enum):
    """A part of a bid that is won or lost on its own (each with its own kontra)."""

    PARTI = ("parti", 1)
    FORTY_HUNDRED = ("40-100", 4)
    TWENTY_HUNDRED = ("20-100", 8)
    ULTI = ("ulti", 4)
    FOUR_ACES = ("four aces", 4)
    DURCHMARS = ("durchmars", 6)
    OPEN_DURCHMARS = ("open durchmars", 12)
    BETLI = ("betli", 5)
    REBETLI = ("rebetli", 10)
    OPEN_BETLI = ("open betli", 20)
    NO_TRUMP_DURCHMARS = ("no-trump durchmars", 6)
    REDURCHMARS = ("redurchmars", 12)
    NO_TRUMP_OPEN_DURCHMARS = ("no-trump open durchmars", 24)

    def __init__(self, label: str, units: int):
        self.label = label
        self.units = units

    @property
    def no_trump(self) -> bool:
        return self in NO_TRUMP_GAMES


# Played without trumps and only on their own; a kontra in them binds only the doubler (I.3 (3)).
NO_TRUMP_GAMES = frozenset(
    {
        Component.BETLI,
        Component.REBETLI,
        Component.OPEN_BETLI,
        Component.NO_TRUMP_DURCHMARS,
        Component.REDURCHMARS,
        Component.NO_TRUMP_OPEN_DURCHMARS,
    }
)

# Any degree of durchmars: four aces may not be bid beside one, and a made one voids a silent four aces.
SUITED_DURCHMARS = frozenset({Component.DURCHMARS, Component.OPEN_DURCHMARS})

# The parti is played alongside a bid only when nothing in it already decides the card points.
PARTI_EXCLUDED_BY = frozenset({Component.FORTY_HUNDRED, Component.TWENTY_HUNDRED}) | SUITED_DURCHMARS

# I.4 (5): only these can be seen to be unplayable from the defenders' hands.
CAN_BE_IMPOSSIBLE = frozenset({Component.FORTY_HUNDRED, Component.TWENTY_HUNDRED, Component.ULTI})

# The order names are spoken in, as in the federation's table ("40-100 ulti négy ász"); the parti that
# rides along comes last, as its "+1" does.
SPOKEN_ORDER = (
    Component.FORTY_HUNDRED,
    Component.TWENTY_HUNDRED,
    Component.ULTI,
    Component.FOUR_ACES,
    Component.DURCHMARS,
    Component.OPEN_DURCHMARS,
    Component.BETLI,
    Component.REBETLI,
    Component.OPEN_BETLI,
    Component.NO_TRUMP_DURCHMARS,
    Component.REDURCHMARS,
    Component.NO_TRUMP_OPEN_DURCHMARS,
    Component.PARTI,
)


class SilentGame(Enum):
    """An achievement scored without being bid (csendes), at half the value of its bid form (I.2)."""

    HUNDRED = ("100", 2)
    FOUR_ACES = ("four aces", 2)
    ULTI = ("ulti", 2)
    DURCHMARS = ("durchmars", 3)

    def __init__(self, label: str, units: int):
        self.label = label
        self.units = units

    @property
    def declared_forms(self) -> frozenset[Component]:
        """Bid components that already claim this achievement, so it cannot also be silent."""
        return _DECLARED_FORMS[self]


_DECLARED_FORMS = {
    SilentGame.HUNDRED: frozenset({Component.FORTY_HUNDRED, Component.TWENTY_HUNDRED}),
    SilentGame.FOUR_ACES: frozenset({Component.FOUR_ACES}),
    SilentGame.ULTI: frozenset({Component.ULTI}),
    SilentGame.DURCHMARS: SUITED_DURCHMARS,
}
