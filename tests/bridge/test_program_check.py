"""The VSz 26 program test: bridge.engine.program_check and the bridge_check command."""

import io
import json
import random
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from bridge.engine.pbn.games import PbnError
from bridge.engine.pbn.records import session_record
from bridge.engine.pbn.writer import write_session
from bridge.engine.program_check import RULES, as_json, check_pbn_text
from bridge.engine.scoring.adjusted import ArtificialScore
from bridge.engine.scoring.contract import board_vulnerability, is_possible_score, vulnerable_sides
from bridge.engine.scoring.fouled import neuberg_from_raw
from bridge.engine.scoring.matchpoints import HUNDREDTH, raw_matchpoints, round_half_up
from bridge.engine.scoring.session import Entry, score_session

SCORES = [-1430, -650, -620, -500, -200, -100, -50, 0, 50, 90, 100, 110, 140, 420, 450, 600, 620, 980, 1430]


def _boards(seed=3, reduced=(3,), artificial=True):
    """A Mitchell of 5 tables (NS 1-5, EW 6-10) over 8 boards; `reduced` boards played 3 times."""
    rng = random.Random(seed)
    boards = {}
    for board in range(1, 9):
        legal = [s for s in SCORES if is_possible_score(s, *vulnerable_sides(board_vulnerability(board)))]
        boards[board] = [
            Entry(str(table), str(5 + (table + board) % 5 + 1), rng.choice(legal)) for table in range(1, 6)
        ]
    for board in reduced:
        boards[board] = boards[board][:3]
    if artificial:
        first = boards[5][1]
        boards[5][1] = Entry(first.ns, first.ew, None, ArtificialScore.parse("A+/A-"))
    return boards


def _record(method="mp", **kwargs):
    return session_record(score_session(_boards(**kwargs), method=method))


def test_a_file_the_portal_scored_agrees_everywhere():
    report = check_pbn_text(write_session(_record()))
    assert report.lines == 5 * 8 - 2 and report.agree == report.lines
    assert report.differences == []
    assert len(report.pairs) == 10 and all(check.agree for check in report.pairs.values())
    assert report.verdict == "pass"
    assert report.compared_columns == ["MP_NS", "MP_EW", "Percentage_NS", "Percentage_EW"]


def test_a_butler_file_the_portal_scored_agrees_on_imps():
    report = check_pbn_text(write_session(_record(method="butler", artificial=False, reduced=())))
    assert report.compared_columns == ["IMP_NS", "IMP_EW"]
    assert report.agree == report.lines == 40 and report.verdict == "pass"


def test_one_altered_line_is_reported_and_nothing_else():
    record = _record()
    altered = record.boards[6].results[2]  # board 7, third table
    altered.mp_ns += 2
    report = check_pbn_text(write_session(record))
    assert report.lines - report.agree == 1
    [difference] = report.differences
    assert (difference.board, difference.ns, difference.ew, difference.column) == (
        "7",
        altered.ns,
        altered.ew,
        "MP_NS",
    )
    assert difference.theirs == difference.ours + 2
    assert difference.rule == "unexplained"
    assert report.verdict == "fail"
    data = as_json(report)
    assert data["differences"][0]["board"] == "7" and data["differences"][0]["line"] == difference.line
    assert data["agree"] == data["lines"] - 1 and data["verdict"] == "fail"


def test_raw_matchpoints_on_a_reduced_board_are_explained_by_neuberg():
    record = _record(artificial=False)
    board = record.boards[2]  # board 3, played 3 times out of 5
    raws = raw_matchpoints([r.score_ns for r in board.results])
    for result, raw in zip(board.results, raws, strict=True):
        result.mp_ns, result.mp_ew = Decimal(raw), Decimal(4 - raw)
    report = check_pbn_text(write_session(record))
    mp_differences = [d for d in report.differences if d.column.startswith("MP")]
    assert mp_differences and {d.board for d in mp_differences} == {"3"}
    assert {d.rule for d in mp_differences} == {"neuberg"}
    assert "Neuberg" in RULES["neuberg"]


