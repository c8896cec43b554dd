"""The whole-field search of a Swiss round of ulti: the top of the field paired greedily, the bottom window
solved exactly (doubled until it has a repeat-free solution, up to the whole field).

Indices 0..m-1 in pairing order, ``adj[i]`` = bitmask of the players i has met.
"""

from __future__ import annotations

from federation.engine.notes import Note, gettext_noop

from .exact import ExactCover

BUDGET_STOPPED = gettext_noop("exact search stopped at its node budget")


class FieldSearch:
    def __init__(self, adj: list[int], window: int, budget: int):
        self.adj = adj
        self.m = len(adj)
        self.window = window
        self.budget = budget

    def run(self) -> tuple[list[tuple[int, int, int]], bool, list[Note]]:
        m = self.m
        window = self.window
        notes: list[Note] = []
        while True:
            top, rest = self._greedy(stop_at=window)
            solver = ExactCover([self._local_adj(rest, i) for i in range(len(rest))], self.budget)
            if len(rest) == m:
                tables, optimal, repeats = solver.best()
                if repeats and not optimal:
                    notes.append(Note(BUDGET_STOPPED))
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
