"""Read a scored session's results from PBN 2.1 text: the games (`bridge.engine.pbn.games`, every tag and
table row with its line) turned into `SessionRecord`s, refusing anything a scorer should not guess at.
Every refusal is a `PbnError` carrying the line and the reason.
"""

import re
from decimal import Decimal, InvalidOperation

from bridge.engine.pbn.games import Game, PbnError, PbnWarning, TableRow, Tag, read_games
from bridge.engine.pbn.records import BoardRecord, ResultRecord, SessionRecord, TotalRecord
from bridge.engine.scoring.adjusted import ArtificialScore
from bridge.engine.scoring.contract import (
    SEATS,
    board_vulnerability,
    contract_score,
    is_possible_score,
    parse_contract,
    parse_tricks,
    vulnerable_sides,
)

_INTEGER = re.compile(r"^[+-]?\d+$")
_ABSENT = ("", "-", "?")


def read_session(text: str, *, lenient: bool = False) -> SessionRecord:
    """Results of a scored (or to-be-scored) pairs session: one game per board, each with a ScoreTable.

    `lenient` (files written by other programs): a line whose contract, declarer or result cannot be read
    but whose score is legal on the board is taken by its score, and `session.warnings` names the line."""
    session = SessionRecord()
    warnings: list[PbnWarning] | None = session.warnings if lenient else None
    first_line_of: dict[int, int] = {}
    for game in read_games(text):
        for attribute in ("event", "site", "date"):
            if getattr(session, attribute) is None and game.value(attribute) not in (None, "", "?"):
                setattr(session, attribute, game.value(attribute))
        scoring = game.tags.get("scoring")
        if scoring and scoring.value not in _ABSENT:
            if session.scoring is None:
                session.scoring, session.scoring_line = scoring.value, scoring.line
            elif scoring.value.lower() != session.scoring.lower():
                raise PbnError(
                    scoring.line,
                    f"Scoring {scoring.value!r} differs from {session.scoring!r} at line {session.scoring_line}",
                )
        board = _board(game, warnings)
        if board is not None:
            if board.number in first_line_of:
                raise PbnError(
                    board.line,
                    f"board {board.number} appears twice (first at line {first_line_of[board.number]})",
                )
            first_line_of[board.number] = board.line
            session.boards.append(board)
        total_table = game.tags.get("totalscoretable")
        if total_table is not None:
            session.totals.extend(_total(row) for row in total_table.rows)
    return session


def _board(game: Game, warnings: list[PbnWarning] | None = None) -> BoardRecord | None:
    board_tag = game.tags.get("board")
    table = game.tags.get("scoretable")
    if board_tag is None:
        if table is not None:
            raise PbnError(table.line, "ScoreTable in a game without a Board tag")
        return None
    if not board_tag.value.isdecimal() or int(board_tag.value) < 1:
        raise PbnError(
            board_tag.line, f"unknown board {board_tag.value!r}: a board number is a whole number from 1"
        )
    number = int(board_tag.value)
    dealer = _optional(game, "dealer")
    if dealer is not None and dealer.upper() not in SEATS:
        raise PbnError(game.tags["dealer"].line, f"dealer {dealer!r} is not N, E, S or W")
    vulnerable = _optional(game, "vulnerable")
    if vulnerable is not None:
        try:
            vulnerable_sides(vulnerable)
        except ValueError as error:
            raise PbnError(game.tags["vulnerable"].line, str(error))
    deal = _optional(game, "deal")
    if deal is not None:
        _check_deal(deal, game.tags["deal"].line)
    board = BoardRecord(number, dealer and dealer.upper(), vulnerable, deal, line=board_tag.line)
    if table is not None:
        board.results, board.absent = _results(
            table, number, vulnerable or board_vulnerability(number), warnings
        )
    return board


def _optional(game: Game, name: str) -> str | None:
    value = game.value(name)
    return None if value is None or value.strip() in _ABSENT else value.strip()


