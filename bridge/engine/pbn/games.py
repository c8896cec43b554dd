"""Read PBN 2.1 files into games: tags and tables, each tag and table row with its line number.

Lexing (metadata lines, comments, tag pairs, table column names) is endplay's PBN decoder; this module
keeps the line of every tag and table row and reads table rows with quoted names intact. What the games
mean (a scored session's results) is `bridge.engine.pbn.reader`'s. Every refusal is a `PbnError` carrying
the line and the reason; `PbnWarning` a line a lenient reader took anyway.
"""

import re
from dataclasses import dataclass, field

from endplay.parsers.pbn import RE as PBN_SYNTAX
from endplay.parsers.pbn import PBNDecodeError, PBNDecoder


@dataclass(frozen=True)
class PbnWarning:
    """Something a lenient read took on trust (a line taken by its score), with the line it is about."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


class PbnError(ValueError):
    """A PBN file the scorer refuses, with the (1-based) line where the problem is."""

    def __init__(self, line: int, message: str):
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


@dataclass
class Column:
    name: str
    ordering: str | None = None  # "+" descending, "-" ascending
    width: int | None = None
    alignment: str | None = None  # "L" or "R"


@dataclass
class TableRow:
    line: int
    values: dict[str, str]  # column name -> element, quotes removed
    # The same by lower-case column name, elements stripped: a result row's dozen cells are each looked up
    # by name, and a whole session's file has thousands of rows.
    folded: dict[str, str] | None = field(default=None, repr=False, compare=False)

    def __post_init__(self):
        if self.folded is None:
            self.folded = {}
            for name, value in self.values.items():
                self.folded.setdefault(name.lower(), value.strip())  # the first of two same-named columns


@dataclass
class Tag:
    name: str
    value: str
    line: int
    columns: list[Column] | None = None  # set for tables (ScoreTable, TotalScoreTable, ...)
    rows: list[TableRow] = field(default_factory=list)
    _names: tuple | None = field(default=None, init=False, repr=False, compare=False)
    tokens: list[tuple[int, list[str]]] = field(default_factory=list)  # section data of non-table sections

    def names(self) -> tuple[list[str], list[tuple[int, str]]]:
        """The columns' names, and (index, lower-case name) of the first column of each lower-case name:
        worked out once per table, not once per row."""
        if self._names is None:
            names = [c.name for c in self.columns or ()]
            firsts: dict[str, int] = {}
            for index, name in enumerate(names):
                firsts.setdefault(name.lower(), index)
            self._names = (names, [(index, name) for name, index in firsts.items()])
        return self._names


@dataclass
class Game:
    line: int
    tags: dict[str, Tag]  # keyed by lower-case tag name

    def value(self, name: str) -> str | None:
        tag = self.tags.get(name.lower())
        return tag.value if tag else None


_TAG_PAIR = re.compile(r'\[(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]')

# A section element: a quoted string token (with \" and \\ escapes) or a run of non-blank characters.
_ELEMENT = re.compile(r'"((?:[^"\\]|\\.)*)"|(\S+)')


def _unescape(text: str) -> str:
    # Only \" and \\ are escapes; a table's column names keep their "\6R" width marks.
    return re.sub(r'\\(["\\])', r"\1", text)


def _elements(line: str, lineno: int) -> list[str]:
    if '"' not in line and ";" not in line:  # a row of bare tokens (the usual): what the pattern finds
        return line.split()
    elements = []
    for match in _ELEMENT.finditer(line):
        quoted, plain = match.groups()
        if plain is not None and plain.startswith(";"):
            break  # ';' cannot appear in an element, so the rest of the line is commentary
        if plain is not None and '"' in plain:
            raise PbnError(lineno, f"unterminated quoted string in {line!r}")
        elements.append(_unescape(quoted) if quoted is not None else plain)
    return elements


class _Decoder(PBNDecoder):
    """endplay's state machine, producing `Game`s with line numbers instead of endplay Boards."""

    def clear(self) -> None:
        super().clear()
        self.games: list[Game] = []
        self.game_line = 0
        self.comment_line = 0
        self.previous: dict[str, Tag] = {}
        self.tag_objects: dict[str, Tag] = {}

    def _parse_none(self, curline: str) -> bool:
        match = PBN_SYNTAX.tagpair.match(curline)
        if curline.startswith("[") and not match:
            raise PbnError(self.lineno, f'malformed tag pair {curline!r}: expected [Name "value"]')
        if match and match.group(1).lower() in self.tag_objects:
            raise PbnError(self.lineno, f"tag {match.group(1)} appears twice in one game")
        try:
            consumed = super()._parse_none(curline)
        except PBNDecodeError as error:
            raise PbnError(error.lineno, f"expected a tag pair, a comment or a blank line, not {curline!r}")
        if match and match.group(1) in self.curtags:
            # endplay's pattern stops a value at the first '"]', even an escaped one; read it properly.
            strict = _TAG_PAIR.match(curline)
            self._add_tag(match.group(1), _unescape(strict.group(2) if strict else match.group(2)))
        if self.state == PBNDecoder.State.COMMENTBLOCK:
            self.comment_line = self.lineno
        return consumed

    def _add_tag(self, name: str, value: str) -> None:
        if not self.tag_objects:
            self.game_line = self.lineno
        raw = self.curtags[name]
        columns = None
        if isinstance(raw.get("value"), list):  # endplay parsed a table's column names
            columns = [
                Column(c)
                if isinstance(c, str)
                else Column(c["name"], c["ordering"], _width(c), c["alignment"])
                for c in raw["value"]
            ]
        if value == "#":  # PBN: the same value as in the previous game
            earlier = self.previous.get(name.lower())
            if earlier is None:
                raise PbnError(self.lineno, f'tag {name} is "#" but no earlier game has it')
            value, columns = earlier.value, earlier.columns
        self.tag_objects[name.lower()] = Tag(name, value, self.lineno, columns)

    def _parse_conttable(self, curline: str) -> bool:
        # A table row is the commonest line of a session's file: the tag-pair pattern only for a "[".
        if not curline or (curline[0] == "[" and PBN_SYNTAX.tagpair.match(curline)):
            self.state = PBNDecoder.State.NONE
            return True
        if curline[0] == "[":
            raise PbnError(self.lineno, f'malformed tag pair {curline!r}: expected [Name "value"]')
        if curline[0] == "{":
            if curline.endswith("}"):
                return False
            raise PbnError(self.lineno, "a { comment inside a table must close on the same line")
        tag = self.tag_objects[self.curtag.lower()]
        elements = _elements(curline, self.lineno)
        if tag.columns is None:
            tag.tokens.append((self.lineno, elements))
            return False
        width = len(tag.columns)
        if len(elements) % width:
            names = ";".join(column.name for column in tag.columns)
            raise PbnError(
                self.lineno,
                f"{tag.name} row has {len(elements)} values but the table has {width} columns ({names})",
            )
        names, firsts = tag.names()
        bare = '"' not in curline  # split on blanks: no element holds one to strip
        for start in range(0, len(elements), width):
            row = elements[start : start + width] if start or len(elements) != width else elements
            if bare:
                folded = {name: row[index] for index, name in firsts}
            else:
                folded = {name: row[index].strip() for index, name in firsts}
            tag.rows.append(TableRow(self.lineno, dict(zip(names, row, strict=True)), folded))
        return False

    def _tags_to_board(self) -> Game | None:
        if not self.tag_objects:
            return None
        game = Game(self.game_line, self.tag_objects)
        self.games.append(game)
        self.previous, self.tag_objects = self.tag_objects, {}
        return game


def _width(column: dict) -> int | None:
    return int(column["minwidth"]) if column.get("minwidth") else None


def read_games(text: str) -> list[Game]:
    """Split PBN text into games of tags; tables come with their rows, each with its line number."""
    decoder = _Decoder()
    try:
        decoder.parse_file(_Lines(text))
    except PbnError:
        raise
    except (ValueError, RuntimeError, KeyError, IndexError) as error:
        raise PbnError(decoder.lineno, str(error) or error.__class__.__name__)
    if decoder.state == PBNDecoder.State.COMMENTBLOCK:
        raise PbnError(decoder.comment_line, "a { comment opened here is never closed")
    return decoder.games


class _Lines:
    """The file-like object endplay reads; splitting only on newlines keeps line numbers exact."""

    def __init__(self, text: str):
        self.text = text

    def readlines(self) -> list[str]:
        return self.text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
