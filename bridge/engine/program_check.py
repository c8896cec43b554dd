"""The program test of VSz 26: re-score a file another program scored and compare, line by line and pair
by pair, with what the portal's engine gives.

A line is one result row of a board's ScoreTable. The other program's values are the PBN 2.1 columns
`MP_NS` / `MP_EW`, `Percentage_NS` / `Percentage_EW` (matchpoint scoring) or `IMP_NS` / `IMP_EW` (IMP
scoring) and the TotalScoreTable's `TotalMP` / `TotalPercentage` / `TotalIMP`; in a USEBIO 1.2 file, each
TRAVELLER_LINE's `NS_MATCH_POINTS` / `EW_MATCH_POINTS` (match points or IMPs, by the EVENT_TYPE) and each
PAIR's `TOTAL_SCORE` / `PERCENTAGE`, compared the same way. Every difference comes with
the rule that explains it when a known one does (raw matchpoints where VSz 28 asks for Neuberg, rounding,
totals summed from unrounded board values); the verdict passes only when everything agrees.

Pure: text in, a `CheckReport` out (`as_json` for the command and the API).
"""

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from bridge.engine.offline import scoring_method, session_entries
from bridge.engine.pbn.games import PbnError, PbnWarning
from bridge.engine.pbn.reader import read_session
from bridge.engine.pbn.records import BoardRecord, ResultRecord, SessionRecord
from bridge.engine.pbn.usebio_reader import UsebioError, read_usebio
from bridge.engine.scoring.entries import EntryScore, Method, SessionScore
from bridge.engine.scoring.fouled import neuberg_from_raw
from bridge.engine.scoring.matchpoints import HUNDREDTH, TENTH, WHOLE, raw_matchpoints, round_half_up
from bridge.engine.scoring.session import score_session

# The rules a difference can be explained by (English; the pages translate them by these keys).
RULES = {
    "neuberg": "VSz 28: a board played fewer times is scaled to the full top by Neuberg's formula; "
    "theirs are raw matchpoints on the reduced top",
    "proportional": "VSz 28: Neuberg's formula (N x T + N - n) / n, not a plain proportion of the top",
    "rounding": "VSz 26: by computer every value is rounded to hundredths, half up (0.005 rounds up)",
    "precision": "VSz 26: by computer every value is kept to hundredths; theirs are rounded coarser",
    "average_plus": "VSz 29: average-plus is 60% of the top, or the pair's session average if higher",
    "unrounded_total": "VSz 26: a pair's total is the sum of its boards' rounded values; "
    "theirs is summed from unrounded board values",
    "follows": "follows from the differences on the pair's boards",
    "missing": "the pair is missing from one of the two rankings",
    "unexplained": "no known rule explains it: a scoring error or a different reading of the result",
}

_COLUMNS = {
    Method.MATCHPOINTS: (("MP_NS", "mp_ns"), ("MP_EW", "mp_ew"), ("Percentage_NS", "pct_ns"),
                         ("Percentage_EW", "pct_ew")),
    Method.CROSS_IMPS: (("IMP_NS", "imp_ns"), ("IMP_EW", "imp_ew")),
    Method.BUTLER: (("IMP_NS", "imp_ns"), ("IMP_EW", "imp_ew")),
}  # fmt: skip


@dataclass
class Difference:
    board: str
    ns: str
    ew: str
    column: str
    theirs: Decimal | None
    ours: Decimal | None
    rule: str  # a key of RULES
    line: int = 0


@dataclass
class PairCheck:
    pair: str
    direction: str | None
    theirs: Decimal | None
    ours: Decimal | None
    theirs_pct: Decimal | None = None
    ours_pct: Decimal | None = None
    agree: bool = True
    rule: str | None = None
    line: int = 0


@dataclass
class CheckReport:
    method: Method
    scale: int
    lines: int = 0
    agree: int = 0
    compared_columns: list[str] = field(default_factory=list)
    differences: list[Difference] = field(default_factory=list)
    pairs: dict[str, PairCheck] = field(default_factory=dict)
    warnings: list[PbnWarning] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return (
            self.lines > 0 and self.agree == self.lines and all(check.agree for check in self.pairs.values())
        )

    @property
    def verdict(self) -> str:
        return "pass" if self.passed else "fail"


# A USEBIO file's elements for the PBN columns the comparison reads.
_USEBIO_NAMES = {
    "MP_NS": "NS_MATCH_POINTS",
    "MP_EW": "EW_MATCH_POINTS",
    "IMP_NS": "NS_MATCH_POINTS",
    "IMP_EW": "EW_MATCH_POINTS",
}


