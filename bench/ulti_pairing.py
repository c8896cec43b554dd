"""Benchmark: Swiss pairing of large ulti fields late in an event.

Simulates an event with the pairer itself (random zero-sum forint results, MAUSZ table points) and
times the pairing of round 9 with the full history of rounds 1-8. Prints the time and the number of
repeat meetings, for 300 and 1,000 players by default.

    python bench/ulti_pairing.py            # 300 and 1000 players
    python bench/ulti_pairing.py 60 150 --rounds 10 --seed 7
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ulti.engine.pairing.swiss import Player, pair_round  # noqa: E402
from ulti.engine.rulesets import MAUSZ  # noqa: E402
from ulti.engine.tables import TableResult, score_table  # noqa: E402


def random_table_forints(rng: random.Random) -> tuple[int, int, int]:
    # Whole hundreds make ties (and so every tie rule) turn up now and then.
    a = rng.randint(-30, 30) * 100
    b = rng.randint(-30, 30) * 100
    return a, b, -a - b


def simulate(n: int, rounds: int, seed: int, ruleset=MAUSZ):
    """Play ``rounds`` rounds; return the final players, meeting list and per-round (seconds, repeats)."""
    rng = random.Random(seed)
    state = {
        f"P{i:04d}": {"points": 0, "forint": 0, "rating": rng.randint(1000, 2000), "byes": 0}
        for i in range(1, n + 1)
    }
    met: list[tuple[str, str]] = []
    log = []
    for rnd in range(1, rounds + 1):
        players = [Player(id=k, **v) for k, v in state.items()]
        t0 = time.perf_counter()
        pairing = pair_round(players, met, rnd)
        elapsed = time.perf_counter() - t0
        log.append((rnd, elapsed, pairing.repeats, pairing.optimal))
        for k in pairing.byes:
            state[k]["points"] += ruleset.bye_points
            state[k]["byes"] += 1
        for i, t in enumerate(pairing.tables):
            scored = score_table(TableResult(str(i + 1), t.players, random_table_forints(rng)), ruleset)
            for k in t.players:
                state[k]["points"] += scored.points[k]
                state[k]["forint"] += scored.forints[k]
            a, b, c = t.players
            met.extend([(a, b), (a, c), (b, c)])
    players = [Player(id=k, **v) for k, v in state.items()]
    return players, met, log


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sizes", nargs="*", type=int, default=[300, 1000])
    ap.add_argument("--rounds", type=int, default=8, help="rounds of history before the timed round")
    ap.add_argument("--seed", type=int, default=2013)
    ap.add_argument("--repeat", type=int, default=3, help="timed pairings of the measured round (best kept)")
    args = ap.parse_args(argv)
    worst = 0.0
    for n in args.sizes:
        t0 = time.perf_counter()
        players, met, log = simulate(n, args.rounds, args.seed)
        sim = time.perf_counter() - t0
        history_repeats = sum(r for _, _, r, _ in log)
        times = []
        for _ in range(args.repeat):
            t1 = time.perf_counter()
            pairing = pair_round(players, met, args.rounds + 1)
            times.append(time.perf_counter() - t1)
        best = min(times)
        worst = max(worst, best)
        slowest_history = max(s for _, s, _, _ in log)
        print(
            f"{n:5d} players, round {args.rounds + 1}: {best:.3f} s (best of {args.repeat}), "
            f"{pairing.repeats} repeat meeting(s), optimal={pairing.optimal}; "
            f"history: {args.rounds} rounds simulated in {sim:.2f} s, slowest {slowest_history:.3f} s, "
            f"{history_repeats} repeat(s)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
