"""A match result as the parsers hand it to the upload service, and the error they raise.

PBN, CSV and the web form all produce a `ParsedResult`; the service checks it against the match and
writes it as one new version, so every input path is validated the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from .problems import ParseError, Problem, gettext_noop

# No match has more boards; keeps a hostile number out of the database column.
MAX_BOARD = 999


def board_number(text: str) -> int | None:
    """The board number a cell or tag holds, or None when it is not one (isdecimal: int() reads it)."""
    text = text.strip()
    if not text.isdecimal() or not 1 <= int(text) <= MAX_BOARD:
        return None
    return int(text)


class UploadError(ValueError):
    """Refused input, in the reader's language (the services raise it; the parsers' `ParseError` is
    translated into it); each message names the line or the board, and nothing has been written."""

    def __init__(self, messages):
        self.messages = [str(m) for m in ([messages] if isinstance(messages, str) else messages)]
        super().__init__("; ".join(self.messages))


@dataclass(frozen=True)
class ParsedBoard:
    board: int
    open_ns: int | None
    closed_ns: int | None
    open_contract: str = ""
    closed_contract: str = ""
    adjusted_imps: Decimal | None = None


@dataclass(frozen=True)
class ParsedResult:
    boards: tuple[ParsedBoard, ...] = ()
    imps: tuple[Decimal, Decimal] | None = None  # IMP-only result (home, away)
    boards_played: int | None = None

    @property
    def imps_only(self) -> bool:
        return self.imps is not None


class RoomResults:
    """Collects (board, room) results from a file, refusing duplicates and boards with one room only."""

    def __init__(self):
        self.found: dict[int, dict[str, tuple[int, str, int]]] = {}
        self.errors: list[Problem] = []

    def add(self, board: int, room: str, score: int, shown: str, line: int) -> None:
        if room in self.found.get(board, {}):
            self.errors.append(
                Problem(
                    gettext_noop(
                        "line %(line)s: board %(board)s, %(room)s appears twice (first at line %(first)s)"
                    ),
                    line=line,
                    board=board,
                    room=room_label(room),
                    first=self.found[board][room][2],
                )
            )
            return
        self.found.setdefault(board, {})[room] = (score, shown, line)

    def result(self, empty_message: Problem) -> ParsedResult:
        """The boards found; `ParseError` with every problem, or with `empty_message` when there are none."""
        for board, rooms in sorted(self.found.items()):
            for room in ("open", "closed"):
                if room not in rooms:
                    line = next(iter(rooms.values()))[2]
                    self.errors.append(
                        Problem(
                            gettext_noop("line %(line)s: board %(board)s has no result from the %(room)s"),
                            line=line,
                            board=board,
                            room=room_label(room),
                        )
                    )
        if self.errors:
            raise ParseError(self.errors)
        if not self.found:
            raise ParseError(empty_message)
        return ParsedResult(
            tuple(
                ParsedBoard(board, r["open"][0], r["closed"][0], r["open"][1], r["closed"][1])
                for board, r in sorted(self.found.items())
            )
        )


def room_label(room: str) -> Problem:
    return Problem(gettext_noop("open room")) if room == "open" else Problem(gettext_noop("closed room"))


def parsed_to_json(parsed: ParsedResult) -> dict:
    """A parsed result as JSON-ready data (the session keeps an upload waiting for confirmation)."""

    def text(value):
        return None if value is None else str(value)

    return {
        "boards": [
            [b.board, b.open_ns, b.closed_ns, b.open_contract, b.closed_contract, text(b.adjusted_imps)]
            for b in parsed.boards
        ],
        "imps": [str(v) for v in parsed.imps] if parsed.imps else None,
        "boards_played": parsed.boards_played,
    }


def parsed_from_json(data: dict) -> ParsedResult:
    return ParsedResult(
        tuple(
            ParsedBoard(n, o, c, oc, cc, None if adj is None else Decimal(adj))
            for n, o, c, oc, cc, adj in data["boards"]
        ),
        tuple(Decimal(v) for v in data["imps"]) if data["imps"] else None,
        data["boards_played"],
    )
