"""A round's pairings as plain data, each carrying a machine flag and a sentence for the director."""

from __future__ import annotations

from dataclasses import dataclass, field

# Note and Ref are re-exported: the pairing engines take both from here, with the codes below.
from federation.engine.notes import Note, Ref, gettext_noop  # noqa: F401
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

# The explanations (federation.engine.notes): a team is a Ref to its id, named by the service.
RANKS = gettext_noop("ranks %(home)s v %(away)s")
REMATCH_OF_ROUND = gettext_noop("REMATCH of round %(round)s: no rematch-free pairing exists")
ALREADY_MET = gettext_noop("%(team)s already met rank %(rank)s (%(other)s) in round %(round)s")
PULLED_UP_PAST = gettext_noop(
    "%(team)s pulled up past rank %(rank)s so the rest of the field can be paired without rematches"
)
DANISH_REMATCH = gettext_noop("they met in round %(round)s (allowed in Danish)")
BYE_REPEATED = gettext_noop("bye at rank %(rank)s: every team has already had a bye, this one has the fewest")
BYE_LOWEST = gettext_noop("bye: lowest-ranked team (rank %(rank)s) without a bye so far")
BYE_MOVED_UP = gettext_noop(
    "bye moved up to rank %(rank)s: with the bye at rank %(preferred)s "
    "the rest of the field could not be paired without a rematch"
)
DRAWN_PAIR = gettext_noop("drawn %(first)s and %(second)s")
DRAWN_BYE = gettext_noop("bye: drawn last in an odd field")
SEEDS = gettext_noop("seed %(home)s v seed %(away)s")
SEED_BYE = gettext_noop("bye: middle seed %(seed)s in an odd field")
BERGER = gettext_noop("Berger %(home)s v %(away)s")
BERGER_BYE = gettext_noop("Berger %(home)s: bye")
ROUND_DRAW = gettext_noop("round one by secure draw; the seed replays it")
ROUND_SEEDING = gettext_noop("round one by seeding: first v last, second v second-last, ...")
ROUND_BERGER = gettext_noop("Berger table, round %(round)s")
ROUND_BERGER_CYCLE = gettext_noop("Berger table, round %(round)s (cycle %(cycle)s)")
ROUND_DANISH = gettext_noop("Danish: the current ranking paired top down, 1 v 2, 3 v 4, ...")
ROUND_SWISS = gettext_noop("Swiss: each team, top down, meets the best-ranked team it has not met")
ROUND_SWISS_FALLBACK = gettext_noop(
    "the rank-order search hit its step budget, so the stranded tail was re-paired "
    "by a minimum rank-distance matching"
)
ROUND_SWISS_REMATCHES = gettext_noop(
    "no rematch-free pairing exists, this one has the fewest rematches (%(count)s)"
)
ROUND_SWISS_REPEAT_BYE = gettext_noop("every team able to take the bye without a rematch has already had one")
HYBRID_SWISS = gettext_noop("round %(round)s of %(swiss)s Swiss rounds (%(how)s)")
HYBRID_DANISH = gettext_noop("Danish from round %(round)s (%(how)s)")
HOW_SUGGESTED = gettext_noop("suggested from the field size")
HOW_ANNOUNCED = gettext_noop("as announced")


@dataclass(frozen=True)
class Pairing:
    """One match (`away` None: a bye). `home` sits North-South in the open room."""

    table: int | None
    home: TeamId
    away: TeamId | None
    flags: tuple[str, ...] = ()
    explanation: str = ""  # a Note from the engines

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
