import pytest

from ulti.engine.rulesets import MAUSZ, SZOLNOK
from ulti.engine.tables import TableError, TableResult, outcome_of, score_table

# (forints of A, B, C) -> expected points of (A, B, C)
CASES = [
    # all different
    (MAUSZ, (500, -200, -300), (4, 2, 0)),
    (MAUSZ, (-300, 500, -200), (0, 4, 2)),
    (SZOLNOK, (500, -200, -300), (3, 2, 1)),
    (SZOLNOK, (-300, -200, 500), (1, 2, 3)),
    # tie for first
    (MAUSZ, (250, 250, -500), (3, 3, 0)),
    (MAUSZ, (-500, 250, 250), (0, 3, 3)),
    (SZOLNOK, (250, -500, 250), (3, 1, 3)),
    # tie for last
    (MAUSZ, (600, -300, -300), (4, 1, 1)),
    (MAUSZ, (-300, -300, 600), (1, 1, 4)),
    (SZOLNOK, (-300, 600, -300), (2, 3, 2)),
    # three-way tie (all zero: the only way three equal results sum to zero)
    (MAUSZ, (0, 0, 0), (2, 2, 2)),
    (SZOLNOK, (0, 0, 0), (2, 2, 2)),
]


@pytest.mark.parametrize("ruleset, forints, expected", CASES)
def test_every_tie_rule(ruleset, forints, expected):
    scored = score_table(TableResult("7", ("A", "B", "C"), forints), ruleset)
    assert (scored.points["A"], scored.points["B"], scored.points["C"]) == expected
    assert sum(scored.points.values()) in ruleset.table_totals
    assert scored.forints == dict(zip("ABC", forints, strict=True))


def test_outcome_names_and_shared_places():
    assert outcome_of((1, 2, -3)) == "places"
    assert outcome_of((5, 5, -10)) == "tie_first"
    assert outcome_of((10, -5, -5)) == "tie_last"
    assert outcome_of((0, 0, 0)) == "tie_all"
    scored = score_table(TableResult("1", ("A", "B", "C"), (10, -5, -5)), MAUSZ)
    assert scored.places == {"A": 1, "B": 2, "C": 2}
    assert scored.outcome == "tie_last"


def test_zero_sum_check_names_the_table():
    with pytest.raises(TableError) as exc:
        TableResult("12", ("Kiss", "Nagy", "Tóth"), (300, -100, -100))
    assert "table 12" in str(exc.value)
    assert "sum to +100, not 0" in str(exc.value)


def test_table_of_two_is_impossible():
    with pytest.raises(TableError, match="table 3: a table of 2 is impossible"):
        TableResult("3", ("A", "B"), (100, -100))


def test_table_of_four_refused():
    with pytest.raises(TableError, match="table 4: 4 players; a table seats exactly three"):
        TableResult("4", ("A", "B", "C", "D"), (100, -100, 50, -50))


def test_other_bad_tables():
    with pytest.raises(TableError, match="seated twice"):
        TableResult("5", ("A", "A", "C"), (100, -100, 0))
    with pytest.raises(TableError, match="whole number"):
        TableResult("5", ("A", "B", "C"), (100.5, -100.5, 0))
    with pytest.raises(TableError, match="3 players but 2 forint results"):
        TableResult("5", ("A", "B", "C"), (100, -100))
