"""Write a scored session as PBN 2.1: one game per board with its deal and ScoreTable, and the
TotalScoreTable in the first game. `bridge.engine.pbn.reader.read_session` reads the text back to equal records.
"""

import re
from collections.abc import Callable, Sequence
from decimal import Decimal

from bridge.engine.pbn.records import BoardRecord, ResultRecord, SessionRecord, TotalRecord

_PLAIN_TOKEN = re.compile(r'^[^\s;{}"\\]+$')


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _tag(name: str, value: str) -> str:
    return f"[{name} {_quote(value)}]"


def _element(value: object) -> str:
    """A table element: '-' for nothing, a bare token when it can be one, else a quoted string."""
    if value is None:
        return "-"
    text = str(value)
    return text if _PLAIN_TOKEN.match(text) and text not in ("-", "?") else _quote(text)


# (column, cell of a row, right-aligned). A column is written only if some row has a value in it.
_RESULT_COLUMNS: Sequence[tuple[str, Callable[[ResultRecord], object], bool]] = (
    ("PairId_NS", lambda r: r.ns, True),
    ("PairId_EW", lambda r: r.ew, True),
    ("Contract", lambda r: r.contract, False),
    ("Declarer", lambda r: r.declarer, False),
    ("Result", lambda r: r.tricks, True),
    ("Lead", lambda r: r.lead, False),
    ("Score_NS", lambda r: f"^{r.artificial}" if r.artificial else r.score_ns, True),
    ("MP_NS", lambda r: r.mp_ns, True),
    ("MP_EW", lambda r: r.mp_ew, True),
    ("Percentage_NS", lambda r: r.pct_ns, True),
    ("Percentage_EW", lambda r: r.pct_ew, True),
    ("IMP_NS", lambda r: r.imp_ns, True),
    ("IMP_EW", lambda r: r.imp_ew, True),
    # Not among PBN 2.1's named columns (readers ignore columns they do not know, 5.2): the matchpoints a
    # procedural penalty took on the board, already deducted from MP_NS / MP_EW.
    ("Penalty_NS", lambda r: r.penalty_ns, True),
    ("Penalty_EW", lambda r: r.penalty_ew, True),
)
_ALWAYS = ("PairId_NS", "PairId_EW", "Score_NS")

_TOTAL_COLUMNS: Sequence[tuple[str, Callable[[TotalRecord], object], bool]] = (
    ("Rank", lambda t: t.rank, True),
    ("PairId", lambda t: t.pair, True),
    ("Direction", lambda t: t.direction, False),
    ("Names", lambda t: t.names, False),
    ("TotalMP", lambda t: t.total_mp, True),
    ("TotalIMP", lambda t: t.total_imp, True),
    ("TotalPercentage", lambda t: t.percentage, True),
    ("NrBoards", lambda t: t.boards, True),
    ("Penalty", lambda t: t.penalty, True),  # matchpoints of penalties, already deducted from TotalMP
)


def _table(name: str, columns: Sequence[tuple[str, Callable, bool]], rows: Sequence, always=()) -> list[str]:
    used = [c for c in columns if c[0] in always or any(c[1](row) is not None for row in rows)]
    cells = [[_element(_plain(cell(row))) for _, cell, _ in used] for row in rows]
    widths = [max([len(row[i]) for row in cells], default=1) for i in range(len(used))]
    header = ";".join(
        f"{column}\\{width}{'R' if right else 'L'}"
        for (column, _, right), width in zip(used, widths, strict=True)
    )
    lines = [f'[{name} "{header}"]']
    for row in cells:
        padded = (
            cell.rjust(width) if right else cell.ljust(width)
            for cell, width, (_, _, right) in zip(row, widths, used, strict=True)
        )
        lines.append(" ".join(padded).rstrip())
    return lines


def _plain(value: object) -> object:
    # Decimals print as written ("5.67", "12"), never in exponent form.
    if isinstance(value, Decimal):
        return format(value, "f")
    return value


def _game(session: SessionRecord, board: BoardRecord | None, with_totals: bool) -> list[str]:
    lines = [_tag(name, value) for name, value in _session_tags(session)]
    if board is not None:
        lines.append(_tag("Board", str(board.number)))
        for name, value in (("Dealer", board.dealer), ("Vulnerable", board.vulnerable), ("Deal", board.deal)):
            if value is not None:
                lines.append(_tag(name, value))
    if session.scoring is not None:
        lines.append(_tag("Scoring", session.scoring))
    if board is not None and (board.results or board.absent):
        # Rows against an absent pair name it '-' (nobody), after the rows played.
        rows = [*board.results, *board.absent]
        lines.extend(_table("ScoreTable", _RESULT_COLUMNS, rows, _ALWAYS))
    if with_totals and session.totals:
        lines.extend(_table("TotalScoreTable", _TOTAL_COLUMNS, session.totals, ("PairId",)))
    return lines


def _session_tags(session: SessionRecord) -> list[tuple[str, str]]:
    return [
        (n, v) for n, v in (("Event", session.event), ("Site", session.site), ("Date", session.date)) if v
    ]


def write_session(session: SessionRecord, creator: str = "Versenyportál") -> str:
    """PBN text of a session: deals, ScoreTables with matchpoints and percentages, and the TotalScoreTable."""
    games = [_game(session, board, index == 0) for index, board in enumerate(session.boards)]
    if not session.boards:
        games = [_game(session, None, True)]
    header = ["% PBN 2.1", f"% Creator: {creator}"]
    return "\n".join(header + [line for game in games for line in [*game, ""]])
