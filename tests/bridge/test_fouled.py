"""Fouled boards (VSz 27) and boards played fewer times (VSz 28, Neuberg)."""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridge.engine.scoring.fouled import neuberg, neuberg_from_raw, small_group_percentages
from bridge.engine.scoring.matchpoints import matchpoints, raw_matchpoints, round_board, top
from bridge.engine.scoring.session import Entry, score_session

D = Decimal


def test_neuberg_worked_example_two_per_beaten():
    # A board that should have 10 results (top 18) has 8: within the group the top is 14.
    # VSz 28: P = (N x T + N - n) / n = (10 T + 2) / 8
    assert neuberg(D(14), 8, 10) == D("17.75")
    assert neuberg(D(0), 8, 10) == D("0.25")
    assert neuberg(D(7), 8, 10) == D(9)  # an average result stays exactly average (9 of 18)


def test_neuberg_worked_example_one_per_beaten():
    # The same board on the 1-per-beaten scale: group top 7, full top 9; P = (N x T + (N - n)/2) / n
    assert neuberg(D(7), 8, 10, scale=1) == D("8.875")
    assert neuberg(D("3.5"), 8, 10, scale=1) == D("4.5")
    assert neuberg(D(0), 8, 10, scale=1) == D("0.125")


def test_neuberg_refuses_a_group_larger_than_the_board():
    with pytest.raises(ValueError):
        neuberg(D(3), 5, 4)
    with pytest.raises(ValueError):
        neuberg(D(0), 0, 4)


@given(n=st.integers(1, 30), scale=st.sampled_from([1, 2]), data=st.data())
def test_neuberg_with_every_result_present_changes_nothing(n, scale, data):
    mp = data.draw(st.integers(0, 2 * (n - 1))) * D(scale) / 2
    assert neuberg(mp, n, n, scale) == mp


@given(
    scores=st.lists(st.sampled_from([-200, -100, 90, 110, 140, 420, 450]), min_size=1, max_size=12),
    missing=st.integers(0, 10),
)
def test_neuberg_keeps_the_groups_average_at_fifty_percent(scores, missing):
    n, full = len(scores), len(scores) + missing
    raws = raw_matchpoints(scores)
    # sum of P = sum of (N T + N - n) / n must be n (N - 1): half the full top for each result
    assert sum(full * raw + full - n for raw in raws) == n * n * (full - 1)
    assert all(0 <= neuberg_from_raw(raw, n, full) <= top(full) for raw in raws)


@given(st.lists(st.sampled_from([-100, 90, 110, 420, 450]), min_size=1, max_size=12), st.sampled_from([1, 2]))
def test_neuberg_in_scale_two_units_matches_the_scaled_formula(scores, scale):
    n, full = len(scores), len(scores) + 3
    for raw, mp in zip(raw_matchpoints(scores), matchpoints(scores, scale), strict=True):
        assert round_board(neuberg_from_raw(raw, n, full) * D(scale) / 2) == round_board(
            neuberg(mp, n, full, scale)
        )


@pytest.mark.parametrize(
    ("scores", "ns_percent"),
    [
        ([420], [60]),  # a: one result, 60% on each line
        ([420, 420], [60, 60]),  # b: two equal results, 60% each
        ([420, 450], [55, 65]),  # b: the better 65%, the worse 55%
        ([100, 200, 300], [50, 60, 70]),  # c: 70 / 60 / 50
        ([300, 300, 100], [65, 65, 50]),  # c: two equal better results share 70 and 60
        ([300, 100, 100], [70, 55, 55]),  # c: two equal worse results share 60 and 50
        ([140, 140, 140], [60, 60, 60]),  # c: three equal results, 60% each
    ],
)
def test_small_fouled_groups_get_fixed_percentages(scores, ns_percent):
    assert small_group_percentages(scores) == [D(p) for p in ns_percent]


def test_small_groups_are_one_to_three_results():
    with pytest.raises(ValueError):
        small_group_percentages([])
    with pytest.raises(ValueError):
        small_group_percentages([1, 2, 3, 4])


