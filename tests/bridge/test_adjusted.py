"""Artificial adjusted scores (VSz 29) and procedural penalties (VSz 27, 32)."""

from decimal import Decimal

import pytest

from bridge.engine.scoring.adjusted import (
    PENALTY_RANGES,
    ArtificialScore,
    Award,
    Penalty,
    award_percentage,
    fouling_penalty_percent,
    session_average,
)
from bridge.engine.scoring.session import Entry, score_session

D = Decimal


@pytest.mark.parametrize(
    ("text", "ns", "ew"),
    [
        ("A", Award.AVERAGE, Award.AVERAGE),
        ("^A+", Award.AVERAGE_PLUS, Award.AVERAGE_PLUS),
        ("a-", Award.AVERAGE_MINUS, Award.AVERAGE_MINUS),
        ("^A+/A-", Award.AVERAGE_PLUS, Award.AVERAGE_MINUS),
        ("A-/A+", Award.AVERAGE_MINUS, Award.AVERAGE_PLUS),
        (" A / A+ ", Award.AVERAGE, Award.AVERAGE_PLUS),
    ],
)
def test_parse_artificial_scores(text, ns, ew):
    assert ArtificialScore.parse(text) == ArtificialScore(ns, ew)


@pytest.mark.parametrize("text", ["B", "A++", "A+/A-/A", "60", "", "^"])
def test_parse_refuses_other_awards(text):
    with pytest.raises(ValueError, match="artificial"):
        ArtificialScore.parse(text)


def test_artificial_scores_print_back():
    assert str(ArtificialScore.parse("^A+/A-")) == "A+/A-"
    assert str(ArtificialScore.parse("A")) == "A"


def test_award_percentages():
    # VSz 29: average-plus is the larger of 60% and the pair's session average; average 50%; minus 40%
    assert award_percentage(Award.AVERAGE_PLUS) == 60
    assert award_percentage(Award.AVERAGE_PLUS, D("55.20")) == 60
    assert award_percentage(Award.AVERAGE_PLUS, D("67.50")) == D("67.50")
    assert award_percentage(Award.AVERAGE, D("90")) == 50
    assert award_percentage(Award.AVERAGE_MINUS, D("10")) == 40


def test_session_average():
    assert session_average(D(10), D(12)) == D("83.33")
    assert session_average(D(0), D(0)) is None


def artificial_session(award="A+/A-", **options):
    """Four tables, three boards. On board 3, NS 1 and EW 7 could not play: they get `award`.

    Board 1: NS 6, 4, 2, 0 for NS 1-4.  Board 2: NS 1 4, NS 2 1, NS 3 6, NS 4 1.
    Board 3 has only three real results, so they are scaled by Neuberg.
    """
    boards = {
        1: [Entry("1", "5", 420), Entry("2", "6", 400), Entry("3", "7", 170), Entry("4", "8", -50)],
        2: [Entry("1", "6", 110), Entry("2", "7", -100), Entry("3", "8", 140), Entry("4", "5", -100)],
        3: [
            Entry("1", "7", artificial=ArtificialScore.parse(award)),
            Entry("2", "8", 100),
            Entry("3", "5", 120),
            Entry("4", "6", 90),
        ],
    }
    return score_session(boards, **options)


def row(result, board, ns):
    return next(r for r in result.boards[board] if r.ns == ns)


def test_average_plus_is_the_session_average_when_higher():
    result = artificial_session()
    # NS 1 scored 6 + 4 of 12 on the boards it played: 83.33%, more than 60%
    assert result.averages["1"] == D("83.33")
    adjusted = row(result, 3, "1")
    assert adjusted.mp_ns == D("5.00")  # 83.33% of 6 = 4.9998
    assert adjusted.pct_ns == D("83.33")
    # EW 7 gets average-minus: 40% of the top
    assert adjusted.mp_ew == D("2.40")
    assert adjusted.score is None and str(adjusted.artificial) == "A+/A-"
    assert result.pairs["1"].total == D("15.00")
    assert result.pairs["7"].total == D("11.40")  # 4 + 5 + 2.40
    assert result.pairs["7"].percentage == D("63.33")


def test_the_real_results_beside_an_artificial_score_use_neuberg():
    result = artificial_session()
    # three results, N = 4: P = (4 T + 1) / 3
    assert [row(result, 3, ns).mp_ns for ns in ("2", "3", "4")] == [D("3.00"), D("5.67"), D("0.33")]
    assert [row(result, 3, ns).mp_ew for ns in ("2", "3", "4")] == [D("3.00"), D("0.33"), D("5.67")]


