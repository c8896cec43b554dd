import pytest

from ulti.engine.rulesets import MAUSZ, SZOLNOK, RuleSet, RuleSetError, get_ruleset, ruleset_keys


def test_mausz_numbers_from_the_rule_book():
    assert MAUSZ.place_points == (4, 2, 0)
    assert MAUSZ.tie_first_points == (3, 3, 0)
    assert MAUSZ.tie_last_points == (4, 1, 1)
    assert MAUSZ.tie_all_points == (2, 2, 2)
    assert MAUSZ.table_totals == (6,)
    assert MAUSZ.bye_points == 4
    assert (MAUSZ.rounds, MAUSZ.deals_per_round, MAUSZ.min_round_minutes) == (10, 12, 30)
    assert MAUSZ.silent_games == ("100", "four_aces", "ulti")
    assert not MAUSZ.allows_silent("durchmars")


def test_szolnok_numbers_from_the_club_rules():
    assert SZOLNOK.place_points == (3, 2, 1)
    assert SZOLNOK.tie_first_points == (3, 3, 1)
    assert SZOLNOK.tie_last_points == (3, 2, 2)
    assert SZOLNOK.tie_all_points == (2, 2, 2)
    # "6 vagy 7 pont kerül szétosztásra": 3-2-1 and 2-2-2 share 6, the two ties with a 3 share 7.
    assert SZOLNOK.table_totals == (6, 7)
    assert SZOLNOK.bye_points == 3
    assert (SZOLNOK.rounds, SZOLNOK.deals_per_round, SZOLNOK.min_round_minutes) == (6, 18, 40)
    assert SZOLNOK.allows_silent("durchmars")
    assert all(SZOLNOK.allows_silent(g) for g in ("100", "four_aces", "ulti"))


def test_registry():
    assert ruleset_keys() == ("mausz", "szolnok")
    assert get_ruleset("mausz") is MAUSZ
    assert get_ruleset(" Szolnok ") is SZOLNOK
    with pytest.raises(RuleSetError, match="unknown rule set 'bridge'"):
        get_ruleset("bridge")


@pytest.mark.parametrize("rs", [MAUSZ, SZOLNOK])
def test_round_trip(rs):
    again = RuleSet.from_dict(rs.to_dict())
    assert again == rs
    assert again.source == rs.source


def test_points_for():
    assert MAUSZ.points_for("tie_last") == (4, 1, 1)
    with pytest.raises(ValueError):
        MAUSZ.points_for("tie_middle")


def custom(**changes):
    data = MAUSZ.to_dict()
    data.update(key="klub", name="Klub")
    data.update(changes)
    return data


def test_custom_rule_set_accepted():
    rs = RuleSet.from_dict(
        custom(
            place_points=[5, 3, 1],
            tie_first_points=[4, 4, 1],
            tie_last_points=[5, 2, 2],
            tie_all_points=[3, 3, 3],
            table_totals=9,
            bye_points=5,
            rounds=7,
            silent_games=["ulti"],
        )
    )
    assert rs.table_totals == (9,)
    assert rs.silent_games == ("ulti",)
    assert rs.points_for("places") == (5, 3, 1)


@pytest.mark.parametrize(
    "changes, reason",
    [
        ({"tie_last_points": [4, 2, 1]}, "the two players tied for last must score the same"),
        ({"tie_first_points": [3, 2, 1]}, "the two players tied for first must score the same"),
        ({"tie_last_points": [5, 1, 1]}, "shares out 7 points, but the rule set states 6 per table"),
        ({"place_points": [4, 2, -0.5]}, "whole numbers"),
        ({"place_points": [6, 2, -2]}, "cannot be negative"),
        ({"place_points": [2, 4, 0]}, "out of order"),
        ({"place_points": [3, 3, 0]}, "out of order"),
        ({"tie_first_points": [1, 1, 4]}, "between the 2nd place"),
        ({"tie_all_points": [2, 2, 1]}, "everyone must score the same"),
        ({"rounds": 0}, "rounds must be a whole number of at least 1"),
        ({"deals_per_round": 0}, "deals_per_round must be"),
        ({"min_round_minutes": -30}, "min_round_minutes must be"),
        ({"bye_points": -1}, "bye_points must be"),
        ({"bye_points": 5}, "more than winning a table"),
        ({"table_totals": [6, 7]}, "no outcome shares out 7"),
        ({"table_totals": []}, "table_totals"),
        ({"table_totals": [6, 6]}, "lists a total twice"),
        ({"silent_games": ["betli"]}, "unknown game 'betli'"),
        ({"silent_games": "ulti"}, "silent_games must be a list"),
        ({"key": "Has Space"}, "rule set key"),
        ({"name": " "}, "name must not be empty"),
        ({"place_points": [4, 2]}, "exactly three points"),
        ({"colour": "red"}, "unknown rule set field(s): colour"),
        ({"rounds": True}, "rounds must be a whole number"),
    ],
)
def test_invalid_custom_rule_sets_refused_with_reason(changes, reason):
    with pytest.raises(RuleSetError) as exc:
        RuleSet.from_dict(custom(**changes))
    assert reason in str(exc.value)


def test_missing_fields_refused():
    data = custom()
    del data["bye_points"]
    del data["rounds"]
    with pytest.raises(RuleSetError, match="missing rule set field\\(s\\): bye_points, rounds"):
        RuleSet.from_dict(data)


def test_not_a_mapping_refused():
    with pytest.raises(RuleSetError, match="mapping"):
        RuleSet.from_dict([("key", "x")])


def test_every_outcome_must_match_a_stated_total():
    # Szolnok-style 3-2-1 with the 3-3-1 tie but a total of 6 only.
    with pytest.raises(
        RuleSetError, match="tie_first_points 3-3-1 shares out 7 points, but the rule set states 6"
    ):
        RuleSet.from_dict(SZOLNOK.to_dict() | {"table_totals": [6]})


def test_rule_sets_are_frozen():
    with pytest.raises(AttributeError):
        MAUSZ.bye_points = 3
