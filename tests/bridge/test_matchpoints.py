"""Law 78A matchpoints, percentages and the VSz 26 rounding rules (by computer and by hand)."""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridge.engine.scoring.matchpoints import (
    Rounding,
    matchpoints,
    percent_of_top,
    percentage,
    raw_matchpoints,
    raw_percentage,
    round_board,
    round_total,
    top,
)
from bridge.engine.scoring.session import Entry, score_session

D = Decimal


def test_two_per_result_beaten_one_per_equal():
    # -50 beats nobody; 170 beats one; the two 420s beat two and tie with each other; 450 beats four.
    scores = [420, 420, 450, -50, 170]
    assert matchpoints(scores) == [5, 5, 8, 0, 2]
    assert top(len(scores)) == 8


def test_one_per_result_beaten_scale():
    assert matchpoints([420, 420, 450, -50, 170], scale=1) == [D("2.5"), D("2.5"), 4, 0, 1]
    assert top(5, scale=1) == 4


def test_scale_must_be_one_or_two():
    with pytest.raises(ValueError, match="scale"):
        matchpoints([1, 2], scale=3)


def test_percentages_to_hundredths():
    assert percentage(D(5), D(8)) == D("62.50")
    assert percentage(D(1), D(3)) == D("33.33")
    assert percentage(D(2), D(3)) == D("66.67")
    # a board nobody could be compared on counts as average
    assert percentage(D(0), D(0)) == D(50)


def test_computer_rounding_is_half_up_to_hundredths():
    # VSz 26 b: 0.005 already rounds up, which banker's rounding (half-even) would not do
    assert round_board(D("0.125")) == D("0.13")
    assert round_board(D("2.675")) == D("2.68")
    assert round_board(D("2.674999")) == D("2.67")
    assert round_total(D("162.505")) == D("162.51")


def test_hand_rounding_tenths_per_board_whole_per_session():
    # VSz 26 a: board matchpoints and penalties to one decimal, the session total to whole matchpoints
    assert round_board(D("3.45"), Rounding.HAND) == D("3.5")
    assert round_board(D("3.44"), Rounding.HAND) == D("3.4")
    assert round_total(D("162.5"), Rounding.HAND) == D("163")
    assert round_total(D("162.49"), Rounding.HAND) == D("162")


def test_percent_of_top_is_rounded_like_a_board():
    assert percent_of_top(D(60), D(24)) == D("14.40")
    assert percent_of_top(D("83.33"), D(6)) == D("5.00")  # 4.9998
    assert percent_of_top(D("83.33"), D(6), Rounding.HAND) == D("5.0")
    assert percent_of_top(D(55), D(25), Rounding.HAND) == D("13.8")  # 13.75 rounds up


def test_hand_and_computer_sessions_differ_only_in_rounding():
    # Board 1 is played 3 times out of 4, so Neuberg gives thirds: 0.33.., 3, 5.66..
    boards = {
        1: [Entry("1", "5", 100), Entry("2", "6", 110), Entry("3", "7", 140)],
        2: [Entry("1", "6", 420), Entry("2", "7", 420), Entry("3", "8", 450), Entry("4", "5", -50)],
    }
    computer = score_session(boards)
    hand = score_session(boards, rounding="hand")
    assert [r.mp_ns for r in computer.boards[1]] == [D("0.33"), D("3.00"), D("5.67")]
    assert [r.mp_ns for r in hand.boards[1]] == [D("0.3"), D("3.0"), D("5.7")]
    # pair 3: 5.67 + 6 = 11.67 by computer; 5.7 + 6 = 11.7, rounded to a whole 12 by hand
    assert computer.pairs["3"].total == D("11.67")
    assert hand.pairs["3"].total == D("12")
    # pair 1: 0.3 + 3 = 3.3 by hand -> 3; pair 2: 3.0 + 3 = 6
    assert hand.pairs["1"].total == D("3")


def test_raw_percentage_matches_decimal_percentage():
    for raw_top in (1, 2, 6, 8, 24, 998):
        for raw in range(raw_top + 1):
            assert raw_percentage(raw, raw_top) == percentage(D(raw), D(raw_top))


board_scores = st.lists(
    st.sampled_from([-1100, -200, -100, -50, 0, 50, 90, 110, 140, 400, 420, 430, 450, 990]),
    min_size=1,
    max_size=40,
)


@given(board_scores)
def test_matchpoints_on_a_board_sum_to_n_times_n_minus_one(scores):
    n = len(scores)
    assert sum(raw_matchpoints(scores)) == n * (n - 1)
    assert sum(matchpoints(scores, scale=1)) == D(n * (n - 1)) / 2


