"""Individual movements (VSz 24 applied to individual events): who sits where with whom, round by round.

Players 1..4T play at T tables (T = 2..8 are the usual sizes; any T >= 1 is generated). Over a full
event of 4T - 1 rounds every player partners every other player exactly once: each round's partnerships
are one 1-factor of the "circle" round robin (player 4T stays, players 1..4T-1 rotate; in round r player
r partners 4T and r+i partners r-i mod 4T-1). Fewer rounds take the first ones, so nobody partners anyone
twice. Each table of a round holds two partnerships (North-South and East-West).

What is exact and what is approximate:
- **Partners: exact for every size.** Each player partners each other player at most once (exactly once
  over 4T - 1 rounds).
- **Boards: exact for every size.** Table t of round r plays set r + c_t (mod R) when a bounded search
  finds offsets c_t with which no player meets a set twice (it does for one table); otherwise, as for
  2-8 tables today, the tables of a round share the round's set (the boards are duplicated T times, as
  in a barometer). Either way each player plays each board at most once and, over the full movement,
  every board is played T times, so every board has the same top (VSz 24).
- **Opponents: exact for 1-3 tables, an approximation for 4-8.** For 2-8 tables round 1 comes from
  `_FOUND_BASES`, found once by a search (bench/individual_movements.py) over the cyclic arrangements
  whose partnerships still cover every pair once: with 1, 2 and 3 tables every two players meet as
  opponents exactly twice (a whist tournament, `opponent_spread` (2, 2)); with 4-8 tables at least once
  and at most three times (four times for some pairs at 7 tables). Other sizes keep the plain circle and
  a greedy table split, where some players never face each other (`opponent_spread` (0, 4)).

Board set numbers are 1..R; set k holds boards (k-1)*boards_per_round + 1 .. k*boards_per_round.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from functools import cache
from itertools import combinations

USUAL_TABLES = range(2, 9)


@dataclass(frozen=True)
class IndividualTableRound:
    """One table in one round: the four players by seat and the boards they play."""

    round: int
    table: int
    north: int
    south: int
    east: int
    west: int
    board_set: int
    boards: tuple[int, ...]

    @property
    def players(self) -> tuple[int, int, int, int]:
        return (self.north, self.south, self.east, self.west)


@dataclass(frozen=True)
class IndividualMovement:
    tables: int
    rounds: int
    boards_per_round: int
    players: tuple[int, ...]
    assignments: tuple[IndividualTableRound, ...]
    shared_sets: bool  # the tables of a round play the same (duplicated) boards

    @property
    def boards(self) -> tuple[int, ...]:
        """Every board in play, in order."""
        return tuple(sorted({board for a in self.assignments for board in a.boards}))

    def round_plan(self, round_no: int) -> list[IndividualTableRound]:
        return [a for a in self.assignments if a.round == round_no]

    def seat_of(self, player: int, round_no: int) -> tuple[IndividualTableRound, str] | None:
        """The table and seat ("N", "S", "E", "W") of a player in a round."""
        for a in self.round_plan(round_no):
            for seat, who in zip("NSEW", a.players, strict=True):
                if who == player:
                    return a, seat
        return None


def individual(tables: int, boards_per_round: int = 2, rounds: int | None = None) -> IndividualMovement:
    """The movement of 4 x `tables` players; `rounds` defaults to the full 4T - 1 (everybody partners
    everybody once)."""
    if tables < 1:
        raise ValueError("an individual movement needs at least one table")
    if boards_per_round < 1:
        raise ValueError("boards per round must be at least 1")
    full = 4 * tables - 1
    rounds = full if rounds is None else rounds
    if not 1 <= rounds <= full:
        raise ValueError(f"{4 * tables} players can play 1 to {full} rounds without a repeated partner")
    base, offsets = _base_round(tables)
    m = full
    assignments = []
    for r in range(rounds):
        for t, seats in enumerate(base):
            north, south, east, west = (_player(x, r, m) for x in seats)
            if r % 2:  # alternate who sits North and East so nobody keeps one seat
                north, south, east, west = south, north, west, east
            board_set = ((r + offsets[t]) % m if offsets is not None else r) + 1
            first = (board_set - 1) * boards_per_round + 1
            assignments.append(
                IndividualTableRound(
                    r + 1,
                    t + 1,
                    north,
                    south,
                    east,
                    west,
                    board_set,
                    tuple(range(first, first + boards_per_round)),
                )
            )
    movement = IndividualMovement(
        tables, rounds, boards_per_round, tuple(range(1, 4 * tables + 1)), tuple(assignments), offsets is None
    )
    validate(movement)
    return movement


INFINITY = -1  # the player who stays (number 4T); the others are 0..4T-2 and move up one a round


def _player(x: int, r: int, m: int) -> int:
    return m + 1 if x == INFINITY else (x + r) % m + 1


# Round 1 of the usual sizes, (N, S, E, W) per table in circle elements (INFINITY = -1), found once by the
# search in bench/individual_movements.py and checked by `validate` on every build: each difference mod
# 4T - 1 appears once between partners (everybody partners everybody once) and about twice between
# opponents (2 and 3 tables: exactly twice, a whist tournament).
_FOUND_BASES: dict[int, tuple[int, ...]] = {
    2: (3, 2, 1, 5, 6, 4, 0, -1),
    3: (0, 6, 8, -1, 5, 9, 1, 10, 4, 7, 3, 2),
    4: (13, 4, 1, 9, 11, 8, 10, 6, -1, 3, 12, 2, 7, 5, 0, 14),
    5: (13, 3, 17, 5, 0, 4, 1, -1, 7, 12, 14, 6, 11, 8, 16, 18, 9, 10, 15, 2),
    6: (18, 21, 17, 22, 14, -1, 1, 11, 2, 8, 7, 6, 9, 0, 16, 20, 5, 13, 3, 19, 12, 10, 4, 15),
    7: (10, 3, 12, 7, 6, 8, -1, 0, 4, 13, 20, 5, 16, 2, 21, 18, 1, 17, 14, 22, 26, 9, 19, 25, 23, 24, 11, 15),
    8: (
        4,
        16,
        5,
        3,
        17,
        7,
        30,
        24,
        12,
        9,
        18,
        2,
        25,
        8,
        20,
        13,
        28,
        6,
        14,
        22,
        27,
        26,
        23,
        19,
        29,
        11,
        0,
        -1,
        10,
        15,
        1,
        21,
    ),
}


@cache
def _base_round(tables: int) -> tuple[tuple[tuple[int, int, int, int], ...], tuple[int, ...] | None]:
    """Round 1's tables as (N, S, E, W) of circle elements, and each table's board-set offset (None: the
    tables share the round's set). Later rounds add the round number to every element but INFINITY.

    2-8 tables: the round found by the search (`_FOUND_BASES`). Other sizes: the circle's 1-factor
    {0, INFINITY}, {i, -i}, with which two partnerships face each other found by a small deterministic
    local search that spreads the opponent differences (two players meet as opponents as often as their
    difference appears between opponents in round 1)."""
    m = 4 * tables - 1
    if tables in _FOUND_BASES:
        flat = _FOUND_BASES[tables]
        base = tuple(tuple(flat[4 * t : 4 * t + 4]) for t in range(tables))
        return base, _offsets(base, m)
    pairs = [(0, INFINITY)] + [(i, m - i) for i in range(1, 2 * tables)]
    order = list(range(len(pairs)))
    rng = random.Random(tables)
    best_order, best_cost = order[:], _cost(pairs, order, m)
    for _ in range(400 if tables > 1 else 0):
        i, j = rng.sample(range(len(order)), 2)
        if i // 2 == j // 2:
            continue
        order[i], order[j] = order[j], order[i]
        cost = _cost(pairs, order, m)
        if cost <= best_cost:
            best_order, best_cost = order[:], cost
        else:
            order[i], order[j] = order[j], order[i]
    base = tuple(pairs[best_order[2 * t]] + pairs[best_order[2 * t + 1]] for t in range(tables))
    return base, _offsets(base, m)


def _cost(pairs, order, m) -> tuple[int, int]:
    classes: Counter[int] = Counter()
    for t in range(0, len(order), 2):
        for a in pairs[order[t]]:
            for b in pairs[order[t + 1]]:
                if INFINITY not in (a, b):
                    d = (a - b) % m
                    classes[min(d, m - d)] += 1
    counts = [classes[d] for d in range(1, m // 2 + 1)]
    return (sum((c - 2) ** 2 for c in counts), max(counts) - min(counts))


def _offsets(base, m: int) -> tuple[int, ...] | None:
    """Offsets c_t, distinct, with every c_t - b (b a moving player of table t) distinct mod m: then table
    t plays set r + c_t in round r and no player meets a set twice. None when the search finds none."""
    members = [[x for x in seats if x != INFINITY] for seats in base]
    chosen: list[int] = []
    used: set[int] = set()
    budget = [20_000]  # a bounded search: past it the tables share the round's set (still exact)

    def place(t: int) -> bool:
        if t == len(members):
            return True
        budget[0] -= 1
        if budget[0] < 0:
            return False
        for c in range(m):
            if c in chosen:
                continue
            values = {(c - b) % m for b in members[t]}
            if len(values) < len(members[t]) or values & used:
                continue
            chosen.append(c)
            used.update(values)
            if place(t + 1):
                return True
            chosen.pop()
            used.difference_update(values)
        return False

    return tuple(chosen) if place(0) else None


def validate(movement: IndividualMovement) -> None:
    """Raise ValueError unless every player sits once a round, partners nobody twice and plays no board
    twice."""
    partners: set[frozenset[int]] = set()
    played: set[tuple[int, int]] = set()
    for r in range(1, movement.rounds + 1):
        seated: list[int] = []
        for a in movement.round_plan(r):
            seated.extend(a.players)
            for pair in ((a.north, a.south), (a.east, a.west)):
                key = frozenset(pair)
                if key in partners:
                    raise ValueError(f"round {r}: players {pair[0]} and {pair[1]} partner a second time")
                partners.add(key)
            for player in a.players:
                for board in a.boards:
                    if (player, board) in played:
                        raise ValueError(f"round {r}: player {player} plays board {board} again")
                    played.add((player, board))
        if sorted(seated) != list(movement.players):
            raise ValueError(f"round {r}: not every player is seated exactly once")


def opponent_spread(movement: IndividualMovement) -> tuple[int, int]:
    """(fewest, most) rounds any two players sat against each other (a whist tournament has (2, 2))."""
    met: Counter[frozenset[int]] = Counter()
    for a in movement.assignments:
        for x in (a.north, a.south):
            for y in (a.east, a.west):
                met[frozenset((x, y))] += 1
    counts = [met[frozenset(pair)] for pair in combinations(movement.players, 2)]
    return (min(counts), max(counts))
