"""The result of a deal as a list of payments between players, so it is zero-sum by construction."""

from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True)
class Transfer:
    payer: str
    payee: str
    units: int
    reason: str  # e.g. "ulti lost (kontra)", shown beside the score sheet line


@dataclass(frozen=True)
class Settlement:
    players: tuple[str, ...]
    transfers: tuple[Transfer, ...]

    @property
    def units(self) -> dict[str, int]:
        """Net units per player, in seating order."""
        totals = dict.fromkeys(self.players, 0)
        for t in self.transfers:
            totals[t.payer] -= t.units
            totals[t.payee] += t.units
        return totals

    def forints(self, unit: int | Decimal = 1) -> dict[str, int | Decimal]:
        """Net forints per player when one unit is worth `unit` forints."""
        if isinstance(unit, float | bool):
            raise TypeError("the unit must be an int or a Decimal, never a float")
        return {player: units * unit for player, units in self.units.items()}


def between(declarer: str, defender: str, units: int, declarer_wins: bool, reason: str) -> Transfer:
    """A payment on the declarer-defender line, in whichever direction the outcome sends it."""
    if declarer_wins:
        return Transfer(defender, declarer, units, reason)
    return Transfer(declarer, defender, units, reason)
