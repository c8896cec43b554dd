"""A round's pairings as plain data, each carrying a machine flag and a sentence for the director."""

from __future__ import annotations

from dataclasses import dataclass, field

from teams.engine.pairing.standing import TeamId

# Machine-readable flags; a pairing page can filter or colour by them.
BYE = "bye"
BYE_MOVED = "bye_moved"  # the bye did not go to the lowest-ranked team without one
REPEAT_BYE = "repeat_bye"  # every candidate had already had a bye
REMATCH_AVOIDED = "rematch_avoided"  # the natural opponent had been met, the next one was taken
PULLED_UP = "pulled_up"  # an opponent from further down, so the rest of the field stays rematch-free
REMATCH = "rematch"  # the two teams have met before (allowed in Danish, a last resort in Swiss)
SEEDED = "seeded"
DRAWN = "drawn"

# Round-level flags.
REMATCH_UNAVOIDABLE = "rematch_unavoidable"
MATCHING_FALLBACK = "matching_fallback"  # the rank-order search gave up and a weighted matching decided


@dataclass(frozen=True)
class Pairing:
    """One match (`away` None: a bye). `home` sits North-South in the open room."""

    table: int | None
    home: TeamId
    away: TeamId | None
    flags: tuple[str, ...] = ()
    explanation: str = ""

    @property
    def is_bye(self) -> bool:
        return self.away is None

    @property
    def teams(self) -> tuple[TeamId, ...]:
        return (self.home,) if self.away is None else (self.home, self.away)


@dataclass(frozen=True)
class RoundPairing:
    """All pairings of one round plus how they were reached (method, ranking used, round-level flags)."""

    method: str
    pairings: tuple[Pairing, ...]
    ranking: tuple[TeamId, ...] = ()
    flags: tuple[str, ...] = ()
    explanation: str = ""
    rematches: int = 0
    draw_seed: str | None = None  # hex seed of a secure draw, so it can be recorded and replayed
    stage: int | None = None
    round_no: int | None = None
    extra: dict = field(default_factory=dict, compare=False)

    def opponent_of(self, team: TeamId) -> TeamId | None:
        for pairing in self.pairings:
            if pairing.home == team:
                return pairing.away
            if pairing.away == team:
                return pairing.home
        raise KeyError(team)

    @property
    def bye(self) -> TeamId | None:
        return next((p.home for p in self.pairings if p.is_bye), None)


def number_tables(pairings: list[Pairing]) -> tuple[Pairing, ...]:
    """Tables 1, 2, ... in the given order; byes get no table."""
    numbered = []
    table = 0
    for pairing in pairings:
        if pairing.is_bye:
            numbered.append(Pairing(None, pairing.home, None, pairing.flags, pairing.explanation))
        else:
            table += 1
            numbered.append(Pairing(table, pairing.home, pairing.away, pairing.flags, pairing.explanation))
    return tuple(numbered)
