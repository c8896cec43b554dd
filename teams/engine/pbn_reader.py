"""A team match in PBN: one game per board and room, told apart by the Room tag (PBN 2.1: Open, Closed).

Each game gives the room's result by Contract, Declarer and Result (tricks) tags, by a Score tag
("NS 420", "EW 100" or a plain NS score), or both, which must then agree. Lexing is the bridge app's
PBN reader, so its refusals keep their line numbers too.
"""

from bridge.engine.pbn.games import PbnError, read_games

from .parsed import ParsedResult, RoomResults, board_number
from .problems import ParseError, Problem, gettext_noop, problem_of
from .scores import room_score

ROOMS = {"open": "open", "closed": "closed", "o": "open", "c": "closed"}


def _score_tag(value: str | None) -> str | None:
    if value is None or value.strip() in ("", "?", "-"):
        return None
    side, _sep, number = value.strip().partition(" ")
    if side.upper() == "NS":
        return number.strip()
    if side.upper() == "EW":
        number = number.strip()
        return number[1:] if number.startswith("-") else f"-{number}"
    return value.strip()


def parse_pbn(text: str) -> ParsedResult:
    """The match's boards in a decoded PBN file; `ParseError` naming every bad game."""
    try:
        games = read_games(text)
    except PbnError as error:
        raise ParseError(
            Problem(gettext_noop("line %(line)s: %(message)s"), line=error.line, message=error.message)
        )
    rooms = RoomResults()
    errors = rooms.errors
    for game in games:
        board_tag = game.tags.get("board")
        if board_tag is None:
            continue
        line = board_tag.line
        board = board_number(board_tag.value)
        if board is None:
            errors.append(
                Problem(
                    gettext_noop("line %(line)s: %(board)r is not a board number"),
                    line=line,
                    board=board_tag.value,
                )
            )
            continue
        room = ROOMS.get((game.value("room") or "").strip().lower())
        if room is None:
            errors.append(
                Problem(
                    gettext_noop("line %(line)s (board %(board)s): the Room tag must be Open or Closed"),
                    line=line,
                    board=board,
                )
            )
            continue
        try:
            score, shown = room_score(
                board,
                score=_score_tag(game.value("score")),
                contract=_blank(game.value("contract")),
                declarer=game.value("declarer"),
                result=game.value("result"),
                vulnerable=_blank(game.value("vulnerable")),
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
    return rooms.result(Problem(gettext_noop("the file holds no board with a Room tag")))


def _blank(value):
    return None if value is None or value.strip() in ("", "?", "-") else value