@given(board_scores)
def test_a_better_score_never_gets_fewer_matchpoints(scores):
    mps = matchpoints(scores)
    for a, mp_a in zip(scores, mps, strict=True):
        for b, mp_b in zip(scores, mps, strict=True):
            if a > b:
                assert mp_a > mp_b
            elif a == b:
                assert mp_a == mp_b


@given(board_scores)
def test_matchpoints_agree_with_counting_every_comparison(scores):
    expected = [sum(2 if s > o else 1 if s == o else 0 for o in scores) - 1 for s in scores]
    assert raw_matchpoints(scores) == expected


@given(board_scores)
def test_session_board_matchpoints_are_top_minus_each_other(scores):
    boards = {1: [Entry(f"N{i}", f"E{i}", score) for i, score in enumerate(scores)]}
    result = score_session(boards)
    for row in result.boards[1]:
        assert row.mp_ns + row.mp_ew == result.top


def test_a_thousand_pair_field_is_scored_without_quadratic_work():
    import random
    import time

    rnd = random.Random(1)
    scores = [-1100, -200, -100, -50, 90, 110, 140, 400, 420, 430, 450, 620, 990]
    boards = {
        b: [Entry(f"{t}", f"{t + 500}", rnd.choice(scores)) for t in range(1, 501)] for b in range(1, 27)
    }
    started = time.perf_counter()
    result = score_session(boards)
    elapsed = time.perf_counter() - started
    # each line shares n(n - 1) matchpoints on every board
    assert sum(pair.total for pair in result.pairs.values()) == 26 * 2 * 500 * 499
    assert len(result.ranking) == 1000
    assert elapsed < 2  # typically a few hundredths of a second; a quadratic loop would take minutes


def _reference_session(boards, full, scale, rounding):
    """VSz 26-28 by the book, in Fractions, one result at a time: (rows per board, totals, percentages)."""
    from fractions import Fraction

    step = Fraction(1, 100) if rounding == Rounding.COMPUTER else Fraction(1, 10)

    def half_up(value, unit):
        return (value / unit + Fraction(1, 2)).__floor__() * unit

    top_ = scale * (full - 1)
    rows, totals, played = {}, {}, {}
    for board, entries in boards.items():
        n = len(entries)
        rows[board] = []
        for entry in entries:
            others = [e.score for e in entries]
            raw = sum(2 if entry.score > s else 1 if entry.score == s else 0 for s in others) - 1
            sides = []
            for points in (raw, 2 * (n - 1) - raw):
                exact = Fraction(full * points + full - n, n) * Fraction(scale, 2)  # Neuberg (VSz 28)
                sides.append(exact if n == full else half_up(exact, step))
            pcts = [half_up(mp * 100 / top_, Fraction(1, 100)) for mp in sides]
            rows[board].append((*sides, *pcts))
            for pair, mp in ((entry.ns, sides[0]), (entry.ew, sides[1])):
                totals[pair] = totals.get(pair, 0) + mp
                played[pair] = played.get(pair, 0) + 1
    whole = Fraction(1, 100) if rounding == Rounding.COMPUTER else Fraction(1)
    totals = {pair: half_up(total, whole) for pair, total in totals.items()}
    percents = {
        pair: half_up(total * 100 / (top_ * played[pair]), Fraction(1, 100)) for pair, total in totals.items()
    }
    return rows, totals, percents


@pytest.mark.parametrize("seed", range(12))
def test_the_array_scoring_agrees_with_scoring_by_the_book(seed):
    """Fields scored in arrays (complete boards, boards played fewer times, both roundings and scales)
    agree to the hundredth with a result-by-result Fraction computation of VSz 26-28."""
    import random
    from fractions import Fraction

    rnd = random.Random(seed)
    scale, rounding = rnd.choice((1, 2)), rnd.choice((Rounding.COMPUTER, Rounding.HAND))
    tables = rnd.randint(2, 30)
    scores = [-800, -200, -100, -50, 90, 110, 120, 140, 170, 400, 420, 450, 620, 1430]
    boards = {}
    for board in range(1, rnd.randint(2, 12) + 1):
        playing = rnd.sample(range(tables), rnd.randint(1, tables) if rnd.random() < 0.4 else tables)
        boards[board] = [Entry(f"N{t}", f"E{t}", rnd.choice(scores)) for t in sorted(playing)]
    full = max(len(entries) for entries in boards.values())
    result = score_session(boards, scale=scale, rounding=rounding)
    rows, totals, percents = _reference_session(boards, full, scale, rounding)
    for board, expected in rows.items():
        got = [(r.mp_ns, r.mp_ew, r.pct_ns, r.pct_ew) for r in result.boards[board]]
        assert [tuple(Fraction(v) for v in row) for row in got] == expected, board
    assert {pair: Fraction(t.total) for pair, t in result.pairs.items()} == totals
    assert {pair: Fraction(t.percentage) for pair, t in result.pairs.items()} == percents
