"""Read a session's results from CSV: one row per table and board, refused with the line at fault.

Columns, in this order: board, NS pair, EW pair, contract, declarer, lead, result, NS score. A first row
that does not start with a board number is a header; blank lines and lines starting with '#' are skipped;
the delimiter is ';' (Hungarian spreadsheets), a tab or ','. The result is declarer's tricks ('9') or
relative to the contract ('=', '+1', '-2'). The NS score may stand alone, or is computed from the contract
and checked against a given one; an artificial score ('A+', 'A', 'A-', 'A+/A-' for NS/EW) goes in the score
column with the contract left empty.

Pure: nothing is written and no settings are needed. Messages are English templates marked for the
catalogue (the local gettext_noop, which makemessages finds); the page that shows one translates it with
its values.
"""

import csv
import io
import re
from dataclasses import dataclass

from bridge.engine.scoring.adjusted import ArtificialScore
from bridge.engine.scoring.contract import (
    board_vulnerability,
    contract_score,
    is_possible_score,
    parse_contract,
    parse_seat,
    parse_tricks,
    vulnerable_sides,
)


def gettext_noop(message: str) -> str:
    """Marks a message for the catalogue (makemessages finds the name); the web layer translates it."""
    return message


COLUMNS = ("board", "NS pair", "EW pair", "contract", "declarer", "lead", "result", "NS score")
_PAIR = re.compile(r"^[A-Za-z]{0,2}\d{1,4}$")
_SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
_LEAD = re.compile(r"^([SHDC])(A|K|Q|J|T|10|[2-9])$")


class Problem(ValueError):
    """Why a traveller line is refused: an English template and its values (translate the template)."""

    def __init__(self, template: str, **params):
        self.template = template
        self.params = params
        super().__init__(template % params)


class CsvError(ValueError):
    """A CSV file the scorer refuses, with the (1-based) line where the problem is."""

    def __init__(self, line: int, problem: Problem):
        super().__init__(f"line {line}: {problem}")
        self.line = line
        self.problem = problem
        self.message = str(problem)


@dataclass(frozen=True)
class CsvRow:
    line: int
    board: int
    ns: str
    ew: str
    contract: str = ""  # normalised: "4S", "3NTX", "Pass"; empty when only a score was given
    declarer: str = ""
    lead: str = ""  # "SA", "HT"
    tricks: int | None = None
    score: int | None = None  # NS score; None for an artificial score
    artificial: str = ""  # "A+", "A+/A-"


def parse_lead(text: str) -> str:
    """'SA', 's10', '♠A' -> 'SA', 'ST'; empty stays empty. Raises Problem for anything else."""
    cleaned = text.strip().upper()
    if not cleaned:
        return ""
    cleaned = _SUIT_SYMBOLS.get(cleaned[0], cleaned[0]) + cleaned[1:]
    match = _LEAD.match(cleaned)
    if not match:
        raise Problem(gettext_noop("lead %(lead)s is not a card like SA, H10 or DT"), lead=text)
    rank = "T" if match.group(2) == "10" else match.group(2)
    return match.group(1) + rank


