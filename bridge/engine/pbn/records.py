"""Plain records of a scored pairs session, as PBN and USEBIO files carry it.

The PBN reader returns these and the PBN and USEBIO writers take them, so a file written and read back
compares equal (line numbers, kept for error messages, are left out of the comparison).
"""

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal

from bridge.engine.scoring.contract import board_dealer, board_vulnerability
from bridge.engine.scoring.session import Method, SessionScore

SCORING_TAGS = {
    Method.MATCHPOINTS: "MP{scale}",
    Method.CROSS_IMPS: "IMP;Cross2",
    Method.BUTLER: "IMP;Butler",
    Method.TOTAL_POINTS: "TotalPoints",
}


@dataclass
class ResultRecord:
    """One ScoreTable row. An artificial score has no NS score and an award like 'A+/A-' (no '^').

    `lead` is the opening lead ("SA"); `penalty_ns`/`penalty_ew` the matchpoints a procedural penalty took
    on this board (already deducted from mp_ns/mp_ew). In `BoardRecord.absent` rows the absent side is None.
    """

    ns: str | None
    ew: str | None
    score_ns: int | None = None
    artificial: str | None = None
    contract: str | None = None
    declarer: str | None = None
    tricks: int | None = None
    mp_ns: Decimal | None = None
    mp_ew: Decimal | None = None
    pct_ns: Decimal | None = None
    pct_ew: Decimal | None = None
    imp_ns: Decimal | None = None
    imp_ew: Decimal | None = None
    lead: str | None = None
    penalty_ns: Decimal | None = None
    penalty_ew: Decimal | None = None
    line: int = field(default=0, compare=False)


@dataclass
class BoardRecord:
    number: int
    dealer: str | None = None
    vulnerable: str | None = None
    deal: str | None = None
    results: list[ResultRecord] = field(default_factory=list)
    # Artificial scores against an absent pair (a withdrawn pair's opponents get average-plus, VSz 25):
    # written with '-' for the absent side, kept apart so an importer that seats pairs never sees them.
    absent: list[ResultRecord] = field(default_factory=list)
    line: int = field(default=0, compare=False)


@dataclass
class TotalRecord:
    """One TotalScoreTable row; direction is 'NS'/'EW' in a Mitchell, None in a Howell.

    `penalty` is the matchpoints procedural penalties took in the session (already in total_mp)."""

    pair: str
    rank: str | None = None
    direction: str | None = None
    names: str | None = None
    total_mp: Decimal | None = None
    total_imp: Decimal | None = None
    percentage: Decimal | None = None
    boards: int | None = None
    penalty: Decimal | None = None
    line: int = field(default=0, compare=False)


@dataclass
class SessionRecord:
    event: str | None = None
    site: str | None = None
    date: str | None = None  # PBN style "2024.05.01"
    scoring: str | None = None  # the PBN Scoring tag, e.g. "MP2", "IMP;Butler"
    boards: list[BoardRecord] = field(default_factory=list)
    totals: list[TotalRecord] = field(default_factory=list)
    scoring_line: int = field(default=0, compare=False)
    # What a lenient read took on trust (reader.PbnWarning: line and message); never compared.
    warnings: list = field(default_factory=list, compare=False)


def session_record(
    score: SessionScore,
    *,
    scale: int = 2,
    event: str | None = None,
    site: str | None = None,
    date: str | None = None,
    deals: Mapping[Hashable, str] | None = None,
    names: Mapping[str, str] | None = None,
    results: Mapping[Hashable, list[ResultRecord]] | None = None,
) -> SessionRecord:
    """Export record of a scored session. `results` may supply contracts per board, in the session's order."""
    deals, names, results = deals or {}, names or {}, results or {}
    boards = []
    for number in sorted(score.boards, key=int):
        played = results.get(number)
        rows = []
        for index, row in enumerate(score.boards[number]):
            known = played[index] if played else None
            rows.append(
                ResultRecord(
                    row.ns,
                    row.ew,
                    row.score,
                    str(row.artificial) if row.artificial else None,
                    known.contract if known else None,
                    known.declarer if known else None,
                    known.tricks if known else None,
                    row.mp_ns,
                    row.mp_ew,
                    row.pct_ns,
                    row.pct_ew,
                    row.imp_ns,
                    row.imp_ew,
                    known.lead if known else None,
                    row.penalty_ns or None,
                    row.penalty_ew or None,
                )  # fmt: skip
            )
        board = int(number)
        boards.append(
            BoardRecord(board, board_dealer(board), board_vulnerability(board), deals.get(number), rows)
        )
    matchpoints = score.method == Method.MATCHPOINTS
    totals = [
        TotalRecord(
            placed.pair,
            placed.place,
            placed.direction,
            names.get(placed.pair),
            score.pairs[placed.pair].total if matchpoints else None,
            None if matchpoints else score.pairs[placed.pair].total,
            score.pairs[placed.pair].percentage,
            score.pairs[placed.pair].boards,
            score.pairs[placed.pair].penalty or None,
        )  # fmt: skip
        for placed in score.ranking
    ]
    scoring = SCORING_TAGS[score.method].format(scale=scale)
    return SessionRecord(event, site, date, scoring, boards, totals)
