"""All-play-all schedules for tables of three ("a döntőben minden játékos mindenkivel játszik", II. 10. (7)).

For n = 3 (mod 6) - 9, 15, 21, 27, 33, ... - a Kirkman triple system exists: (n-1)/2 rounds of n/3 tables
in which every pair of players meets exactly once. Three classical cyclic shapes are used, each reduced to
a small deterministic search for a few base tables whose shifts make up the schedule:
- Z_q x {0,1} plus a fixed player (q = (n-1)/2, odd): one base round shifted q times (15, 27, 39);
- Z_q x {0,1,2} (q = n/3): (q-1)/2 shift-invariant rounds plus one base round shifted q times (9, 21, 33, 51);
- tripling: KTS(3v) from KTS(v), each table growing into an affine plane of order 3 (27, 45, 63, 81, 99).
Every schedule is verified pair by pair before it is returned, and cached.

Other sizes have no schedule without repeats: a player meets two others per round, so with n - 1 odd
(n = 0 mod 6) or with byes (n not divisible by 3) someone meets a player twice. There the schedule has as
few rounds as lets everyone meet everyone, byes handed out in turn, and the tables are improved by a
deterministic local search; the number of repeated meetings (every meeting of a pair after its first)
and of pairs that never meet are reported.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

__all__ = [
    "ScheduleError",
    "Schedule",
    "round_robin",
    "kirkman",
    "is_kirkman_size",
    "minimum_rounds",
    "count_meetings",
]


class ScheduleError(ValueError):
    pass


@dataclass(frozen=True)
class Schedule:
    rounds: tuple[tuple[tuple, ...], ...]  # round -> tables -> players
    byes: tuple[tuple, ...]  # round -> players sitting out
    repeats: int  # meetings beyond a pair's first
    missing: int  # pairs that never meet
    lower_bound: int  # no schedule with these rounds and byes can have fewer repeats
    kirkman: bool

    def as_lists(self) -> list[list[list]]:
        return [[list(t) for t in rnd] for rnd in self.rounds]


def is_kirkman_size(n: int) -> bool:
    return n % 6 == 3


# ---------------------------------------------------------------------------------------------------
# Kirkman triple systems
#
# Three classical shapes, each reduced to a tiny search for a few "base" tables whose shifts do the rest.
# Points are numbered 0..n-1 here and 1..n outside.


class _OutOfNodes(Exception):
    pass


def _orbit_search(points, orbit, used: set, tables_wanted: int, budget: list[int]):
    """Split ``points`` into triples whose pair orbits are all distinct and not in ``used``.

    ``budget`` is a one-item list of search nodes left, shared by every call of one construction.
    """
    tables: list[tuple] = []

    def dfs(rest: list) -> bool:
        budget[0] -= 1
        if budget[0] < 0:
            raise _OutOfNodes
        if not rest:
            return True
        p, others = rest[0], rest[1:]
        for xi, x in enumerate(others):
            o1 = orbit(p, x)
            if o1 in used:
                continue
            for yi in range(xi + 1, len(others)):
                y = others[yi]
                o2, o3 = orbit(p, y), orbit(x, y)
                if o2 in used or o3 in used or len({o1, o2, o3}) < 3:
                    continue
                used.update((o1, o2, o3))
                tables.append((p, x, y))
                if dfs([u for k, u in enumerate(others) if k != xi and k != yi]):
                    return True
                tables.pop()
                used.difference_update((o1, o2, o3))
        return False

    return tables if dfs(list(points)) and len(tables) == tables_wanted else None


def _pure_or_mixed(q: int):
    def orbit(p, r):
        (a, i), (b, j) = p, r
        if i == j:
            d = (b - a) % q
            return ("p", i, min(d, q - d))
        if i > j:
            (a, i), (b, j) = (b, j), (a, i)
        return ("m", i, j, (b - a) % q)

    return orbit


def _kts_2q_plus_1(n: int, limit: int = 40_000):
    """Points Z_q x {0,1} plus one fixed point, q = (n-1)/2; round j is the base round shifted by j."""
    q = (n - 1) // 2
    if q % 2 == 0:
        return None  # the pairs {a, a + q/2} would form a half orbit, met twice by the shifts
    used = {("m", 0, 1, 0)}  # the pairs {(a,0),(a,1)} sit with the fixed point
    points = [(a, i) for i in range(2) for a in range(1, q)]
    try:
        base = _orbit_search(points, _pure_or_mixed(q), used, (n - 3) // 3, [limit])
    except _OutOfNodes:
        return None
    if base is None:
        return None
    fixed = n - 1
    rounds = []
    for j in range(q):
        tables = [(fixed, j, q + j)]
        for t in base:
            tables.append(tuple(((a + j) % q) + i * q for a, i in t))
        rounds.append(tables)
    return rounds


def _kts_3q(n: int, limit: int = 60_000):
    """Points Z_q x {0,1,2}, q = n/3: (q-1)/2 rounds fixed by the shift, plus one base round shifted."""
    q = n // 3
    orbit = _pure_or_mixed(q)
    used: set = set()
    transversals: list[tuple[int, int]] = []
    points = [(a, i) for i in range(3) for a in range(q)]
    budget = [limit]
    base = None

    def dfs(start: tuple[int, int]) -> bool:
        nonlocal base
        budget[0] -= 1
        if budget[0] < 0:
            raise _OutOfNodes
        if len(transversals) == (q - 1) // 2:
            base = _orbit_search(points, orbit, used, q, budget)
            return base is not None
        for x in range(q):
            for y in range(q):
                if (x, y) < start:
                    continue
                own = (("m", 0, 1, x), ("m", 0, 2, y), ("m", 1, 2, (y - x) % q))
                if any(o in used for o in own):
                    continue
                used.update(own)
                transversals.append((x, y))
                if dfs((x, y)):
                    return True
                transversals.pop()
                used.difference_update(own)
        return False

    try:
        if not dfs((0, 0)):
            return None
    except _OutOfNodes:
        return None
    rounds = []
    for x, y in transversals:
        rounds.append([(a, q + (a + x) % q, 2 * q + (a + y) % q) for a in range(q)])
    for j in range(q):
        rounds.append([tuple(((a + j) % q) + i * q for a, i in t) for t in base])
    return rounds


def _kts_tripled(n: int):
    """KTS(3v) from KTS(v): each table {a,b,c} grows into the affine plane on {a,b,c} x Z_3."""
    v = n // 3
    small = _construct(v)
    if small is None:
        return None
    rounds = []
    for rnd in small:
        for m in range(3):
            rounds.append(
                [
                    (a + s * v, b + ((s + m) % 3) * v, c + ((s + 2 * m) % 3) * v)
                    for a, b, c in rnd
                    for s in range(3)
                ]
            )
    rounds.append([(x, x + v, x + 2 * v) for x in range(v)])
    return rounds


@lru_cache(maxsize=64)
def _construct(n: int):
    if n == 3:
        return (((0, 1, 2),),)
    rounds = None
    if n % 18 == 9 and n >= 27:
        rounds = _kts_tripled(n)
    if rounds is None:
        rounds = _kts_2q_plus_1(n)
    if rounds is None:
        rounds = _kts_3q(n)
    if rounds is None:
        return None
    return tuple(tuple(tuple(sorted(t)) for t in rnd) for rnd in rounds)


def kirkman(n: int) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """A Kirkman schedule for n = 3 (mod 6) players numbered 1..n: every pair meets exactly once.

    Raises ScheduleError for other sizes, and for the few large sizes no construction here reaches
    (57, 69, 75, 87, 93, ...; everything from 3 to 51 and every 9 x 3^k, 21 x 3^k, ... works).
    """
    if not isinstance(n, int) or isinstance(n, bool) or n < 3 or not is_kirkman_size(n):
        raise ScheduleError(f"a Kirkman schedule needs 3, 9, 15, 21, ... players (n = 3 mod 6), not {n}")
    built = _construct(n)
    if built is None:
        raise ScheduleError(f"no Kirkman schedule constructed for {n} players")
    result = tuple(tuple(sorted(tuple(sorted(p + 1 for p in t)) for t in rnd)) for rnd in built)
    result = tuple(sorted(result))
    _verify_kirkman(n, result)
    return result


def _verify_kirkman(n: int, rounds) -> None:
    seen: set[tuple[int, int]] = set()
    for rnd in rounds:
        players = sorted(p for t in rnd for p in t)
        if players != list(range(1, n + 1)):
            raise ScheduleError(f"internal error: a round of the {n}-player schedule is not a partition")
        for t in rnd:
            for pair in combinations(sorted(t), 2):
                if pair in seen:
                    raise ScheduleError(f"internal error: {pair} meets twice in the {n}-player schedule")
                seen.add(pair)
    if len(seen) != n * (n - 1) // 2:
        raise ScheduleError(f"internal error: not every pair meets in the {n}-player schedule")


# ---------------------------------------------------------------------------------------------------
# Any size


def minimum_rounds(n: int) -> int:
    """Fewest rounds in which every player can meet every other (byes rotate, at most one table each)."""
    if n < 3:
        raise ScheduleError(f"{n} player(s) cannot fill a table of three")
    need = n // 2  # rounds of play each player needs for n - 1 opponents, two a round
    byes_per_round = n % 3
    rounds = need
    # Byes must fit: everybody may sit out at most rounds - need times.
    while rounds * byes_per_round > n * (rounds - need):
        rounds += 1
    return rounds


def _bye_plan(n: int, rounds: int) -> list[list[int]]:
    """Byes in turn from the last player up, so no one sits out twice before everyone has once."""
    per = n % 3
    order = list(range(n - 1, -1, -1))
    plan = []
    k = 0
    for _ in range(rounds):
        plan.append(sorted(order[(k + i) % n] for i in range(per)))
        k += per
    return plan


def _lower_bound(n: int, rounds: int, plan: list[list[int]]) -> int:
    byes = [0] * n
    for rnd in plan:
        for p in rnd:
            byes[p] += 1
    excess = sum(max(0, 2 * (rounds - b) - (n - 1)) for b in byes)
    # Meetings beyond n*(n-1)/2 distinct pairs are repeats too.
    total_meetings = rounds * (n // 3) * 3
    return max((excess + 1) // 2, total_meetings - n * (n - 1) // 2)


def _search_schedule(n: int, rounds: int, seed: int, iterations: int):
    plan = _bye_plan(n, rounds)
    rng = random.Random(seed)
    count = [[0] * n for _ in range(n)]
    schedule: list[list[list[int]]] = []
    for rnd in range(rounds):
        bye = set(plan[rnd])
        seated = [p for p in range(n) if p not in bye]
        # Start from a shifted order so that consecutive rounds differ.
        rng.shuffle(seated)
        tables = [seated[i : i + 3] for i in range(0, len(seated), 3)]
        for t in tables:
            for a, b in combinations(t, 2):
                count[a][b] += 1
                count[b][a] += 1
        schedule.append(tables)

    def pair_cost(c: int) -> int:
        return c - 1 if c > 1 else 0

    def cost() -> int:
        return sum(pair_cost(count[a][b]) for a in range(n) for b in range(a + 1, n))

    current = cost()
    best = current
    best_schedule = [[list(t) for t in rnd] for rnd in schedule]
    bound = _lower_bound(n, rounds, plan)
    temperature = 1.5
    tables_per_round = len(schedule[0])
    if tables_per_round < 2:
        return best_schedule, plan, best, bound
    for it in range(iterations):
        if best <= bound:
            break
        rnd = schedule[rng.randrange(rounds)]
        i, j = rng.sample(range(tables_per_round), 2)
        ti, tj = rnd[i], rnd[j]
        a, b = rng.randrange(3), rng.randrange(3)
        x, y = ti[a], tj[b]
        others_i = [p for p in ti if p != x]
        others_j = [p for p in tj if p != y]
        delta = 0
        for o in others_i:
            delta -= count[x][o] > 1
            delta += count[y][o] >= 1
        for o in others_j:
            delta -= count[y][o] > 1
            delta += count[x][o] >= 1
        if delta <= 0 or rng.random() < math.exp(-delta / temperature):
            for o in others_i:
                count[x][o] -= 1
                count[o][x] -= 1
                count[y][o] += 1
                count[o][y] += 1
            for o in others_j:
                count[y][o] -= 1
                count[o][y] -= 1
                count[x][o] += 1
                count[o][x] += 1
            ti[a], tj[b] = y, x
            current += delta
            if current < best:
                best = current
                best_schedule = [[list(t) for t in r] for r in schedule]
        if it % 256 == 255:
            # Geometric cooling over the whole run, from 1.5 down to 0.1.
            temperature = 1.5 * (0.1 / 1.5) ** (it / iterations)
    return best_schedule, plan, best, bound


@lru_cache(maxsize=32)
def _general(n: int, rounds: int):
    iterations = min(6000 * n, 400_000)
    sched, plan, _, bound = _search_schedule(n, rounds, seed=n * 1009 + rounds, iterations=iterations)
    return sched, plan, bound


def round_robin(players: int | Sequence, rounds: int | None = None) -> Schedule:
    """All-play-all schedule for ``players`` (a count, numbered from 1, or a list of ids).

    ``rounds`` defaults to (n-1)/2 for Kirkman sizes and to :func:`minimum_rounds` otherwise; fewer rounds
    give a partial schedule (a Kirkman schedule cut short still has no repeats).
    """
    if isinstance(players, bool):
        raise ScheduleError("players must be a number or a list of player ids")
    if isinstance(players, int):
        ids = list(range(1, players + 1))
    else:
        ids = list(players)
        if len(set(ids)) != len(ids):
            raise ScheduleError("a player id is listed twice")
    n = len(ids)
    if n < 3:
        raise ScheduleError(f"{n} player(s) cannot fill a table of three")
    if rounds is not None and (not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 1):
        raise ScheduleError(f"rounds must be a whole number of at least 1, got {rounds!r}")

    full = None
    if is_kirkman_size(n) and (rounds is None or rounds <= (n - 1) // 2):
        try:
            full = kirkman(n)
        except ScheduleError:
            full = None  # a size none of the constructions reaches: fall back to the search below
    if full is not None:
        chosen = full[: rounds or len(full)]
        rnds = tuple(tuple(tuple(ids[p - 1] for p in t) for t in rnd) for rnd in chosen)
        missing = n * (n - 1) // 2 - 3 * len(chosen) * (n // 3)
        return Schedule(rnds, tuple(() for _ in rnds), 0, missing, 0, kirkman=True)

    rounds = rounds or minimum_rounds(n)
    sched, plan, bound = _general(n, rounds)
    rnds = tuple(tuple(tuple(ids[p] for p in sorted(t)) for t in sorted(rnd, key=min)) for rnd in sched)
    byes = tuple(tuple(ids[p] for p in rnd) for rnd in plan)
    repeats, missing = count_meetings(rnds, ids)
    return Schedule(rnds, byes, repeats, missing, bound, kirkman=False)


def count_meetings(rounds: Sequence[Sequence[Sequence]], ids: Sequence) -> tuple[int, int]:
    """(repeated meetings, pairs that never meet) of a schedule."""
    count: dict[frozenset, int] = {}
    for rnd in rounds:
        for t in rnd:
            for a, b in combinations(t, 2):
                key = frozenset((a, b))
                count[key] = count.get(key, 0) + 1
    repeats = sum(c - 1 for c in count.values())
    missing = len(ids) * (len(ids) - 1) // 2 - len(count)
    return repeats, missing
