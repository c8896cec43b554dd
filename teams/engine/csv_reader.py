"""A team match as CSV: one row per board and room.

Columns (a header row, comma, semicolon or tab separated): `board`, `room` (open/closed) and either
`ns_score` or `contract`, `declarer`, `result` (tricks, or =, +1, -2). Both may be given; they must agree.
"""

import csv
import io

from .parsed import ParsedResult, RoomResults, board_number
from .problems import ParseError, Problem, gettext_noop, problem_of
from .scores import room_score

ROOMS = {"open": "open", "o": "open", "nyitott": "open", "closed": "closed", "c": "closed", "zárt": "closed"}
ALIASES = {"score": "ns_score", "score_ns": "ns_score", "room": "room", "board": "board"}


def parse_csv(text: str) -> ParsedResult:
    """The match's boards in a decoded CSV file; `ParseError` naming every bad line."""
    # Old Mac exports end lines with a bare CR, which the csv module refuses inside a row.
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        raise ParseError(Problem(gettext_noop("the file is empty")))
    try:
        dialect = csv.Sniffer().sniff(text.splitlines()[0], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    try:
        return _parse_rows(csv.reader(io.StringIO(text), dialect))
    except csv.Error as error:
        raise ParseError(Problem(gettext_noop("the file cannot be read as CSV: %(reason)s"), reason=error))


def _parse_rows(reader) -> ParsedResult:
    header = [ALIASES.get(h.strip().lower(), h.strip().lower()) for h in next(reader)]
    if "board" not in header or "room" not in header:
        raise ParseError(Problem(gettext_noop("line 1: the header needs board and room columns")))
    if "ns_score" not in header and "contract" not in header:
        raise ParseError(
            Problem(gettext_noop("line 1: the header needs ns_score, or contract, declarer and result"))
        )
    rooms = RoomResults()
    errors = rooms.errors
    for row in reader:
        line = reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            errors.append(
                Problem(
                    gettext_noop("line %(line)s: %(found)s values, the header has %(expected)s"),
                    line=line,
                    found=len(row),
                    expected=len(header),
                )
            )
            continue
        cells = {name: value.strip() for name, value in zip(header, row, strict=True)}
        board = board_number(cells["board"])
        if board is None:
            errors.append(
                Problem(
                    gettext_noop("line %(line)s: %(board)r is not a board number"),
                    line=line,
                    board=cells["board"],
                )
            )
            continue
        room = ROOMS.get(cells["room"].lower())
        if room is None:
            errors.append(
                Problem(
                    gettext_noop(
                        "line %(line)s (board %(board)s): room must be open or closed, not %(room)r"
                    ),
                    line=line,
                    board=board,
                    room=cells["room"],
                )
            )
            continue
        try:
            score, shown = room_score(
                board,
                score=cells.get("ns_score") or None,
                contract=cells.get("contract") or None,
                declarer=cells.get("declarer"),
                result=cells.get("result"),
            )
        except ValueError as error:
            errors.append(
                Problem(
                    gettext_noop("line %(line)s (board %(board)s): %(message)s"),
                    line=line,
                    board=board,
                    message=problem_of(error),
                )
            )
            continue
        rooms.add(board, room, score, shown, line)
    return rooms.result(Problem(gettext_noop("the file holds no results")))
