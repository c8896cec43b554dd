"""The ulti_settle command: JSON deals in, forints per player out (ulti/engine/scoring/cli.py)."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ulti.engine.scoring import ScoringError
from ulti.engine.scoring.cli import run

ROOT = Path(__file__).resolve().parents[2]

EXAMPLE = {
    "ruleset": "mausz",
    "unit": 1,
    "players": ["A", "B", "C"],
    "declarer": "A",
    "bid": "piros 40-100 ulti",
    "won": {"40-100": True, "ulti": False},
    "kontra": {"ulti": {"B": 1}},
    "silent": [],
    "revoke": None,
}


def settle_json(deal, **options):
    return json.loads(run(json.dumps(deal), **options))


def with_(**changes):
    return {**EXAMPLE, **changes}


def test_the_example_deal():
    # red 40-100 won: 8 each; red ulti lost with kontra: 3 x 8 = 24 each; 8 - 24 = -16 each -> A -32
    assert settle_json(EXAMPLE) == {"A": -32, "B": 16, "C": 16}


def test_unit_converts_to_forints():
    assert settle_json(with_(unit=10)) == {"A": -320, "B": 160, "C": 160}


def test_defaults_and_accent_free_names():
    deal = {
        "players": ["Kiss", "Nagy", "Tóth"],
        "declarer": "Nagy",
        "bid": "PIROS NEGYVENSZAZ ULTI",
        "won": {"negyvenszáz": True, "ULTI": True},
    }
    # red 40-100 8 + red ulti 8 = 16 each -> Nagy +32
    assert settle_json(deal) == {"Kiss": -16, "Nagy": 32, "Tóth": -16}


def test_the_parti_riding_with_ulti_is_given_separately():
    deal = with_(bid="ulti", won={"ulti": True, "passz": False}, kontra={})
    # ulti won 4, parti lost 1: 3 each -> +6
    assert settle_json(deal) == {"A": 6, "B": -3, "C": -3}
    with pytest.raises(ScoringError, match=r"no result for parti \('ulti' is ulti \+ parti\)"):
        settle_json(with_(bid="ulti", won={"ulti": True}, kontra={}))


def test_kontra_by_words_and_no_trump_component_names():
    deal = with_(bid="színtelen durchmars", won={"durchmars": True}, kontra={"durchmars": {"C": "rekontra"}})
    # no-trump: C's rekontra binds C only: C 6 x 4 = 24, B 6 -> +30
    assert settle_json(deal) == {"A": 30, "B": -6, "C": -24}


def test_silent_impossible_and_revoke_entries():
    silent = with_(
        bid="passz",
        won={"parti": False},
        kontra={"parti": {"B": 1}},
        silent=[{"game": "száz", "side": "defenders", "won": True}],
    )
    # defenders' silent 100 2 + doubled parti 2 = 4 each -> -8
    assert settle_json(silent) == {"A": -8, "B": 4, "C": 4}
    impossible = with_(bid="ulti", won={"parti": True}, kontra={}, impossible=["ulti"])
    # impossible ulti, not doubled in the first round: base 4 each; parti won 1 -> -8 + 2
    assert settle_json(impossible) == {"A": -6, "B": 3, "C": 3}
    revoke = with_(won={}, revoke={"player": "C", "phase": "play"})
    # stake: 40-100 8 + ulti failure with kontra 3 x 8 = 32; C pays A 64 and B 32
    assert settle_json(revoke) == {"A": 64, "B": 32, "C": -96}
    talon = with_(won={}, revoke={"player": "A", "phase": "bidding", "offence": "talon"})
    # double the bid, 2 x 16 = 32 to each innocent player
    assert settle_json(talon) == {"A": -64, "B": 32, "C": 32}


def test_a_list_prints_totals_and_optionally_each_deal():
    second = with_(declarer="B", bid="passz", won={"parti": True}, kontra={})
    # deal 1: A -32, B 16, C 16; deal 2: B declares passz and wins 1 each: A -1, B +2, C -1
    assert settle_json([EXAMPLE, second]) == {"A": -33, "B": 18, "C": 15}
    assert settle_json([EXAMPLE, second], per_deal=True) == {
        "deals": [{"A": -32, "B": 16, "C": 16}, {"A": -1, "B": 2, "C": -1}],
        "totals": {"A": -33, "B": 18, "C": 15},
    }


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        (with_(bid="piros kontra"), "unknown word 'kontra'"),
        (with_(bid="négy ász durchmars"), "four aces may not be combined"),
        (with_(won={"40-100": True, "ulti": False, "betli": True}), "'betli' is not part of the bid"),
        (with_(kontra={"ulti": {"A": 1}}), "kontra by the declarer"),
        (with_(kontra={"ulti": {"B": 3}}), "use 1 .kontra. or 2"),
        (with_(won={"40-100": True}), "no result for ulti"),
        (with_(won={"40-100": "yes", "ulti": False}), "must be true or false"),
        (with_(wonn={}), "unknown key.s. in a deal: wonn"),
        (with_(unit=1.5), "unit must be a positive whole number"),
        (with_(unit=0), "unit must be a positive whole number"),
        (with_(unit=True), "unit must be a positive whole number"),
        (with_(ruleset="budapest"), "unknown rule set"),
        (with_(players=["A", "B"]), "three different player names"),
        (with_(declarer="D"), "not one of the players"),
        (with_(silent=[{"game": "100", "side": "defenders"}]), "needs game, side and won"),
        (with_(silent=[{"game": "100", "side": "both", "won": True}]), "side must be one of"),
        (with_(revoke={"player": "B", "phase": "later"}), "phase must be one of"),
        ({"players": ["A", "B", "C"], "declarer": "A"}, "a deal needs bid"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(deal, message):
    with pytest.raises(ScoringError, match=message):
        settle_json(deal)


def test_bad_documents():
    with pytest.raises(ScoringError, match="not valid JSON"):
        run("{")
    with pytest.raises(ScoringError, match="non-empty list"):
        run("[]")
    with pytest.raises(ScoringError, match="deal 2: unknown word"):
        run(json.dumps([EXAMPLE, with_(bid="ulty")]))


def test_the_management_command_in_process(monkeypatch):
    from django.core.management.base import CommandError

    from ulti.management.commands.ulti_settle import Command

    out = io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps([EXAMPLE, EXAMPLE])))
    Command(stdout=out).handle(per_deal=False)
    assert json.loads(out.getvalue()) == {"A": -64, "B": 32, "C": 32}
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(with_(bid="ulti four aces durchmars"))))
    with pytest.raises(CommandError, match="four aces"):
        Command(stdout=io.StringIO()).handle(per_deal=False)


@pytest.mark.skipif(
    not (ROOT / "config" / "settings_test.py").exists(), reason="Django settings not written yet"
)
def test_manage_py_ulti_settle():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings_test"}
    command = [sys.executable, "manage.py", "ulti_settle"]

    def call(text):
        return subprocess.run(
            command, input=text, capture_output=True, text=True, cwd=ROOT, env=env, timeout=120
        )

    done = call(json.dumps(EXAMPLE))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"A": -32, "B": 16, "C": 16}
    refused = call(json.dumps(with_(kontra={"ulti": {"A": 1}})))
    assert refused.returncode != 0
    assert "kontra by the declarer" in refused.stderr
