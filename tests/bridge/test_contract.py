"""Contract scores (Law 77), the 16-board dealer/vulnerability cycle and the possible-score check."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridge.engine.scoring.contract import (
    Contract,
    board_dealer,
    board_vulnerability,
    contract_score,
    declarer_score,
    is_possible_score,
    parse_contract,
    parse_tricks,
    possible_scores,
    score_entry,
    vulnerable_sides,
)


@pytest.mark.parametrize(
    ("contract", "vulnerable", "tricks", "score"),
    [
        # the brief's reference values
        ("3NT", False, 9, 400),
        ("4SX", True, 7, -800),
        ("7NTXX", True, 13, 2980),
        ("1CX", False, 8, 240),
        # partscores, games, slams
        ("1NT", False, 7, 90),
        ("2S", False, 9, 140),
        ("3NT", True, 9, 600),
        ("4H", True, 10, 620),
        ("5D", False, 11, 400),
        ("6NT", False, 12, 990),
        ("6S", True, 12, 1430),
        ("7S", True, 13, 2210),
        ("7C", False, 13, 1440),
        ("1NT", False, 13, 270),  # 40 + 50 partscore + 6 overtricks of 30
        # doubled and redoubled made contracts: the insult, and a doubled partscore that becomes a game
        ("2CX", False, 8, 180),
        ("2HX", False, 8, 470),
        ("1NTXX", False, 7, 560),
        ("5DX", True, 12, 950),
        ("4SXX", False, 11, 1080),
        # undertricks, undoubled / doubled / redoubled, both vulnerabilities
        ("4S", False, 8, -100),
        ("4S", True, 8, -200),
        ("3NTX", False, 8, -100),
        ("3NTX", False, 7, -300),
        ("3NTX", False, 6, -500),
        ("3NTX", False, 5, -800),
        ("3NTX", False, 4, -1100),
        ("3NTX", True, 8, -200),
        ("3NTX", True, 7, -500),
        ("3NTX", True, 6, -800),
        ("3NTXX", False, 8, -200),
        ("3NTXX", False, 5, -1600),
        ("3NTXX", True, 6, -1600),
        ("7NTXX", True, 0, -7600),
    ],
)
def test_known_contract_scores(contract, vulnerable, tricks, score):
    parsed = parse_contract(contract)
    assert declarer_score(parsed.level, parsed.strain, parsed.doubled, vulnerable, tricks) == score


def test_scores_are_from_north_souths_point_of_view():
    assert contract_score("4S", "N", 10, vul_ns=False, vul_ew=True) == 420
    assert contract_score("4S", "S", 10, vul_ns=False, vul_ew=True) == 420
    assert contract_score("4S", "E", 10, vul_ns=False, vul_ew=True) == -620
    assert contract_score("4SX", "W", 7, vul_ns=False, vul_ew=True) == 800
    assert contract_score("Pass", None, 0, vul_ns=True, vul_ew=True) == 0


def test_declarer_must_be_a_seat():
    with pytest.raises(ValueError, match="declarer"):
        contract_score("4S", "X", 10, False, False)
    with pytest.raises(ValueError, match="declarer"):
        contract_score("4S", None, 10, False, False)


@pytest.mark.parametrize(
    ("board", "dealer", "vulnerability"),
    [
        (1, "N", "None"),
        (2, "E", "NS"),
        (3, "S", "EW"),
        (4, "W", "All"),
        (5, "N", "NS"),
        (6, "E", "EW"),
        (7, "S", "All"),
        (8, "W", "None"),
        (9, "N", "EW"),
        (10, "E", "All"),
        (11, "S", "None"),
        (12, "W", "NS"),
        (13, "N", "All"),
        (14, "E", "None"),
        (15, "S", "NS"),
        (16, "W", "EW"),
        (17, "N", "None"),
        (36, "W", "All"),
    ],
)
def test_sixteen_board_cycle(board, dealer, vulnerability):
    assert board_dealer(board) == dealer
    assert board_vulnerability(board) == vulnerability


def test_board_numbers_start_at_one():
    with pytest.raises(ValueError):
        board_dealer(0)
    with pytest.raises(ValueError):
        board_vulnerability(-3)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3NTX", Contract(3, "NT", 1)),
        ("4S", Contract(4, "S", 0)),
        ("7NTXX", Contract(7, "NT", 2)),
        ("3N", Contract(3, "NT", 0)),
        ("2h x", Contract(2, "H", 1)),
        ("1C*", Contract(1, "C", 1)),
        ("PASS", Contract(0)),
        ("AP", Contract(0)),
        ("pass", Contract(0)),
    ],
)
def test_parse_contract(text, expected):
    assert parse_contract(text) == expected


@pytest.mark.parametrize("text", ["8S", "0NT", "3Z", "X", "", "4SXXX", "NT3"])
def test_parse_contract_refuses_nonsense(text):
    with pytest.raises(ValueError, match="not a contract"):
        parse_contract(text)


def test_contract_prints_back():
    assert str(parse_contract("3ntxx")) == "3NTXX"
    assert str(parse_contract("AP")) == "Pass"


@pytest.mark.parametrize(
    ("text", "level", "tricks"), [("=", 4, 10), ("+1", 4, 11), ("-2", 3, 7), ("9", 3, 9), ("0", 7, 0)]
)
def test_parse_tricks(text, level, tricks):
    assert parse_tricks(text, level) == tricks


@pytest.mark.parametrize(("text", "level"), [("14", 3), ("+2", 7), ("-11", 4), ("x", 1), ("", 1)])
def test_parse_tricks_refuses_impossible_results(text, level):
    with pytest.raises(ValueError):
        parse_tricks(text, level)


def test_score_entry_takes_vulnerability_from_the_board_unless_given():
    assert score_entry("3NT", "N", "=", board=1) == 400
    assert score_entry("3NT", "N", "=", board=2) == 600
    assert score_entry("3NT", "N", "=", board=1, vulnerability="All") == 600
    assert score_entry("4HX", "E", "-1", board=2) == 100
    assert score_entry("AP", None, "-", board=7) == 0


def test_vulnerable_sides():
    assert vulnerable_sides("None") == (False, False)
    assert vulnerable_sides("Love") == (False, False)
    assert vulnerable_sides("NS") == (True, False)
    assert vulnerable_sides("EW") == (False, True)
    assert vulnerable_sides("Both") == (True, True)
    with pytest.raises(ValueError):
        vulnerable_sides("sometimes")


def test_possible_scores_refuse_mistyped_entries():
    assert is_possible_score(400, False, False)
    assert is_possible_score(-800, False, True)
    assert is_possible_score(0, True, True)
    for mistyped in (425, 10, 15, 401, -1000000, 5000):
        assert not is_possible_score(mistyped, False, False)
    # 7S= vulnerable is 2210; no non-vulnerable contract or penalty gives it
    assert is_possible_score(2210, True, False)
    assert not is_possible_score(2210, False, True)
    assert is_possible_score(-2210, False, True)
    assert not is_possible_score(-2210, True, False)


def test_possible_scores_are_all_multiples_of_ten_and_symmetric_by_seat():
    for vul_ns, vul_ew in ((False, False), (True, False), (False, True), (True, True)):
        scores = possible_scores(vul_ns, vul_ew)
        assert all(score % 10 == 0 for score in scores)
        assert {-s for s in possible_scores(vul_ew, vul_ns)} == scores


contracts = st.builds(
    Contract,
    level=st.integers(1, 7),
    strain=st.sampled_from(["C", "D", "H", "S", "NT"]),
    doubled=st.integers(0, 2),
)


@given(contract=contracts, tricks=st.integers(0, 13), vul_ns=st.booleans(), vul_ew=st.booleans())
def test_every_result_gives_a_possible_score_and_partners_score_alike(contract, tricks, vul_ns, vul_ew):
    north = contract_score(contract, "N", tricks, vul_ns, vul_ew)
    assert contract_score(contract, "S", tricks, vul_ns, vul_ew) == north
    assert contract_score(contract, "E", tricks, vul_ew, vul_ns) == -north
    assert is_possible_score(north, vul_ns, vul_ew)


@given(contract=contracts, vulnerable=st.booleans())
def test_more_tricks_never_score_less(contract, vulnerable):
    scores = [
        declarer_score(contract.level, contract.strain, contract.doubled, vulnerable, t) for t in range(14)
    ]
    assert scores == sorted(scores)
    assert (scores[contract.level + 6] > 0) and (scores[contract.level + 5] < 0)
