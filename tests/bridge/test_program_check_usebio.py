"""The VSz 26 program test on USEBIO 1.2 files: the engine, the bridge_check command and the staff page
compare a USEBIO file's match points exactly as a PBN file's."""

import io
import json
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from bridge.engine.pbn.usebio import write_usebio
from bridge.engine.pbn.usebio_reader import UsebioError
from bridge.engine.pbn.writer import write_session
from bridge.engine.program_check import check_pbn_text, check_text, check_usebio_text
from bridge.engine.scoring.matchpoints import raw_matchpoints
from federation.models import Role
from tests.bridge.test_program_check import _record
from tests.bridge.test_program_check_page import client_of


def _essence(report):
    """What a report says about the lines and pairs, whatever the file's column names."""
    return (
        report.lines,
        report.agree,
        [(d.board, d.ns, d.ew, _side(d.column), d.theirs, d.ours, d.rule) for d in report.differences],
        {k: (c.agree, c.theirs, c.ours, c.theirs_pct, c.ours_pct, c.rule) for k, c in report.pairs.items()},
        report.verdict,
    )


def _side(column: str) -> str:
    return "NS" if column.startswith("NS_") or column.endswith("_NS") else "EW"


def _pbn_without_line_percentages(record):
    for board in record.boards:
        for result in board.results:
            result.pct_ns = result.pct_ew = None
    return write_session(record)


def test_a_usebio_file_the_portal_scored_agrees_everywhere():
    report = check_text(write_usebio(_record()))
    assert report.compared_columns == ["NS_MATCH_POINTS", "EW_MATCH_POINTS"]
    assert report.lines == 38 and report.agree == 38 and report.differences == []
    assert len(report.pairs) == 10 and all(c.agree for c in report.pairs.values())
    assert report.verdict == "pass"


def test_a_butler_usebio_file_agrees_on_imps():
    report = check_usebio_text(write_usebio(_record(method="butler", artificial=False, reduced=())))
    assert report.agree == report.lines == 40 and report.verdict == "pass"


def test_one_altered_line_is_reported_with_its_element_line():
    record = _record()
    altered = record.boards[6].results[2]
    altered.mp_ns += 2
    text = write_usebio(record)
    report = check_text(text)
    [difference] = report.differences
    assert (difference.board, difference.ns, difference.ew, difference.column) == (
        "7",
        altered.ns,
        altered.ew,
        "NS_MATCH_POINTS",
    )
    assert difference.theirs == difference.ours + 2 and difference.rule == "unexplained"
    assert text.splitlines()[difference.line - 1].strip() == "<TRAVELLER_LINE>"
    assert report.verdict == "fail" and report.agree == report.lines - 1


def test_raw_matchpoints_on_a_reduced_board_read_as_in_the_pbn_path():
    record = _record(artificial=False)
    board = record.boards[2]  # board 3, played 3 times out of 5
    for result, raw in zip(board.results, raw_matchpoints([r.score_ns for r in board.results]), strict=True):
        result.mp_ns, result.mp_ew = Decimal(raw), Decimal(4 - raw)
    record.totals[0].total_mp += 1  # and one pair's total off
    usebio = check_usebio_text(write_usebio(record))
    pbn = check_pbn_text(_pbn_without_line_percentages(record))
    assert {d.rule for d in usebio.differences} == {"neuberg"}
    assert _essence(usebio) == _essence(pbn)


def test_a_usebio_file_without_match_points_is_refused_naming_a_line():
    record = _record()
    for board in record.boards:
        for result in board.results:
            result.mp_ns = result.mp_ew = None
    with pytest.raises(UsebioError) as refused:
        check_text(write_usebio(record))
    assert "NS_MATCH_POINTS / EW_MATCH_POINTS" in refused.value.message and refused.value.line > 1


def test_command_reads_a_usebio_file(tmp_path):
    record = _record()
    record.boards[0].results[0].mp_ew += 1
    path = tmp_path / "other.xml"
    path.write_text(write_usebio(record), encoding="utf-8")
    out = io.StringIO()
    call_command("bridge_check", str(path), "--json", stdout=out)
    data = json.loads(out.getvalue())
    assert data["lines"] == 38 and data["agree"] == 37 and data["verdict"] == "fail"
    [difference] = data["differences"]
    assert difference["board"] == "1" and difference["column"] == "EW_MATCH_POINTS"
    bad = tmp_path / "bad.xml"
    bad.write_text('<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY a "b">]>\n<USEBIO/>', encoding="utf-8")
    with pytest.raises(CommandError, match="line 2: a DOCTYPE"):
        call_command("bridge_check", str(bad), stdout=io.StringIO())


@pytest.mark.django_db
def test_staff_page_checks_a_usebio_file(mbsz, make_user):
    staff = make_user("staff-usebio@example.hu", kind=Role.FEDERATION_STAFF, federation=mbsz)
    client = client_of(staff)
    url = reverse("bridge_program_check", args=[mbsz.pk])
    response = client.post(
        url, {"program": "Scorer 2", "file": SimpleUploadedFile("o.xml", write_usebio(_record()).encode())}
    )
    html = response.content.decode()
    assert response.status_code == 200 and 'id="verdict-pass"' in html and "Lines: 38 of 38 agree" in html
    refused = client.post(
        url, {"program": "Scorer 2", "file": SimpleUploadedFile("o.xml", b"<USEBIO>\n<EVENT>")}
    )
    assert refused.status_code == 400 and "line 2: not well-formed XML" in refused.content.decode()
    outsider = client_of(make_user("nobody-usebio@example.hu"))
    denied = outsider.post(
        url, {"program": "x", "file": SimpleUploadedFile("o.xml", write_usebio(_record()).encode())}
    )
    assert denied.status_code in (403, 404)
