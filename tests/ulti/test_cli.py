import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ulti.engine.cli import CliError, parse_pair_request, run_pair, run_schedule

ROOT = Path(__file__).resolve().parents[2]


def request(**changes):
    data = {
        "ruleset": "mausz",
        "round": 2,
        "players": [
            {"id": "a", "points": 4, "forint": 300, "rating": 1500, "byes": 0},
            {"id": "b", "points": 4, "forint": 100, "rating": 1400, "byes": 0},
            {"id": "c", "points": 2, "forint": 0, "rating": 1300, "byes": 0},
            {"id": "d", "points": 2, "forint": -100, "rating": 1200, "byes": 0},
            {"id": "e", "points": 0, "forint": -100, "rating": 1100, "byes": 0},
            {"id": "f", "points": 0, "forint": -200, "rating": 1000, "byes": 0},
            {"id": "g", "points": 4, "forint": 0, "rating": 900, "byes": 1},
        ],
        "met": [["a", "b"], ["c", "d"]],
    }
    data.update(changes)
    return json.dumps(data)


def test_run_pair_prints_tables_and_byes():
    out = run_pair(request())
    assert set(out) == {"tables", "byes"}
    # Order a, b, g, c, d, e, f; f is lowest without a bye.
    assert out["byes"] == ["f"]
    assert out["tables"] == [["a", "g", "c"], ["b", "d", "e"]]


def test_run_pair_explain():
    out = run_pair(request(), explain=True)
    assert out["repeats"] == 0 and out["optimal"] is True
    assert out["table_notes"][0] == ["c pulled up from place 4 to avoid a repeat meeting (a and b have met)"]


def test_optional_player_fields_default_to_zero():
    ruleset, rnd, players, met, options = parse_pair_request(
        json.dumps({"ruleset": "szolnok", "round": 1, "players": [{"id": "x"}, {"id": "y"}, {"id": "z"}]})
    )
    assert ruleset.key == "szolnok" and rnd == 1 and met == [] and options == {}
    assert [(p.points, p.forint, p.rating, p.byes) for p in players] == [(0, 0, 0, 0)] * 3


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "no input"),
        ("{not json", "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        (json.dumps({"round": 1, "players": []}), "missing field: ruleset"),
        (request(extra=1), "unknown field(s): extra"),
        (request(ruleset="bridge"), "unknown rule set 'bridge'"),
        (request(ruleset=5), "ruleset must be a rule set name"),
        (request(round=0), "round must be at least 1"),
        (request(round="2"), "round must be a whole number"),
        (request(round=11), "round 11 is past the 10 rounds of the mausz rules"),
        (request(players={}), "players must be a non-empty list"),
        (request(players=[{"id": "a"}, {"id": "b"}]), "2 player(s) cannot fill a table"),
        (request(players=[{"id": "a"}, {"id": "a"}, {"id": "b"}]), "id 'a' is listed twice"),
        (request(players=[{"id": ""}, {"id": "a"}, {"id": "b"}]), "id must be a non-empty string"),
        (request(players=[{"id": 7}, {"id": "a"}, {"id": "b"}]), "id must be a non-empty string"),
        (request(players=["a", "b", "c"]), "players[0] must be an object"),
        (
            request(players=[{"id": "a", "points": True}, {"id": "b"}, {"id": "c"}]),
            "'a': points must be a number",
        ),
        (
            request(players=[{"id": "a", "forint": 10.5}, {"id": "b"}, {"id": "c"}]),
            "forint must be a whole number",
        ),
        (request(players=[{"id": "a", "byes": -1}, {"id": "b"}, {"id": "c"}]), "byes must be at least 0"),
        (request(players=[{"id": "a", "club": "x"}, {"id": "b"}, {"id": "c"}]), "unknown field(s) club"),
        (request(met={"a": "b"}), "met must be a list"),
        (request(met=[["a", "b", "c"]]), "met[0] must be a pair of player ids"),
        (request(met=[["a", "zz"]]), "met[0]: unknown player id 'zz'"),
        (request(met=[["a", "a"]]), "cannot have met himself"),
        (request(options={"speed": 1}), "unknown pairing option 'speed'"),
        (request(options=[]), "options must be an object"),
    ],
)
def test_pair_input_errors(text, message):
    with pytest.raises(CliError) as exc:
        run_pair(text)
    assert message in str(exc.value)


def test_run_schedule():
    rounds, summary = run_schedule(9)
    assert len(rounds) == 4 and summary["kirkman"] and summary["repeats"] == 0
    rounds, summary = run_schedule(7)
    assert not summary["kirkman"] and summary["repeats"] >= summary["lower_bound"]
    assert all(len(b) == 1 for b in summary["byes"])
    for bad, message in [(2, "at least 3"), ("9", "whole number"), (True, "whole number")]:
        with pytest.raises(CliError, match=message):
            run_schedule(bad)
    with pytest.raises(CliError, match="--rounds must be at least 1"):
        run_schedule(9, 0)


# -- the management commands, end to end -----------------------------------------------------------

needs_settings = pytest.mark.skipif(
    not (ROOT / "config" / "settings_test.py").exists(), reason="Django settings not written yet"
)


def manage(*args, stdin=""):
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings_test")
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )


@needs_settings
def test_ulti_pair_command():
    done = manage("ulti_pair", stdin=request())
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"tables": [["a", "g", "c"], ["b", "d", "e"]], "byes": ["f"]}


@needs_settings
def test_ulti_pair_command_bad_input_exits_non_zero():
    done = manage("ulti_pair", stdin=request(round=0))
    assert done.returncode != 0
    assert "round must be at least 1" in done.stderr


@needs_settings
def test_ulti_schedule_command():
    done = manage("ulti_schedule", "--players", "15", "--json")
    assert done.returncode == 0, done.stderr
    rounds = json.loads(done.stdout)
    assert len(rounds) == 7 and all(len(r) == 5 for r in rounds)
    done = manage("ulti_schedule", "--players", "7", "--json")
    assert done.returncode == 0
    assert '"repeats"' in done.stderr
    done = manage("ulti_schedule", "--players", "2", "--json")
    assert done.returncode != 0 and "at least 3" in done.stderr
