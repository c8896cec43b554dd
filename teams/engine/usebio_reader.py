"""A team match in USEBIO 1.2 XML: one match of a team event's file, as the PBN and CSV readers give it.

The XML is read by the bridge pairs reader's expat parser (`bridge.engine.pbn.usebio_reader.parse_tree`:
every DOCTYPE and entity declaration refused, each element's line kept). The team file's elements, as
USEBIO 1.2 programs write them:

    <EVENT EVENT_TYPE="SWISS_TEAMS">            (or TEAMS_OF_FOUR, TEAMS, KO)
      [<SESSION><SECTION>]                      (one of each at most, as for pairs)
        <PARTICIPANTS>
          <TEAM TEAM_ID="3" TEAM_NAME="Kovács"> <PLAYER><PLAYER_NAME>…</PLAYER_NAME></PLAYER>… </TEAM>
        <MATCH>
          <ROUND_NUMBER>, <TEAM> and <OPPOSING_TEAM> (TEAM_IDs), <START_BOARD_NUMBER>, <END_BOARD_NUMBER>
          <BOARD> <BOARD_NUMBER>, <IMPS> (the TEAM's), and one <TRAVELLER_LINE> per table:
            <DIRECTION> (where the match's TEAM sat: NS or EW), <CONTRACT>, <PLAYED_BY>, <TRICKS>, <SCORE>

A TEAM's number and name may also come as <TEAM_NUMBER> / <TEAM_NAME> child elements. The match read is
the one between the portal match's two teams (by name, or by number when the file names none); the room a
line belongs to follows from DIRECTION (the portal's home team sits NS in the open room). Every line is
checked as a PBN game is (`room_score`: the contract and tricks must give the SCORE, the score must be
possible), the IMPS given must be the rooms' difference, and the boards must be the match's whole range.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bridge.engine.pbn.usebio_reader import UsebioError, event_of, holder_of, integer_of, text_of
from bridge.engine.scoring.imps import imps as imp_scale

from .parsed import ParsedResult, RoomResults, board_number
from .problems import ParseError, Problem, gettext_noop, problem_of
from .scores import room_score

TEAM_EVENTS = ("SWISS_TEAMS", "TEAMS_OF_FOUR", "TEAMS", "KO")


@dataclass(frozen=True)
class TeamRef:
    """A team of the portal's event as the file may name it: start number and name."""

    number: int
    name: str


def fold(name: str) -> str:
    """A team name compared without case and extra spaces."""
    return re.sub(r"\s+", " ", name).strip().casefold()


def _problem(msgid: str, **params) -> Problem:
    return Problem(msgid, **params)


def _refuse(msgid: str, **params) -> ParseError:
    return ParseError(_problem(msgid, **params))


def parse_usebio(text: str, home: TeamRef, away: TeamRef, *, round_number: int | None = None, teams=()):
    """The boards of the match between `home` and `away` in a USEBIO team file; `ParseError` naming the
    line and the element of every problem. `teams`: every team of the event (a file's TEAM must be one)."""
    try:
        event, line = event_of(text)
    except UsebioError as error:
        raise _refuse(gettext_noop("line %(line)s: %(message)s"), line=error.line, message=error.message)
    kind = event.get("EVENT_TYPE", "")
    if kind not in TEAM_EVENTS:
        raise _refuse(
            gettext_noop("line %(line)s: <EVENT> EVENT_TYPE %(kind)r is not a team event"),
            line=line(event),
            kind=kind,
        )
    try:
        holder = holder_of(event, line)
        numbers = _participants(holder, line, teams or (home, away))
        match = _the_match(holder, line, numbers, home, away, round_number)
        return _boards(match, line, primary_is_home=numbers[_team_of(match, "TEAM", line)] == home.number)
    except UsebioError as error:  # a number element that is not one (ROUND_NUMBER, ...)
        raise _refuse(gettext_noop("line %(line)s: %(message)s"), line=error.line, message=error.message)


def _participants(holder, line, teams) -> dict[str, int]:
    """The file's TEAM_ID -> the start number of the event's team it is."""
    by_name = {fold(t.name): t.number for t in teams}
    by_number = {t.number for t in teams}
    participants = holder.find("PARTICIPANTS")
    found: dict[str, int] = {}
    for team in participants.findall("TEAM") if participants is not None else ():
        number = team.get("TEAM_ID") or text_of(team, "TEAM_NUMBER")
        name = team.get("TEAM_NAME") or text_of(team, "TEAM_NAME")
        if not number:
            raise _refuse(gettext_noop("line %(line)s: a <TEAM> needs a TEAM_ID"), line=line(team))
        if name:
            portal = by_name.get(fold(name))
        else:
            portal = int(number) if number.isdecimal() and int(number) in by_number else None
        if portal is None:
            raise _refuse(
                gettext_noop(
                    "line %(line)s: <TEAM> %(name)r (TEAM_ID %(number)s) is not a team of this event"
                ),
                line=line(team),
                name=name or "",
                number=number,
            )
        found[number.strip()] = portal
    if not found:
        raise _refuse(gettext_noop("the file has no <PARTICIPANTS> with <TEAM>s"))
    return found


def _team_of(match, element: str, line) -> str:
    value = text_of(match, element)
    if value is None:
        raise _refuse(
            gettext_noop("line %(line)s: a <MATCH> needs <%(element)s>"), line=line(match), element=element
        )
    return value


