"""The search behind `bridge.engine.individual_movements._FOUND_BASES`, run by hand:

    .venv/bin/python bench/individual_movements.py [tables ...]

For 4T players (T tables) it looks for round 1 of a cyclic individual movement over Z_(4T-1) plus one
stationary player: every difference class between partners exactly once (so everybody partners
everybody once over 4T - 1 rounds), every class between opponents as close to twice as it can (twice
everywhere is a whist tournament). Simulated annealing over seat swaps, deterministic per seed; it prints
the cost (100 per partner class off, the squared distance from 2 per opponent class) and the round as a
flat (N, S, E, W) tuple per table, and the movement's opponent spread and time.
"""

import math
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

INFINITY = -1


def cost(seats: list[int], m: int, tables: int) -> int:
    partners, opponents = Counter(), Counter()
    for t in range(tables):
        north, south, east, west = seats[4 * t : 4 * t + 4]
        for a, b in ((north, south), (east, west)):
            if INFINITY not in (a, b):
                d = (a - b) % m
                partners[min(d, m - d)] += 1
        for a in (north, south):
            for b in (east, west):
                if INFINITY not in (a, b):
                    d = (a - b) % m
                    opponents[min(d, m - d)] += 1
    classes = range(1, m // 2 + 1)
    return 100 * sum((partners[d] - 1) ** 2 for d in classes) + sum((opponents[d] - 2) ** 2 for d in classes)


def anneal(tables: int, iterations: int, seed: int) -> tuple[int, list[int]]:
    m = 4 * tables - 1
    rng = random.Random(seed)
    seats = [INFINITY, *range(m)]
    rng.shuffle(seats)
    current = cost(seats, m, tables)
    best = (current, seats[:])
    temperature = 5.0
    for _ in range(iterations):
        i, j = rng.sample(range(4 * tables), 2)
        if i // 4 == j // 4 and {i % 4, j % 4} in ({0, 1}, {2, 3}):
            continue  # swapping two partners changes nothing
        seats[i], seats[j] = seats[j], seats[i]
        new = cost(seats, m, tables)
        if new <= current or rng.random() < math.exp((current - new) / temperature):
            current = new
            if current < best[0]:
                best = (current, seats[:])
                if current == 0:
                    break
        else:
            seats[i], seats[j] = seats[j], seats[i]
        temperature = max(0.05, temperature * 0.9995)
    return best


def main(sizes: list[int]) -> None:
    from bridge.engine.individual_movements import individual, opponent_spread

    for tables in sizes:
        started = time.process_time()
        found = min(anneal(tables, 150_000, 100 * tables + seed) for seed in range(3))
        spent = time.process_time() - started
        print(f"{tables} tables: cost {found[0]} in {spent:.1f} s CPU: {tuple(found[1])}")
        print(f"  engine's movement now: opponent spread {opponent_spread(individual(tables))}")


if __name__ == "__main__":
    main([int(arg) for arg in sys.argv[1:]] or list(range(2, 9)))
