"""Read USEBIO 1.2 XML (pairs events) into the same `SessionRecord` the PBN reader gives.

The standard library's expat parser. The one DOCTYPE taken is the one other programs write, naming USEBIO's
own DTD with no internal subset (`<!DOCTYPE USEBIO SYSTEM "usebio_v1_2.dtd">`); it is never fetched (expat
reads no external DTD or entity unless told to). Every other DOCTYPE, an internal subset and any entity
declaration are refused, so no entity can be declared, so none can be expanded (no "billion laughs", no
external entities). Every refusal is a `UsebioError` naming the line and
the element. `bridge.engine.pbn.usebio.write_usebio` writes what this reads back to equal records.

Every TRAVELLER_LINE is checked as the PBN reader checks a ScoreTable row: a contract with its tricks must
give the SCORE written, and a score must be one some contract makes on the board. `lenient` (files of other
programs): a line whose contract, declarer or tricks cannot be read but whose score is legal is taken by its
score, and `session.warnings` names the line (the PBN reader's `PbnWarning`).
"""

import re
import xml.etree.ElementTree as ET
from decimal import Decimal, InvalidOperation
from xml.parsers import expat

from bridge.engine.pbn.games import PbnWarning
from bridge.engine.pbn.records import BoardRecord, ResultRecord, SessionRecord, TotalRecord
from bridge.engine.scoring.adjusted import ArtificialScore
from bridge.engine.scoring.contract import (
    SEATS,
    board_dealer,
    board_vulnerability,
    contract_score,
    is_possible_score,
    parse_contract,
    vulnerable_sides,
)

_SCORING = {"MP_PAIRS": "MP2", "BUTLER_PAIRS": "IMP;Butler", "CROSS_IMP": "IMP;Cross2"}
_DATE = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$")
# The DTD other programs name (EBU's address or a bare file name), version 1.x.
_USEBIO_DTD = re.compile(r"(^|/)usebio_v1_\d+\.dtd$", re.IGNORECASE)


class UsebioError(ValueError):
    def __init__(self, line: int, message: str):
        super().__init__(f"line {line}: {message}")
        self.line, self.message = line, message


def parse_tree(text: str) -> tuple[ET.Element, dict[int, int]]:
    """The element tree and the line each element starts on (expat, no DOCTYPE but USEBIO's own); a leading
    byte-order mark is dropped. Shared by the pairs reader here and the teams one (`teams.engine.usebio_reader`)."""
    text = text.lstrip("\ufeff")
    parser = expat.ParserCreate()
    builder = ET.TreeBuilder()
    lines: dict[int, int] = {}

    def start(tag, attrs):
        lines[id(builder.start(tag, attrs))] = parser.CurrentLineNumber

    def refuse(*_args):
        raise UsebioError(parser.CurrentLineNumber, "a DOCTYPE or entity declaration is not allowed")

    def doctype(name, system_id, _public_id, has_internal_subset):
        if has_internal_subset or name != "USEBIO" or not _USEBIO_DTD.search(system_id or ""):
            refuse()

    parser.StartElementHandler = start
    parser.EndElementHandler = builder.end
    parser.CharacterDataHandler = builder.data
    parser.StartDoctypeDeclHandler = doctype
    parser.EntityDeclHandler = refuse
    # With an external DTD named (and not read), expat skips an unknown entity instead of failing on it.
    parser.SkippedEntityHandler = parser.ExternalEntityRefHandler = refuse
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    try:
        parser.Parse(text, True)
    except expat.ExpatError as error:
        raise UsebioError(error.lineno, f"not well-formed XML ({expat.errors.messages[error.code]})")
    return builder.close(), lines


def event_of(text: str):
    """(the <EVENT> element, `line(element)` its starting line): the USEBIO root checked, for every reader."""
    root, lines = parse_tree(text)

    def line(element) -> int:
        return lines.get(id(element), 1)

    if root.tag != "USEBIO":
        raise UsebioError(line(root), f"the root element is <{root.tag}>, not <USEBIO>")
    event = root.find("EVENT")
    if event is None:
        raise UsebioError(line(root), "<USEBIO> has no <EVENT>")
    return event, line


