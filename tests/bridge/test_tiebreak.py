"""Announced tie-breaks (VSz 26): head-to-head and best boards, checked by hand; still equal shares."""

from decimal import Decimal

import pytest

from bridge.engine.scoring.ranking import rank
from bridge.engine.scoring.session import Entry, score_session
from bridge.engine.scoring.tiebreak import BestBoards, HeadToHead, Played, TieBreak, played_results, tie_break

D = Decimal

# Two tables, every board played twice (top 2). x is what table 1's NS pair scores on the board:
# 2 = better than table 2, 1 = equal, 0 = worse. Scores are part-scores, legal at any vulnerability.
TABLE_SCORES = {2: (140, 110), 1: (140, 140), 0: (110, 140)}

# A four-pair Howell, each pair in both directions: (boards, table 1 NS v EW, table 2 NS v EW).
HOWELL = [
    ((1, 2), ("1", "2"), ("3", "4")),
    ((3, 4), ("3", "1"), ("4", "2")),
    ((5, 6), ("1", "4"), ("2", "3")),
]
# Table 1 NS matchpoints per board. By hand: pair 1 = 1+0+(2-1)+(2-0)+2+1 = 7,
# pair 3 = (2-1)+(2-0)+1+0+2+1 = 7, pair 2 = (2-1)+(2-0)+1+0+(2-2)+(2-1) = 5, pair 4 = 1+0+1+2+0+1 = 5.
X = {1: 1, 2: 0, 3: 1, 4: 0, 5: 2, 6: 1}


def howell_boards():
    boards = {}
    for numbers, (ns1, ew1), (ns2, ew2) in HOWELL:
        for board in numbers:
            first, second = TABLE_SCORES[X[board]]
            boards[board] = [Entry(ns1, ew1, first), Entry(ns2, ew2, second)]
    return boards


def places(score):
    return [(p.pair, p.place) for p in score.ranking]


def test_shared_is_the_default_and_gives_shared_places():
    score = score_session(howell_boards())
    assert {p: t.total for p, t in score.pairs.items()} == {"1": D(7), "3": D(7), "2": D(5), "4": D(5)}
    assert places(score) == [("1", "1-2"), ("3", "1-2"), ("2", "3-4"), ("4", "3-4")]
    assert places(score_session(howell_boards(), tie_break=TieBreak.SHARED)) == places(score)


def test_head_to_head_counts_only_the_boards_the_tied_pairs_played_against_each_other():
    # Boards 3-4 at table 1: pair 3 (NS) against pair 1 scored 1 + 0, so pair 1 has 1 + 2 = 3 to its 1.
    # Boards 3-4 at table 2: pair 4 (NS) scored the opposite of table 1's NS, 1 + 2 = 3, pair 2 has 1.
    score = score_session(howell_boards(), tie_break="head_to_head")
    assert places(score) == [("1", "1"), ("3", "2"), ("4", "3"), ("2", "4")]


def test_head_to_head_between_pairs_that_never_met_shares_the_place():
    # A Mitchell: the NS pairs never meet each other, so head-to-head cannot separate them.
    boards = {
        1: [Entry("1", "3", 140), Entry("2", "4", 110)],
        2: [Entry("1", "4", 110), Entry("2", "3", 140)],
    }
    score = score_session(boards, tie_break=TieBreak.HEAD_TO_HEAD)
    ns = [(p.pair, p.place) for p in score.ranking if p.direction == "NS"]
    assert ns == [("1", "1-2"), ("2", "1-2")]


def mitchell_three_tables():
    """NS pairs 1-3, EW 4-6, every board at all three tables (top 4).

    NS matchpoints by hand: board 1 and 2: pair 1 4, pair 2 2, pair 3 0; boards 3 and 4: 0, 2, 4.
    All three NS pairs total 8; pairs 1 and 3 have two tops (two boards above 50%), pair 2 none.
    """
    ns_scores = {1: (170, 140, 110), 2: (170, 140, 110), 3: (110, 140, 170), 4: (110, 140, 170)}
    boards = {}
    for board, scores in ns_scores.items():
        boards[board] = [
            Entry(str(table + 1), str(4 + (table + board) % 3), scores[table]) for table in range(3)
        ]
    return boards


def test_best_boards_puts_more_boards_above_average_first_and_still_equal_share():
    shared = score_session(mitchell_three_tables())
    ns = [(p.pair, p.place) for p in shared.ranking if p.direction == "NS"]
    assert ns == [("1", "1-3"), ("2", "1-3"), ("3", "1-3")]
    best = score_session(mitchell_three_tables(), tie_break=TieBreak.BEST_BOARDS)
    ns = [(p.pair, p.place) for p in best.ranking if p.direction == "NS"]
    assert ns == [("1", "1-2"), ("3", "1-2"), ("2", "3")]


def test_best_boards_counts_tops_after_boards_above_average():
    results = [
        Played("1", "9", D(4), D(100)),  # a top
        Played("1", "9", D(1), D(25)),
        Played("2", "9", D(3), D(75)),  # above 50%, not a top
        Played("2", "9", D(2), D(50)),  # exactly 50% is not above
    ]
    keys = BestBoards(results)
    assert keys("1") == (1, 1) and keys("2") == (1, 0) and keys("3") == (0, 0)
    assert [(p.pair, p.place) for p in rank({"1": D(5), "2": D(5)}, tie_break=keys)] == [
        ("1", "1"),
        ("2", "2"),
    ]


def test_head_to_head_among_three_needs_every_meeting():
    results = [
        Played("1", "2", D(3), None),
        Played("2", "1", D(1), None),
        Played("1", "3", D(0), None),
        Played("3", "1", D(4), None),
    ]
    # 2 and 3 never met: the three stay equal.
    assert set(HeadToHead(results).among(["1", "2", "3"]).values()) == {D(0)}
    # 1 and 2 did: 1 scored 3 against 2's 1.
    assert HeadToHead(results).among(["1", "2"]) == {"1": D(3), "2": D(1)}


def test_artificial_scores_are_not_boards_played():
    from bridge.engine.scoring.adjusted import ArtificialScore

    boards = howell_boards()
    boards[7] = [Entry("1", "2", None, ArtificialScore.parse("A+/A-")), Entry("3", "4", 140)]
    played = played_results(score_session(boards).boards.values())
    assert len(played) == 2 * (2 * 6 + 1)  # the A+/A- row is left out, the other result of board 7 counts
    assert not any(r.pair == "1" and r.opponent == "2" and r.percentage == D(60) for r in played)


@pytest.mark.parametrize("method", ["shared", TieBreak.SHARED])
def test_shared_has_no_tie_break(method):
    assert tie_break(method, []) is None
