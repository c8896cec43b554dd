"""The ulti live rating (élő értékszám): openskill's Plackett-Luce model over table places (pure).

Every table of every round is one three-player "match" ranked by the players' places at that table
(ties share the better place, so tied players get the same rank). Tables of one round are disjoint, so
the order inside a round does not matter; rounds are applied in order, events in date order.

Shown as one number: ``display = round_half_up(1000 + 40 * (mu - 3 * sigma))``, at least 0. The
conservative estimate ``mu - 3 sigma`` only grows when a player is both good and well measured, so a new
player starts at 1000 (mu 25, sigma 25/3) and an established average player sits near 1750. The mapping
is strictly increasing in ``mu - 3 sigma`` above the floor (monotone everywhere). A player is provisional
until ``PROVISIONAL_TABLES`` rated tables.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal

from openskill.models import PlackettLuce

__all__ = [
    "MODEL",
    "INITIAL_MU",
    "INITIAL_SIGMA",
    "DISPLAY_BASE",
    "DISPLAY_SCALE",
    "PROVISIONAL_TABLES",
    "MIN_PLAYERS_OUTSIDE_CALENDAR",
    "Rating",
    "display",
    "counts_for_rating",
    "rate_table",
    "rate_event",
]

MODEL = PlackettLuce()
INITIAL_MU = float(MODEL.mu)
INITIAL_SIGMA = float(MODEL.sigma)
DISPLAY_BASE = 1000
DISPLAY_SCALE = 40
PROVISIONAL_TABLES = 12
# MAUSZ III: club tournaments outside the federation calendar with fewer than 20 players do not count.
MIN_PLAYERS_OUTSIDE_CALENDAR = 20


def display(mu: float, sigma: float) -> int:
    value = Decimal(DISPLAY_BASE) + Decimal(DISPLAY_SCALE) * (Decimal(repr(mu)) - 3 * Decimal(repr(sigma)))
    return max(0, int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP)))


@dataclass(frozen=True)
class Rating:
    mu: float = INITIAL_MU
    sigma: float = INITIAL_SIGMA
    tables: int = 0
    events: int = 0

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def display(self) -> int:
        return display(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.tables < PROVISIONAL_TABLES


def counts_for_rating(*, rating_earning: bool, in_calendar: bool, club_event: bool, players: int) -> bool:
    """Whether an event's tables change the ratings (MAUSZ III)."""
    if not rating_earning:
        return False
    return not (club_event and not in_calendar and players < MIN_PLAYERS_OUTSIDE_CALENDAR)


def rate_table(ratings: Mapping[int, Rating], places: Mapping[int, int]) -> dict[int, Rating]:
    """New ratings of the players of one table; ``places`` 1.. with ties sharing a place."""
    players = sorted(places)
    if len(players) < 2:
        return {}
    current = [ratings.get(p) or Rating() for p in players]
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in current]
    rated = MODEL.rate(teams, ranks=[places[p] for p in players])
    return {
        p: replace(r, mu=float(new[0].mu), sigma=float(new[0].sigma), tables=r.tables + 1)
        for p, r, new in zip(players, current, rated, strict=True)
    }


def rate_event(
    ratings: Mapping[int, Rating], rounds: Iterable[Iterable[Mapping[int, int]]]
) -> dict[int, Rating]:
    """Apply an event's rounds in order; returns the new ratings of everybody who sat at a table."""
    state: dict[int, Rating] = {}
    for tables in rounds:
        seen: set[int] = set()
        updates: dict[int, Rating] = {}
        for places in tables:
            overlap = seen.intersection(places)
            if overlap:
                raise ValueError(f"players {sorted(overlap)} sit at two tables in one round")
            seen.update(places)
            updates.update(
                rate_table({p: state.get(p) or ratings.get(p) or Rating() for p in places}, places)
            )
        state.update(updates)
    return {p: replace(r, events=r.events + 1) for p, r in state.items()}