def test_split_awards_the_other_way_round():
    result = artificial_session("A-/A+")
    adjusted = row(result, 3, "1")
    assert adjusted.mp_ns == D("2.40")
    # EW 7 averaged (4 + 5) / 12 = 75%: its average-plus is 75% of 6
    assert adjusted.mp_ew == D("4.50")


def test_average_for_both():
    adjusted = row(artificial_session("A"), 3, "1")
    assert (adjusted.mp_ns, adjusted.mp_ew) == (D(3), D(3))


def test_average_plus_is_sixty_percent_without_a_higher_average():
    result = artificial_session("A+")
    # EW 7's session average is 75%, NS 1's 83.33%: both above 60%, so both get their own average
    adjusted = row(result, 3, "1")
    assert (adjusted.pct_ns, adjusted.pct_ew) == (D("83.33"), D(75))
    weak = score_session(
        {
            1: [Entry("1", "2", -100), Entry("3", "4", 100)],
            2: [Entry("1", "4", artificial=ArtificialScore.parse("A+")), Entry("3", "2", 50)],
        }
    )
    assert row(weak, 2, "1").pct_ns == D(60)  # pair 1 averaged 0%


def test_hand_rounding_of_an_award():
    adjusted = row(artificial_session(rounding="hand"), 3, "1")
    assert adjusted.mp_ns == D("5.0")


def test_board_penalty_comes_off_that_board_only():
    plain = artificial_session()
    penalised = artificial_session(penalties=[Penalty("2", D(25), board=1, reason="wrong score entered")])
    board = row(penalised, 1, "2")
    # 25% of the top of 6 = 1.5 off NS 2's 4 on board 1; EW 6 keeps its 2
    assert board.mp_ns == D("2.5") and board.penalty_ns == D("1.50")
    assert board.pct_ns == D("41.67")
    assert board.mp_ew == D(2) and board.penalty_ew == 0
    assert penalised.pairs["2"].total == plain.pairs["2"].total - D("1.5")
    assert penalised.pairs["2"].penalty == D("1.50")
    assert penalised.pairs["6"].total == plain.pairs["6"].total


def test_session_penalty_comes_off_the_total():
    plain = artificial_session()
    penalised = artificial_session(penalties=[Penalty("5", D(50))])
    assert penalised.pairs["5"].total == plain.pairs["5"].total - 3
    assert all(r.penalty_ns == 0 and r.penalty_ew == 0 for rows in penalised.boards.values() for r in rows)


def test_penalties_do_not_change_the_session_average_used_for_average_plus():
    penalised = artificial_session(penalties=[Penalty("1", D(50), board=1)])
    assert row(penalised, 3, "1").mp_ns == D("5.00")


def test_penalty_validation():
    with pytest.raises(ValueError):
        Penalty("1", D(0))
    with pytest.raises(ValueError):
        Penalty("1", D(150))
    with pytest.raises(ValueError, match="no result on board"):
        artificial_session(penalties=[Penalty("9", D(25), board=2)])
    with pytest.raises(ValueError, match="no result in this session"):
        artificial_session(penalties=[Penalty("9", D(25))])
    with pytest.raises(ValueError, match="unknown board"):
        artificial_session(penalties=[Penalty("1", D(25), board=7)])
    with pytest.raises(ValueError, match="matchpoint"):
        artificial_session(method="butler", penalties=[Penalty("1", D(25))])


def test_fouling_penalties():
    # VSz 27: wrong duplication 50% the first time, 25% each further time; not noticing it 25%
    assert fouling_penalty_percent(0) == 50
    assert fouling_penalty_percent(1) == 25
    assert fouling_penalty_percent(4) == 25
    assert PENALTY_RANGES["missing_convention_card"] == (50, 100)
    assert PENALTY_RANGES["wrong_board"] == (0, 25)


def test_artificial_scores_in_imp_scoring_are_three_imps():
    result = artificial_session(method="butler")
    adjusted = row(result, 3, "1")
    assert (adjusted.imp_ns, adjusted.imp_ew) == (3, -3)
    assert row(artificial_session("A", method="cross-imps"), 3, "1").imp_ns == 0


def test_an_entry_needs_a_score_or_an_award_but_not_both():
    with pytest.raises(ValueError, match="either a score or an artificial"):
        score_session(
            {1: [Entry("1", "2", 100, ArtificialScore.parse("A")), Entry("3", "4", 0)]}, full_results=3
        )
    with pytest.raises(ValueError, match="either a score or an artificial"):
        score_session({1: [Entry("1", "2"), Entry("3", "4", 0)]})
