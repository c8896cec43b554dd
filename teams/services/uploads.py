"""The one way a match's result gets in, from the upload page and the API alike.

A file (PBN, CSV or USEBIO XML) is read with `results.upload_input` (size limit, Hungarian decodings), parsed
by the engine (`teams.engine.pbn_reader`, `csv_reader`, `usebio_reader`: a USEBIO team file may hold the
whole event, and the match read is the one between this match's teams; their refusals are translated
here); the
web form and the API's boards or IMPs arrive already parsed. Either way `upload_match` checks it against
the match and writes it as the match's next version (`results.upload_result`: decisions in force, the
lock, the recompute request). An upload that covers decisions in force is refused with
`WaitingForDecisions`, which carries the read upload so a page can keep it while the director chooses.
"""

import hashlib
from dataclasses import dataclass

from django.utils.translation import gettext

from results.models import VersionedUpload
from results.upload_decisions import DecisionsPending
from results.upload_input import UploadInputError, decode_text, read_upload_bytes

from ..engine import csv_reader, pbn_reader, usebio_reader
from ..engine.parsed import ParsedResult, UploadError, parsed_from_json, parsed_to_json
from ..engine.problems import ParseError, problem_of
from ..models import Match, MatchUpload
from . import results

Source = VersionedUpload.Source
FORM = "form"
USEBIO = "usebio"
FILE_FORMATS = {
    "pbn": (pbn_reader.parse_pbn, Source.PBN),
    "csv": (csv_reader.parse_csv, Source.CSV),
    USEBIO: (usebio_reader.parse_usebio, Source.USEBIO),
}


def translated(error: ParseError) -> UploadError:
    """The engine's refusal in the reader's language."""
    return UploadError([problem.render(gettext) for problem in error.problems])


def reason(error: ValueError) -> str:
    """The reason a ValueError of the engine (`room_score`) gives, in the reader's language."""
    problem = problem_of(error)
    return problem if isinstance(problem, str) else problem.render(gettext)


def team_ref(team) -> usebio_reader.TeamRef:
    return usebio_reader.TeamRef(team.start_number, team.name)


def _usebio_parser(match: Match | None):
    """The USEBIO reader told which match of the file to read: this match's teams, round and event."""
    if match is None or match.is_bye:
        raise UploadError(gettext("A bye has no result to upload."))
    event_teams = [team_ref(t) for t in match.round.event.teams.all()]

    def parse(text: str) -> ParsedResult:
        return usebio_reader.parse_usebio(
            text,
            team_ref(match.home),
            team_ref(match.away),
            round_number=match.round.number,
            teams=event_teams,
        )

    return parse


def parse_file(data: bytes, fmt: str, match: Match | None = None) -> ParsedResult:
    """A PBN, CSV or USEBIO file's boards (USEBIO: those of `match`); `UploadError` (translated) when it
    cannot be decoded or read."""
    parse = _usebio_parser(match) if fmt == USEBIO else FILE_FORMATS[fmt][0]
    try:
        text = decode_text(data)
    except UploadInputError as error:
        raise UploadError(error.messages)
    try:
        return parse(text)
    except ParseError as error:
        raise translated(error)


def parse_pbn(data: bytes) -> ParsedResult:
    return parse_file(data, "pbn")


def parse_csv(data: bytes) -> ParsedResult:
    return parse_file(data, "csv")


def parse_usebio(data: bytes, match: Match) -> ParsedResult:
    return parse_file(data, USEBIO, match)


@dataclass(frozen=True)
class MatchInput:
    """An upload read and parsed but not stored yet (JSON-ready: a page keeps it in the session)."""

    parsed: ParsedResult
    source: str = Source.FORM
    file_name: str = ""
    sha256: str = ""
    note: str = ""

    def to_json(self) -> dict:
        upload = {
            "source": self.source,
            "sha256": self.sha256,
            "file_name": self.file_name,
            "note": self.note,
        }
        return {"parsed": parsed_to_json(self.parsed), "upload": upload}

    @classmethod
    def from_json(cls, data: dict) -> "MatchInput":
        return cls(parsed_from_json(data["parsed"]), **data["upload"])


class WaitingForDecisions(DecisionsPending):
    """`DecisionsPending` with the upload it refused (`upload`), to be stored once the director chose."""

    def __init__(self, pending: DecisionsPending, upload: MatchInput):
        super().__init__(pending.affected, pending.based_on)
        self.upload = upload


def read_input(
    fmt: str, *, file=None, parsed: ParsedResult | None = None, note: str = "", match: Match | None = None
) -> MatchInput:
    """`fmt` "pbn", "csv" or "usebio" (the boards of `match`): the uploaded `file` read (size-limited) and
    parsed; "form": `parsed` as it is.

    Refusals: `UploadInputError` (too large: 413 on the API), `UploadError` (translated, names the line)."""
    if fmt == FORM:
        return MatchInput(parsed, Source.FORM, note=note)
    content = read_upload_bytes(file)
    _parse, source = FILE_FORMATS[fmt]
    return MatchInput(
        parse_file(content, fmt, match), source, file.name, hashlib.sha256(content).hexdigest(), note=note
    )


def upload_match(
    match: Match,
    user,
    fmt: str = FORM,
    *,
    file=None,
    parsed: ParsedResult | None = None,
    note: str = "",
    decisions=None,
    reasons=None,
    based_on=None,
) -> MatchUpload:
    """Read, parse and store one upload of the match's result as its next version; the recompute follows
    the commit. `decisions`, `reasons`, `based_on`: the director's choices (see `results.upload_result`)."""
    upload = read_input(fmt, file=file, parsed=parsed, note=note, match=match)
    return store(match, user, upload, decisions=decisions, reasons=reasons, based_on=based_on)


def store(
    match: Match, user, upload: MatchInput, *, decisions=None, reasons=None, based_on=None
) -> MatchUpload:
    """Write an upload already read (e.g. kept while the director chose); see `upload_match`."""
    try:
        return results.upload_result(
            match,
            user,
            upload.parsed,
            source=upload.source,
            file_name=upload.file_name,
            sha256=upload.sha256,
            note=upload.note,
            decisions=decisions,
            reasons=reasons,
            based_on=based_on,
        )
    except DecisionsPending as pending:
        raise WaitingForDecisions(pending, upload) from None
