"""USEBIO 1.2 import (engine): what the portal exports it reads back; hostile XML is refused by line."""

import pytest

from bridge.engine.pbn.records import session_record
from bridge.engine.pbn.usebio import write_usebio
from bridge.engine.pbn.usebio_reader import UsebioError, read_usebio
from bridge.engine.scoring.session import score_session
from tests.bridge.test_program_check import _boards


def _without_line_percentages(record):
    # USEBIO 1.2 carries no per-line percentage: the writer leaves them out.
    for board in record.boards:
        for result in board.results:
            result.pct_ns = result.pct_ew = None
    return record


@pytest.mark.parametrize("method", ["mp", "butler"])
def test_export_then_import_gives_the_same_records(method):
    record = session_record(
        score_session(_boards(artificial=method == "mp"), method=method), event="Klub", date="2026.03.14"
    )
    back = read_usebio(write_usebio(record))
    assert back == _without_line_percentages(record)
    assert any(r.artificial == "A+/A-" for b in back.boards for r in b.results) == (method == "mp")


@pytest.mark.parametrize(
    "doctype",
    [
        '<!DOCTYPE USEBIO SYSTEM "http://www.ebu.co.uk/usebio/usebio_v1_2.dtd">',
        '<!DOCTYPE USEBIO SYSTEM "usebio_v1_2.dtd">',
        '<!DOCTYPE USEBIO SYSTEM "usebio_v1_3.dtd">',
    ],
)
def test_other_programs_doctype_naming_usebios_own_dtd_is_read(doctype):
    """Other programs start their files with USEBIO's DOCTYPE (and often a Latin-1 declaration): the file
    reads as without it, and the DTD is never fetched."""
    record = session_record(score_session(_boards(), method="mp"), event="Klub", date="2026.03.14")
    written = write_usebio(record)
    body = written.split("?>", 1)[1] if written.startswith("<?xml") else written
    theirs = f'<?xml version="1.0" encoding="iso-8859-1"?>\n{doctype}\n{body.lstrip()}'
    assert read_usebio(theirs) == read_usebio(written)


@pytest.mark.parametrize(
    "text",
    [
        '<?xml version="1.0"?>\n<!DOCTYPE USEBIO SYSTEM "usebio_v1_2.dtd" [<!ENTITY a "b">]>\n<USEBIO/>',
        '<?xml version="1.0"?>\n<!DOCTYPE USEBIO SYSTEM "file:///etc/passwd">\n<USEBIO/>',
        '<?xml version="1.0"?>\n<!DOCTYPE USEBIO SYSTEM "http://evil.example/x.dtd">\n<USEBIO/>',
        '<?xml version="1.0"?>\n<!DOCTYPE RESULTS SYSTEM "usebio_v1_2.dtd">\n<USEBIO/>',
    ],
)
def test_any_other_doctype_is_still_refused(text):
    with pytest.raises(UsebioError, match="line 2: a DOCTYPE or entity declaration is not allowed"):
        read_usebio(text)


def test_an_entity_reference_after_usebios_doctype_is_not_expanded():
    text = '<?xml version="1.0"?>\n<!DOCTYPE USEBIO SYSTEM "usebio_v1_2.dtd">\n<USEBIO>\n<EVENT>&xxe;</EVENT></USEBIO>'
    with pytest.raises(UsebioError, match="line 4: a DOCTYPE or entity declaration is not allowed"):
        read_usebio(text)


@pytest.mark.parametrize(
    "text, line, reason",
    [
        ('<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY a "aaaa">]>\n<USEBIO/>', 2, "DOCTYPE"),
        ('<?xml version="1.0"?>\n<!DOCTYPE x SYSTEM "file:///etc/passwd">\n<USEBIO/>', 2, "DOCTYPE"),
        ("<USEBIO>\n<EVENT>\n<BOARD>", 3, "not well-formed"),
        ("<RESULTS/>", 1, "not <USEBIO>"),
        ('<USEBIO>\n<EVENT EVENT_TYPE="SWISS_TEAMS"/>\n</USEBIO>', 2, "SWISS_TEAMS"),
        (
            "<USEBIO><EVENT>\n<BOARD>\n<BOARD_NUMBER>x</BOARD_NUMBER></BOARD></EVENT></USEBIO>",
            3,
            "whole number",
        ),
        (
            "<USEBIO><EVENT><BOARD><BOARD_NUMBER>1</BOARD_NUMBER>\n<TRAVELLER_LINE><NS_PAIR_NUMBER>1"
            "</NS_PAIR_NUMBER></TRAVELLER_LINE></BOARD></EVENT></USEBIO>",
            2,
            "EW_PAIR_NUMBER",
        ),
        (
            "<USEBIO><EVENT><PARTICIPANTS>\n<PAIR><PAIR_NUMBER>1</PAIR_NUMBER>\n<TOTAL_SCORE>NaN</TOTAL_SCORE>"
            "</PAIR></PARTICIPANTS></EVENT></USEBIO>",
            3,
            "not a number",
        ),
    ],
)
def test_malformed_usebio_names_the_line(text, line, reason):
    with pytest.raises(UsebioError) as refused:
        read_usebio(text)
    assert refused.value.line == line and reason in refused.value.message


def _nested(text: str, sessions: int = 1, sections: int = 1) -> str:
    """The export with its PARTICIPANTS and BOARDs moved into EVENT > SESSION > SECTION (as EBUScore-style
    programs write a session)."""
    head, rest = text.split("<PARTICIPANTS>", 1)
    body, tail = ("<PARTICIPANTS>" + rest).rsplit("</EVENT>", 1)
    section = "".join(f"<SECTION>{body}</SECTION>" for _ in range(sections))
    return head + "".join(f"<SESSION>{section}</SESSION>" for _ in range(sessions)) + "</EVENT>" + tail


def test_a_session_nested_in_session_and_section_reads_the_same():
    record = session_record(score_session(_boards(), method="mp"), event="Klub", date="2026.03.14")
    text = write_usebio(record)
    assert read_usebio(_nested(text)) == read_usebio(text)


@pytest.mark.parametrize("sessions, sections, level", [(2, 1, "SESSION"), (1, 2, "SECTION")])
def test_several_sessions_or_sections_are_refused_by_line(sessions, sections, level):
    text = write_usebio(session_record(score_session(_boards(), method="mp")))
    with pytest.raises(UsebioError) as refused:
        read_usebio(_nested(text, sessions, sections))
    assert f"2 <{level}>s" in refused.value.message and refused.value.line >= 1
