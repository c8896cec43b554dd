"""Write a scored pairs session, or a team event's matches, as USEBIO 1.2 XML, the English clubs' results
format.

Built with xml.etree, so names and event titles are escaped by the serializer, never by hand. The pairs
file reads back through `usebio_reader.read_usebio`, the team file through `teams.engine.usebio_reader`.
"""

import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from bridge.engine.pbn.records import ResultRecord, SessionRecord


def _event_type(scoring: str | None) -> str:
    words = (scoring or "MP").upper()
    if "BUTLER" in words:
        return "BUTLER_PAIRS"
    if "CROSS" in words:
        return "CROSS_IMP"
    return "MP_PAIRS"


def _usebio_date(pbn_date: str | None) -> str | None:
    """PBN '2024.05.01' -> USEBIO '01/05/2024'; partial or unknown dates are left out."""
    if not pbn_date:
        return None
    parts = pbn_date.split(".")
    if len(parts) != 3 or not all(part.isdigit() for part in parts):
        return None
    year, month, day = parts
    return f"{day}/{month}/{year}"


def _add(parent: ET.Element, name: str, value: object) -> None:
    if value is None:
        return
    if isinstance(value, Decimal):
        value = format(value, "f")
    ET.SubElement(parent, name).text = str(value)


def _players(names: str | None) -> list[str]:
    # PBN keeps a pair's names as "A;B" (or one partnership name); USEBIO wants one PLAYER each.
    if not names:
        return []
    return [name.strip() for name in names.replace(" - ", ";").split(";") if name.strip()]


def write_usebio(
    session: SessionRecord,
    *,
    club_name: str | None = None,
    club_id: str | None = None,
    player_ids: Mapping[str, Sequence[str | None]] | None = None,
    program: str = "Versenyportál",
) -> str:
    """USEBIO 1.2 XML text for a pairs session; `player_ids` maps a pair to its players' federation ids."""
    player_ids = player_ids or {}
    root = ET.Element("USEBIO", Version="1.2")
    if club_name or club_id:
        club = ET.SubElement(root, "CLUB")
        _add(club, "CLUB_NAME", club_name)
        _add(club, "CLUB_ID_NUMBER", club_id)

    event = ET.SubElement(root, "EVENT", EVENT_TYPE=_event_type(session.scoring))
    _add(event, "PROGRAM_NAME", program)
    _add(event, "EVENT_DESCRIPTION", session.event)
    _add(event, "DATE", _usebio_date(session.date))
    _add(event, "BOARDS_PLAYED", len(session.boards))
    # 2: two winners (NS and EW of a Mitchell); 1: one field.
    two_fields = bool(session.totals) and all(total.direction for total in session.totals)
    _add(event, "WINNER_TYPE", 2 if two_fields else 1)

    participants = ET.SubElement(event, "PARTICIPANTS")
    for total in session.totals:
        pair = ET.SubElement(participants, "PAIR")
        ids = list(player_ids.get(total.pair, ()))
        for index, name in enumerate(_players(total.names)):
            player = ET.SubElement(pair, "PLAYER")
            _add(player, "PLAYER_NAME", name)
            _add(player, "NATIONAL_ID_NUMBER", ids[index] if index < len(ids) else None)
        _add(pair, "PAIR_NUMBER", total.pair)
        _add(pair, "DIRECTION", total.direction)
        _add(pair, "BOARDS_PLAYED", total.boards)
        _add(pair, "PLACE", total.rank)
        _add(pair, "TOTAL_SCORE", total.total_mp if total.total_mp is not None else total.total_imp)
        _add(pair, "PERCENTAGE", total.percentage)

    for board in session.boards:
        element = ET.SubElement(event, "BOARD")
        _add(element, "BOARD_NUMBER", board.number)
        for result in board.results:
            _traveller_line(element, result)

    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def _traveller_line(board: ET.Element, result: ResultRecord) -> None:
    line = ET.SubElement(board, "TRAVELLER_LINE")
    _add(line, "NS_PAIR_NUMBER", result.ns)
    _add(line, "EW_PAIR_NUMBER", result.ew)
    if result.artificial:
        _add(line, "CONTRACT", result.artificial)  # "A+/A-": the traveller shows why there is no score
    else:
        _add(line, "CONTRACT", result.contract)
        _add(line, "PLAYED_BY", result.declarer)
        _add(line, "LEAD", result.lead)
        _add(line, "TRICKS", result.tricks)
        _add(line, "SCORE", result.score_ns)
    # The per-board points of the event's own kind: matchpoints, or IMPs in a Butler/cross-IMP event.
    _add(line, "NS_MATCH_POINTS", result.mp_ns if result.mp_ns is not None else result.imp_ns)
    _add(line, "EW_MATCH_POINTS", result.mp_ew if result.mp_ew is not None else result.imp_ew)