def is_usebio(text: str) -> bool:
    """An XML document (USEBIO) rather than PBN, whose lines open with '[' or '%'."""
    return text.lstrip("\ufeff \t\r\n").startswith("<")


def check_text(text: str, *, scale: int | None = None) -> CheckReport:
    """A file of either kind, told apart by its first character (PbnError or UsebioError if unreadable)."""
    return check_usebio_text(text, scale=scale) if is_usebio(text) else check_pbn_text(text, scale=scale)


def check_usebio_text(text: str, *, scale: int | None = None) -> CheckReport:
    """Re-score a USEBIO 1.2 file scored by another program and compare (UsebioError if unreadable).

    USEBIO names no matchpoint scale: 2 per result beaten (the portal's and the English clubs' custom)
    unless `scale` says otherwise."""
    session = read_usebio(text, lenient=True)
    try:
        return _check(session, text, scale=scale, names=_USEBIO_NAMES)
    except PbnError as error:
        raise UsebioError(error.line, error.message.replace("a ScoreTable", "a <TRAVELLER_LINE>"))


def check_pbn_text(text: str, *, scale: int | None = None) -> CheckReport:
    """Re-score a PBN file scored by another program and compare (PbnError if it cannot be read)."""
    return _check(read_session(text, lenient=True), text, scale=scale, names={})


def _check(session: SessionRecord, text: str, *, scale: int | None, names: dict[str, str]) -> CheckReport:
    try:
        method = scoring_method(session.scoring)
    except ValueError as error:
        raise PbnError(session.scoring_line, str(error))
    if scale is None:
        scale = 1 if (session.scoring or "").strip().upper().startswith("MP1") else 2
    boards, pair_ids = session_entries(session)
    if not boards:
        raise PbnError(max(text.count("\n"), 1), "no board has a ScoreTable with results to compare")
    columns = [(names.get(c, c), a) for c, a in _COLUMNS[method] if _any_value(session, a)]
    if not columns:
        wanted = " / ".join(dict.fromkeys(names.get(c[0], c[0]) for c in _COLUMNS[method]))
        raise PbnError(session.boards[0].line, f"the file has none of the other program's columns ({wanted})")
    score = score_session(boards, method=method, scale=scale)
    report = CheckReport(method, scale, compared_columns=[c[0] for c in columns], warnings=session.warnings)
    exact: dict[str, Decimal] = defaultdict(Decimal)  # pair key -> sum of unrounded board values
    for board in session.boards:
        if not board.results:
            continue
        ours_rows = list(score.boards[board.number])
        raw = _raw_board(board, score, scale)
        for index, (theirs, ours) in enumerate(zip(board.results, ours_rows, strict=True)):
            report.lines += 1
            found = [
                _difference(board, theirs, ours, column, attribute, raw, index, score, scale)
                for column, attribute in columns
            ]
            found = [d for d in found if d is not None]
            if found:
                report.differences.extend(found)
            else:
                report.agree += 1
            _add_exact(exact, ours, raw, index, score)
    report.pairs = _pair_checks(session, score, pair_ids, exact, report.differences)
    return report


def _any_value(session: SessionRecord, attribute: str) -> bool:
    return any(getattr(r, attribute) is not None for b in session.boards for r in b.results)


def _raw_board(board: BoardRecord, score: SessionScore, scale: int) -> dict | None:
    """For a plain board (every result real): NS raw matchpoints and unrounded Neuberg, per line."""
    if any(r.score_ns is None for r in board.results) or score.top is None:
        return None
    units = raw_matchpoints([r.score_ns for r in board.results])
    n, full = len(units), score.full_results
    factor = Decimal(scale) / 2
    return {
        "n": n,
        "raw": [Decimal(u) * factor for u in units],
        "top": Decimal(2 * (n - 1)) * factor,
        "neuberg": [neuberg_from_raw(u, n, full) * factor for u in units],
    }


def _difference(board, theirs, ours, column, attribute, raw, index, score, scale) -> Difference | None:
    their_value: Decimal | None = getattr(theirs, attribute)
    our_value: Decimal | None = getattr(ours, attribute)
    if their_value is None:
        return None  # the program left this cell empty: nothing to compare
    if our_value is not None and their_value == our_value:
        return None
    ns_side = attribute.endswith("_ns")
    rule = _board_rule(their_value, our_value, attribute, ns_side, raw, index, score, theirs)
    return Difference(
        str(board.number), theirs.ns, theirs.ew, column, their_value, our_value, rule, theirs.line
    )


