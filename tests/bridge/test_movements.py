from collections import Counter
from itertools import combinations

import pytest

from bridge.engine.movements import PHANTOM, guide_cards, howell, mitchell, validate


@pytest.mark.parametrize("tables", [3, 5, 7, 9, 13])
def test_odd_mitchell_every_ns_meets_every_ew_and_every_set_once(tables):
    movement = mitchell(tables)
    check = validate(movement)
    assert check.ok
    assert movement.rounds == tables
    ns, ew = range(1, tables + 1), range(tables + 1, 2 * tables + 1)
    assert set(check.meetings) == {(a, b) for a in ns for b in ew}
    assert set(check.plays_per_set.values()) == {tables}
    for pair in movement.pairs:
        assert check.boards_share[pair] == 1.0
        assert check.opponents_share[pair] >= 0.5  # VSz 24: at least half the field


def test_mitchell_moves_ew_up_and_boards_down():
    movement = mitchell(5)
    first, second = movement.round_plan(1), movement.round_plan(2)
    ew_at = {a.table: a.ew for a in first}
    set_at = {a.table: a.board_set for a in first}
    for a in second:
        assert a.ns == a.table  # NS stationary
        assert ew_at[(a.table - 2) % 5 + 1] == a.ew  # EW came from the table below
        assert set_at[a.table % 5 + 1] == a.board_set  # boards came from the table above


@pytest.mark.parametrize("tables", [2, 4, 6, 8, 10, 12])
def test_skip_mitchell_even_tables_never_replays_boards(tables):
    movement = mitchell(tables, even_method="skip")
    check = validate(movement)
    assert movement.rounds == tables - 1
    assert check.ok, (check.repeated_sets, check.repeated_meetings)
    assert not check.repeated_sets
    assert check.equal_plays
    with pytest.raises(ValueError):
        mitchell(tables, even_method="skip", rounds=tables)


@pytest.mark.parametrize("tables", [2, 4, 6, 8, 10, 12])
def test_relay_bye_stand_mitchell(tables):
    movement = mitchell(tables, even_method="relay")
    check = validate(movement)
    assert movement.rounds == tables
    assert check.ok and not check.repeated_sets
    assert set(check.plays_per_set.values()) == {tables}
    for round_no in range(1, tables + 1):
        plan = {a.table: a for a in movement.round_plan(round_no)}
        assert plan[1].board_set == plan[tables].board_set  # the relay
        assert plan[1].relay_with == tables
        in_play = {a.board_set for a in plan.values()}
        assert len(in_play) == tables - 1  # one set rests on the bye-stand


def test_mitchell_with_fewer_rounds_is_still_balanced():
    check = validate(mitchell(9, rounds=6))
    assert check.ok
    assert set(check.plays_per_set.values()) == {6}


def test_arrow_switch_follows_vsz_13():
    movement = mitchell(3, arrow_switch_rounds=[3])
    for a in movement.round_plan(3):
        assert a.arrow_switched
        assert a.ew == a.table  # the stationary NS pair now plays the EW cards
    cards = guide_cards(movement)
    ns_pair_last = cards[1][-1]
    assert (ns_pair_last.direction, ns_pair_last.seats) == ("EW", ("E", "W"))  # N->E, S->W
    ew_pair_last = cards[4][-1]
    assert (ew_pair_last.direction, ew_pair_last.seats) == ("NS", ("S", "N"))  # E->S, W->N
    assert cards[1][0].seats == ("N", "S")
    assert validate(movement).ok


def test_mitchell_rejects_bad_parameters():
    with pytest.raises(ValueError):
        mitchell(1)
    with pytest.raises(ValueError):
        mitchell(4, even_method="howell")
    with pytest.raises(ValueError):
        mitchell(5, rounds=6)
    with pytest.raises(ValueError):
        mitchell(5, arrow_switch_rounds=[6])
    with pytest.raises(ValueError):
        mitchell(5, boards_per_round=0)


