"""The exact search of a Swiss round of ulti: an exact cover of a (small) field by tables of three.

Players are indices 0..m-1 in pairing order and ``met[i]`` is the bitmask of the players i has met. The
search is depth-first over triples with most-constrained-player branching and memoised sub-fields; it
finds a repeat-free cover in best rank order, or the fewest repeated pairs (iterative deepening, from the
quick heuristic cover's count) and then the best rank order among those. A node budget bounds the time
(``BudgetExceeded``); the drivers then fall back on the cover they already know.
"""

from __future__ import annotations

from collections.abc import Iterator


class BudgetExceeded(Exception):
    pass


def bits(x: int) -> Iterator[int]:
    """The indices of the set bits of x, lowest first."""
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


class ExactCover:
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
        """Cost (<= b) of some cover of ``mask``, or None if none exists; may raise BudgetExceeded."""
        if mask == 0:
            return 0
        known = self.ub.get(mask)
        if known is not None and known[0] <= b:
            return known[0]
        if self.lb.get(mask, 0) > b:
            return None
        self.nodes += 1
        if self.nodes > self.budget:
            raise BudgetExceeded
        fresh = self.fresh
        pivot = -1
        pivot_deg = 1 << 30
        need = 0
        for i in bits(mask):
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
            for r in bits(fp):
                for q in bits(fp & fresh[r] & ((1 << r) - 1)):
                    zero.append((0, q, r))
            zero.sort(key=lambda t: (t[2], t[1]))
            yield from zero
        else:
            # Lazily, the partner with the fewest fresh options first: nodes that succeed stay cheap.
            partners = sorted(bits(fp), key=lambda x: ((fresh[x] & rest).bit_count(), x))
            done = 0
            for q in partners:
                done |= 1 << q
                for r in bits(fp & fresh[q] & ~done):
                    yield (0, q, r) if q < r else (0, r, q)
        mp = self.met[p] & rest
        for c in range(1, min(b, 3) + 1):
            level: list[tuple[int, int, int]] = []
            for q in bits(rest):
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
                for r in bits(rs):
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
            except BudgetExceeded:
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
        except BudgetExceeded:
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
        except BudgetExceeded:
            pass
        tables = self._lex(self.full, upper, cover)
        repeats = sum(self._cost(*t) for t in tables)
        return tables, optimal, repeats