def _board_rule(theirs, ours, attribute, ns_side, raw, index, score, record: ResultRecord) -> str:
    if record.artificial:
        return "average_plus"
    if ours is None:
        return "unexplained"
    if raw is not None and raw["n"] < score.full_results and attribute.startswith("mp"):
        mine = raw["raw"][index] if ns_side else raw["top"] - raw["raw"][index]
        if theirs == mine:
            return "neuberg"
        if raw["top"]:
            proportional = mine * score.top / raw["top"]
            if abs(theirs - proportional) < TENTH / 2:
                return "proportional"
    if abs(theirs - ours) <= HUNDREDTH:
        return "rounding"
    for step in (TENTH, WHOLE):
        if theirs == round_half_up(ours, step) and theirs != ours:
            return "precision"
    return "unexplained"


def _add_exact(exact, ours: EntryScore, raw, index, score) -> None:
    if score.method != Method.MATCHPOINTS:
        exact[ours.ns] += ours.imp_ns or 0
        exact[ours.ew] += ours.imp_ew or 0
        return
    if raw is not None and raw["n"] < score.full_results:
        value = raw["neuberg"][index]
        exact[ours.ns] += value
        exact[ours.ew] += score.top - value
    else:
        exact[ours.ns] += ours.mp_ns or 0
        exact[ours.ew] += ours.mp_ew or 0


def _pair_checks(session, score, pair_ids, exact, differences) -> dict[str, PairCheck]:
    matchpoints = score.method == Method.MATCHPOINTS
    key_of = {}
    for key, label in pair_ids.items():
        direction = key.rsplit(" ", 1)[1] if key != label else None
        key_of[(label, direction)] = key
        key_of.setdefault((label, None), key)
    differing_pairs = {(d.ns, "NS") for d in differences} | {(d.ew, "EW") for d in differences}
    checks: dict[str, PairCheck] = {}
    for total in session.totals:
        key = key_of.get((total.pair, total.direction)) or key_of.get((total.pair, None))
        theirs = total.total_mp if matchpoints else total.total_imp
        label = key or (f"{total.pair} {total.direction}" if total.direction else total.pair)
        if key is None:
            checks[label] = PairCheck(total.pair, total.direction, theirs, None, total.percentage,
                                      agree=False, rule="missing", line=total.line)  # fmt: skip
            continue
        ours = score.pairs[key]
        check = PairCheck(total.pair, ours.direction, theirs, ours.total, total.percentage, ours.percentage,
                          line=total.line)  # fmt: skip
        total_differs = theirs is not None and theirs != ours.total
        pct_differs = total.percentage is not None and total.percentage != ours.percentage
        if total_differs or pct_differs:
            check.agree = False
            if (total.pair, ours.direction or "NS") in differing_pairs or (
                total.pair,
                ours.direction or "EW",
            ) in differing_pairs:
                check.rule = "follows"
            elif total_differs and theirs == round_half_up(exact[key], HUNDREDTH):
                check.rule = "unrounded_total"
            elif total_differs and abs(theirs - ours.total) <= HUNDREDTH:
                check.rule = "rounding"
            elif not total_differs and abs(total.percentage - ours.percentage) <= HUNDREDTH:
                check.rule = "rounding"
            else:
                check.rule = "unexplained"
        checks[label] = check
    return checks


def _number(value: Decimal | None) -> int | float | None:
    if value is None:
        return None
    return int(value) if value == value.to_integral_value() else float(value)


def as_json(report: CheckReport) -> dict:
    """The command's --json shape: lines, agree, differences, pairs, verdict (rules in English)."""
    return {
        "method": str(report.method),
        "scale": report.scale,
        "columns": report.compared_columns,
        "lines": report.lines,
        "agree": report.agree,
        "differences": [
            {
                "board": d.board,
                "ns": d.ns,
                "ew": d.ew,
                "column": d.column,
                "theirs": _number(d.theirs),
                "ours": _number(d.ours),
                "rule": RULES[d.rule],
                "line": d.line,
            }
            for d in report.differences
        ],
        "pairs": {
            label: {
                "pair": c.pair,
                "direction": c.direction,
                "theirs": _number(c.theirs),
                "ours": _number(c.ours),
                "theirs_pct": _number(c.theirs_pct),
                "ours_pct": _number(c.ours_pct),
                "agree": c.agree,
                "rule": RULES[c.rule] if c.rule else None,
            }
            for label, c in report.pairs.items()
        },
        "pairs_agree": sum(c.agree for c in report.pairs.values()),
        "warnings": [str(w) for w in report.warnings],
        "verdict": report.verdict,
    }
