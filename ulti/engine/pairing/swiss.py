"""Swiss pairing into tables of three (MAUSZ II. 10.; the federation's own program is MaRabU).

Plain objects in, tables out, nothing from the database: the caller loads players and who met whom,
calls :func:`pair_round`, and stores the result. Options are a dict of defaults; an unknown key is an
error, so a typo never silently falls back to a default.

How a round is paired
---------------------
1. Order. Players are ranked by points, then forint, then live rating, then id (the id only makes the
   order total, so the same input always gives the same draw).
2. Byes. When the field is not divisible by three, the lowest-ranked players who have not had a bye sit
   out (II. 10. (2): "a versenyben leghátrébb álló sporttárs(ak) erőnyerő(k) lesz(nek)", at most one bye
   per person per event). Only when everyone has had one does a second bye go to the lowest-ranked of
   those with the fewest, and that is flagged.
3. Round 1 is seeded by rating (III. 8. (3): the first-round draw must use the live ratings). Default
   "slide": the rating list is cut into thirds and table i gets the i-th player of each third, so every
   table has one strong, one middle and one weaker player and the leaders do not knock each other out
   before the field has sorted itself. "neighbours" (1-2-3, 4-5-6) and "snake" are options.
4. Tables are formed top-down from neighbours in that order: the highest unpaired player sits with the
   next two, unless two of the three have met; then the nearest players are pulled up (the pair reaching
   down the fewest places wins, then the higher of the two). Every such departure carries a note.
   When repeats cannot be avoided, a table's repeat count comes before its rank order, so the
   unavoidable repeats sink to the lower tables rather than the leaders'.
5. Guarantee. Nobody meets a player met before in the event if any repeat-free set of tables exists for
   the players not on a bye (the bye follows the rule book first; it is not moved to dodge repeats). Large fields: the top is paired greedily and the bottom window (where the
   greedy step can get stuck, because low scorers have mostly met each other) is solved exactly; if the
   window has no repeat-free solution it is doubled, up to the whole field. The exact solver is a
   depth-first exact cover over triples with most-constrained-player branching and memoised sub-fields;
   when no repeat-free pairing exists it finds the fewest repeated pairs (iterative deepening) and then
   the best rank order among those, and the pairing is flagged. A node budget bounds the time; if it is
   hit, the result is still a full, valid pairing but ``optimal`` is False.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

__all__ = [
    "DEFAULT_OPTIONS",
    "Player",
    "Table",
    "Pairing",
    "PairingError",
    "pair_round",
    "ranking_order",
    "rating_order",
    "choose_byes",
    "count_repeats",
]

DEFAULT_OPTIONS: dict[str, object] = {
    # "slide" (one player from each third of the rating list), "snake" or "neighbours".
    "round1_seeding": "slide",
    # False pairs strictly by rank order (useful only to show what the avoidance changed).
    "avoid_repeats": True,
    # Players at the bottom of the field solved exactly after the greedy top; fields this small are
    # solved exactly as a whole.
    "exact_window": 60,
    # Search nodes the exact solver may spend on one pairing before settling for what it has.
    "node_budget": 1_000_000,
    # A person may sit out at most this many rounds per event (MAUSZ II. 10. (2): one).
    "max_byes": 1,
}

_SEEDINGS = ("slide", "snake", "neighbours")


class PairingError(ValueError):
    """Input that cannot be paired."""


@dataclass(frozen=True)
class Player:
    id: str
    points: float = 0
    forint: int = 0
    rating: float = 0
    byes: int = 0  # byes already had in this event


@dataclass(frozen=True)
class Table:
    number: int
    players: tuple[str, str, str]
    places: tuple[int, int, int]  # the players' places in the standings (round 1: rating list), 1 = top
    repeats: tuple[tuple[str, str], ...] = ()  # pairs at this table who have met before
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Pairing:
    round: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...]
    repeats: int  # pairs seated together again
    optimal: bool  # False only if the search budget ran out before the repeat count was proven minimal
    notes: tuple[str, ...] = ()

    def as_dict(self) -> dict:
        return {"tables": [list(t.players) for t in self.tables], "byes": list(self.byes)}


# ---------------------------------------------------------------------------------------------------
# Public helpers


def _options(options: dict | None) -> dict:
    opts = dict(DEFAULT_OPTIONS)
    for key, value in (options or {}).items():
        if key not in DEFAULT_OPTIONS:
            raise ValueError(f"unknown pairing option {key!r}; known: {', '.join(sorted(DEFAULT_OPTIONS))}")
        opts[key] = value
    if opts["round1_seeding"] not in _SEEDINGS:
        raise ValueError(
            f"round1_seeding must be one of {', '.join(_SEEDINGS)}, got {opts['round1_seeding']!r}"
        )
    if not isinstance(opts["avoid_repeats"], bool):
        raise ValueError("avoid_repeats must be true or false")
    for key, low in (("exact_window", 3), ("node_budget", 1), ("max_byes", 1)):
        value = opts[key]
        if not isinstance(value, int) or isinstance(value, bool) or value < low:
            raise ValueError(f"{key} must be a whole number of at least {low}, got {value!r}")
    return opts


def ranking_order(players: Iterable[Player]) -> list[Player]:
    """Standings order used for pairing: points, forint, rating (all descending), then id."""
    return sorted(players, key=lambda p: (-p.points, -p.forint, -p.rating, str(p.id)))


def rating_order(players: Iterable[Player]) -> list[Player]:
    """Round-1 order: live rating (descending), then id."""
    return sorted(players, key=lambda p: (-p.rating, str(p.id)))


def choose_byes(ranked: Sequence[Player], max_byes: int = 1) -> tuple[list[Player], list[str]]:
    """The players who sit out this round and notes on any that broke the one-bye rule.

    ``ranked`` is in standings order; byes go to the lowest-ranked who may still have one.
    """
    count = len(ranked) % 3
    if count == 0:
        return [], []
    chosen: list[Player] = []
    notes: list[str] = []
    for p in reversed(ranked):
        if len(chosen) == count:
            break
        if p.byes < max_byes:
            chosen.append(p)
    if len(chosen) < count:
        # Everyone has used their byes: fewest byes first, then lowest-ranked.
        place = {p.id: i for i, p in enumerate(ranked)}
        rest = [p for p in ranked if p not in chosen]
        rest.sort(key=lambda p: (p.byes, -place[p.id]))
        for p in rest[: count - len(chosen)]:
            chosen.append(p)
            notes.append(f"{p.id} gets bye number {p.byes + 1}: every player has already had {max_byes}")
    chosen.sort(key=lambda p: ranked.index(p))
    return chosen, notes


def count_repeats(tables: Iterable[Sequence[str]], met: Iterable[tuple[str, str]]) -> int:
    """Pairs seated together who have met before (each such pair counted once per table)."""
    seen = {frozenset(pair) for pair in met}
    total = 0
    for t in tables:
        for i in range(len(t)):
            for j in range(i + 1, len(t)):
                if frozenset((t[i], t[j])) in seen:
                    total += 1
    return total


# ---------------------------------------------------------------------------------------------------
# Pairing


def pair_round(
    players: Sequence[Player],
    met: Iterable[tuple[str, str]] = (),
    round_no: int = 1,
    options: dict | None = None,
) -> Pairing:
    """Tables of three (and byes) for one round.

    ``met`` lists every pair who has already sat at a table together in this event, once per meeting;
    pairs naming players not in ``players`` (withdrawn) are ignored.
    """
    opts = _options(options)
    if not isinstance(round_no, int) or isinstance(round_no, bool) or round_no < 1:
        raise PairingError(f"round must be a whole number of at least 1, got {round_no!r}")
    ids = [p.id for p in players]
    dupes = sorted({str(i) for i, c in Counter(ids).items() if c > 1})
    if dupes:
        raise PairingError(f"player id(s) listed twice: {', '.join(dupes)}")
    if len(players) < 3:
        raise PairingError(f"{len(players)} player(s) cannot fill a table of three")

    meetings: Counter[frozenset] = Counter()
    known = set(ids)
    for pair in met:
        a, b = pair
        if a == b:
            raise PairingError(f"a player cannot have met himself: {a}")
        if a in known and b in known:
            meetings[frozenset((a, b))] += 1

    # Round 1 is drawn on live ratings alone (III. 8. (3)); points carried in by mistake must not count.
    ranked = rating_order(players) if round_no == 1 else ranking_order(players)
    place = {p.id: i + 1 for i, p in enumerate(ranked)}
    bye_players, bye_notes = choose_byes(ranked, opts["max_byes"])
    notes = [f"bye: {p.id} (place {place[p.id]})" for p in bye_players] + bye_notes
    bye_ids = {p.id for p in bye_players}
    seated = [p for p in ranked if p.id not in bye_ids]

    order = seated
    if round_no == 1 and opts["round1_seeding"] != "neighbours":
        order = _seed_round1(seated, opts["round1_seeding"])
        notes.append(
            f"round 1 seeded by rating ({opts['round1_seeding']}: one player from each third of the list)"
        )

    m = len(order)
    index = {p.id: i for i, p in enumerate(order)}
    adj = [0] * m
    for pair in meetings:
        a, b = tuple(pair)
        if a in index and b in index:
            ia, ib = index[a], index[b]
            adj[ia] |= 1 << ib
            adj[ib] |= 1 << ia

    if opts["avoid_repeats"]:
        engine = _Engine(adj, opts["exact_window"], opts["node_budget"])
        idx_tables, optimal, engine_notes = engine.run()
        notes.extend(engine_notes)
    else:
        idx_tables, optimal = [tuple(range(i, i + 3)) for i in range(0, m, 3)], True

    tables: list[Table] = []
    unpaired = list(range(m))
    total_repeats = sum(adj[a] >> b & 1 for trio in idx_tables for a, b in _pairs(sorted(trio)))
    for number, trio in enumerate(idx_tables, start=1):
        trio = tuple(sorted(trio))
        natural = unpaired[:3]
        reps = [(order[a].id, order[b].id) for a, b in _pairs(trio) if adj[a] >> b & 1]
        table_notes = []
        if list(trio) != natural:
            table_notes.extend(_pull_notes(order, place, trio, natural, adj, total_repeats))
        for a, b in reps:
            times = meetings[frozenset((a, b))]
            again = "again" if times == 1 else f"for the {_ordinal(times + 1)} time"
            why = "no repeat-free pairing exists" if optimal else "none better found within the search budget"
            table_notes.append(f"repeat meeting: {a} and {b} meet {again} ({why})")
        for i in trio:
            unpaired.remove(i)
        ids3 = tuple(order[i].id for i in trio)
        tables.append(
            Table(
                number=number,
                players=ids3,
                places=tuple(place[x] for x in ids3),
                repeats=tuple(reps),
                notes=tuple(table_notes),
            )
        )
    if total_repeats:
        notes.append(
            f"{total_repeats} repeat meeting(s): "
            + ("the fewest possible" if optimal else "search budget ran out; fewer may exist")
        )
    return Pairing(
        round=round_no,
        tables=tuple(tables),
        byes=tuple(p.id for p in bye_players),
        repeats=total_repeats,
        optimal=optimal,
        notes=tuple(notes),
    )


def _ordinal(n: int) -> str:
    return {2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def _pairs(trio: Sequence[int]) -> Iterator[tuple[int, int]]:
    a, b, c = trio
    yield a, b
    yield a, c
    yield b, c


def _seed_round1(seated: list[Player], how: str) -> list[Player]:
    """Reorder so that consecutive triples are the round-1 tables."""
    t = len(seated) // 3
    thirds = [seated[0:t], seated[t : 2 * t], seated[2 * t : 3 * t]]
    if how == "snake":
        thirds[1] = thirds[1][::-1]
    out: list[Player] = []
    for i in range(t):
        out.extend(third[i] for third in thirds)
    return out


def _pull_notes(order, place, trio, natural, adj, total_repeats) -> list[str]:
    met_pairs = [(a, b) for a, b in _pairs(natural) if adj[a] >> b & 1]
    if total_repeats:
        reason = f"to keep the round's repeat meetings to the fewest ({total_repeats})"
    elif met_pairs:
        a, b = met_pairs[0]
        reason = f"to avoid a repeat meeting ({order[a].id} and {order[b].id} have met)"
    else:
        reason = "so that the tables below can avoid repeat meetings"
    notes = []
    for i in trio:
        if i not in natural:
            notes.append(f"{order[i].id} pulled up from place {place[order[i].id]} {reason}")
    return notes


# ---------------------------------------------------------------------------------------------------
# Engine: indices 0..m-1 in pairing order, adj[i] = bitmask of players i has met.


class _BudgetExceeded(Exception):
    pass


def _bits(x: int) -> Iterator[int]:
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


class _Engine:
    def __init__(self, adj: list[int], window: int, budget: int):
        self.adj = adj
        self.m = len(adj)
        self.window = window
        self.budget = budget

    def run(self) -> tuple[list[tuple[int, int, int]], bool, list[str]]:
        m = self.m
        window = self.window
        notes: list[str] = []
        while True:
            top, rest = self._greedy(stop_at=window)
            solver = _Exact([self._local_adj(rest, i) for i in range(len(rest))], self.budget)
            if len(rest) == m:
                tables, optimal, repeats = solver.best()
                if repeats and not optimal:
                    notes.append("exact search stopped at its node budget")
                return [tuple(rest[i] for i in t) for t in tables], optimal, notes
            tables = solver.best_without_repeats()
            if tables is not None:
                return top + [tuple(rest[i] for i in t) for t in tables], True, notes
            window *= 2

    def _local_adj(self, rest: list[int], i: int) -> int:
        g = self.adj[rest[i]]
        out = 0
        for j, pj in enumerate(rest):
            if g >> pj & 1:
                out |= 1 << j
        return out

    def _greedy(self, stop_at: int) -> tuple[list[tuple[int, int, int]], list[int]]:
        """Top-down: the highest unpaired player with the nearest two who form a repeat-free table."""
        adj = self.adj
        rest = list(range(self.m))
        tables: list[tuple[int, int, int]] = []
        while len(rest) > stop_at:
            p = rest[0]
            ap = adj[p]
            found = None
            for ri in range(2, len(rest)):
                r = rest[ri]
                if ap >> r & 1:
                    continue
                ar = adj[r]
                for qi in range(1, ri):
                    q = rest[qi]
                    if not (ap >> q & 1) and not (ar >> q & 1):
                        found = (qi, ri)
                        break
                if found:
                    break
            if found is None:
                break  # the exact solver takes it from here
            qi, ri = found
            tables.append((p, rest[qi], rest[ri]))
            rest = rest[1:qi] + rest[qi + 1 : ri] + rest[ri + 1 :]
        return tables, rest


class _Exact:
    """Exact cover of a (small) field by triples, fewest repeated pairs, then best rank order."""

    def __init__(self, adj: list[int], budget: int):
        self.m = len(adj)
        self.full = (1 << self.m) - 1
        self.met = adj
        self.fresh = [self.full & ~adj[i] & ~(1 << i) for i in range(self.m)]
        self.budget = budget
        self.nodes = 0
        self.ub: dict[
            int, tuple[int, tuple[int, int, int]]
        ] = {}  # mask -> (cost of a known cover, its first triple)
        self.lb: dict[int, int] = {}  # mask -> proven lower bound on repeats
        self.cliques = self._clique_partition()

    def _clique_partition(self) -> list[int]:
        """Greedy split of the players into groups who have all met one another (size 3 or more kept).

        k of a group at one table means at least k-1 repeated pairs, so a group larger than the number of
        tables forces repeats: a cheap bound that settles pigeonhole cases a plain search cannot.
        """
        left = self.full
        out = []
        while left:
            v = (left & -left).bit_length() - 1
            group = 1 << v
            cand = self.met[v] & left
            while cand:
                u = (cand & -cand).bit_length() - 1
                group |= 1 << u
                cand &= self.met[u]
            left &= ~group
            if group.bit_count() >= 3:
                out.append(group)
        return out

    # -- search ----------------------------------------------------------------------------------

    def _cost(self, p: int, q: int, r: int) -> int:
        met = self.met
        return (met[p] >> q & 1) + (met[p] >> r & 1) + (met[q] >> r & 1)

    def _search(self, mask: int, b: int) -> int | None:
        """Cost (<= b) of some cover of ``mask``, or None if none exists; may raise _BudgetExceeded."""
        if mask == 0:
            return 0
        known = self.ub.get(mask)
        if known is not None and known[0] <= b:
            return known[0]
        if self.lb.get(mask, 0) > b:
            return None
        self.nodes += 1
        if self.nodes > self.budget:
            raise _BudgetExceeded
        fresh = self.fresh
        pivot = -1
        pivot_deg = 1 << 30
        need = 0
        for i in _bits(mask):
            d = (fresh[i] & mask).bit_count()
            if d < 2:
                need += 2 - d
            if d < pivot_deg:
                pivot, pivot_deg = i, d
        # Each repeated pair covers the shortfall of its two players, so this many are unavoidable.
        bound = (need + 1) // 2
        tables = mask.bit_count() // 3
        crowd = 0
        for group in self.cliques:
            k = (group & mask).bit_count()
            if k > tables:
                crowd += k - tables
        bound = max(bound, crowd)
        if bound > b:
            self.lb[mask] = max(self.lb.get(mask, 0), bound)
            return None
        p = pivot
        rest = mask & ~(1 << p)
        for c, q, r in self._candidates(p, rest, b, by_rank=False):
            sub = rest & ~(1 << q) & ~(1 << r)
            got = self._search(sub, b - c)
            if got is not None:
                total = c + got
                old = self.ub.get(mask)
                if old is None or total < old[0]:
                    self.ub[mask] = (total, (p, q, r))
                return total
        self.lb[mask] = max(self.lb.get(mask, 0), b + 1)
        return None

    def _candidates(self, p: int, rest: int, b: int, by_rank: bool) -> Iterator[tuple[int, int, int]]:
        """Partner pairs for p within ``rest`` costing at most b repeats, cheapest first.

        by_rank: within a cost, the pair reaching down the fewest places first (pairing order);
        otherwise the most constrained partners first (finds a cover faster). Costlier levels are only
        built when the cheaper ones are exhausted: most searches stop at the first candidate.
        """
        fresh = self.fresh
        fp = fresh[p] & rest
        if by_rank:
            zero: list[tuple[int, int, int]] = []
            for r in _bits(fp):
                for q in _bits(fp & fresh[r] & ((1 << r) - 1)):
                    zero.append((0, q, r))
            zero.sort(key=lambda t: (t[2], t[1]))
            yield from zero
        else:
            # Lazily, the partner with the fewest fresh options first: nodes that succeed stay cheap.
            partners = sorted(_bits(fp), key=lambda x: ((fresh[x] & rest).bit_count(), x))
            done = 0
            for q in partners:
                done |= 1 << q
                for r in _bits(fp & fresh[q] & ~done):
                    yield (0, q, r) if q < r else (0, r, q)
        mp = self.met[p] & rest
        for c in range(1, min(b, 3) + 1):
            level: list[tuple[int, int, int]] = []
            for q in _bits(rest):
                above = rest & ~((1 << (q + 1)) - 1)
                a_set, b_set, fq = fp & above, mp & above, fresh[q]
                if fp >> q & 1:
                    rs = ((a_set & ~fq) | (b_set & fq)) if c == 1 else (b_set & ~fq) if c == 2 else 0
                else:
                    rs = (
                        (a_set & fq)
                        if c == 1
                        else ((a_set & ~fq) | (b_set & fq))
                        if c == 2
                        else (b_set & ~fq)
                    )
                for r in _bits(rs):
                    level.append((c, q, r))
            level.sort(key=lambda t: (t[2], t[1]))
            yield from level

    def _reconstruct(self, mask: int) -> list[tuple[int, int, int]]:
        out = []
        while mask:
            _, t = self.ub[mask]
            out.append(t)
            for x in t:
                mask &= ~(1 << x)
        return out

    # -- drivers ---------------------------------------------------------------------------------

    def _lex(self, mask: int, budget: int, cover: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
        """Top-down tables in rank order, each the best one that keeps the rest coverable within budget.

        ``cover`` is a known cover of ``mask`` within budget: when the node budget runs out the
        remaining tables come from it, so the result is always complete.
        """
        out: list[tuple[int, int, int]] = []
        while mask:
            p = (mask & -mask).bit_length() - 1
            rest = mask & ~(1 << p)
            chosen = None
            try:
                for c, q, r in self._candidates(p, rest, budget, by_rank=True):
                    sub = rest & ~(1 << q) & ~(1 << r)
                    if self._search(sub, budget - c) is not None:
                        chosen = (c, (p, q, r), sub)
                        break
            except _BudgetExceeded:
                chosen = None
            if chosen is None:
                # Out of budget: keep the known cover's table for p.
                t = next(t for t in cover if p in t)
                cover = [u for u in cover if u is not t]
                c = self._cost(*sorted(t))
                sub = mask
                for x in t:
                    sub &= ~(1 << x)
                chosen = (c, tuple(sorted(t)), sub)
            else:
                cover = self._reconstruct(chosen[2])
            c, t, mask = chosen
            budget -= c
            out.append(t)
        return out

    def best_without_repeats(self) -> list[tuple[int, int, int]] | None:
        """Repeat-free tables in best rank order, or None if none exist (or none found in budget)."""
        try:
            if self._search(self.full, 0) is None:
                return None
        except _BudgetExceeded:
            return None
        return self._lex(self.full, 0, self._reconstruct(self.full))

    def _heuristic_cover(self) -> list[tuple[int, int, int]]:
        """A quick cover with few repeats: cheapest table for the top player, then pairwise swaps."""
        mask = self.full
        tables: list[list[int]] = []
        while mask:
            p = (mask & -mask).bit_length() - 1
            rest = mask & ~(1 << p)
            _, q, r = next(self._candidates(p, rest, 3, by_rank=True))
            tables.append([p, q, r])
            mask = rest & ~(1 << q) & ~(1 << r)
        improved = True
        while improved:
            improved = False
            for i in range(len(tables)):
                for j in range(i + 1, len(tables)):
                    ti, tj = tables[i], tables[j]
                    now = self._cost(*ti) + self._cost(*tj)
                    for a in range(3):
                        for b in range(3):
                            ti[a], tj[b] = tj[b], ti[a]
                            if self._cost(*ti) + self._cost(*tj) < now:
                                now = self._cost(*ti) + self._cost(*tj)
                                improved = True
                            else:
                                ti[a], tj[b] = tj[b], ti[a]
        return [tuple(sorted(t)) for t in tables]

    def best(self) -> tuple[list[tuple[int, int, int]], bool, int]:
        """Fewest repeats (proven unless the node budget ran out), then best rank order."""
        cover = self._heuristic_cover()
        upper = sum(self._cost(*t) for t in cover)
        optimal = False
        k = 0
        try:
            while k < upper:
                if self._search(self.full, k) is not None:
                    cover = self._reconstruct(self.full)
                    upper = sum(self._cost(*t) for t in cover)
                    break
                k += 1
            optimal = True
        except _BudgetExceeded:
            pass
        tables = self._lex(self.full, upper, cover)
        repeats = sum(self._cost(*t) for t in tables)
        return tables, optimal, repeats
