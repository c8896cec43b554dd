"""Offline scoring of PBN files: bridge.engine.offline.score_pbn_text and the bridge_score management command."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from bridge.engine.offline import score_pbn_text, scoring_method
from bridge.engine.pbn.games import PbnError
from bridge.engine.scoring.session import Method
from bridge.management.commands.bridge_score import Command

FIXTURES = Path(__file__).parent / "fixtures"
ROOT = Path(__file__).resolve().parents[2]


def fixture(name):
    return (FIXTURES / name).read_text(encoding="utf-8")


def ranking(result, direction=None):
    return [
        (r["pair"], r["place"], r.get("mp", r.get("imp")), r["pct"])
        for r in result["ranking"]
        if r["direction"] == direction
    ]


def test_mitchell_numbered_in_both_directions():
    result = score_pbn_text(fixture("mitchell.pbn"))
    board_1 = result["boards"]["1"]
    assert board_1[0] == {"ns": "1", "ew": "1", "score_ns": 400, "mp_ns": 2, "mp_ew": 4, "pct_ns": 33.33}
    # board 3: NS 3 gets average-plus = its 83.33% session average (10 of 12), EW 1 average-minus (40%);
    # the three real results are scaled by Neuberg, P = (4 T + 1) / 3
    board_3 = result["boards"]["3"]
    assert [(r["mp_ns"], r["mp_ew"]) for r in board_3] == [(4.33, 1.67), (0.33, 5.67), (5, 2.4), (4.33, 1.67)]
    assert board_3[2]["score_ns"] is None and board_3[2]["pct_ns"] == 83.33
    assert ranking(result, "NS") == [
        ("3", "1", 15, 83.33),
        ("1", "2-3", 8.33, 46.28),
        ("4", "2-3", 8.33, 46.28),
        ("2", "4", 6.33, 35.17),
    ]
    assert ranking(result, "EW") == [
        ("4", "1", 11.67, 64.83),
        ("3", "2", 9.67, 53.72),
        ("1", "3", 8.4, 46.67),
        ("2", "4", 5.67, 31.5),
    ]


def test_howell_ranks_everybody_together_without_a_direction():
    result = score_pbn_text(fixture("howell.pbn"))
    assert ranking(result) == [
        ("2", "1", 5, 83.33),
        ("1", "2-3", 3, 50),
        ("3", "2-3", 3, 50),
        ("4", "4", 1, 16.67),
    ]
    assert all(r["direction"] is None for r in result["ranking"])


def test_scale_one():
    result = score_pbn_text(fixture("howell.pbn"), scale=1)
    assert ranking(result) == [
        ("2", "1", 2.5, 83.33),
        ("1", "2-3", 1.5, 50),
        ("3", "2-3", 1.5, 50),
        ("4", "4", 0.5, 16.67),
    ]
    assert result["boards"]["2"][0]["mp_ns"] == 0.5


def test_butler_from_the_scoring_tag():
    result = score_pbn_text(fixture("butler.pbn"))
    rows = result["boards"]["1"]
    assert rows[0] == {"ns": "1", "ew": "11", "score_ns": 420, "imp_ns": 2, "imp_ew": -2, "pct_ns": None}
    assert [r["imp_ns"] for r in rows] == [2, 2, 2, -9, -5, 6]
    assert ranking(result, "EW")[0] == ("14", "1", 9, None)


def test_method_override_cross_imps_and_matchpoints():
    cross = score_pbn_text(fixture("butler.pbn"), method="cross-imps")
    assert [r["imp_ns"] for r in cross["boards"]["1"]] == [2, 2, 3.2, -9.8, -4.4, 7]
    matchpoints = score_pbn_text(fixture("butler.pbn"), method="mp")
    assert [r["mp_ns"] for r in matchpoints["boards"]["1"]] == [5, 5, 8, 0, 2, 10]
    assert score_pbn_text(fixture("mitchell.pbn"), method="butler")["boards"]["1"][0]["imp_ns"] is not None


def test_sections_are_scored_across_the_field():
    result = score_pbn_text(fixture("sections.pbn"))
    assert [(r["ns"], r["mp_ns"]) for r in result["boards"]["1"]] == [
        ("A1", 3),
        ("A2", 0),
        ("B1", 6),
        ("B2", 3),
    ]
    assert ranking(result, "NS")[0] == ("B1", "1", 6, 100)


@pytest.mark.parametrize(
    ("tag", "method"),
    [
        (None, Method.MATCHPOINTS),
        ("MP1", Method.MATCHPOINTS),
        ("MP2", Method.MATCHPOINTS),
        ("MatchPoints", Method.MATCHPOINTS),
        ("IMP;Cross2", Method.CROSS_IMPS),
        ("IMP;Butler", Method.BUTLER),
        ("IMP", Method.BUTLER),
    ],
)
def test_scoring_tag(tag, method):
    assert scoring_method(tag) == method


def test_an_unknown_scoring_tag_is_refused_with_its_line():
    text = fixture("howell.pbn").replace('[Scoring "MP2"]', '[Scoring "Rubber"]')
    with pytest.raises(PbnError, match=r"^line 5: Scoring 'Rubber'"):
        score_pbn_text(text)
    # an explicit method does not need the tag
    assert score_pbn_text(text, method="mp")["ranking"][0]["pair"] == "2"


def test_a_file_without_results_is_refused():
    with pytest.raises(PbnError, match="no board has a ScoreTable"):
        score_pbn_text('[Event "Deals only"]\n[Board "1"]\n[Deal "N:- - - -"]\n')


def test_output_is_plain_json():
    result = score_pbn_text(fixture("mitchell.pbn"))
    assert json.loads(json.dumps(result)) == result


# --- the management command --------------------------------------------------------------------------


def run_command(*args):
    out, err = io.StringIO(), io.StringIO()
    call_command(Command(), *args, stdout=out, stderr=err)
    return out.getvalue()


def test_command_json_output():
    output = json.loads(run_command(str(FIXTURES / "howell.pbn"), "--json"))
    assert output == score_pbn_text(fixture("howell.pbn"))


def test_command_text_output_and_options():
    text = run_command(str(FIXTURES / "butler.pbn"), "--method", "cross-imps")
    assert "9.8" in text.splitlines()[-6]  # EW 14 heads the EW list
    text = run_command(str(FIXTURES / "howell.pbn"), "--scale", "1")
    assert text.splitlines()[0].split() == ["1", "2", "2.5", "83.33%"]


def test_command_reports_the_line_and_the_reason():
    with pytest.raises(CommandError, match=r"^line 7: board 1: illegal score 425"):
        run_command(str(FIXTURES / "bad_score.pbn"), "--json")
    with pytest.raises(CommandError, match="cannot read"):
        run_command(str(FIXTURES / "missing.pbn"))


def test_command_reads_a_windows_1250_file_and_refuses_an_undecodable_one_naming_the_line(tmp_path):
    text = fixture("howell.pbn").replace('[Event "Howell"]', '[Event "„Őszi kupa” – Kővári"]')
    cp1250 = tmp_path / "cp1250.pbn"
    cp1250.write_bytes(text.encode("cp1250"))
    assert json.loads(run_command(str(cp1250), "--json")) == score_pbn_text(text)
    broken = tmp_path / "broken.pbn"
    broken.write_bytes(text.encode("cp1250").replace(b'[Board "2"]', b'[Board "2\x81"]'))
    line = text.splitlines().index('[Board "2"]') + 1
    with pytest.raises(CommandError, match=rf"^{line}\. sor: a fájl nem olvasható UTF-8"):
        run_command(str(broken), "--json")


def test_call_command_by_name():
    from django.conf import settings

    if not settings.configured:
        pytest.skip("Django settings are not configured in this run")
    out = io.StringIO()
    call_command("bridge_score", str(FIXTURES / "mitchell.pbn"), "--json", stdout=out)
    assert json.loads(out.getvalue())["ranking"][0] == {
        "pair": "3",
        "direction": "NS",
        "mp": 15,
        "pct": 83.33,
        "place": "1",
    }


def test_manage_py_bridge_score():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings_test"}

    def manage(*args):
        return subprocess.run(
            [sys.executable, "manage.py", "bridge_score", *args],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=env,
            timeout=120,
        )

    done = manage(str(FIXTURES / "howell.pbn"), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == score_pbn_text(fixture("howell.pbn"))
    refused = manage(str(FIXTURES / "bad_score.pbn"), "--json")
    assert refused.returncode != 0
    assert "line 7: board 1: illegal score 425" in refused.stderr
    assert "boards" not in refused.stdout
