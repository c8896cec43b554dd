"""Ranking lists: shared places, stable order, independent of the input order."""

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from rankings.engine.standings_list import place_label, rank


def test_equal_totals_share_the_place_and_print_by_name():
    rows = [
        ("Kiss", 1, Decimal(5)),
        ("Nagy", 2, Decimal(9)),
        ("Antal", 3, Decimal(5)),
        ("Bíró", 4, Decimal(1)),
    ]
    ranked = rank(rows, score=lambda r: r[2], order_key=lambda r: (r[0], r[1]))
    assert [(r.place, r.item[0]) for r in ranked] == [
        ("1", "Nagy"),
        ("2-3", "Antal"),
        ("2-3", "Kiss"),
        ("4", "Bíró"),
    ]
    assert [r.position for r in ranked] == [1, 2, 3, 4]
    assert place_label(3, 4) == "3-4" and place_label(7, 7) == "7"


def test_tuples_compare_as_a_whole():
    rows = [(1, 10, 500), (2, 10, -300), (3, 12, -9000), (4, 10, 500)]
    ranked = rank(rows, score=lambda r: (r[1], r[2]), order_key=lambda r: r[0])
    assert [(r.item[0], r.place) for r in ranked] == [(3, "1"), (1, "2-3"), (4, "2-3"), (2, "4")]


entries = st.lists(
    st.tuples(st.integers(0, 10_000), st.decimals(min_value=0, max_value=50, places=1)),
    unique_by=lambda e: e[0],
    max_size=60,
)


@given(entries, st.randoms(use_true_random=False))
def test_the_list_does_not_depend_on_the_input_order(rows, rnd):
    shuffled = list(rows)
    rnd.shuffle(shuffled)
    one = rank(rows, score=lambda r: r[1], order_key=lambda r: r[0])
    two = rank(shuffled, score=lambda r: r[1], order_key=lambda r: r[0])
    assert [(r.item, r.place_from, r.place_to, r.position) for r in one] == [
        (r.item, r.place_from, r.place_to, r.position) for r in two
    ]


@given(entries)
def test_places_are_consistent(rows):
    ranked = rank(rows, score=lambda r: r[1], order_key=lambda r: r[0])
    for i, r in enumerate(ranked):
        assert r.place_from <= r.position <= r.place_to
        same = [x for x in ranked if x.item[1] == r.item[1]]
        assert r.place_to - r.place_from + 1 == len(same)
        if i:
            assert ranked[i - 1].item[1] >= r.item[1]
