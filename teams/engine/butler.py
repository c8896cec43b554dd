"""Butler ranking of the pairs of a team event: each result scored in IMPs against the board's datum.

Every table of a round plays the same boards, so a board's datum is taken over all the results of that
board in that round (both rooms of every match), with `bridge.engine.scoring.butler` (trimmed mean, rounded to
10). A pair is two players who sat together; its NS results count with their sign, EW results negated.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from bridge.engine.scoring.butler import butler_imps


@dataclass(frozen=True)
class Play:
    board_key: Hashable  # (round, board): the results compared with each other
    ns: Hashable  # pair keys
    ew: Hashable
    ns_score: int


@dataclass(frozen=True)
class PairScore:
    pair: Hashable
    boards: int
    imps: int
    average: Decimal
    rank: int | None  # None: too few boards to be ranked


def butler_pairs(plays: Iterable[Play], min_fraction: Decimal = Decimal("0.5")) -> list[PairScore]:
    """Pairs ranked by average IMPs per board; pairs under `min_fraction` of the most boards come last."""
    boards: dict[Hashable, list[Play]] = defaultdict(list)
    for play in plays:
        boards[play.board_key].append(play)
    imps: dict[Hashable, int] = defaultdict(int)
    played: dict[Hashable, int] = defaultdict(int)
    for results in boards.values():
        for play, ns_imps in zip(results, butler_imps([p.ns_score for p in results]), strict=True):
            imps[play.ns] += ns_imps
            imps[play.ew] -= ns_imps
            played[play.ns] += 1
            played[play.ew] += 1
    if not played:
        return []
    threshold = max(played.values()) * min_fraction
    scores = [
        PairScore(pair, played[pair], imps[pair], _average(imps[pair], played[pair]), None) for pair in played
    ]
    ranked = sorted(
        (s for s in scores if s.boards >= threshold), key=lambda s: (-s.average, -s.boards, str(s.pair))
    )
    unranked = sorted((s for s in scores if s.boards < threshold), key=lambda s: (-s.average, str(s.pair)))
    out, place = [], 0
    for i, score in enumerate(ranked, start=1):
        if not out or out[-1].average != score.average:
            place = i
        out.append(PairScore(score.pair, score.boards, score.imps, score.average, place))
    return out + unranked


def _average(total: int, boards: int) -> Decimal:
    return (Decimal(total) / boards).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
