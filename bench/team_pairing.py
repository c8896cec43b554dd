"""Benchmark: Swiss pairing of a 500-team field at round 9, with a realistic history.

Rounds 1-8 are simulated (round 1 by seeding, then Swiss, random IMP margins converted on the WBF
12-board scale); round 9 is then paired and timed.  The same field is also paired with the rank-order
search switched off, to time the matching fallback (greedy top-down + tail matching).

Run:  python bench/team_pairing.py [teams] [rounds_played] [repeats]
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from teams.engine.pairing.first_round import seeded_first_round  # noqa: E402
from teams.engine.pairing.ranking import rank_for_pairing  # noqa: E402
from teams.engine.pairing.standing import TeamStanding  # noqa: E402
from teams.engine.pairing.swiss import _Field, _match, pair_swiss  # noqa: E402
from teams.engine.vp import wbf_vp  # noqa: E402


def play_round(teams: dict[int, TeamStanding], pairing, rng: random.Random) -> None:
    for p in pairing.pairings:
        if p.is_bye:
            t = teams[p.home]
            teams[p.home] = replace(t, vp=t.vp + Decimal("12.00"), opponents=(*t.opponents, None))
            continue
        home, away = teams[p.home], teams[p.away]
        margin = int(rng.gauss(0, 20))
        vp_home, vp_away = wbf_vp(margin, 12)
        teams[p.home] = replace(
            home, vp=home.vp + vp_home, imps=home.imps + margin, opponents=(*home.opponents, p.away)
        )
        teams[p.away] = replace(
            away, vp=away.vp + vp_away, imps=away.imps - margin, opponents=(*away.opponents, p.home)
        )


def simulate(n_teams: int, rounds_played: int, seed: int = 2024) -> list[TeamStanding]:
    rng = random.Random(seed)
    teams = {i: TeamStanding(team_id=i, start_number=i) for i in range(1, n_teams + 1)}
    play_round(teams, seeded_first_round(list(teams)), rng)
    for _ in range(2, rounds_played + 1):
        play_round(teams, pair_swiss(teams.values()), rng)
    return list(teams.values())


def with_bottom_clique(field: list[TeamStanding], size: int) -> list[TeamStanding]:
    """The `size` lowest-ranked teams are made to have met each other: the top-down rule strands them."""
    ranked = rank_for_pairing(field)
    bottom = {t.team_id for t in ranked[-size:]}
    out = []
    for team in field:
        if team.team_id in bottom:
            clique = tuple(sorted(bottom - {team.team_id}))
            team = replace(team, opponents=team.opponents + clique)
        out.append(team)
    return out


def timed(fn, repeats: int) -> tuple[float, float, object]:
    times = []
    result = None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times), result


def main() -> None:
    n_teams = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    rounds_played = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    start = time.perf_counter()
    field = simulate(n_teams, rounds_played)
    print(f"simulated {n_teams} teams x {rounds_played} rounds in {time.perf_counter() - start:.2f} s")

    hard = with_bottom_clique(field, 10)
    for label, teams, options in (
        ("rank-order search (default)", field, None),
        ("search off (search_budget=0)", field, {"search_budget": 0}),
        ("bottom 10 all met each other, default", hard, None),
        ("bottom 10 all met each other, search off", hard, {"search_budget": 0}),
    ):
        best, median, result = timed(lambda teams=teams, options=options: pair_swiss(teams, options), repeats)
        flagged = sum(1 for p in result.pairings if p.flags)
        print(
            f"round {rounds_played + 1}, {label}: best {best * 1000:.1f} ms, median {median * 1000:.1f} ms; "
            f"rematches {result.rematches}, round flags {list(result.flags)}, flagged pairings {flagged}"
        )

    whole = _Field(rank_for_pairing(field), 1)
    odd = whole.n % 2 == 1
    best, median, _ = timed(lambda: _match(whole, list(range(whole.n)), False, odd), repeats)
    print(
        f"worst-case fallback, min-cost matching of the whole field on rank-window edges: "
        f"best {best * 1000:.1f} ms, median {median * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
