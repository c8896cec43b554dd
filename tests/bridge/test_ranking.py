"""Places from totals (VSz 26): shared places, tie-breaks, Mitchell and Howell fields, input order."""

import random
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from bridge.engine.scoring.matchpoints import WHOLE
from bridge.engine.scoring.ranking import natural_key, rank, rank_field, ranking_groups
from bridge.engine.scoring.session import Entry, score_session

D = Decimal


def places(placed):
    return [(p.pair, p.place) for p in placed]


def test_equal_totals_share_the_place():
    totals = {"1": D(10), "2": D(12), "3": D(10), "4": D(8), "5": D(10)}
    assert places(rank(totals)) == [("2", "1"), ("1", "2-4"), ("3", "2-4"), ("5", "2-4"), ("4", "5")]


def test_a_hundredth_decides_by_computer():
    assert places(rank({"1": D("50.01"), "2": D("50.00")})) == [("1", "1"), ("2", "2")]
    # totals equal to the hundredth are equal, whatever digits lie beyond
    assert places(rank({"1": D("50.004"), "2": D("50.001")})) == [("1", "1-2"), ("2", "1-2")]


def test_one_matchpoint_decides_by_hand():
    totals = {"1": D("120.4"), "2": D("119.6"), "3": D("118")}
    assert places(rank(totals, resolution=WHOLE)) == [("1", "1-2"), ("2", "1-2"), ("3", "3")]


def test_an_announced_tie_break_separates_equal_totals():
    totals = {"1": D(10), "2": D(10), "3": D(10), "4": D(9)}
    head_to_head = {"1": 2, "2": 5, "3": 2, "4": 0}
    assert places(rank(totals, tie_break=head_to_head.get)) == [
        ("2", "1"),
        ("1", "2-3"),
        ("3", "2-3"),
        ("4", "4"),
    ]


def test_equal_totals_are_listed_by_pair_number():
    totals = {"10": D(5), "2": D(5), "A10": D(5), "A2": D(5), "1": D(7)}
    assert [p.pair for p in rank(totals)] == ["1", "2", "10", "A2", "A10"]
    assert natural_key("2") < natural_key("10") < natural_key("A1")


def test_mitchell_ranks_each_direction_howell_together():
    totals = {"1": D(30), "2": D(20), "3": D(25), "4": D(20)}
    mitchell = rank_field(totals, {"1": "NS", "2": "NS", "3": "EW", "4": "EW"})
    assert [(p.pair, p.place, p.direction) for p in mitchell] == [
        ("1", "1", "NS"),
        ("2", "2", "NS"),
        ("3", "1", "EW"),
        ("4", "2", "EW"),
    ]
    howell = rank_field(totals, {"1": None, "2": None, "3": None, "4": None})
    assert [(p.pair, p.place, p.direction) for p in howell] == [
        ("1", "1", None),
        ("3", "2", None),
        ("2", "3-4", None),
        ("4", "3-4", None),
    ]
    assert ranking_groups({"1": "NS", "2": None}) == [(None, ["1", "2"])]


def test_session_ranking_mitchell_and_howell():
    mitchell = score_session(
        {1: [Entry("1", "3", 420), Entry("2", "4", 400)], 2: [Entry("1", "4", 100), Entry("2", "3", 50)]}
    )
    # NS 1 tops both boards; EW 3 and EW 4 each top one board
    assert [(p.pair, p.place, p.direction) for p in mitchell.ranking] == [
        ("1", "1", "NS"),
        ("2", "2", "NS"),
        ("3", "1-2", "EW"),
        ("4", "1-2", "EW"),
    ]
    howell = score_session(
        {1: [Entry("1", "2", 420), Entry("3", "4", 400)], 2: [Entry("4", "1", 100), Entry("2", "3", 50)]}
    )
    # pair 1: 2 (NS) + 0 (EW); pair 2: 0 + 0; pair 3: 0 + 2; pair 4: 2 + 2
    assert [(p.pair, p.place, p.direction) for p in howell.ranking] == [
        ("4", "1", None),
        ("1", "2-3", None),
        ("3", "2-3", None),
        ("2", "4", None),
    ]


def test_pairs_with_different_numbers_of_boards_are_ranked_by_percentage():
    # pair 5 sat out board 2 (no artificial score was entered), so it is compared on its percentage
    boards = {
        1: [Entry("1", "11", 100), Entry("2", "12", 200), Entry("5", "15", 300)],
        2: [Entry("1", "12", 300), Entry("2", "11", 200)],
    }
    result = score_session(boards, full_results=3)
    ns = [(p.pair, p.place) for p in result.ranking if p.direction == "NS"]
    assert result.pairs["5"].percentage == 100
    assert ns[0] == ("5", "1")


totals_strategy = st.dictionaries(
    st.from_regex(r"[1-9][0-9]?", fullmatch=True),
    st.decimals(min_value=0, max_value=60, places=2, allow_nan=False, allow_infinity=False),
    min_size=1,
    max_size=25,
)


@given(totals_strategy, st.randoms(use_true_random=False))
def test_ranking_does_not_depend_on_input_order(totals, rnd):
    items = list(totals.items())
    rnd.shuffle(items)
    assert rank(dict(items)) == rank(totals)


@given(totals_strategy)
def test_places_follow_totals(totals):
    placed = rank(totals)
    assert [p.total for p in placed] == sorted(totals.values(), reverse=True)
    for p in placed:
        better = sum(1 for total in totals.values() if total > p.total)
        equal = sum(1 for total in totals.values() if total == p.total)
        assert p.place == (str(better + 1) if equal == 1 else f"{better + 1}-{better + equal}")


def test_session_ranking_does_not_depend_on_the_order_of_tables():
    rnd = random.Random(7)
    scores = [-200, -100, 90, 110, 140, 420, 450]
    boards = {b: [Entry(str(t), str(10 + t), rnd.choice(scores)) for t in range(1, 9)] for b in range(1, 5)}
    shuffled = {}
    for b in reversed(list(boards)):
        rows = list(boards[b])
        rnd.shuffle(rows)
        shuffled[b] = rows
    assert score_session(shuffled).ranking == score_session(boards).ranking
