"""The award engine: scheme -> award per placing; shared places, multiplier, VSz 25 rights."""

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rankings.engine import awards
from rankings.engine.awards import ClassRule, Placing, Share

RULE = ClassRule(
    first=Decimal("10"), per_entry=Decimal("0.5"), max_first=Decimal("20"), share=Decimal("0.5"), min_field=4
)
SCHEME = awards.Scheme(classes={"club": RULE})


def test_linear_points_down_to_the_last_scoring_place():
    # 10 entries: half of the field (5 places) scores; first = 10 + 0.5 * 10 = 15.
    assert awards.scoring_places(RULE, 10) == 5
    assert [awards.place_points(RULE, 10, p) for p in range(1, 7)] == [15, 12, 9, 6, 3, 0]


def test_first_place_is_capped_and_small_fields_earn_nothing():
    assert awards.first_place_points(RULE, 40) == Decimal(20)
    assert awards.scoring_places(RULE, 3) == 0
    assert awards.award_lines(SCHEME, "club", 3, None, [Placing("a", 1, 1, (Share(1),))]) == []


def test_a_shared_place_splits_the_points_of_the_places_it_covers():
    # Places 2-3 of 10 share (12 + 9) / 2 = 10.5 each; with multiplier 1.5 -> 15.75.
    lines = awards.award_lines(
        SCHEME, "club", 10, Decimal("1.5"), [Placing("a", 2, 3, (Share(1),)), Placing("b", 2, 3, (Share(2),))]
    )
    assert [(line.person_id, line.amount) for line in lines] == [(1, Decimal("15.75")), (2, Decimal("15.75"))]


def test_rounding_is_half_up_to_hundredths():
    rule = ClassRule(first=Decimal("1"), share=Decimal("1"), min_field=1)
    scheme = awards.Scheme(classes={"x": rule})
    # 3 places: 1, 2/3, 1/3 -> 0.67 and 0.33; multiplier 0.5 of 1/3 -> 0.1666.. -> 0.17.
    lines = awards.award_lines(scheme, "x", 3, Decimal("0.5"), [Placing("c", 3, 3, (Share(9),))])
    assert lines[0].amount == Decimal("0.17")


def test_classes_not_in_the_scheme_and_zero_multiplier_earn_nothing():
    placing = [Placing("a", 1, 1, (Share(1),))]
    assert awards.award_lines(SCHEME, "national", 10, None, placing) == []
    assert awards.award_lines(SCHEME, "club", 10, Decimal(0), placing) == []


def test_every_pair_player_with_rights_gets_the_full_award():
    lines = awards.award_lines(SCHEME, "club", 10, None, [Placing("a", 1, 1, (Share(1), Share(2)))])
    assert {line.person_id: line.amount for line in lines} == {1: Decimal(15), 2: Decimal(15)}


@pytest.mark.parametrize(
    "shares, expected",
    [
        # Under half of the boards: no rights.
        ((Share(1, Fraction(1, 2)), Share(2, Fraction(49, 100))), [1]),
        # Substitute played more than the original: the substitute gets the rights.
        ((Share(1, Fraction(4, 10)), Share(2, Fraction(6, 10), substitute_for=1), Share(3)), [2, 3]),
        # Equal boards: the original entrant.
        ((Share(1, Fraction(1, 2)), Share(2, Fraction(1, 2), substitute_for=1), Share(3)), [1, 3]),
        # Explicit rights (ulti sources) win over fractions.
        ((Share(1, has_rights=False), Share(2, has_rights=True)), [2]),
        # Floats and Decimals are accepted.
        ((Share(1, 0.5), Share(2, Decimal("0.2"))), [1]),
    ],
)
def test_rights_of_vsz_25(shares, expected):
    assert awards.players_with_rights(shares) == expected


def test_scheme_round_trip_and_validation():
    data = awards.DEFAULT_SCHEMES["bridge"]
    scheme = awards.scheme_from_dict(data)
    assert awards.scheme_from_dict(awards.scheme_to_dict(scheme)) == scheme
    with pytest.raises(awards.SchemeError, match="share"):
        awards.scheme_from_dict({"classes": {"club": {"first": "1", "share": "1.5"}}})
    with pytest.raises(awards.SchemeError, match="negative"):
        awards.scheme_from_dict({"classes": {"club": {"first": "-1"}}})
    with pytest.raises(awards.SchemeError, match="not a number"):
        awards.scheme_from_dict({"classes": {"club": {"first": "sok"}}})


def test_qualification_thresholds():
    scheme = awards.scheme_from_dict(awards.DEFAULT_SCHEMES["ulti"])
    assert awards.qualification_for(scheme, Decimal("150")).code == "I"
    assert awards.qualification_for(scheme, Decimal("40")).code == "II"
    assert awards.qualification_for(scheme, Decimal("9.99")) is None


rules = st.builds(
    ClassRule,
    first=st.decimals(min_value=0, max_value=100, places=2),
    per_entry=st.decimals(min_value=0, max_value=2, places=2),
    max_first=st.none(),
    share=st.decimals(min_value=Decimal("0.05"), max_value=1, places=2),
    min_field=st.integers(1, 10),
)


@given(rules, st.integers(1, 200), st.data())
def test_awards_are_monotone_in_place(rule, field, data):
    a = data.draw(st.integers(1, field))
    b = data.draw(st.integers(a, field))
    assert awards.place_points(rule, field, a) >= awards.place_points(rule, field, b)


@given(rules, st.integers(1, 120), st.data())
def test_a_shared_place_lies_between_its_ends_and_keeps_the_total(rule, field, data):
    a = data.draw(st.integers(1, field))
    b = data.draw(st.integers(a, field))
    shared = awards.placing_points(rule, field, a, b)
    assert awards.place_points(rule, field, b) <= shared <= awards.place_points(rule, field, a)
    total = sum(awards.place_points(rule, field, p) for p in range(a, b + 1))
    assert shared * (b - a + 1) == total