def test_pair_totals_summed_from_unrounded_board_values_are_explained():
    boards = _boards(seed=8, reduced=(3, 4, 6), artificial=False)
    score = score_session(boards)
    record = session_record(score)
    exact = {}
    for entries in boards.values():
        units = raw_matchpoints([e.score for e in entries])
        for entry, unit in zip(entries, units, strict=True):
            ns = neuberg_from_raw(unit, len(entries), 5)
            exact[entry.ns] = exact.get(entry.ns, 0) + ns
            exact[entry.ew] = exact.get(entry.ew, 0) + 8 - ns
    off = [t for t in record.totals if round_half_up(exact[t.pair], HUNDREDTH) != t.total_mp]
    assert off, "the fixture needs a pair whose rounded board values do not sum to its rounded total"
    total = off[0]
    total.total_mp = round_half_up(exact[total.pair], HUNDREDTH)
    report = check_pbn_text(write_session(record))
    assert report.agree == report.lines
    bad = [c for c in report.pairs.values() if not c.agree]
    assert [(c.pair, c.rule) for c in bad] == [(total.pair, "unrounded_total")]


PBN_WITH_TYPO = """% PBN 2.1
% Creator: OtherProgram 3.1
[Event "Club"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Scoring "MP2"]
[ScoreTable "PairId_NS\\2R;PairId_EW\\2R;Contract\\5L;Declarer\\1R;Result\\2R;Score_NS\\5R;MP_NS\\5R;MP_EW\\5R"]
1 3 42 N 10 420 2 0
2 4 4S N 9 -50 0 2
"""


def test_an_unreadable_contract_with_a_legal_score_is_a_warning_naming_the_line():
    report = check_pbn_text(PBN_WITH_TYPO)
    assert [str(w) for w in report.warnings] == [
        "line 9: board 1: not a contract: '42'; the line is taken by its score 420 (Score_NS)"
    ]
    assert report.lines == report.agree == 2


def test_a_file_without_the_other_programs_columns_is_refused_with_a_line():
    text = PBN_WITH_TYPO.replace(";MP_NS\\5R;MP_EW\\5R", "").replace(" 2 0\n", "\n").replace(" 0 2\n", "\n")
    with pytest.raises(PbnError, match="none of the other program's columns"):
        check_pbn_text(text)


def test_command_json(tmp_path):
    record = _record()
    record.boards[0].results[0].mp_ew += 1
    path = tmp_path / "other.pbn"
    path.write_text(write_session(record), encoding="utf-8")
    out = io.StringIO()
    call_command("bridge_check", str(path), "--json", stdout=out)
    data = json.loads(out.getvalue())
    assert data["lines"] == 38 and data["agree"] == 37
    [difference] = data["differences"]
    assert set(difference) >= {"board", "ns", "ew", "theirs", "ours", "rule"}
    assert difference["board"] == "1" and difference["theirs"] == difference["ours"] + 1
    assert data["verdict"] == "fail" and len(data["pairs"]) == 10


def test_command_text_and_refusal(tmp_path):
    path = tmp_path / "ok.pbn"
    path.write_text(write_session(_record()), encoding="utf-8")
    out = io.StringIO()
    call_command("bridge_check", str(path), stdout=out)
    assert "lines: 38, agree: 38" in out.getvalue() and "verdict: pass" in out.getvalue()
    broken = tmp_path / "broken.pbn"
    broken.write_text(PBN_WITH_TYPO.replace("2 4 4S N 9 -50 0 2", "2 4 4S N 9 -50 0"), encoding="utf-8")
    with pytest.raises(CommandError, match="line 10"):
        call_command("bridge_check", str(broken))


def test_command_writes_the_pdf_report_in_hungarian(tmp_path):
    """`--pdf OUT`: the report a federation files, in the portal's language (Hungarian), naming the altered
    line's board and its rule."""
    from tests.pdf_reading import read_pdf

    record = _record()
    record.boards[6].results[2].mp_ns += 2
    path, out_pdf = tmp_path / "other.pbn", tmp_path / "report.pdf"
    path.write_text(write_session(record), encoding="utf-8")
    call_command(
        "bridge_check", str(path), "--pdf", str(out_pdf), "--program", "MásikPont 4.2", stdout=io.StringIO()
    )
    report = read_pdf(out_pdf.read_bytes())
    assert (
        "Programvizsga (VSz 26)" in report.text
        and "MásikPont 4.2" in report.text
        and "other.pbn" in report.text
    )
    assert "38 sorból 37 egyezik" in report.text
    assert "nem felelt meg" in report.text  # the verdict: fails
    assert report.ink > 0