def _check_deal(deal: str, line: int) -> None:
    first, _, hands = deal.partition(":")
    if first.upper() not in SEATS or len(hands.split()) != 4:
        raise PbnError(line, f"deal {deal!r} is not 'N:hand hand hand hand'")
    cards: list[str] = []
    for hand in hands.split():
        if hand == "-":  # an unknown hand
            continue
        suits = hand.split(".")
        if len(suits) != 4 or sum(map(len, suits)) != 13:
            raise PbnError(line, f"hand {hand!r} does not hold 13 cards in 4 suits")
        for suit, holding in zip("SHDC", suits, strict=True):
            for rank in holding.upper():
                if rank not in "AKQJT98765432":
                    raise PbnError(line, f"{rank!r} in hand {hand!r} is not a card")
                cards.append(suit + rank)
    if len(cards) != len(set(cards)):
        raise PbnError(line, f"deal {deal!r} holds a card twice")


def _cell(row: TableRow, column: str) -> str | None:
    """A table element by case-insensitive column name; unknown ('?') and irrelevant ('-') read as None."""
    value = row.folded.get(column.lower())
    return None if value is None or value in _ABSENT else value


def _has_column(table: Tag, column: str) -> bool:
    return any(c.name.lower() == column.lower() for c in table.columns or ())


# The number columns of a ScoreTable: (column, its lower-case name, the ResultRecord attribute).
_DECIMAL_COLUMNS = tuple(
    (column, column.lower(), column.lower().replace("percentage", "pct"))
    for column in (
        "MP_NS", "MP_EW", "Percentage_NS", "Percentage_EW", "IMP_NS", "IMP_EW", "Penalty_NS", "Penalty_EW"
    )
)  # fmt: skip


def _results(
    table: Tag, board: int, vulnerability: str, warnings: list[PbnWarning] | None = None
) -> tuple[list[ResultRecord], list[ResultRecord]]:
    """The rows played (and other awards between two pairs), and the awards against an absent pair."""
    if table.columns is None or not (_has_column(table, "PairId_NS") and _has_column(table, "PairId_EW")):
        raise PbnError(table.line, "ScoreTable needs PairId_NS and PairId_EW columns")
    scored_by = ("Score_NS", "Score_EW", "Contract")
    if not any(_has_column(table, column) for column in scored_by):
        raise PbnError(table.line, "ScoreTable needs Score_NS (or Score_EW) or Contract, Declarer and Result")
    vul_ns, vul_ew = vulnerable_sides(vulnerability)
    # Worked out once per table, not once per row: which number columns it has, and each distinct
    # (contract, declarer, result) read and scored once on the board (a refusal is never kept: the row
    # that meets it again is read again and refused with its own line).
    present = {name for _index, name in table.names()[1]}
    numbers = tuple(entry for entry in _DECIMAL_COLUMNS if entry[1] in present)
    played: dict[tuple, tuple] = {}
    # A Mitchell may number both directions 1..n, so "1" NS and "1" EW on one board are two pairs;
    # the same number twice in one direction is a mistake.
    seen: dict[tuple[str, str], int] = {}
    results, absent = [], []
    for row in table.rows:
        result = _result(row, board, vul_ns, vul_ew, warnings, numbers, played)
        if result.ns is None or result.ew is None:
            absent.append(result)
            continue
        for seat in ((result.ns, "NS"), (result.ew, "EW")):
            if seat in seen:
                raise PbnError(
                    row.line,
                    f"pair {seat[0]} {seat[1]} already has a result on board {board} (line {seen[seat]})",
                )
            seen[seat] = row.line
        results.append(result)
    return results, absent


