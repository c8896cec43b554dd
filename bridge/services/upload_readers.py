"""The readers' front end of a session's upload: a PBN, USEBIO or CSV file or the director's web traveller
read into the same `Row`s (`Parsed`), before `uploads` checks them against the session and writes them.
A file the engine cannot read raises `UploadError` naming the line; `file_kind` is the reader a file's name
asks for.
"""

from dataclasses import dataclass, field
from typing import NamedTuple

from django.utils.translation import gettext as _

from bridge.engine.csv_upload import CsvError, Problem, read_csv, result_of
from bridge.engine.pbn.games import PbnError
from bridge.engine.pbn.reader import read_session
from bridge.engine.pbn.records import SessionRecord
from bridge.engine.pbn.usebio_reader import UsebioError, read_usebio

from .upload_errors import UploadError, explain

# what `submit` takes: a PBN, USEBIO (XML) or CSV file, the web traveller, a table's confirmed entry
PBN, USEBIO, CSV, FORM, TABLE = "pbn", "usebio", "csv", "form", "table"


class Row(NamedTuple):
    """One result of an upload (a tuple: a session's file makes thousands, built fast)."""

    board: int
    ns: str
    ew: str
    where: str  # "line 12", "board 3, table 2": named in every error about this row
    contract: str = ""
    declarer: str = ""
    lead: str = ""
    tricks: int | None = None
    score: int | None = None
    artificial: str = ""
    table: int | None = None


@dataclass
class Parsed:
    rows: list[Row]
    deals: dict[int, str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)  # pair label -> "Name;Name" from the file
    only_boards: set[int] | None = None  # a traveller replaces these boards only
    # a table's entry replaces only its own pairs' rows of `only_boards` (the other tables' rows are kept)
    own_rows_only: bool = False
    warnings: list[str] = field(default_factory=list)  # what a lenient read took on trust (by line)


# --- the four readers -----------------------------------------------------------------------------------


def file_kind(name: str) -> str:
    """The reader a file's name asks for when the client does not say: .csv, .xml (USEBIO), else PBN."""
    name = name.lower()
    return CSV if name.endswith(".csv") else USEBIO if name.endswith(".xml") else PBN


def parse_pbn(text: str) -> Parsed:
    try:
        session = read_session(text, lenient=True)
    except PbnError as error:
        raise _refused(error)
    return _parsed_record(session, _("no board of the file has a ScoreTable with results"))


def parse_usebio(text: str) -> Parsed:
    """A USEBIO 1.2 XML file (another program's, or the portal's own export), read leniently like a PBN."""
    try:
        session = read_usebio(text, lenient=True)
    except UsebioError as error:
        raise _refused(error)
    return _parsed_record(session, _("no <BOARD> of the file has a <TRAVELLER_LINE>"))


def _refused(error: PbnError | UsebioError) -> UploadError:
    """A reader's refusal (its line and reason) as the upload's error."""
    return UploadError([_("line %(line)s: %(message)s") % {"line": error.line, "message": error.message}])


def _parsed_record(session: SessionRecord, empty: str) -> Parsed:
    """A file's session record (PBN or USEBIO) as upload rows, its deals, pair names and warnings."""
    rows = []
    where = _("line %(line)s")  # translated once: a session's file has thousands of lines
    for board in session.boards:
        for r in board.results:
            rows.append(
                Row(
                    board.number,
                    r.ns.upper(),
                    r.ew.upper(),
                    where % {"line": r.line},
                    contract=r.contract or "",
                    declarer=r.declarer or "",
                    lead=r.lead or "",
                    tricks=r.tricks,
                    score=r.score_ns,
                    artificial=r.artificial or "",
                )
            )
    if not rows:
        raise UploadError([empty])
    deals = {
        board.number: board.deal for board in session.boards if board.deal and "-" not in board.deal.split()
    }
    names = {total.pair.upper(): total.names for total in session.totals if total.names}
    warnings = [
        _("line %(line)s: %(message)s") % {"line": w.line, "message": w.message} for w in session.warnings
    ]
    return Parsed(rows, deals, names, warnings=warnings)


def parse_csv(text: str) -> Parsed:
    try:
        rows = read_csv(text)
    except CsvError as error:
        raise UploadError(
            [_("line %(line)s: %(message)s") % {"line": error.line, "message": explain(error.problem)}]
        )
    where = _("line %(line)s")
    return Parsed(
        [
            Row(
                r.board,
                r.ns,
                r.ew,
                where % {"line": r.line},
                r.contract,
                r.declarer,
                r.lead,
                r.tricks,
                r.score,
                r.artificial,
            )
            for r in rows
        ]
    )


def parse_traveller(board: int, lines: list[dict]) -> Parsed:
    """The web traveller of one board: dicts with ns, ew, contract, declarer, lead, result, score (text)."""
    rows, errors = [], []
    for index, line in enumerate(lines, start=1):
        table = line.get("table") or index
        where = _("board %(board)s, table %(table)s") % {"board": board, "table": table}
        try:
            values = result_of(
                board,
                str(line.get("ns", "")).strip().upper(),
                str(line.get("ew", "")).strip().upper(),
                str(line.get("contract", "") or ""),
                str(line.get("declarer", "") or ""),
                str(line.get("lead", "") or ""),
                str(line.get("result", "") or ""),
                str(line.get("score", "") if line.get("score") is not None else ""),
            )
        except Problem as problem:
            errors.append(f"{where}: {explain(problem)}")
            continue
        contract, declarer, lead, tricks, score, artificial = values
        rows.append(
            Row(
                board,
                str(line["ns"]).strip().upper(),
                str(line["ew"]).strip().upper(),
                where,
                contract,
                declarer,
                lead,
                tricks,
                score,
                artificial,
                table=line.get("table"),
            )
        )
    if errors:
        raise UploadError(errors)
    return Parsed(rows, only_boards={board})