def fouled_session():
    """Eight tables; board 1 was fouled after five plays (group a: 5 results, group b: 3 results)."""
    board_1 = [
        Entry("N1", "E11", 400, group="a"),
        Entry("N2", "E12", 420, group="a"),
        Entry("N3", "E13", 420, group="a"),
        Entry("N4", "E14", 450, group="a"),
        Entry("N5", "E15", -100, group="a"),
        Entry("N6", "E16", 300, group="b"),
        Entry("N7", "E17", 200, group="b"),
        Entry("N8", "E18", 100, group="b"),
    ]
    # Board 2 was played normally: N6 tops it (100%), E18 scores exactly 50%.
    scores_2 = {"N1": -100, "N2": 100, "N3": 140, "N4": 170, "N5": 200, "N6": 620, "N7": 400, "N8": 170}
    board_2 = [Entry(f"N{i}", f"E{10 + i}", scores_2[f"N{i}"]) for i in range(1, 9)]
    return score_session({1: board_1, 2: board_2})


def test_fouled_board_worked_example():
    result = fouled_session()
    assert result.top == 14
    by_ns = {row.ns: row for row in result.boards[1]}
    # Group a (5 of 8 results): matchpointed within the group, then Neuberg P = (8 T + 3) / 5
    assert [by_ns[p].mp_ns for p in ("N1", "N2", "N3", "N4", "N5")] == [
        D("3.8"),
        D("8.6"),
        D("8.6"),
        D("13.4"),
        D("0.6"),
    ]
    assert [by_ns[p].mp_ew for p in ("N1", "N2", "N3", "N4", "N5")] == [
        D("10.2"),
        D("5.4"),
        D("5.4"),
        D("0.6"),
        D("13.4"),
    ]
    # Group b (3 results): 70 / 60 / 50% of the full top on each line ...
    assert by_ns["N7"].mp_ns == D("8.4") and by_ns["N7"].mp_ew == D("8.4")
    assert by_ns["N8"].mp_ns == D("7.0")
    assert by_ns["N6"].mp_ew == D("7.0")
    # ... but the best result gets average-plus if that is higher: N6 averaged 100% on the boards it played
    # normally, so its 70% becomes 100%; E18 (best EW result) averaged only 50%, so it keeps 70%.
    assert result.averages["N6"] == D(100)
    assert by_ns["N6"].mp_ns == D(14) and by_ns["N6"].pct_ns == D(100)
    assert result.averages["E18"] == D(50)
    assert by_ns["N8"].mp_ew == D("9.8") and by_ns["N8"].pct_ew == D(70)


def test_fouled_board_single_result_group_gets_sixty_or_average_plus():
    board = [Entry(f"N{i}", f"E{i}", 100 + 10 * i, group="a") for i in range(1, 8)] + [
        Entry("N8", "E8", -50, group="b")
    ]
    other = [Entry(f"N{i}", f"E{i}", 1000 - 10 * i) for i in range(1, 9)]  # N8's 920 is the worst NS score
    result = score_session({1: board, 2: other})
    alone = result.boards[1][-1]
    # N8 averaged 0% elsewhere: average-plus is then 60%; E8 averaged 100%: it gets 100%
    assert (alone.pct_ns, alone.pct_ew) == (D(60), D(100))


def test_board_played_fewer_times_uses_neuberg_for_its_results():
    boards = {
        1: [Entry("1", "5", 420), Entry("2", "6", 450), Entry("3", "7", -50), Entry("4", "8", 420)],
        2: [Entry("1", "6", 100), Entry("2", "7", 110), Entry("3", "8", 140)],
    }
    rows = score_session(boards).boards[2]
    # within the 3 results the NS raw scores are 0, 2, 4; P = (4 T + 1) / 3
    assert [r.mp_ns for r in rows] == [D("0.33"), D(3), D("5.67")]
    assert [r.mp_ew for r in rows] == [D("5.67"), D(3), D("0.33")]