@pytest.mark.parametrize("pairs", range(3, 25))
def test_complete_howell(pairs):
    movement = howell(pairs, boards_per_round=3)
    check = validate(movement)
    assert check.ok
    size = pairs + pairs % 2
    assert movement.rounds == size - 1 and movement.tables == size // 2
    # Every pair meets every other once (the phantom's "opponents" sit out instead).
    assert set(check.meetings) == set(combinations(range(1, pairs + 1), 2))
    assert set(check.meetings.values()) == {1}
    # Every set is played equally often, and a pair plays every set once (bar its sit-out).
    assert len(set(check.plays_per_set.values())) == 1
    cards = guide_cards(movement)
    for entries in cards.values():
        assert len(entries) == movement.rounds
        sets = [e.board_set for e in entries if e.table is not None]
        assert len(sets) == len(set(sets))
        assert len(sets) == movement.board_sets - (pairs % 2)
        assert all(len(e.boards) == 3 for e in entries if e.table is not None)
    if pairs % 2:
        assert Counter(p for _, p in movement.sit_outs) == Counter(range(1, pairs + 1))
        assert all(a.ns != PHANTOM and a.ew != PHANTOM for a in movement.assignments)


def test_howell_patterned_pairs_move_one_table_at_most():
    movement = howell(8)
    cards = guide_cards(movement)
    for entries in cards.values():
        tables = [e.table for e in entries]
        assert all(abs(a - b) <= 1 for a, b in zip(tables, tables[1:], strict=False))


def test_howell_limits():
    with pytest.raises(ValueError):
        howell(2)
    with pytest.raises(ValueError):
        howell(40)


def test_guide_cards_boards_follow_the_sets():
    movement = mitchell(5, boards_per_round=3)
    for entries in guide_cards(movement).values():
        for e in entries:
            assert e.boards == tuple(range(3 * e.board_set - 2, 3 * e.board_set + 1))


def _codes(movement):
    from bridge.engine.movements import check_vsz24

    return {f.code: f for f in check_vsz24(movement)}


def test_vsz24_check_passes_a_7_table_mitchell_and_a_howell():
    # 7 tables, 7 rounds: each pair meets 7 of the 13 others (53.8%) and plays every set
    assert _codes(mitchell(7)) == {}
    assert _codes(howell(8)) == {}


def test_vsz24_check_warns_on_a_two_table_mitchell():
    # the 2-table skip Mitchell is one round: each pair meets 1 of 3 others and plays 1 of 2 sets
    codes = _codes(mitchell(2))
    assert set(codes) == {"two_table_mitchell", "few_opponents", "few_boards"}
    assert codes["two_table_mitchell"].params == {"tables": 2, "pairs": 4}
    assert codes["few_opponents"].params["lowest"] == 33.3
    assert codes["few_boards"].params["lowest"] == 50.0


def test_vsz24_check_counts_opponents_and_boards_shares():
    # 7 tables cut to 3 rounds: 3 of 13 opponents (23.1%), 3 of 7 sets (42.9%); each set still 3 times
    codes = _codes(mitchell(7, rounds=3))
    assert codes["few_opponents"].params["lowest"] == 23.1 and codes["few_opponents"].severity == "warning"
    assert codes["few_opponents"].params["pairs"] == list(range(1, 15))
    assert codes["few_boards"].params["lowest"] == 42.9
    assert "unequal_plays" not in codes


def test_vsz24_check_refuses_unequal_plays_as_an_error():
    from dataclasses import replace

    plan = mitchell(5)
    # drop one table-round: set of that table is played 4 times, the others 5
    dropped = plan.assignments[0]
    broken = replace(plan, assignments=plan.assignments[1:])
    codes = _codes(broken)
    assert codes["unequal_plays"].severity == "error"
    assert codes["unequal_plays"].params["fewest"] == 4 and codes["unequal_plays"].params["most"] == 5
    assert codes["unequal_plays"].params["sets"] == [dropped.board_set]