def _result(
    row: TableRow,
    board: int,
    vul_ns: bool,
    vul_ew: bool,
    warnings: list[PbnWarning] | None = None,
    numbers=tuple(_DECIMAL_COLUMNS),
    played: dict | None = None,
) -> ResultRecord:
    """One ScoreTable row, checked. `numbers`: the _DECIMAL_COLUMNS entries of the columns the table has;
    `played`: the board's (contract, declarer, result) -> (contract, declarer, tricks, score) read so far,
    and ((contract, declarer, result), Score_NS, Score_EW) -> (contract, declarer, tricks, score) of the
    cells of a row taken without a warning: most rows of a board repeat another's, and the same cells on
    the same board pass the same checks (a refusal or a warning is never kept: each row meets its own)."""
    cells = row.folded
    ns, ew = cells.get("pairid_ns"), cells.get("pairid_ew")
    ns, ew = None if ns in _ABSENT else ns, None if ew in _ABSENT else ew
    raw_ns, raw_ew = cells.get("score_ns"), cells.get("score_ew")
    raw_ns, raw_ew = None if raw_ns in _ABSENT else raw_ns, None if raw_ew in _ABSENT else raw_ew
    artificial = (raw_ns or "").startswith("^") or (raw_ew or "").startswith("^")
    # '-' for one side: an artificial score against an absent pair (nobody sat there).
    if (ns is None and ew is None) or ((ns is None or ew is None) and not artificial):
        raise PbnError(row.line, "a ScoreTable row needs both PairId_NS and PairId_EW")
    section = cells.get("section")
    if section is not None and section not in _ABSENT:
        # Sections scored as one field: "A" 1 and "B" 1 are different pairs, named A1 and B1.
        ns, ew = (pair if pair is None or pair.startswith(section) else section + pair for pair in (ns, ew))
    lead = cells.get("lead")
    result = ResultRecord(ns, ew, lead=None if lead in _ABSENT else lead, line=row.line)
    for column, name, attribute in numbers:
        raw = cells.get(name)
        if raw is not None and raw not in _ABSENT:
            setattr(result, attribute, _number(row, column, raw))

    if artificial:
        result.artificial = str(_artificial(row, board, raw_ns, raw_ew))
        return result

    key = (cells.get("contract"), cells.get("declarer"), cells.get("result"))
    if played is not None:
        whole = played.get((key, raw_ns, raw_ew))
        if whole is not None:
            result.contract, result.declarer, result.tricks, result.score_ns = whole
            return result
    score = _score(row, raw_ns, raw_ew)
    known = played.get(key) if played is not None else None
    if known is not None:
        result.contract, result.declarer, result.tricks, contract_score_ = known
        if contract_score_ is not None:
            if score is not None and score != contract_score_:
                raise PbnError(
                    row.line,
                    f"board {board}: score {score} does not match {result.contract} by {result.declarer} "
                    f"taking {result.tricks} tricks ({contract_score_})",
                )
            score = contract_score_
        if score is None:
            raise PbnError(
                row.line, f"board {board}: the row has neither a score nor a contract with a result"
            )
        if not is_possible_score(score, vul_ns, vul_ew):
            _illegal(row, board, score, vul_ns, vul_ew)
        result.score_ns = score
        played[(key, raw_ns, raw_ew)] = (result.contract, result.declarer, result.tricks, score)
        return result
    try:
        result.contract, result.declarer, result.tricks = _played(row, board)
    except PbnError as error:
        if warnings is None or score is None or not is_possible_score(score, vul_ns, vul_ew):
            raise
        warnings.append(
            PbnWarning(row.line, f"{error.message}; the line is taken by its score {score} (Score_NS)")
        )
        result.score_ns = score
        return result
    by_contract = None
    if result.contract is not None and (result.tricks is not None or result.contract == "Pass"):
        by_contract = _contract_score(row, result, vul_ns, vul_ew)
        if score is not None and score != by_contract:
            raise PbnError(
                row.line,
                f"board {board}: score {score} does not match {result.contract} by {result.declarer} "
                f"taking {result.tricks} tricks ({by_contract})",
            )
        score = by_contract
    if played is not None:
        played[key] = (result.contract, result.declarer, result.tricks, by_contract)
    if score is None:
        raise PbnError(row.line, f"board {board}: the row has neither a score nor a contract with a result")
    if not is_possible_score(score, vul_ns, vul_ew):
        _illegal(row, board, score, vul_ns, vul_ew)
    result.score_ns = score
    if played is not None:
        played[(key, raw_ns, raw_ew)] = (result.contract, result.declarer, result.tricks, score)
    return result


def _illegal(row: TableRow, board: int, score: int, vul_ns: bool, vul_ew: bool):
    vulnerable = {(False, False): "nobody", (True, False): "NS", (False, True): "EW"}.get(
        (vul_ns, vul_ew), "all"
    )
    raise PbnError(
        row.line, f"board {board}: illegal score {score}: no contract scores that ({vulnerable} vulnerable)"
    )


