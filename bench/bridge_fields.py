"""Synthetic pairs fields for the bridge benchmark (no database): the engine's input, the engine timed, and
a vectorised numpy lower bound doing the same arithmetic on arrays built before its clock starts."""

from __future__ import annotations

import random
import time

REPEAT = 15  # engine and numpy runs per field size


def field(pairs: int, rng: random.Random, rounds: int = 9, per_round: int = 3):
    """Engine entries per board for `pairs` pairs in sections of 12-13 tables, and each pair's line."""
    from bridge.engine import movements
    from bridge.engine.scoring.contract import board_vulnerability, contract_score, vulnerable_sides
    from bridge.engine.scoring.session import Entry

    tables = pairs // 2
    sections = max(1, round(tables / 12.5))
    sizes = [tables // sections + (1 if i < tables % sections else 0) for i in range(sections)]
    normal = {}
    boards: dict[int, list] = {}
    lines = {}
    for s, size in enumerate(sizes):
        plan = movements.mitchell(size, per_round, rounds, "skip")
        for a in plan.assignments:
            ns, ew = f"{s}:{a.ns}", f"{s}:{a.ew}"
            lines[ns], lines[ew] = "NS", "EW"
            for board in a.boards:
                level, strain, declarer = normal.setdefault(
                    board,
                    (
                        rng.choice((2, 3, 4)),
                        rng.choice("CDHS") if rng.random() < 0.7 else "NT",
                        rng.choice("NESW"),
                    ),
                )
                tricks = max(0, min(13, level + 6 + round(rng.gauss(0, 1))))
                vul = vulnerable_sides(board_vulnerability(board))
                boards.setdefault(board, []).append(
                    Entry(ns, ew, contract_score(f"{level}{strain}", declarer, tricks, *vul))
                )
    return boards, lines


def numpy_lower_bound(boards, lines, clock=time.perf_counter):
    """The same arithmetic, vectorised: what any implementation must at least do."""
    import numpy as np

    keys = sorted(lines)
    index = {k: i for i, k in enumerate(keys)}
    arrays = [
        (
            np.array([index[e.ns] for e in es]),
            np.array([index[e.ew] for e in es]),
            np.array([e.score for e in es]),
        )
        for es in boards.values()
    ]
    start = clock()
    full = max(len(s) for _n, _e, s in arrays)
    totals = np.zeros(len(keys))
    played = np.zeros(len(keys))
    for ns, ew, scores in arrays:
        n = len(scores)
        ordered = np.sort(scores)
        below = np.searchsorted(ordered, scores, "left")
        equal = np.searchsorted(ordered, scores, "right") - below
        raw = 2 * below + equal - 1
        mp = raw.astype(float) if n == full else (full * raw + full - n) / n  # Neuberg (VSz 28)
        top = 2 * (full - 1)
        np.round(mp * 100 / top, 2)  # each result's percentage, as the frequency sheet shows it
        np.add.at(totals, ns, mp)
        np.add.at(totals, ew, top - mp)
        np.add.at(played, ns, 1)
        np.add.at(played, ew, 1)
    pct = np.round(totals * 100 / (played * 2 * (full - 1)), 2)
    directions = np.array([lines[k] == "NS" for k in keys])
    for mask in (directions, ~directions):
        np.argsort(-pct[mask], kind="stable")
    return clock() - start


def engine_times(boards, repeat=REPEAT, read_rows=False, clock=time.perf_counter):
    """Wall times of `score_session`; with `read_rows`, also reading every result row once.

    The engine builds a board's row objects (EntryScore) from its result arrays when the board is first
    read; the recompute reads them all to store them, so that cost is shown too.
    """
    from bridge.engine.scoring.session import score_session

    times = []
    for _ in range(repeat):
        start = clock()
        score = score_session(boards)
        if read_rows:
            for rows in score.boards.values():
                for _row in rows:
                    pass
        times.append(clock() - start)
    return times
