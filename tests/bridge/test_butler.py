"""IMPs (Law 78B), Butler datum scoring, cross-IMPs and total points (Law 78C)."""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridge.engine.scoring.butler import (
    DatumMethod,
    butler_imps,
    cross_imp_sums,
    cross_imps,
    datum,
    total_points,
)
from bridge.engine.scoring.imps import imps
from bridge.engine.scoring.session import Entry, score_session

D = Decimal

# Law 78B: (lowest difference, highest difference, IMPs) for every band.
IMP_BANDS = [
    (0, 10, 0), (20, 40, 1), (50, 80, 2), (90, 120, 3), (130, 160, 4), (170, 210, 5), (220, 260, 6),
    (270, 310, 7), (320, 360, 8), (370, 420, 9), (430, 490, 10), (500, 590, 11), (600, 740, 12),
    (750, 890, 13), (900, 1090, 14), (1100, 1290, 15), (1300, 1490, 16), (1500, 1740, 17),
    (1750, 1990, 18), (2000, 2240, 19), (2250, 2490, 20), (2500, 2990, 21), (3000, 3490, 22),
    (3500, 3990, 23), (4000, 7600, 24),
]  # fmt: skip


@pytest.mark.parametrize(("low", "high", "value"), IMP_BANDS)
def test_every_imp_boundary(low, high, value):
    assert imps(low) == value
    assert imps(high) == value
    assert imps(-low) == -value
    assert imps(-high) == -value
    if low > 0:
        assert imps(low - 10) == value - 1


@given(st.integers(-8000, 8000), st.integers(-8000, 8000))
def test_imps_never_decrease_and_are_antisymmetric(a, b):
    assert imps(-a) == -imps(a)
    if a <= b:
        assert imps(a) <= imps(b)


SCORES = [420, 420, 450, -50, 170, 590]


def test_datum_drops_top_and_bottom_then_rounds_to_ten():
    # without -50 and 590: (170 + 420 + 420 + 450) / 4 = 365, which rounds up to 370
    assert datum(SCORES) == 370
    # the plain mean: 2000 / 6 = 333.33 -> 330
    assert datum(SCORES, DatumMethod.MEAN) == 330
    assert datum(SCORES, "mean") == 330


def test_datum_rounding_and_small_boards():
    assert datum([-420, -310]) == -370  # a half rounds away from zero: -365 -> -370
    assert datum([100, 110]) == 110  # too few to trim: the mean 105 -> 110
    assert datum([620]) == 620
    assert datum([100, 200, 900]) == 200  # with three results the trimmed mean is the middle one
    with pytest.raises(ValueError):
        datum([])


def test_butler_imps_against_the_datum():
    # differences from 370: +50, +50, +80, -420, -200, +220
    assert butler_imps(SCORES) == [2, 2, 2, -9, -5, 6]
    # differences from 330: +90, +90, +120, -380, -160, +260
    assert butler_imps(SCORES, DatumMethod.MEAN) == [3, 3, 3, -9, -4, 6]


def test_cross_imps_averaged_over_the_comparisons():
    # 420 against 420, 450, -50, 170, 590: 0 - 1 + 10 + 6 - 5 = 10 over 5 comparisons
    assert cross_imp_sums(SCORES) == [10, 10, 16, -49, -22, 35]
    assert cross_imps(SCORES) == [D(2), D(2), D("3.2"), D("-9.8"), D("-4.4"), D(7)]
    assert cross_imps([400, 430, 460]) == [D("-1.5"), D(0), D("1.5")]
    assert cross_imps([620]) == [D(0)]


def test_total_points_adds_the_scores():
    assert total_points(SCORES) == 2000
    assert total_points([]) == 0


boards = st.lists(
    st.sampled_from([-1100, -200, -100, -50, 90, 110, 140, 400, 420, 430, 620, 1430]), min_size=1, max_size=20
)


@given(boards)
def test_cross_imps_cancel_out_and_match_pairwise_comparison(scores):
    sums = cross_imp_sums(scores)
    assert sum(sums) == 0
    assert sums == [sum(imps(s - o) for o in scores) for s in scores]


@given(boards)
def test_a_better_score_never_gets_fewer_imps(scores):
    for values in (butler_imps(scores), cross_imp_sums(scores)):
        ranked = sorted(zip(scores, values, strict=True))
        assert [v for _, v in ranked] == sorted(v for _, v in ranked)


def test_butler_session_totals_and_ranking():
    entries = [Entry(str(i + 1), str(i + 11), score) for i, score in enumerate(SCORES)]
    result = score_session({1: entries}, method="butler")
    assert [(r.imp_ns, r.imp_ew) for r in result.boards[1]] == [
        (2, -2),
        (2, -2),
        (2, -2),
        (-9, 9),
        (-5, 5),
        (6, -6),
    ]
    assert result.pairs["14"].total == 9
    assert result.pairs["1"].percentage is None
    assert [(p.pair, p.place) for p in result.ranking if p.direction == "NS"] == [
        ("6", "1"),
        ("1", "2-4"),
        ("2", "2-4"),
        ("3", "2-4"),
        ("5", "5"),
        ("4", "6"),
    ]
    mean = score_session({1: entries}, method="butler", datum_method="mean")
    assert mean.boards[1][0].imp_ns == 3


def test_cross_imp_session():
    entries = [Entry(str(i + 1), str(i + 11), score) for i, score in enumerate(SCORES)]
    result = score_session({1: entries}, method="cross-imps")
    assert [r.imp_ns for r in result.boards[1]] == [D(2), D(2), D("3.2"), D("-9.8"), D("-4.4"), D(7)]
    assert result.pairs["14"].total == D("9.8")