def result_of(board: int, ns: str, ew: str, contract: str, declarer: str, lead: str, result: str, score: str):
    """Check one traveller line and return (contract, declarer, lead, tricks, score, artificial).

    Shared by the CSV reader, the web traveller and correction requests, so all refuse exactly the same
    things; raises Problem with the reason (the caller adds the line or the table).
    """
    for side, label in (("NS", ns), ("EW", ew)):
        if not _PAIR.match(label):
            raise Problem(
                gettext_noop("%(side)s pair %(pair)s is not a pair number"), side=side, pair=label or "-"
            )
    if ns == ew:
        raise Problem(gettext_noop("pair %(pair)s cannot play against itself"), pair=ns)
    contract, declarer, result, score = (
        contract.strip(),
        declarer.strip().upper(),
        result.strip(),
        score.strip(),
    )
    lead = parse_lead(lead)
    if score.upper().lstrip("^").startswith("A"):
        if contract or result:
            raise Problem(gettext_noop("an artificial score has no contract or result"))
        try:
            award = ArtificialScore.parse(score)
        except ValueError:
            raise Problem(
                gettext_noop("%(score)s is not an artificial score (A+, A, A- or N-S/E-W like A+/A-)"),
                score=score,
            )
        return "", "", "", None, None, str(award)
    vul_ns, vul_ew = vulnerable_sides(board_vulnerability(board))
    given = None
    if score:
        if not re.match(r"^[+-]?\d+$", score):
            raise Problem(gettext_noop("N-S score %(score)s is not a number"), score=score)
        given = int(score)
    if not contract:
        if given is None:
            raise Problem(gettext_noop("neither a contract with its result nor a score"))
        if declarer or result:
            raise Problem(gettext_noop("a declarer or a result without a contract"))
        if not is_possible_score(given, vul_ns, vul_ew):
            raise Problem(
                gettext_noop("no contract scores %(score)s on board %(board)s (vulnerable: %(vulnerable)s)"),
                score=given,
                board=board,
                vulnerable=board_vulnerability(board),
            )
        return "", "", lead, None, given, ""
    try:
        parsed = parse_contract(contract)
    except ValueError:
        raise Problem(
            gettext_noop("%(contract)s is not a contract (like 4S, 3NTX or Pass)"), contract=contract
        )
    if parsed.passed_out:
        if given not in (None, 0):
            raise Problem(gettext_noop("a passed-out board scores 0, not %(score)s"), score=given)
        return "Pass", "", "", None, 0, ""
    try:
        declarer = parse_seat(declarer)
    except ValueError:
        raise Problem(gettext_noop("declarer %(declarer)s is not N, E, S or W"), declarer=declarer or "-")
    if not result:
        raise Problem(gettext_noop("contract %(contract)s needs a result"), contract=str(parsed))
    try:
        tricks = parse_tricks(result, parsed.level)
    except ValueError:
        raise Problem(
            gettext_noop("result %(result)s is not tricks (9) or relative to the contract (=, +1, -2)"),
            result=result,
        )
    played = contract_score(parsed, declarer, tricks, vul_ns, vul_ew)
    if given is not None and given != played:
        raise Problem(
            gettext_noop(
                "score %(score)s does not match %(contract)s by %(declarer)s taking %(tricks)s tricks (%(played)s)"
            ),
            score=given,
            contract=str(parsed),
            declarer=declarer,
            tricks=tricks,
            played=played,
        )
    return str(parsed), declarer, lead, tricks, played, ""


def _delimiter(text: str) -> str:
    first = next((line for line in text.splitlines() if line.strip() and not line.startswith("#")), "")
    for candidate in (";", "\t"):
        if candidate in first:
            return candidate
    return ","


def _guarded(reader):
    """The csv reader's rows, its own errors (e.g. a cell over the field size limit) as CsvError."""
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            raise CsvError(
                reader.line_num, Problem(gettext_noop("unreadable CSV: %(reason)s"), reason=str(error))
            )
        yield reader.line_num, cells


def data_rows(text: str, columns: tuple[str, ...], least: int):
    """(line, cells) of each data row of a results CSV, cells stripped and padded to `columns`: a byte-order
    mark, bare CRs, empty and "#" lines and a first header row skipped; the delimiter (";", tab or ",") read
    off the first line; a row with fewer than `least` cells, or more than `columns` that are not empty, is a
    CsvError naming its line. Shared by the pairs reader here and the individual one."""
    # Old Mac exports end lines with a bare CR, which the csv module refuses inside a row.
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    seen_data = False
    for line, cells in _guarded(csv.reader(io.StringIO(text), delimiter=_delimiter(text))):
        cells = [cell.strip() for cell in cells]
        if not any(cells) or cells[0].startswith("#"):
            continue
        if not seen_data and not cells[0].isdecimal():
            seen_data = True  # a header row
            continue
        seen_data = True
        if len(cells) < least or (len(cells) > len(columns) and any(cells[len(columns) :])):
            raise CsvError(
                line,
                Problem(
                    gettext_noop("%(count)s columns; expected %(expected)s: %(names)s"),
                    count=len(cells),
                    expected=len(columns),
                    names=", ".join(columns),
                ),
            )
        yield line, (cells + [""] * len(columns))[: len(columns)]


def read_csv(text: str) -> list[CsvRow]:
    """Every result of the file, or CsvError at the first line that is wrong."""
    rows: list[CsvRow] = []
    for line, cells in data_rows(text, COLUMNS, 3):
        board_text, ns, ew, contract, declarer, lead, result, score = cells
        if not board_text.isdecimal() or int(board_text) < 1:
            raise CsvError(
                line, Problem(gettext_noop("board %(board)s is not a board number"), board=board_text)
            )
        board = int(board_text)
        try:
            values = result_of(board, ns.upper(), ew.upper(), contract, declarer, lead, result, score)
        except Problem as problem:
            raise CsvError(
                line, Problem(gettext_noop("board %(board)s: %(problem)s"), board=board, problem=problem)
            )
        contract_text, seat, card, tricks, ns_score, artificial = values
        rows.append(
            CsvRow(
                line, board, ns.upper(), ew.upper(), contract_text, seat, card, tricks, ns_score, artificial
            )
        )
    if not rows:
        raise CsvError(max(1, text.count("\n")), Problem(gettext_noop("no results in the file")))
    return rows