def _the_match(holder, line, numbers, home: TeamRef, away: TeamRef, round_number):
    wanted = {home.number, away.number}
    candidates = []
    for match in holder.findall("MATCH"):
        sides = []
        for element in ("TEAM", "OPPOSING_TEAM"):
            number = _team_of(match, element, line)
            if number not in numbers:
                raise _refuse(
                    gettext_noop(
                        "line %(line)s: <%(element)s> %(number)s of the <MATCH> is not a <TEAM> of the "
                        "PARTICIPANTS"
                    ),
                    line=line(match.find(element)),
                    element=element,
                    number=number,
                )
            sides.append(numbers[number])
        if set(sides) == wanted and len(sides) == 2:
            candidates.append(match)
    if len(candidates) > 1 and round_number is not None:
        candidates = [
            m for m in candidates if integer_of(m, "ROUND_NUMBER", line) == round_number
        ] or candidates
    if not candidates:
        raise _refuse(
            gettext_noop("the file holds no <MATCH> between %(home)s and %(away)s"),
            home=home.name,
            away=away.name,
        )
    if len(candidates) > 1:
        raise _refuse(
            gettext_noop("the file holds %(n)s <MATCH>es between %(home)s and %(away)s (lines %(lines)s)"),
            n=len(candidates),
            home=home.name,
            away=away.name,
            lines=", ".join(str(line(m)) for m in candidates),
        )
    return candidates[0]


def _boards(match, line, *, primary_is_home: bool) -> ParsedResult:
    rooms = RoomResults()
    errors = rooms.errors
    claimed: dict[int, tuple[int, int]] = {}  # board -> (IMPS given, line)
    for board in match.findall("BOARD"):
        where = line(board)
        number = board_number(text_of(board, "BOARD_NUMBER") or "")
        if number is None:
            errors.append(
                _problem(
                    gettext_noop("line %(line)s: <BOARD_NUMBER> %(board)r is not a board number"),
                    line=where,
                    board=text_of(board, "BOARD_NUMBER") or "",
                )
            )
            continue
        try:
            given = integer_of(board, "IMPS", line)
        except UsebioError as error:
            errors.append(
                _problem(gettext_noop("line %(line)s: %(message)s"), line=error.line, message=error.message)
            )
            continue
        if given is not None:
            claimed[number] = (given, line(board.find("IMPS")))
        for traveller in board.findall("TRAVELLER_LINE"):
            _line(traveller, number, line, rooms, primary_is_home)
    _check_range(match, line, rooms, errors)
    parsed = rooms.result(
        _problem(gettext_noop("line %(line)s: the <MATCH> has no <BOARD> with results"), line=line(match))
    )
    _check_imps(parsed, claimed, primary_is_home)
    return parsed


def _line(traveller, board: int, line, rooms: RoomResults, primary_is_home: bool) -> None:
    where = line(traveller)
    direction = (text_of(traveller, "DIRECTION") or "").upper()
    if direction not in ("NS", "EW"):
        rooms.errors.append(
            _problem(
                gettext_noop("line %(line)s (board %(board)s): <DIRECTION> must be NS or EW, not %(value)r"),
                line=where,
                board=board,
                value=text_of(traveller, "DIRECTION") or "",
            )
        )
        return
    # The home team sits NS in the open room: the match's TEAM's NS line is the open room when it is home.
    room = "open" if (direction == "NS") == primary_is_home else "closed"
    try:
        score, shown = room_score(
            board,
            score=text_of(traveller, "SCORE"),
            contract=text_of(traveller, "CONTRACT"),
            declarer=text_of(traveller, "PLAYED_BY"),
            result=text_of(traveller, "TRICKS"),
        )
    except ValueError as error:
        rooms.errors.append(
            _problem(
                gettext_noop("line %(line)s (board %(board)s, <TRAVELLER_LINE>): %(message)s"),
                line=where,
                board=board,
                message=problem_of(error),
            )
        )
        return
    rooms.add(board, room, score, shown, where)


def _check_range(match, line, rooms: RoomResults, errors: list) -> None:
    """Every board from START_BOARD_NUMBER to END_BOARD_NUMBER has its <BOARD>, and no other one."""
    try:
        start, end = (
            integer_of(match, "START_BOARD_NUMBER", line),
            integer_of(match, "END_BOARD_NUMBER", line),
        )
    except UsebioError as error:
        errors.append(
            _problem(gettext_noop("line %(line)s: %(message)s"), line=error.line, message=error.message)
        )
        return
    if start is None or end is None:
        return
    for number in range(start, end + 1):
        if number not in rooms.found:
            errors.append(
                _problem(
                    gettext_noop(
                        "line %(line)s: board %(board)s has no <BOARD> (the <MATCH> covers %(start)s–%(end)s)"
                    ),
                    line=line(match),
                    board=number,
                    start=start,
                    end=end,
                )
            )
    for number, found in sorted(rooms.found.items()):
        if not start <= number <= end:
            errors.append(
                _problem(
                    gettext_noop("line %(line)s: board %(board)s is outside the <MATCH>'s %(start)s–%(end)s"),
                    line=min(entry[2] for entry in found.values()),
                    board=number,
                    start=start,
                    end=end,
                )
            )


def _check_imps(parsed: ParsedResult, claimed: dict, primary_is_home: bool) -> None:
    errors = []
    for board in parsed.boards:
        if board.board not in claimed:
            continue
        home = imp_scale(board.open_ns - board.closed_ns)
        expected = home if primary_is_home else -home
        given, where = claimed[board.board]
        if given != expected:
            errors.append(
                _problem(
                    gettext_noop(
                        "line %(line)s: <IMPS> %(given)s on board %(board)s; the two rooms give %(expected)s"
                    ),
                    line=where,
                    given=given,
                    board=board.board,
                    expected=expected,
                )
            )
    if errors:
        raise ParseError(errors)
