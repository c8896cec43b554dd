"""One deal as the score sheet records it: the input of settle()."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from .bids import Bid
from .components import SUITED_DURCHMARS, Component, SilentGame

KONTRA = 1
REKONTRA = 2


class Side(Enum):
    DECLARER = "declarer"
    DEFENDERS = "defenders"


class Phase(Enum):
    """When an irregularity (renonsz, I.6) happened; it decides the penalty."""

    DEAL = "deal"  # shuffling, cutting, dealing: redeal, nobody pays
    BIDDING = "bidding"  # only the offences in Offence cost money; the others exclude from bidding
    PLAY = "play"  # the deal stops and the offender pays the bid with its kontras


class Offence(Enum):
    """Bidding-phase irregularities of I.6 (2) that cost money."""

    TALON = "talon"  # too many or too few cards in the talon, found after play started
    TRUMP_SUIT = "trump suit"  # the declarer revealed a non-red trump suit during the bidding


@dataclass(frozen=True)
class Silent:
    """An achievement nobody bid (I.2): made by the declarer or by the defenders together.

    `won` is False only for a silent ulti that lost its last trick. `split` marks a silent four aces the
    defenders took between them rather than one defender alone: recorded, but it does not count.
    `trick` is False for a silent 100 whose side took no trick (I.2 (4)): melds alone do not make a 100,
    so it is recorded but does not count (and the parti is settled as if it were not there).
    """

    game: SilentGame
    side: Side
    won: bool = True
    split: bool = False
    trick: bool = True

    @property
    def counts(self) -> bool:
        """Whether the achievement is paid at all (a split four aces, a trickless 100 are not)."""
        return not self.split and self.trick


@dataclass(frozen=True)
class Revoke:
    """An irregularity that ends or replaces the normal settlement of the deal."""

    player: str
    phase: Phase = Phase.PLAY
    offence: Offence | None = None  # required in the bidding phase, absent otherwise


@dataclass(frozen=True)
class Deal:
    """Everything settle() needs about one deal.

    players     the three player names at the table, in seating order
    declarer    the felvevő, one of players; the other two are the defenders
    bid         the final bid, a game of the rule set's table (see names.parse_bid)
    won         for each component of the bid, True if the declarer made it. Every component needs an
                entry (the parti that rides with ulti or four aces too), except impossible ones; empty
                when a revoke ended the deal
    kontra      component -> defender -> KONTRA (1) or REKONTRA (2): the doubling level that defender
                reached on it. In suited games one defender's kontra binds both defenders (the higher
                level counts); in no-trump games it binds only the defender who said it
    silent      silent achievements (not allowed in no-trump games)
    impossible  components seen to be unplayable from the defenders' hands (I.4 (5)): 40-100 without
                the 40, 20-100 without a 20, ulti without the trump seven. They fail automatically
    impossible_doubled  whether those were doubled in the first round of kontras: then they pay as a
                failed component with the recorded kontra, otherwise only their base value
    revoke      an irregularity (renonsz); in play or bidding it replaces the normal settlement
    """

    players: tuple[str, str, str]
    declarer: str
    bid: Bid
    won: Mapping[Component, bool] = field(default_factory=dict)
    kontra: Mapping[Component, Mapping[str, int]] = field(default_factory=dict)
    silent: tuple[Silent, ...] = ()
    impossible: frozenset[Component] = frozenset()
    impossible_doubled: bool = False
    revoke: Revoke | None = None

    @property
    def defenders(self) -> tuple[str, ...]:
        return tuple(p for p in self.players if p != self.declarer)

    def kontra_level(self, component: Component, defender: str) -> int:
        """0, KONTRA or REKONTRA: how far the stake of `component` against `defender` was doubled."""
        levels = self.kontra.get(component, {})
        if self.bid.no_trump:
            return levels.get(defender, 0)
        return max(levels.values(), default=0)

    @property
    def bids_durchmars(self) -> bool:
        """A suited durchmars is part of the bid (melds may not be announced in it, I.6 (3))."""
        return bool(self.bid.components & SUITED_DURCHMARS)

    @property
    def made_declared_durchmars(self) -> bool:
        """A bid durchmars made: the declarer took every trick, which rules out some silent scores."""
        return any(self.won.get(c) for c in SUITED_DURCHMARS)