def read_usebio(text: str, *, lenient: bool = False) -> SessionRecord:
    """A USEBIO 1.2 pairs event: its PARTICIPANTS as totals, its BOARDs' TRAVELLER_LINEs as results."""
    event, line = event_of(text)
    kind = event.get("EVENT_TYPE", "MP_PAIRS")
    if kind not in _SCORING:
        raise UsebioError(line(event), f"EVENT_TYPE {kind!r} is not a pairs event this reader knows")
    matchpoints = kind == "MP_PAIRS"
    session = SessionRecord(
        event=text_of(event, "EVENT_DESCRIPTION"), date=_date(event, line), scoring=_SCORING[kind]
    )
    holder = holder_of(event, line)
    participants = holder.find("PARTICIPANTS")
    for pair in participants.findall("PAIR") if participants is not None else ():
        number = text_of(pair, "PAIR_NUMBER")
        if number is None:
            raise UsebioError(line(pair), "a <PAIR> needs a <PAIR_NUMBER>")
        names = [text_of(p, "PLAYER_NAME") for p in pair.findall("PLAYER")]
        total = decimal_of(pair, "TOTAL_SCORE", line)
        boards = integer_of(pair, "BOARDS_PLAYED", line)
        session.totals.append(
            TotalRecord(
                number,
                text_of(pair, "PLACE"),
                text_of(pair, "DIRECTION"),
                ";".join(n for n in names if n) or None,
                total if matchpoints else None,
                None if matchpoints else total,
                decimal_of(pair, "PERCENTAGE", line),
                boards,
                line=line(pair),
            )
        )
    for board in holder.findall("BOARD"):
        number = integer_of(board, "BOARD_NUMBER", line)
        if number is None or number < 1:
            raise UsebioError(line(board), "a <BOARD> needs a <BOARD_NUMBER> from 1")
        record = BoardRecord(number, board_dealer(number), board_vulnerability(number), line=line(board))
        vulnerable = vulnerable_sides(record.vulnerable)
        warnings = session.warnings if lenient else None
        for traveller in board.findall("TRAVELLER_LINE"):
            record.results.append(_result(traveller, number, vulnerable, matchpoints, line, warnings))
        session.boards.append(record)
    return session


def holder_of(event, line):
    """The element holding the PARTICIPANTS and BOARDs: the EVENT itself, or its one SESSION / SECTION.

    Programs write a single session either flat under EVENT or nested as EVENT > SESSION > SECTION; an upload
    is one session of one field, so a file of several sessions or sections is refused by line."""
    holder = event
    for level in ("SESSION", "SECTION"):
        nested = holder.findall(level)
        if len(nested) > 1:
            raise UsebioError(
                line(nested[1]), f"the file holds {len(nested)} <{level}>s: upload each {level.lower()} alone"
            )
        if nested and holder.find("BOARD") is None:
            holder = nested[0]
    return holder