# --- team events ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TeamLine:
    """One table of a team board, from the match's TEAM: where it sat (NS / EW) and the NS score."""

    direction: str
    score: int
    contract: str | None = None
    declarer: str | None = None
    tricks: int | None = None


@dataclass(frozen=True)
class TeamBoard:
    number: int
    imps: int  # the match's TEAM's net IMPs
    lines: tuple[TeamLine, ...]


@dataclass(frozen=True)
class TeamMatch:
    round: int
    team: int
    opposing: int
    boards: tuple[TeamBoard, ...]
    team_score: Decimal | None = None  # victory points, when the match has them
    opposing_score: Decimal | None = None


@dataclass(frozen=True)
class TeamEntry:
    number: int
    name: str
    players: tuple[str, ...] = ()
    place: str | None = None
    total: Decimal | None = None
    player_ids: tuple[str | None, ...] = ()


def write_team_usebio(
    teams: Sequence[TeamEntry],
    matches: Sequence[TeamMatch],
    *,
    event_type: str = "SWISS_TEAMS",
    title: str | None = None,
    date: str | None = None,
    club_name: str | None = None,
    program: str = "Versenyportál",
) -> str:
    """USEBIO 1.2 XML text for a team event: its TEAMs (TEAM_ID, TEAM_NAME, players, place) and one MATCH
    per match played, each BOARD with the TEAM's IMPS and a TRAVELLER_LINE per table (DIRECTION: where
    the TEAM sat). `date` in PBN form ('2026.03.07')."""
    root = ET.Element("USEBIO", Version="1.2")
    if club_name:
        _add(ET.SubElement(root, "CLUB"), "CLUB_NAME", club_name)
    event = ET.SubElement(root, "EVENT", EVENT_TYPE=event_type)
    _add(event, "PROGRAM_NAME", program)
    _add(event, "EVENT_DESCRIPTION", title)
    _add(event, "DATE", _usebio_date(date))
    _add(event, "BOARD_SCORING_METHOD", "IMPS")
    _add(event, "WINNER_TYPE", 1)

    participants = ET.SubElement(event, "PARTICIPANTS")
    for entry in teams:
        team = ET.SubElement(participants, "TEAM", TEAM_ID=str(entry.number), TEAM_NAME=entry.name)
        _add(team, "PLACE", entry.place)
        _add(team, "TOTAL_SCORE", entry.total)
        ids = entry.player_ids
        for index, name in enumerate(entry.players):
            player = ET.SubElement(team, "PLAYER")
            _add(player, "PLAYER_NAME", name)
            _add(player, "NATIONAL_ID_NUMBER", ids[index] if index < len(ids) else None)

    for match in matches:
        element = ET.SubElement(event, "MATCH")
        _add(element, "ROUND_NUMBER", match.round)
        _add(element, "TEAM", match.team)
        _add(element, "OPPOSING_TEAM", match.opposing)
        numbers = [board.number for board in match.boards]
        if numbers and sorted(numbers) == list(range(min(numbers), max(numbers) + 1)):
            _add(element, "START_BOARD_NUMBER", min(numbers))
            _add(element, "END_BOARD_NUMBER", max(numbers))
        _add(element, "TEAM_SCORE", match.team_score)
        _add(element, "OPPOSING_TEAM_SCORE", match.opposing_score)
        for board in match.boards:
            board_element = ET.SubElement(element, "BOARD")
            _add(board_element, "BOARD_NUMBER", board.number)
            _add(board_element, "IMPS", board.imps)
            for line in board.lines:
                traveller = ET.SubElement(board_element, "TRAVELLER_LINE")
                _add(traveller, "DIRECTION", line.direction)
                _add(traveller, "CONTRACT", line.contract)
                _add(traveller, "PLAYED_BY", line.declarer)
                _add(traveller, "TRICKS", line.tricks)
                _add(traveller, "SCORE", line.score)

    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
