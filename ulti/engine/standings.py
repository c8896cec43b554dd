"""Standings from round results: table points, then forint total; anything still equal shares the place.

MAUSZ II. 10. (2): "Egyenlő pontszám esetén a jobb forinteredmény dönt" - points first, forint second, and
the rule book names no further tie-break, so players equal on both share the place ("3-4"). Display order
inside a shared place is by player id only so that the same input always prints the same list.

Events may run several groups on one day (sport ulti IV. 13.) and several stages (qualifier, semifinal,
final); each stage starts from zero (II. 10. (5): "nem viszik magukkal a selejtezőben szerzett
pontjaikat"), so standings are always computed for one stage, per group or combined over its groups.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from ulti.engine.rulesets import RuleSet
from ulti.engine.tables import TableResult, score_table

__all__ = [
    "StandingsError",
    "RoundResult",
    "Standing",
    "CutLine",
    "compute_standings",
    "cut_line",
    "standings_by_group",
    "stages_of",
]


class StandingsError(ValueError):
    """Round results that cannot be combined into standings."""


@dataclass(frozen=True)
class RoundResult:
    """Everything that happened in one round of one group of one stage."""

    round: int
    tables: tuple[TableResult, ...] = ()
    byes: tuple[str, ...] = ()
    group: str = ""
    stage: str = ""

    def __post_init__(self) -> None:
        seen: set[str] = set()
        where = _where(self)
        for table in self.tables:
            for player in table.players:
                if player in seen:
                    raise StandingsError(f"{where}: {player} is seated at two tables")
                seen.add(player)
        for player in self.byes:
            if player in seen:
                raise StandingsError(f"{where}: {player} has a bye but is also seated at a table")
            seen.add(player)


@dataclass(frozen=True)
class Standing:
    place: str  # "3", or "3-4" when shared
    place_from: int
    place_to: int
    player: str
    points: int
    forint: int
    tables: int  # tables played
    byes: int
    group: str = ""  # the group(s) the player played in, "+"-joined when more than one
    round_points: tuple[int, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class CutLine:
    """Who goes on when the top ``size`` of a standings list qualify (II. 10. (5): top 60, top 21).

    ``through`` are above the line outright; ``tied`` share the place the line cuts through (equal on
    points and forints: the rules name no further tie-break), and only ``seats`` of them fit. The staff
    resolve such a tie; the software never picks by display order.
    """

    size: int
    through: tuple[str, ...]
    tied: tuple[str, ...] = ()
    seats: int = 0

    @property
    def is_tied(self) -> bool:
        return bool(self.tied)

    @property
    def sizes_without_tie(self) -> tuple[int, int]:
        """The nearest numbers that do not cut the shared place: all the tied out, or all of them in."""
        return len(self.through), len(self.through) + len(self.tied)


def cut_line(places: Iterable[tuple[str, int, int]], size: int) -> CutLine:
    """The cut after ``size`` places; ``places``: (player, place_from, place_to) in standings order."""
    places = list(places)
    if size >= len(places):
        return CutLine(size, tuple(p for p, _lo, _hi in places))
    through = tuple(p for p, _lo, hi in places if hi <= size)
    tied = tuple(p for p, lo, hi in places if lo <= size < hi)
    return CutLine(size, through, tied, size - len(through))


def _where(r: RoundResult) -> str:
    parts = []
    if r.stage:
        parts.append(f"stage {r.stage}")
    if r.group:
        parts.append(f"group {r.group}")
    parts.append(f"round {r.round}")
    return ", ".join(parts)


def stages_of(rounds: Iterable[RoundResult]) -> list[str]:
    """Stage names in the order they first appear."""
    out: list[str] = []
    for r in rounds:
        if r.stage not in out:
            out.append(r.stage)
    return out


def compute_standings(
    rounds: Iterable[RoundResult],
    ruleset: RuleSet,
    *,
    stage: str | None = None,
    group: str | None = None,
    players: Iterable[str] = (),
    display_key: Callable[[str], object] | None = None,
    deductions: Mapping[str, int] | None = None,
) -> list[Standing]:
    """Standings of one stage (``stage=None`` only when all rounds belong to one stage).

    ``group`` selects one group; ``None`` combines all groups of the stage. ``players`` lists entrants who
    should appear even without a result yet (0 points). A bye scores the rule set's bye points and 0 forint.
    ``deductions``: points taken from a player by a ruling (a disciplinary measure, a frivolous appeal),
    subtracted from his total before ranking; a player not in these standings is ignored.
    """
    rounds = list(rounds)
    if stage is None:
        stages = stages_of(rounds)
        if len(stages) > 1:
            raise StandingsError(
                f"results span stages {', '.join(map(repr, stages))}: each stage starts from zero, name one"
            )
    selected = [
        r for r in rounds if (stage is None or r.stage == stage) and (group is None or r.group == group)
    ]

    # A person plays once per round of a stage, whichever group he is in.
    seen: dict[tuple[str, int], str] = {}
    for r in selected:
        for player in [p for t in r.tables for p in t.players] + list(r.byes):
            key = (player, r.round)
            if key in seen and seen[key] != r.group:
                raise StandingsError(
                    f"{_where(r)}: {player} also plays round {r.round} in group {seen[key] or '(none)'}"
                )
            if key in seen:
                raise StandingsError(f"{_where(r)}: round {r.round} of this group is given twice")
            seen[key] = r.group

    points: dict[str, int] = {p: 0 for p in players}
    forint: dict[str, int] = {p: 0 for p in players}
    tables: dict[str, int] = {p: 0 for p in players}
    byes: dict[str, int] = {p: 0 for p in players}
    groups: dict[str, set[str]] = {p: set() for p in players}
    by_round: dict[str, dict[int, int]] = {p: {} for p in players}

    def touch(player: str, grp: str) -> None:
        for d in (points, forint, tables, byes):
            d.setdefault(player, 0)
        groups.setdefault(player, set()).add(grp)
        by_round.setdefault(player, {})

    for r in sorted(selected, key=lambda r: (r.round, r.group)):
        for table in r.tables:
            scored = score_table(table, ruleset)
            for player, pts in scored.points.items():
                touch(player, r.group)
                points[player] += pts
                forint[player] += scored.forints[player]
                tables[player] += 1
                by_round[player][r.round] = pts
        for player in r.byes:
            touch(player, r.group)
            points[player] += ruleset.bye_points
            byes[player] += 1
            by_round[player][r.round] = ruleset.bye_points

    for player, deducted in (deductions or {}).items():
        if player in points:
            points[player] -= deducted

    tiebreak = display_key or str
    order = sorted(points, key=lambda p: (-points[p], -forint[p], tiebreak(p), str(p)))
    result: list[Standing] = []
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and (points[order[j + 1]], forint[order[j + 1]]) == (
            points[order[i]],
            forint[order[i]],
        ):
            j += 1
        lo, hi = i + 1, j + 1
        label = str(lo) if lo == hi else f"{lo}-{hi}"
        for p in order[i : j + 1]:
            result.append(
                Standing(
                    place=label,
                    place_from=lo,
                    place_to=hi,
                    player=p,
                    points=points[p],
                    forint=forint[p],
                    tables=tables[p],
                    byes=byes[p],
                    group="+".join(sorted(g for g in groups.get(p, ()) if g)),
                    round_points=tuple(by_round[p][k] for k in sorted(by_round[p])),
                )
            )
        i = j + 1
    return result


def standings_by_group(
    rounds: Iterable[RoundResult], ruleset: RuleSet, *, stage: str | None = None
) -> dict[str, list[Standing]]:
    """Standings of every group of a stage, keyed by group name in first-seen order."""
    rounds = list(rounds)
    names: list[str] = []
    for r in rounds:
        if (stage is None or r.stage == stage) and r.group not in names:
            names.append(r.group)
    return {g: compute_standings(rounds, ruleset, stage=stage, group=g) for g in names}