def _result(traveller, board: int, vulnerable, matchpoints: bool, line, warnings) -> ResultRecord:
    ns, ew = text_of(traveller, "NS_PAIR_NUMBER"), text_of(traveller, "EW_PAIR_NUMBER")
    if ns is None or ew is None:
        raise UsebioError(line(traveller), "a <TRAVELLER_LINE> needs NS_PAIR_NUMBER and EW_PAIR_NUMBER")
    result = ResultRecord(ns, ew, lead=text_of(traveller, "LEAD"), line=line(traveller))
    ns_points, ew_points = (
        decimal_of(traveller, "NS_MATCH_POINTS", line),
        decimal_of(traveller, "EW_MATCH_POINTS", line),
    )
    if matchpoints:
        result.mp_ns, result.mp_ew = ns_points, ew_points
    else:
        result.imp_ns, result.imp_ew = ns_points, ew_points
    contract, score = text_of(traveller, "CONTRACT"), integer_of(traveller, "SCORE", line)
    if score is None and contract and contract.upper().startswith("A"):
        try:
            result.artificial = str(ArtificialScore.parse(contract))
        except ValueError as error:
            raise UsebioError(line(traveller.find("CONTRACT")), f"<CONTRACT> on board {board}: {error}")
        return result
    try:
        played = _played(traveller, board, line)
    except UsebioError as error:
        if warnings is None or score is None or not is_possible_score(score, *vulnerable):
            raise
        warnings.append(
            PbnWarning(error.line, f"{error.message}; the line is taken by its score {score} (<SCORE>)")
        )
        result.score_ns = score
        return result
    result.contract, result.declarer, result.tricks = played
    if result.contract is not None and (result.tricks is not None or result.contract == "Pass"):
        if result.contract != "Pass" and result.declarer is None:
            raise UsebioError(line(traveller), f"board {board}: {result.contract} needs a <PLAYED_BY>")
        made = contract_score(result.contract, result.declarer, result.tricks, *vulnerable)
        if score is not None and score != made:
            raise UsebioError(
                line(traveller.find("SCORE")),
                f"<SCORE> {score} on board {board} does not match {result.contract} by {result.declarer} "
                f"taking {result.tricks} tricks ({made})",
            )
        score = made
    if score is None:
        raise UsebioError(
            line(traveller),
            f"board {board}: a <TRAVELLER_LINE> needs a <SCORE> or a <CONTRACT> with <TRICKS>",
        )
    if not is_possible_score(score, *vulnerable):
        sides = {(False, False): "nobody", (True, False): "NS", (False, True): "EW"}.get(vulnerable, "all")
        raise UsebioError(
            line(traveller.find("SCORE")),
            f"<SCORE> {score} on board {board} is impossible: no contract scores that ({sides} vulnerable)",
        )
    result.score_ns = score
    return result


def _played(traveller, board: int, line) -> tuple[str | None, str | None, int | None]:
    """(contract, declarer, tricks) of a line; a UsebioError naming the element that cannot be read."""
    text = text_of(traveller, "CONTRACT")
    if text is None:
        return None, None, None
    where = line(traveller.find("CONTRACT"))
    try:
        contract = parse_contract(text)
    except ValueError as error:
        raise UsebioError(where, f"<CONTRACT> on board {board}: {error}")
    if contract.passed_out:
        return "Pass", None, None
    declarer = text_of(traveller, "PLAYED_BY")
    if declarer is not None and declarer.upper() not in SEATS:
        raise UsebioError(
            line(traveller.find("PLAYED_BY")),
            f"<PLAYED_BY> {declarer!r} on board {board} is not N, E, S or W",
        )
    tricks = integer_of(traveller, "TRICKS", line)
    if tricks is not None and not 0 <= tricks <= 13:
        raise UsebioError(
            line(traveller.find("TRICKS")), f"<TRICKS> {tricks} on board {board}: declarer takes 0 to 13"
        )
    return str(contract), declarer and declarer.upper(), tricks


def text_of(parent, name: str) -> str | None:
    child = parent.find(name)
    if child is None or child.text is None or not child.text.strip():
        return None
    return child.text.strip()


def integer_of(parent, name: str, line) -> int | None:
    value = text_of(parent, name)
    if value is None:
        return None
    if not re.fullmatch(r"[+-]?[0-9]{1,9}", value):
        raise UsebioError(line(parent.find(name)), f"<{name}> {value!r} is not a whole number")
    return int(value)


def decimal_of(parent, name: str, line) -> Decimal | None:
    value = text_of(parent, name)
    if value is None:
        return None
    try:
        number = Decimal(value)
    except InvalidOperation:
        number = None
    if number is None or not number.is_finite():
        raise UsebioError(line(parent.find(name)), f"<{name}> {value!r} is not a number")
    return number


def _date(event, line) -> str | None:
    value = text_of(event, "DATE")
    if value is None:
        return None
    match = _DATE.match(value)
    if not match:
        raise UsebioError(line(event.find("DATE")), f"<DATE> {value!r} is not DD/MM/YYYY")
    day, month, year = match.groups()
    return f"{year}.{month}.{day}"
