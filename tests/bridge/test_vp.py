from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from teams.engine.vp import (
    DiscreteScale,
    blitz_margin,
    match_vp,
    vp_scale,
    wbf_continuous_table,
    wbf_vp,
)

# Published WBF continuous-scale values (winner's VPs).  The 20-board 1 and 2 IMP figures are quoted by
# the Dutch federation's announcement of the scale; the others are the WBF tables' opening rows, which
# the formula reproduces before any concavity correction is needed.
PUBLISHED = [
    (8, 1, "10.44"), (8, 2, "10.86"), (8, 3, "11.27"), (8, 5, "12.05"), (8, 10, "13.78"),
    (12, 1, "10.36"), (12, 2, "10.71"), (12, 5, "11.70"), (12, 10, "13.18"),
    (16, 1, "10.31"), (16, 2, "10.61"), (16, 3, "10.91"), (16, 4, "11.20"), (16, 5, "11.48"),
    (16, 10, "12.80"), (16, 20, "15.00"),
    (20, 1, "10.28"), (20, 2, "10.55"),
    (24, 1, "10.25"), (24, 2, "10.50"), (24, 10, "12.33"),
    (32, 1, "10.22"), (32, 2, "10.44"), (32, 5, "11.07"), (32, 10, "12.05"),
]  # fmt: skip


@pytest.mark.parametrize(("boards", "margin", "vp"), PUBLISHED)
def test_published_wbf_values(boards, margin, vp):
    assert wbf_vp(margin, boards) == (Decimal(vp), Decimal("20.00") - Decimal(vp))
    assert wbf_vp(-margin, boards) == (Decimal("20.00") - Decimal(vp), Decimal(vp))


@pytest.mark.parametrize(("boards", "blitz"), [(8, 43), (12, 52), (16, 60), (20, 68), (24, 74), (32, 85)])
def test_blitz_margin_caps_at_twenty(boards, blitz):
    assert blitz_margin(boards) <= blitz < blitz_margin(boards) + 1
    assert wbf_vp(blitz, boards) == (Decimal("20.00"), Decimal("0.00"))
    assert wbf_vp(blitz + 37, boards) == (Decimal("20.00"), Decimal("0.00"))
    assert wbf_vp(-(blitz + 5), boards) == (Decimal("0.00"), Decimal("20.00"))
    assert wbf_vp(blitz - 1, boards)[0] < Decimal("20.00")


def test_sixteen_board_blitz_is_sixty():
    assert blitz_margin(16) == 60
    assert wbf_vp(59, 16)[0] == Decimal("19.93")


@pytest.mark.parametrize("boards", range(1, 65))
def test_table_is_monotone_and_concave(boards):
    table = wbf_continuous_table(boards)
    assert table[0] == Decimal("10.00")
    assert table[-1] == Decimal("20.00")
    gains = [b - a for a, b in zip(table, table[1:], strict=False)]
    assert all(g >= 0 for g in gains)
    # "Each extra IMP is worth no more than the previous one" (the WBF panel's concavity rule).
    assert all(later <= earlier for earlier, later in zip(gains, gains[1:], strict=False))
    assert all(v.as_tuple().exponent == -2 for v in table)


@settings(max_examples=100, deadline=None)
@given(
    margin=st.decimals(min_value=-200, max_value=200, places=1, allow_nan=False, allow_infinity=False),
    boards=st.integers(min_value=1, max_value=64),
)
def test_always_totals_twenty_and_is_symmetric(margin, boards):
    home, away = wbf_vp(margin, boards)
    assert home + away == Decimal("20.00")
    assert isinstance(home, Decimal) and home.as_tuple().exponent == -2
    assert wbf_vp(-margin, boards) == (away, home)
    assert (home >= away) == (margin >= 0) or margin == 0


def test_fractional_margin_interpolates_between_integers():
    low, high = wbf_vp(3, 16)[0], wbf_vp(4, 16)[0]
    half = wbf_vp(Decimal("3.5"), 16)[0]
    assert low < half < high


WBF_LIKE_DISCRETE = [(0, 10, 10), (2, 11, 9), (5, 12, 8), (9, 13, 7), (None, 20, 0)]


def test_discrete_table_rows_and_boundaries():
    scale = DiscreteScale.from_rows("test", WBF_LIKE_DISCRETE)
    assert scale.convert(0) == (Decimal(10), Decimal(10))
    assert scale.convert(2) == (Decimal(11), Decimal(9))
    assert scale.convert(3) == (Decimal(12), Decimal(8))
    assert scale.convert(-3) == (Decimal(8), Decimal(12))
    assert scale.convert(9) == (Decimal(13), Decimal(7))
    assert scale.convert(10) == (Decimal(20), Decimal(0))


def test_discrete_table_closed_last_row_caps():
    scale = DiscreteScale.from_rows("capped", [(1, 10, 10), (10, 25, 5)])
    assert scale.convert(50) == (Decimal(25), Decimal(5))


@pytest.mark.parametrize(
    "rows",
    [
        [],
        [(5, 12, 8), (2, 11, 9)],  # bounds out of order
        [(None, 20, 0), (5, 12, 8)],  # open row not last
        [(2, 12, 8), (5, 11, 9)],  # winner VPs fall
        [(-1, 10, 10)],
        [(2, 11, 9), (None, 20, 0)],  # a draw must be level
    ],
)
def test_bad_discrete_tables_rejected(rows):
    with pytest.raises(ValueError):
        DiscreteScale.from_rows("bad", rows)


def test_registry_and_options():
    assert match_vp(1, 20) == (Decimal("10.28"), Decimal("9.72"))
    assert match_vp(3, 20, {"scale": "discrete", "table": WBF_LIKE_DISCRETE}) == (Decimal(12), Decimal(8))
    with pytest.raises(ValueError, match="unknown option"):
        vp_scale({"scal": "wbf_continuous"})
    with pytest.raises(ValueError, match="unknown VP scale"):
        vp_scale({"scale": "imp_quotient"})
    with pytest.raises(ValueError):
        vp_scale({"scale": "discrete"})
    with pytest.raises(ValueError):
        vp_scale({"scale": "wbf_continuous", "table": WBF_LIKE_DISCRETE})
    with pytest.raises(ValueError):
        blitz_margin(0)