def _artificial(row: TableRow, board: int, raw_ns: str | None, raw_ew: str | None) -> ArtificialScore:
    """PBN marks an artificial score with '^': Score_NS '^A+/A-' (NS/EW), or '^A+' and '^A-' in each column."""
    if not (raw_ns or "").startswith("^"):
        raise PbnError(row.line, f"board {board}: an artificial score goes in Score_NS (like ^A+/A-)")
    try:
        award = ArtificialScore.parse(raw_ns)
        if (raw_ew or "").startswith("^"):
            award = ArtificialScore(award.ns, ArtificialScore.parse(raw_ew).ns)
    except ValueError as error:
        raise PbnError(row.line, f"board {board}: {error}")
    return award


def _score(row: TableRow, raw_ns: str | None, raw_ew: str | None) -> int | None:
    for raw, column in ((raw_ns, "Score_NS"), (raw_ew, "Score_EW")):
        if raw is not None and not _INTEGER.match(raw):
            raise PbnError(row.line, f"{column} {raw!r} is not a score")
    ns = int(raw_ns) if raw_ns is not None else None
    ew = int(raw_ew) if raw_ew is not None else None
    if ns is not None and ew is not None and ns != -ew:
        raise PbnError(row.line, f"Score_NS {ns} and Score_EW {ew} disagree")
    return ns if ns is not None else (-ew if ew is not None else None)


def _played(row: TableRow, board: int) -> tuple[str | None, str | None, int | None]:
    contract_text = _cell(row, "Contract")
    if contract_text is None:
        return None, None, None
    try:
        contract = parse_contract(contract_text)
    except ValueError as error:
        raise PbnError(row.line, f"board {board}: {error}")
    if contract.passed_out:
        return "Pass", None, None
    declarer = _cell(row, "Declarer")
    if declarer is not None and declarer.upper() not in SEATS:
        raise PbnError(row.line, f"board {board}: declarer {declarer!r} is not N, E, S or W")
    result_text = _cell(row, "Result")
    tricks = None
    if result_text is not None:
        try:
            tricks = parse_tricks(result_text, contract.level)
        except ValueError as error:
            raise PbnError(row.line, f"board {board}: {error}")
    return str(contract), declarer and declarer.upper(), tricks


def _contract_score(row: TableRow, result: ResultRecord, vul_ns: bool, vul_ew: bool) -> int:
    if result.contract == "Pass":
        return 0
    if result.declarer is None:
        raise PbnError(row.line, f"contract {result.contract} needs a Declarer to be scored")
    return contract_score(result.contract, result.declarer, result.tricks, vul_ns, vul_ew)


_NUMBERS: dict[str, Decimal] = {}  # element -> its Decimal: a session's file repeats the same few hundred


def _number(row: TableRow, column: str, raw: str) -> Decimal:
    """A number element (not absent) as a Decimal; a refusal names the column and the line."""
    found = _NUMBERS.get(raw)
    if found is None:
        try:
            found = Decimal(raw.lstrip("^"))
        except InvalidOperation:
            raise PbnError(row.line, f"{column} {raw!r} is not a number")
        if len(_NUMBERS) < 100_000:
            _NUMBERS[raw] = found
    return found


def _decimal(row: TableRow, column: str) -> Decimal | None:
    raw = _cell(row, column)
    if raw is None:
        return None
    try:
        return Decimal(raw.lstrip("^"))
    except InvalidOperation:
        raise PbnError(row.line, f"{column} {raw!r} is not a number")


def _total(row: TableRow) -> TotalRecord:
    pair = _cell(row, "PairId")
    if pair is None:
        raise PbnError(row.line, "a TotalScoreTable row needs a PairId")
    boards = _cell(row, "NrBoards")
    if boards is not None and not boards.isdecimal():
        raise PbnError(row.line, f"NrBoards {boards!r} is not a number")
    direction = _cell(row, "Direction")
    if direction is not None and direction.upper() not in ("NS", "EW"):
        raise PbnError(row.line, f"direction {direction!r} is not NS or EW")
    return TotalRecord(
        pair,
        _cell(row, "Rank"),
        direction and direction.upper(),
        _cell(row, "Names"),
        _decimal(row, "TotalMP"),
        _decimal(row, "TotalIMP"),
        _decimal(row, "TotalPercentage"),
        int(boards) if boards is not None else None,
        _decimal(row, "Penalty"),
        line=row.line,
    )
