"""USEBIO 1.2 team files for tests, written by hand from the format's element names (no real public team
file was found to ship): EVENT EVENT_TYPE="SWISS_TEAMS", PARTICIPANTS of TEAM (TEAM_ID, TEAM_NAME, PLAYERs),
MATCH (ROUND_NUMBER, TEAM, OPPOSING_TEAM, START_BOARD_NUMBER, END_BOARD_NUMBER) of BOARDs (BOARD_NUMBER,
IMPS) with a TRAVELLER_LINE per table (DIRECTION of the match's TEAM, CONTRACT, PLAYED_BY, TRICKS, SCORE),
the names the USEBIO 1.2 writers of club scoring programs use.

Deliberately independent of the portal's own writer (`bridge.engine.pbn.usebio.write_team_usebio`), so a
reader test does not read back only what the portal writes.
"""

from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr


@dataclass
class Line:
    direction: str  # where the match's TEAM sat
    contract: str | None = None
    declarer: str | None = None
    tricks: int | None = None
    score: int | None = None


@dataclass
class Board:
    number: int
    lines: list[Line]
    imps: int | None = None


@dataclass
class Match:
    round: int
    team: str
    opposing: str
    boards: list[Board]
    start: int | None = None
    end: int | None = None


@dataclass
class Team:
    team_id: str
    name: str | None = None
    players: list[str] = field(default_factory=lambda: ["Első Játékos", "Második Játékos"])


def _element(name: str, value) -> str:
    return "" if value is None else f"<{name}>{escape(str(value))}</{name}>"


def team_file(
    teams: list[Team],
    matches: list[Match],
    *,
    event_type: str = "SWISS_TEAMS",
    nested: bool = False,
    prolog: str = '<?xml version="1.0" encoding="UTF-8"?>',
) -> str:
    """The file's text, one element a line (the reader's errors name these lines)."""
    out = [prolog, '<USEBIO Version="1.2">', f"<EVENT EVENT_TYPE={quoteattr(event_type)}>"]
    out += [
        "<PROGRAM_NAME>Kézi minta</PROGRAM_NAME>",
        "<EVENT_DESCRIPTION>Csapat &amp; minta</EVENT_DESCRIPTION>",
    ]
    out += ["<DATE>07/03/2026</DATE>", "<MATCH_SCORING_METHOD>VPS</MATCH_SCORING_METHOD>"]
    if nested:
        out += ['<SESSION SESSION_ID="1">', '<SECTION SECTION_ID="A">']
    out.append("<PARTICIPANTS>")
    for team in teams:
        name = f" TEAM_NAME={quoteattr(team.name)}" if team.name is not None else ""
        out.append(f"<TEAM TEAM_ID={quoteattr(team.team_id)}{name}>")
        out += [f"<PLAYER>{_element('PLAYER_NAME', p)}</PLAYER>" for p in team.players]
        out.append("</TEAM>")
    out.append("</PARTICIPANTS>")
    for match in matches:
        out += ["<MATCH>", _element("ROUND_NUMBER", match.round)]
        out += [_element("TEAM", match.team), _element("OPPOSING_TEAM", match.opposing)]
        if match.start is not None:
            out += [_element("START_BOARD_NUMBER", match.start), _element("END_BOARD_NUMBER", match.end)]
        for board in match.boards:
            out += ["<BOARD>", _element("BOARD_NUMBER", board.number)]
            if board.imps is not None:
                out.append(_element("IMPS", board.imps))
            for line in board.lines:
                out.append("<TRAVELLER_LINE>")
                out += [
                    element
                    for element in (
                        _element("DIRECTION", line.direction),
                        _element("CONTRACT", line.contract),
                        _element("PLAYED_BY", line.declarer),
                        _element("TRICKS", line.tricks),
                        _element("SCORE", line.score),
                    )
                    if element
                ]
                out.append("</TRAVELLER_LINE>")
            out.append("</BOARD>")
        out.append("</MATCH>")
    if nested:
        out += ["</SECTION>", "</SESSION>"]
    out += ["</EVENT>", "</USEBIO>", ""]
    return "\n".join(out)


def level_match(round_: int, team: str, opposing: str, boards=range(1, 7)) -> Match:
    """Every board 4S by North making ten tricks at both tables (a flat match), with its range."""
    return Match(
        round_,
        team,
        opposing,
        [Board(b, [Line("NS", "4S", "N", 10), Line("EW", "4S", "N", 10)], imps=0) for b in boards],
        start=min(boards),
        end=max(boards),
    )
