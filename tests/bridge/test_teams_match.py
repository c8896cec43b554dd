from decimal import Decimal

import pytest

from teams.engine.match import BoardScore, board_imps, combine, score_match

# Law 78B bands: (lowest difference, highest difference, IMPs)
BANDS = [
    (0, 10, 0), (20, 40, 1), (50, 80, 2), (90, 120, 3), (130, 160, 4), (170, 210, 5), (220, 260, 6),
    (270, 310, 7), (320, 360, 8), (370, 420, 9), (430, 490, 10), (500, 590, 11), (600, 740, 12),
    (750, 890, 13), (900, 1090, 14), (1100, 1290, 15), (1300, 1490, 16), (1500, 1740, 17),
    (1750, 1990, 18), (2000, 2240, 19), (2250, 2490, 20), (2500, 2990, 21), (3000, 3490, 22),
    (3500, 3990, 23), (4000, 7600, 24),
]  # fmt: skip


@pytest.mark.parametrize(("low", "high", "value"), BANDS)
def test_imps_at_every_band_boundary_both_ways(low, high, value):
    for difference in (low, high):
        # Home NS in the open room scores `difference` more than the other NS pair in the closed room.
        won = board_imps(BoardScore(1, difference - 50, -50))
        assert (won.home, won.away) == (value, 0)
        lost = board_imps(BoardScore(1, -50, difference - 50))
        assert (lost.home, lost.away) == (0, value)
    if low > 0:
        assert board_imps(BoardScore(1, low - 10, 0)).home == value - 1


def test_open_and_closed_room_orientation():
    # Home NS makes 4S (+420) in the open room; the away NS goes one down (-50) in the closed room,
    # so home's EW pair wins 50 there: 470 in all, 10 IMPs.
    result = board_imps(BoardScore(1, 420, -50))
    assert result.difference == 470
    assert (result.home, result.away) == (10, 0)


def test_match_totals_carry_over_adjustments_and_vps():
    boards = [
        BoardScore(1, 420, -50),  # +10
        BoardScore(2, -100, -100),  # 0
        BoardScore(3, 100, 620),  # -11
        BoardScore(4, 650, 100),  # 550: +11
    ]
    result = score_match(boards, carry_over=(Decimal("2.5"), 0), adjustments=(0, -3))
    assert result.board_imps_home == 21
    assert result.board_imps_away == 11
    assert result.home_imps == Decimal("23.5")
    assert result.away_imps == 8
    assert result.margin == Decimal("15.5")
    home_vp, away_vp = result.victory_points(boards=16)
    assert home_vp + away_vp == Decimal("20.00")
    assert home_vp > 14


def test_unplayed_board_scores_nothing_until_adjusted():
    result = score_match([BoardScore(1, 420, None), BoardScore(2, None, None, adjusted_imps=3)])
    assert result.unscored_boards == (1,)
    assert result.boards[1].status == "adjusted"
    assert (result.home_imps, result.away_imps) == (3, 0)
    negative = score_match([BoardScore(1, None, None, adjusted_imps=-3)])
    assert (negative.home_imps, negative.away_imps) == (0, 3)


def test_halves_combine_into_the_match():
    first = score_match([BoardScore(1, 420, -50), BoardScore(2, 0, 100)], carry_over=(1, 0))
    second = score_match([BoardScore(3, -600, 0)])
    whole = combine([first, second])
    assert whole.home_imps == first.home_imps + second.home_imps
    assert whole.away_imps == first.away_imps + second.away_imps
    assert len(whole.boards) == 3
    with pytest.raises(ValueError):
        combine([first, first])
    with pytest.raises(ValueError):
        combine([])


def test_duplicate_board_rejected():
    with pytest.raises(ValueError):
        score_match([BoardScore(1, 0, 0), BoardScore(1, 10, 0)])


def test_victory_points_with_discrete_scale_option():
    result = score_match([BoardScore(1, 1000, -100)])  # 1100 -> 15 IMPs
    table = [(2, 10, 10), (10, 15, 5), (None, 20, 0)]
    assert result.victory_points(8, {"scale": "discrete", "table": table}) == (Decimal(20), Decimal(0))
