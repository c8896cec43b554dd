"""Pair-event movements (VSz 24): Mitchell and complete Howell, as plain per-round data and guide cards.

Mitchell: NS pair t stays at table t, EW pairs move up one table, board sets move down one.  With an
odd number of tables every EW pair meets every board set once.  With an even number an EW pair would
come back to sets it has played after half the tables, so either
- "skip": EW pairs jump two tables once half the rounds are played (the classic skip Mitchell), or
- "relay": tables 1 and n share a set each round and a bye-stand between tables n/2 and n/2 + 1 holds
  a set out of play ("relay and bye-stand"), which keeps one table step per round.
Board set numbers are 1..sets; set k holds boards (k-1)*boards_per_round + 1 .. k*boards_per_round.

Arrow switch (VSz 13): on the chosen rounds the NS pair plays the EW cards: North moves to East, South
to West, East to South, West to North.  The per-round record then shows who actually sits where.

Howell: a complete Howell for N pairs (N even; odd N adds a phantom, the pair facing it sits out) on
N/2 tables over N - 1 rounds.  Pair N (or the phantom) stays at table 1; pairs 1..N-1 play the round
robin "circle" (in round r pair r faces N, and r+i faces r-i mod N-1 at table i+1), so each pair meets
every other once and moves at most one table a round.  Table i+1 plays board set r + c_i (mod N-1),
where the offsets c_i are found once by a small search so that every pair plays every set exactly once
and no two tables share a set in the same round.  `validate` re-checks all of that on the output.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

PHANTOM = 0  # pair number of the Howell phantom in an odd field ("sit out")


@dataclass(frozen=True)
class TableRound:
    """One table in one round; `ns`/`ew` are the pairs actually sitting there after any arrow switch."""

    round: int
    table: int
    ns: int
    ew: int
    board_set: int
    boards: tuple[int, ...]
    arrow_switched: bool = False
    relay_with: int | None = None  # the table sharing this set in a relay Mitchell


@dataclass(frozen=True)
class Movement:
    kind: str  # "mitchell" or "howell"
    tables: int
    rounds: int
    board_sets: int
    boards_per_round: int
    pairs: tuple[int, ...]  # all real pair numbers
    assignments: tuple[TableRound, ...]
    sit_outs: tuple[tuple[int, int], ...] = ()  # (round, pair) for Howell with a phantom
    note: str = ""

    def round_plan(self, round_no: int) -> list[TableRound]:
        return [a for a in self.assignments if a.round == round_no]


@dataclass(frozen=True)
class GuideEntry:
    round: int
    table: int | None  # None: sits out
    direction: str | None  # "NS" or "EW"
    seats: tuple[str, str] | None  # where the pair's two players sit (see `guide_cards`)
    opponents: int | None
    board_set: int | None
    boards: tuple[int, ...]
    arrow_switched: bool = False


def _boards(board_set: int, per_round: int) -> tuple[int, ...]:
    return tuple(range((board_set - 1) * per_round + 1, board_set * per_round + 1))


def _check_basic(tables: int, boards_per_round: int) -> None:
    if tables < 1:
        raise ValueError("a movement needs at least one table")
    if boards_per_round < 1:
        raise ValueError("at least one board per round")


def mitchell(
    tables: int,
    boards_per_round: int = 2,
    rounds: int | None = None,
    even_method: str = "skip",
    arrow_switch_rounds: Iterable[int] = (),
) -> Movement:
    """NS pairs 1..tables, EW pairs tables+1..2*tables (EW pair e starts at table e - tables)."""
    _check_basic(tables, boards_per_round)
    if tables < 2:
        raise ValueError("a Mitchell needs at least two tables")
    even = tables % 2 == 0
    if even and even_method not in ("skip", "relay"):
        raise ValueError("even_method must be 'skip' or 'relay'")
    method = even_method if even else "odd"
    # A skip Mitchell meets one NS pair fewer: its last round would bring every EW pair back to its
    # first opponent.
    most = tables - 1 if method == "skip" else tables
    rounds = most if rounds is None else rounds
    if not 1 <= rounds <= most:
        raise ValueError(f"this {tables}-table Mitchell has 1 to {most} rounds")
    switched = set(arrow_switch_rounds)
    if not switched <= set(range(1, rounds + 1)):
        raise ValueError("arrow switch rounds must be rounds of the movement")
    n = tables
    out: list[TableRound] = []
    for r in range(rounds):
        for t in range(n):
            ew_offset = r + 1 if method == "skip" and r >= n // 2 else r
            ew = (t - ew_offset) % n  # EW pair (0-based) now at table t
            relay_with = None
            if method == "relay":
                board_set = _relay_set(n, t, r)
                if t in (0, n - 1):
                    relay_with = n if t == 0 else 1
            else:
                board_set = (t + r) % n  # sets move down: set s sits at table s - r
            ns_pair, ew_pair = t + 1, n + ew + 1
            switch = (r + 1) in switched
            if switch:
                ns_pair, ew_pair = ew_pair, ns_pair
            out.append(
                TableRound(
                    r + 1,
                    t + 1,
                    ns_pair,
                    ew_pair,
                    board_set + 1,
                    _boards(board_set + 1, boards_per_round),
                    switch,
                    relay_with,
                )
            )
    note = {
        "odd": "odd tables: EW up one, boards down one",
        "skip": f"even tables: EW pairs skip a table after round {n // 2}",
        "relay": f"even tables: tables 1 and {n} share boards, bye-stand between tables {n // 2} and {n // 2 + 1}",
    }[method]
    return Movement(
        "mitchell", n, rounds, n, boards_per_round, tuple(range(1, 2 * n + 1)), tuple(out), (), note
    )


def _relay_set(n: int, t: int, r: int) -> int:
    """0-based set at 0-based table t in 0-based round r of a relay and bye-stand Mitchell.

    Sets circulate over n positions: position 0 is the shared relay (tables 1 and n), positions
    1..n/2-1 are tables n-1 down to n/2+1, position n/2 is the bye-stand, n/2+1..n-1 are tables n/2
    down to 2; a set moves one position each round.
    """
    half = n // 2
    if t in (0, n - 1):
        position = 0
    elif t >= half:  # tables half+1 .. n-1 (1-based), i.e. t = half .. n-2
        position = n - 1 - t
    else:  # tables 2 .. half (1-based), i.e. t = 1 .. half-1
        position = half + (half - t)
    return (position - r) % n


Design = tuple[tuple[int, int | None, int], ...]  # per table: (a, b, c); table 1 is (0, None, c0)


def _search_design(m: int, patterned: bool, distinct: bool) -> Design | None:
    modulus = 2 * m - 1
    tables: list[tuple[int, int | None, int]] = [(0, None, 0)]
    points, diffs, residues = {0}, set(), {0}
    sets: Counter[int] = Counter({0: 1})

    def place() -> bool:
        i = len(tables)
        if i == m:
            return True
        if patterned:
            options = [(i, (-i) % modulus)]
        else:
            a = min(x for x in range(modulus) if x not in points)
            options = [(a, b) for b in range(modulus) if b not in points and b != a]
        for a, b in options:
            d = (b - a) % modulus
            d = min(d, modulus - d)
            if d in diffs:
                continue
            # Unused sets first, so a relay is only used where nothing else fits.
            for c in sorted(range(modulus), key=lambda c: sets[c] > 0):
                if distinct and sets[c]:
                    break
                lo, hi = (c - a) % modulus, (c - b) % modulus
                if lo in residues or hi in residues or lo == hi:
                    continue
                tables.append((a, b, c))
                points.update((a, b))
                diffs.add(d)
                sets[c] += 1
                residues.update((lo, hi))
                if place():
                    return True
                tables.pop()
                points.difference_update((a, b))
                diffs.discard(d)
                sets[c] -= 1
                residues.difference_update((lo, hi))
        return False

    return tuple(tables) if place() else None


@cache
def _howell_design(m: int) -> tuple[Design, str]:
    """Starter pairs and set offsets over Z_{2m-1} for a 1-rotational Howell on m tables.

    In round r, table 1 holds the stationary pair against pair r + 0 and table i + 1 holds pairs
    r + a_i and r + b_i with board set r + c_i.  Requirements: the {a_i, b_i} with 0 partition the
    residues and their differences +-(a_i - b_i) are all different (so each pair meets every other once);
    {c_0 - 0} with all {c_i - a_i, c_i - b_i} is every residue once (so each pair plays every set once).
    Tried in order: the patterned starter a_i = i, b_i = -i (pairs then move one table at a time),
    any starter, and finally any starter with tables allowed to share a set in a round (a relay) - the
    2- and 3-table Howells have no cyclic solution without one.  The last search always succeeds:
    the patterned starter with every c_i = 0 satisfies it.
    """
    for patterned, distinct, kind in (
        (True, True, "patterned"),
        (False, True, "general"),
        (True, False, "relay"),
    ):
        design = _search_design(m, patterned, distinct)
        if design is not None:
            return design, kind
    raise AssertionError("unreachable: the relay design always exists")


MAX_HOWELL_PAIRS = 30


def howell(pairs: int, boards_per_round: int = 2) -> Movement:
    """A complete Howell: every pair meets every other once and plays every board set once."""
    if pairs < 3:
        raise ValueError("a Howell needs at least three pairs")
    if pairs > MAX_HOWELL_PAIRS:
        raise ValueError(f"a complete Howell is for small fields (at most {MAX_HOWELL_PAIRS} pairs)")
    _check_basic(1, boards_per_round)
    size = pairs + pairs % 2
    m = size // 2
    modulus = size - 1
    design, kind = _howell_design(m)
    stationary = size if size == pairs else PHANTOM
    out: list[TableRound] = []
    sit_outs: list[tuple[int, int]] = []
    for r in range(modulus):
        by_set: dict[int, list[int]] = {}
        for table, (_, b, c) in enumerate(design, start=1):
            if not (b is None and stationary == PHANTOM):  # the phantom's table plays nothing
                by_set.setdefault((r + c) % modulus + 1, []).append(table)
        for table, (a, b, c) in enumerate(design, start=1):
            board_set = (r + c) % modulus + 1
            # Pairs 1..size-1 are the residues 0..size-2 shifted by one.
            first = (r + a) % modulus + 1
            second = stationary if b is None else (r + b) % modulus + 1
            if second == PHANTOM:
                sit_outs.append((r + 1, first))
                continue
            ns, ew = (second, first) if b is None else (first, second)
            relay = next((t for t in by_set[board_set] if t != table), None)
            out.append(
                TableRound(
                    r + 1, table, ns, ew, board_set, _boards(board_set, boards_per_round), False, relay
                )
            )
    note = f"complete Howell, cyclic construction ({kind})"
    if any(a.relay_with is not None for a in out):
        note += "; tables sharing a set in a round relay the boards between them"
    if sit_outs:
        note += "; the pair facing the phantom sits out"
    return Movement(
        "howell",
        m,
        modulus,
        modulus,
        boards_per_round,
        tuple(range(1, pairs + 1)),
        tuple(out),
        tuple(sit_outs),
        note,
    )


_SEATS_PLAIN = {"NS": ("N", "S"), "EW": ("E", "W")}
# VSz 13: after an arrow switch the NS pair sits N->E, S->W, and the EW pair E->S, W->N.
_SEATS_SWITCHED = {"NS": ("E", "W"), "EW": ("S", "N")}


def guide_cards(movement: Movement) -> dict[int, list[GuideEntry]]:
    """Per pair, round by round: table, direction, seats of its two players, opponents, boards.

    `seats` lists where the pair's first player (the one entered as North, or East for a pair that
    starts East-West) and second player sit; after an arrow switch the first player of an NS pair is
    East.  A Mitchell pair's "home" line is its starting line.
    """
    cards: dict[int, list[GuideEntry]] = {pair: [] for pair in movement.pairs}
    home_line: dict[int, str] = {}
    if movement.kind == "mitchell":
        home_line = {p: ("NS" if p <= movement.tables else "EW") for p in movement.pairs}
    for a in movement.assignments:
        for pair, direction, opponent in ((a.ns, "NS", a.ew), (a.ew, "EW", a.ns)):
            if pair == PHANTOM:
                continue
            line = home_line.get(pair, direction)
            seats = _SEATS_SWITCHED[line] if a.arrow_switched else _SEATS_PLAIN[line]
            cards[pair].append(
                GuideEntry(
                    a.round,
                    a.table,
                    direction,
                    seats,
                    None if opponent == PHANTOM else opponent,
                    a.board_set,
                    a.boards,
                    a.arrow_switched,
                )
            )
    for round_no, pair in movement.sit_outs:
        cards[pair].append(GuideEntry(round_no, None, None, None, None, None, ()))
    for entries in cards.values():
        entries.sort(key=lambda e: e.round)
    return cards


@dataclass(frozen=True)
class MovementCheck:
    plays_per_set: dict[int, int]
    meetings: dict[tuple[int, int], int]
    repeated_sets: tuple[tuple[int, int], ...]  # (pair, set) played more than once
    repeated_meetings: tuple[tuple[int, int], ...]
    opponents_share: dict[int, float]  # fraction of the other pairs met (VSz 24: aim for 50%+)
    boards_share: dict[int, float]  # fraction of the boards in play the pair played (VSz 24: 80%+)

    @property
    def equal_plays(self) -> bool:
        return len(set(self.plays_per_set.values())) <= 1

    @property
    def ok(self) -> bool:
        return self.equal_plays and not self.repeated_sets and not self.repeated_meetings


def validate(movement: Movement) -> MovementCheck:
    """Facts a director checks before using a movement; `ok` sums up the hard requirements."""
    plays: Counter[int] = Counter()
    meetings: Counter[tuple[int, int]] = Counter()
    pair_sets: Counter[tuple[int, int]] = Counter()
    per_round: Counter[tuple[int, int]] = Counter()
    for a in movement.assignments:
        plays[a.board_set] += 1
        meetings[(min(a.ns, a.ew), max(a.ns, a.ew))] += 1
        for pair in (a.ns, a.ew):
            pair_sets[(pair, a.board_set)] += 1
            per_round[(pair, a.round)] += 1
    if any(count > 1 for count in per_round.values()):
        raise ValueError("a pair is seated twice in one round")
    for s in range(1, movement.board_sets + 1):
        plays.setdefault(s, 0)
    total_sets = sum(1 for s in plays if plays[s])
    others = len(movement.pairs) - 1
    opponents = {
        p: len({o for (x, y) in meetings for o in (x, y) if p in (x, y) and o != p}) for p in movement.pairs
    }
    sets_played = {p: len({s for (q, s) in pair_sets if q == p}) for p in movement.pairs}
    return MovementCheck(
        plays_per_set=dict(sorted(plays.items())),
        meetings=dict(meetings),
        repeated_sets=tuple(sorted(k for k, v in pair_sets.items() if v > 1)),
        repeated_meetings=tuple(sorted(k for k, v in meetings.items() if v > 1)),
        opponents_share={p: opponents[p] / others for p in movement.pairs},
        boards_share={p: sets_played[p] / total_sets for p in movement.pairs},
    )


# VSz 24: each pair meets at least half of the other pairs and plays at least 80% of the boards in play.
MIN_OPPONENTS_SHARE = 0.5
MIN_BOARDS_SHARE = 0.8


@dataclass(frozen=True)
class Finding:
    """One thing a director should know about a movement (VSz 24); ``code`` names it, ``params`` its numbers.

    ``severity`` is "error" for what breaks the scoring (a board played unequally often, a pair seated on
    a board set twice) and "warning" for what the rule asks for but a director may accept.
    """

    code: str
    severity: str
    params: dict


def check_vsz24(movement: Movement) -> list[Finding]:
    """The VSz 24 findings of a generated or uploaded movement, worst first; empty when it complies."""
    check = validate(movement)
    out: list[Finding] = []
    counts = [c for c in check.plays_per_set.values()]
    if not check.equal_plays:
        uneven = {s: c for s, c in check.plays_per_set.items() if c != max(counts)}
        out.append(
            Finding(
                "unequal_plays", "error", {"fewest": min(counts), "most": max(counts), "sets": sorted(uneven)}
            )
        )
    if check.repeated_sets:
        pairs = sorted({p for p, _s in check.repeated_sets})
        out.append(Finding("repeated_sets", "error", {"pairs": pairs}))
    if check.repeated_meetings:
        out.append(Finding("repeated_meetings", "warning", {"meetings": list(check.repeated_meetings)}))
    few_opponents = sorted(p for p, share in check.opponents_share.items() if share < MIN_OPPONENTS_SHARE)
    if few_opponents:
        lowest = min(check.opponents_share[p] for p in few_opponents)
        out.append(
            Finding(
                "few_opponents",
                "warning",
                {"pairs": few_opponents, "lowest": round(lowest * 100, 1), "minimum": 50},
            )
        )
    few_boards = sorted(p for p, share in check.boards_share.items() if share < MIN_BOARDS_SHARE)
    if few_boards:
        lowest = min(check.boards_share[p] for p in few_boards)
        out.append(
            Finding(
                "few_boards",
                "warning",
                {"pairs": few_boards, "lowest": round(lowest * 100, 1), "minimum": 80},
            )
        )
    if movement.kind == "mitchell" and movement.tables == 2:
        out.append(Finding("two_table_mitchell", "warning", {"tables": 2, "pairs": len(movement.pairs)}))
    return out


def check_played(rows: Iterable[tuple[int, int, int]]) -> list[Finding]:
    """The VSz 24 findings of a movement the uploaded results define: ``rows`` are (board, N-S pair, E-W
    pair) of every result. Each board counts as its own set; the same codes as ``check_vsz24``."""
    rows = list(rows)
    if not rows:
        return []
    pairs = sorted({p for _board, ns, ew in rows for p in (ns, ew)})
    plays = Counter(board for board, _ns, _ew in rows)
    pair_boards = Counter((p, board) for board, ns, ew in rows for p in (ns, ew))
    met: dict[int, set[int]] = {p: set() for p in pairs}
    for _board, ns, ew in rows:
        met[ns].add(ew)
        met[ew].add(ns)
    out: list[Finding] = []
    if len(set(plays.values())) > 1:
        most = max(plays.values())
        uneven = sorted(b for b, c in plays.items() if c != most)
        out.append(
            Finding("unequal_plays", "error", {"fewest": min(plays.values()), "most": most, "sets": uneven})
        )
    twice = sorted({p for (p, _b), c in pair_boards.items() if c > 1})
    if twice:
        out.append(Finding("repeated_sets", "error", {"pairs": twice}))
    others = len(pairs) - 1
    opponents = {p: len(met[p]) / others for p in pairs} if others else {}
    boards = {p: len({b for (q, b) in pair_boards if q == p}) / len(plays) for p in pairs}
    few = sorted(p for p, share in opponents.items() if share < MIN_OPPONENTS_SHARE)
    if few:
        lowest = round(min(opponents[p] for p in few) * 100, 1)
        out.append(Finding("few_opponents", "warning", {"pairs": few, "lowest": lowest, "minimum": 50}))
    few = sorted(p for p, share in boards.items() if share < MIN_BOARDS_SHARE)
    if few:
        lowest = round(min(boards[p] for p in few) * 100, 1)
        out.append(Finding("few_boards", "warning", {"pairs": few, "lowest": lowest, "minimum": 80}))
    return out
