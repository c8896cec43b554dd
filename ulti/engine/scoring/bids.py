"""The biddable games (MAUSZ I.1 (1)) and how bids outrank each other in the auction (I.1 (2))."""

from dataclasses import dataclass
from itertools import product

from .components import (
    NO_TRUMP_GAMES,
    PARTI_EXCLUDED_BY,
    SPOKEN_ORDER,
    SUITED_DURCHMARS,
    Component,
)

_HUNGARIAN = {
    Component.PARTI: "passz",
    Component.FORTY_HUNDRED: "40-100",
    Component.TWENTY_HUNDRED: "20-100",
    Component.ULTI: "ulti",
    Component.FOUR_ACES: "négy ász",
    Component.DURCHMARS: "durchmars",
    Component.OPEN_DURCHMARS: "terített durchmars",
    Component.BETLI: "betli",
    Component.REBETLI: "rebetli",
    Component.OPEN_BETLI: "terített betli",
    Component.NO_TRUMP_DURCHMARS: "színtelen durchmars",
    Component.REDURCHMARS: "színtelen redurchmars",
    Component.NO_TRUMP_OPEN_DURCHMARS: "színtelen terített durchmars",
}


@dataclass(frozen=True)
class Bid:
    """A game from the table: its components and whether hearts (piros) are trumps, which doubles all."""

    components: frozenset[Component]
    red: bool = False

    @property
    def no_trump(self) -> bool:
        return any(c.no_trump for c in self.components)

    @property
    def ordered(self) -> tuple[Component, ...]:
        return tuple(c for c in SPOKEN_ORDER if c in self.components)

    def value_of(self, component: Component) -> int:
        return component.units * (2 if self.red else 1)

    @property
    def value(self) -> int:
        return sum(self.value_of(c) for c in self.components)

    @property
    def display_value(self) -> str:
        """The value as the federation prints it: the parti that rides along is shown apart ("8+2")."""
        if Component.PARTI in self.components and len(self.components) > 1:
            parti = self.value_of(Component.PARTI)
            return f"{self.value - parti}+{parti}"
        return str(self.value)

    @property
    def _spoken(self) -> tuple[Component, ...]:
        # The parti is said only when it is the whole bid (passz); otherwise it rides along unsaid.
        return tuple(c for c in self.ordered if c is not Component.PARTI or len(self.components) == 1)

    @property
    def name(self) -> str:
        """Canonical English name, e.g. "red 40-100 ulti"; parsed back by names.parse_bid."""
        words = ["passz" if c is Component.PARTI else c.label for c in self._spoken]
        return " ".join((["red"] if self.red else []) + words)

    @property
    def hungarian(self) -> str:
        """Name as in the federation's table, e.g. "Piros 40-100 ulti", "Színes durchmars"."""
        words = [_HUNGARIAN[c] for c in self._spoken]
        if self.red:
            words.insert(0, "piros")
        elif self.components <= SUITED_DURCHMARS:
            # A bare durchmars needs "színes" to tell it from the no-trump one of the same name.
            words.insert(0, "színes")
        text = " ".join(words)
        return text[0].upper() + text[1:]


def bid_of(*components: Component, red: bool = False) -> Bid:
    """The table's bid for these components, adding the parti that is played alongside when due."""
    parts = frozenset(components)
    if not parts & NO_TRUMP_GAMES and not parts & PARTI_EXCLUDED_BY:
        parts |= {Component.PARTI}
    return Bid(parts, red)


def _build_table() -> tuple[Bid, ...]:
    bids = []
    for meld, ulti, aces, durchmars in product(
        (None, Component.FORTY_HUNDRED, Component.TWENTY_HUNDRED),
        (None, Component.ULTI),
        (None, Component.FOUR_ACES),
        (None, Component.DURCHMARS, Component.OPEN_DURCHMARS),
    ):
        if aces and durchmars:
            continue  # I.1 (2): four aces never combine with any durchmars
        parts = [c for c in (meld, ulti, aces, durchmars) if c]
        for red in (False, True):
            bids.append(bid_of(*parts, red=red))
    bids.extend(Bid(frozenset({game})) for game in NO_TRUMP_GAMES)
    return tuple(sorted(bids, key=lambda b: (b.value, -len(b.components), b.name)))


# All 54 games of MAUSZ I.1 (1), weakest first.
TABLE: tuple[Bid, ...] = _build_table()


def beats(new: Bid, standing: Bid) -> bool:
    """Whether `new`, said after `standing`, takes over the auction (I.1 (2)).

    Higher value wins; at equal value the simpler (fewer components, the ridden parti included) wins;
    with as many components the earlier bid stands, except that ulti beats four aces. That exception is
    read as between bids alike but for ulti in place of four aces ("40-100 ulti" over "40-100 négy ász"):
    the seed's table lists every such pair four aces first, while it lists "Ulti terített durchmars"
    before "Piros 40-100 négy ász" (both 16), which a broader reading would reverse.
    """
    if new.value != standing.value:
        return new.value > standing.value
    if len(new.components) != len(standing.components):
        return len(new.components) < len(standing.components)
    return new.components ^ standing.components == {Component.ULTI, Component.FOUR_ACES} and (
        Component.ULTI in new.components
    )
