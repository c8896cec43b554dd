"""Round robin (VSz 33 "körmérkőzés") from Berger tables, any field size, optionally in stages.

Berger table for n teams (n even; an odd field adds a phantom n + 1 whose opponent has the bye): in
round r the teams 1..n-1 sit on a circle starting at ((r - 1) * n / 2) mod (n - 1); the first of them
meets team n, the others pair from both ends inward.  This reproduces the published FIDE/Berger tables
(round 1: 1-n, 2-(n-1), ...; round 2: n-(n/2+1), ...), and alternates team n's home/away.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

from teams.engine.options import merge_options
from teams.engine.pairing.pairings import (
    BERGER,
    BERGER_BYE,
    BYE,
    ROUND_BERGER,
    ROUND_BERGER_CYCLE,
    Note,
    Pairing,
    RoundPairing,
    number_tables,
)

ROUND_ROBIN_DEFAULTS: Mapping[str, object] = {
    "cycles": 1,  # 2: a double round robin, the second cycle with home and away swapped
    "stages": 1,  # the schedule split into this many consecutive stages of (nearly) equal length
}


def berger_table(n_teams: int) -> list[list[tuple[int, int | None]]]:
    """Rounds of (home, away) Berger numbers 1..n_teams; away None is a bye."""
    if n_teams < 2:
        raise ValueError("a round robin needs at least two teams")
    n = n_teams + (n_teams % 2)
    half = n // 2
    rounds: list[list[tuple[int, int | None]]] = []
    for r in range(1, n):
        start = ((r - 1) * half) % (n - 1)
        circle = [(start + i) % (n - 1) + 1 for i in range(n - 1)]
        first = circle[0]
        games: list[tuple[int, int]] = [(first, n) if r % 2 else (n, first)]
        games += [(circle[i], circle[n - 1 - i]) for i in range(1, half)]
        table: list[tuple[int, int | None]] = []
        for home, away in games:
            if n != n_teams and n in (home, away):
                table.append((away if home == n else home, None))
            else:
                table.append((home, away))
        rounds.append(table)
    return rounds


def stage_lengths(n_rounds: int, stages: int) -> list[int]:
    if not 1 <= stages <= n_rounds:
        raise ValueError(f"stages must be between 1 and the number of rounds ({n_rounds})")
    base, extra = divmod(n_rounds, stages)
    return [base + (1 if i < extra else 0) for i in range(stages)]


def round_robin(team_ids: Sequence[Hashable], options: Mapping[str, object] | None = None):
    """All rounds for teams in start-number (Berger number) order, as RoundPairing objects."""
    opts = merge_options(ROUND_ROBIN_DEFAULTS, options)
    cycles = int(opts["cycles"])
    if cycles not in (1, 2):
        raise ValueError("cycles must be 1 or 2")
    if len(set(team_ids)) != len(team_ids):
        raise ValueError("team ids must be unique")
    table = berger_table(len(team_ids))
    schedule = []
    for cycle in range(cycles):
        for games in table:
            schedule.append([(a, b) if cycle == 0 or b is None else (b, a) for a, b in games])
    lengths = stage_lengths(len(schedule), int(opts["stages"]))
    stage_of = [stage for stage, length in enumerate(lengths, start=1) for _ in range(length)]
    out = []
    for round_no, games in enumerate(schedule, start=1):
        pairings = []
        for home, away in games:
            if away is None:
                pairings.append(Pairing(None, team_ids[home - 1], None, (BYE,), Note(BERGER_BYE, home=home)))
            else:
                pairings.append(
                    Pairing(
                        None, team_ids[home - 1], team_ids[away - 1], (), Note(BERGER, home=home, away=away)
                    )
                )
        pairings.sort(key=lambda p: p.is_bye)
        out.append(
            RoundPairing(
                method="round_robin",
                pairings=number_tables(pairings),
                explanation=Note(ROUND_BERGER_CYCLE, round=round_no, cycle=2 if round_no > len(table) else 1)
                if cycles == 2
                else Note(ROUND_BERGER, round=round_no),
                round_no=round_no,
                stage=stage_of[round_no - 1],
            )
        )
    return out


def snake_groups(team_ids_by_strength: Sequence[Hashable], groups: int) -> list[list[Hashable]]:
    """Split a field into round-robin groups of even strength: 1, 2, 3 / 6, 5, 4 / 7, 8, 9 ..."""
    if groups < 1 or groups > len(team_ids_by_strength):
        raise ValueError("groups must be between 1 and the number of teams")
    out: list[list[Hashable]] = [[] for _ in range(groups)]
    for i, team in enumerate(team_ids_by_strength):
        row, col = divmod(i, groups)
        out[col if row % 2 == 0 else groups - 1 - col].append(team)
    return out
