"""Contracts and declarers typed the Hungarian way parse to the same contract as the English forms."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridge.engine.csv_upload import CsvError, read_csv, result_of
from bridge.engine.scoring.contract import Contract, contract_score, parse_contract, parse_seat
from teams.engine.scores import room_score

ENGLISH_STRAINS = {"C": ("C",), "D": ("D",), "H": ("H",), "S": ("S",), "NT": ("NT", "N")}
HUNGARIAN_STRAINS = {
    "C": ("T", "t", "♣"),
    "D": ("K", "k", "♦"),
    "H": ("KŐ", "kő", "KO", "♥"),
    "S": ("P", "p", "♠"),
    "NT": ("SZA", "sza", "SZ", "szan"),
}


@pytest.mark.parametrize(
    "text, expected",
    [
        ("4♠", Contract(4, "S")),
        ("4P", Contract(4, "S")),
        ("4p", Contract(4, "S")),
        ("3SZA", Contract(3, "NT")),
        ("3 sza x", Contract(3, "NT", 1)),
        ("7SZAXX", Contract(7, "NT", 2)),
        ("2kő", Contract(2, "H")),
        ("2KO", Contract(2, "H")),
        ("1♦X", Contract(1, "D", 1)),
        ("5K", Contract(5, "D")),
        ("2T", Contract(2, "C")),
        ("passz", Contract(0)),
        ("Passz", Contract(0)),
    ],
)
def test_hungarian_contracts(text, expected):
    assert parse_contract(text) == expected


@pytest.mark.parametrize("text", ["8P", "0SZA", "4Ö", "4PX X X", "4SZAP", "SZA", "4KK"])
def test_hungarian_lookalikes_are_refused(text):
    with pytest.raises(ValueError):
        parse_contract(text)


@pytest.mark.parametrize(
    "text, seat",
    [("É", "N"), ("é", "N"), ("K", "E"), ("D", "S"), ("Ny", "W"), ("NY", "W"), ("ny", "W"),
     ("Észak", "N"), ("Nyugat", "W"), ("N", "N"), ("e", "E"), ("S", "S"), ("W", "W")],
)  # fmt: skip
def test_seats_in_both_languages(text, seat):
    assert parse_seat(text) == seat


@pytest.mark.parametrize("text", ["", None, "X", "NE", "Nyx", "Ny Ny"])
def test_unknown_seats_are_refused(text):
    with pytest.raises(ValueError):
        parse_seat(text)


def test_ny_is_west_not_north():
    # The old reader took the first letter: "Ny" would have been North.
    assert contract_score("4S", "Ny", 10, vul_ns=False, vul_ew=False) == -420
    assert contract_score("4S", "N", 10, vul_ns=False, vul_ew=False) == 420


@given(
    level=st.integers(1, 7),
    strain=st.sampled_from(sorted(ENGLISH_STRAINS)),
    doubled=st.integers(0, 2),
    data=st.data(),
)
def test_english_and_hungarian_forms_parse_to_the_same_contract(level, strain, doubled, data):
    english = data.draw(st.sampled_from(ENGLISH_STRAINS[strain]))
    hungarian = data.draw(st.sampled_from(HUNGARIAN_STRAINS[strain]))
    space = data.draw(st.sampled_from(["", " "]))
    double_mark = data.draw(st.sampled_from(["X", "x", "*"])) * doubled
    expected = Contract(level, strain, doubled)
    assert parse_contract(f"{level}{english}{double_mark}") == expected
    assert parse_contract(f"{level}{space}{hungarian}{space}{double_mark}") == expected
    assert str(parse_contract(f"{level}{hungarian}{double_mark}")) == str(expected)


@given(seat=st.sampled_from([("N", "É"), ("E", "K"), ("S", "D"), ("W", "Ny")]), tricks=st.integers(0, 13))
def test_hungarian_declarer_scores_the_same(seat, tricks):
    english, hungarian = seat
    assert contract_score("3NT", english, tricks, True, False) == contract_score(
        "3SZA", hungarian, tricks, True, False
    )


def test_csv_reader_takes_hungarian_notation():
    text = "tábla;ÉD;KNy;felvétel;felvevő;indulás;eredmény;ÉD pont\n1;1;2;4P;É;♥A;=;420\n2;3;4;3SZA;Ny;;+1;\n"
    rows = read_csv(text)
    assert (rows[0].contract, rows[0].declarer, rows[0].lead, rows[0].score) == ("4S", "N", "HA", 420)
    # Board 2: N-S vulnerable, E-W not; 3NT+1 by West is -430 for N-S.
    assert (rows[1].contract, rows[1].declarer, rows[1].score) == ("3NT", "W", -430)


def test_csv_reader_still_names_the_line_of_a_bad_hungarian_seat():
    with pytest.raises(CsvError) as error:
        read_csv("1;1;2;4P;Q;;=;\n")
    assert error.value.line == 1
    assert "declarer Q" in error.value.message


def test_result_of_checks_a_hungarian_entry_against_its_score():
    assert result_of(1, "1", "2", "4♠", "D", "", "=", "420")[:2] == ("4S", "S")
    with pytest.raises(ValueError, match="does not match"):
        result_of(1, "1", "2", "4♠", "K", "", "=", "420")


def test_team_room_score_takes_hungarian_notation():
    assert room_score(1, contract="4P", declarer="É", result="=") == room_score(
        1, contract="4S", declarer="N", result="="
    )
