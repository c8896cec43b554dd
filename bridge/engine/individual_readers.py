"""Read an individual event's results: CSV, or PBN with player numbers; refused with the line at fault.

CSV columns, in this order (the pairs CSV's, with the four players in place of the two pairs):

    board; table; N; S; E; W; contract; declarer; lead; result; NS score

N, S, E and W are the players' numbers in the event (É, D, K, Ny on the Hungarian form). As in the pairs
CSV (`csv_upload`): a first row that does not start with a board number is a header, blank lines and
lines starting with '#' are skipped, the delimiter is ';', a tab or ','; the result is declarer's tricks
or relative to the contract; the NS score may stand alone or is checked against the contract; an
artificial score ('A+', 'A', 'A-', 'A+/A-') goes in the score column with the contract empty. The table
may be left empty.

PBN: one game per board, its ScoreTable with the PBN 2.1 individual columns PlayerId_North,
PlayerId_South, PlayerId_East and PlayerId_West (and Table, Contract, Declarer, Result, Score_NS, Lead as
in a pairs file, read by the same checks); the deals are kept for the hand records.

Every row is checked alone here (numbers, contract, score); the whole set (a player twice on a board)
is checked by `individual.check_deals`. Messages are templates for the catalogue, like `csv_upload`'s.
"""

from dataclasses import dataclass, replace

from bridge.engine.csv_upload import CsvError, Problem, data_rows, gettext_noop, result_of
from bridge.engine.pbn.games import PbnError, TableRow, read_games
from bridge.engine.pbn.reader import _cell, _check_deal, _result
from bridge.engine.scoring.contract import board_vulnerability, vulnerable_sides

COLUMNS = ("board", "table", "N", "S", "E", "W", "contract", "declarer", "lead", "result", "NS score")
PBN_PLAYERS = ("PlayerId_North", "PlayerId_South", "PlayerId_East", "PlayerId_West")
MAX_NUMBER = 9999  # boards, tables and players: far above any event, within the database's small integers


@dataclass(frozen=True)
class IndividualRow:
    line: int
    board: int
    table: int | None
    north: int
    south: int
    east: int
    west: int
    contract: str = ""
    declarer: str = ""
    lead: str = ""
    tricks: int | None = None
    score: int | None = None  # NS score; None for an artificial score
    artificial: str = ""

    @property
    def players(self) -> tuple[int, int, int, int]:
        return (self.north, self.south, self.east, self.west)


@dataclass
class IndividualFile:
    rows: list[IndividualRow]
    deals: dict[int, str]


def _number(text: str, what: str) -> int:
    if not text.isdecimal() or not 1 <= int(text) <= MAX_NUMBER:
        raise Problem(gettext_noop("%(what)s %(value)s is not a player number"), what=what, value=text or "-")
    return int(text)


def read_csv(text: str) -> IndividualFile:
    """Every result of the file, or CsvError at the first line that is wrong."""
    rows: list[IndividualRow] = []
    for line, cells in data_rows(text, COLUMNS, 7):
        board_text, table_text, *seats, contract, declarer, lead, result, score = cells
        if not board_text.isdecimal() or not 1 <= int(board_text) <= MAX_NUMBER:
            raise CsvError(
                line, Problem(gettext_noop("board %(board)s is not a board number"), board=board_text)
            )
        board = int(board_text)
        try:
            table = _number(table_text, "table") if table_text else None
            players = [_number(value, seat) for value, seat in zip(seats, "NSEW", strict=True)]
            values = result_of(board, "1", "2", contract, declarer, lead, result, score)
        except Problem as problem:
            raise CsvError(line, _on_board(board, table_text, problem))
        rows.append(IndividualRow(line, board, table, *players, *values))
    if not rows:
        raise CsvError(max(1, text.count("\n")), Problem(gettext_noop("no results in the file")))
    return IndividualFile(rows, {})


def _on_board(board: int, table: str, problem: Problem) -> Problem:
    if table:
        return Problem(
            gettext_noop("board %(board)s, table %(table)s: %(problem)s"),
            board=board,
            table=table,
            problem=problem,
        )
    return Problem(gettext_noop("board %(board)s: %(problem)s"), board=board, problem=problem)


def read_pbn(text: str) -> IndividualFile:
    """The results of a PBN file whose ScoreTables name the four players; PbnError at the line at fault."""
    rows: list[IndividualRow] = []
    deals: dict[int, str] = {}
    seen_boards: dict[int, int] = {}
    for game in read_games(text):
        board_tag, table = game.tags.get("board"), game.tags.get("scoretable")
        if board_tag is None:
            continue
        if not board_tag.value.isdecimal() or not 1 <= int(board_tag.value) <= MAX_NUMBER:
            raise PbnError(board_tag.line, f"unknown board {board_tag.value!r}")
        board = int(board_tag.value)
        if board in seen_boards:
            raise PbnError(
                board_tag.line, f"board {board} appears twice (first at line {seen_boards[board]})"
            )
        seen_boards[board] = board_tag.line
        deal = game.value("deal")
        if deal and deal.strip() not in ("", "?", "-") and "-" not in deal.split():
            _check_deal(deal.strip(), game.tags["deal"].line)
            deals[board] = deal.strip()
        if table is None:
            continue
        names = {c.name.lower() for c in table.columns or ()}
        if not all(column.lower() in names for column in PBN_PLAYERS):
            raise PbnError(
                table.line, "ScoreTable needs PlayerId_North, PlayerId_South, PlayerId_East, PlayerId_West"
            )
        vulnerable = game.value("vulnerable") or board_vulnerability(board)
        vul_ns, vul_ew = vulnerable_sides(vulnerable)
        for row in table.rows:
            players = []
            for column in PBN_PLAYERS:
                value = _cell(row, column) or ""
                if not value.isdecimal() or not 1 <= int(value) <= MAX_NUMBER:
                    raise PbnError(
                        row.line, f"board {board}: {column} {value or '-'!r} is not a player number"
                    )
                players.append(int(value))
            # the pairs reader's checks of the contract, result and score, on a row with two stand-in pairs
            stand_in = TableRow(row.line, row.values, {**row.folded, "pairid_ns": "1", "pairid_ew": "2"})
            result = _result(stand_in, board, vul_ns, vul_ew)
            table_no = _cell(row, "Table")
            rows.append(
                IndividualRow(
                    row.line,
                    board,
                    int(table_no)
                    if table_no and table_no.isdecimal() and int(table_no) <= MAX_NUMBER
                    else None,
                    *players,
                    contract=result.contract or "",
                    declarer=result.declarer or "",
                    lead=result.lead or "",
                    tricks=result.tricks,
                    score=result.score_ns,
                    artificial=result.artificial or "",
                )
            )
    if not rows:
        raise PbnError(1, "no board of the file has a ScoreTable with results")
    return IndividualFile(rows, deals)


def with_tables(rows: list[IndividualRow]) -> list[IndividualRow]:
    """Rows without a table number numbered by their order on the board (1, 2, ...)."""
    counted: dict[int, int] = {}
    out = []
    for row in rows:
        counted[row.board] = counted.get(row.board, 0) + 1
        out.append(row if row.table is not None else replace(row, table=counted[row.board]))
    return out
