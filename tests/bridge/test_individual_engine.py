"""Individual events: the movement (partners once, boards once, every board the same number of times) and
the scoring (pairs matchpoints per board, each player the side he sat on, Neuberg, ranking with ties)."""

from collections import Counter, defaultdict
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridge.engine.csv_upload import CsvError
from bridge.engine.individual import Deal, IndividualError, score_individual
from bridge.engine.individual_movements import individual, opponent_spread, validate
from bridge.engine.individual_readers import read_csv, read_pbn
from bridge.engine.pbn.games import PbnError
from bridge.engine.scoring.matchpoints import matchpoints, top

D = Decimal


# --- movements ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("tables", range(1, 9))
def test_full_movement_partners_everybody_once_and_plays_every_board_once(tables):
    movement = individual(tables, boards_per_round=2)
    players = 4 * tables
    assert movement.rounds == players - 1
    partners = Counter()
    boards_of = defaultdict(list)
    for a in movement.assignments:
        partners[frozenset((a.north, a.south))] += 1
        partners[frozenset((a.east, a.west))] += 1
        for player in a.players:
            boards_of[player].extend(a.boards)
    # every two players partner exactly once over the full movement
    assert len(partners) == players * (players - 1) // 2
    assert set(partners.values()) == {1}
    for player in movement.players:
        assert len(boards_of[player]) == len(set(boards_of[player])) == 2 * movement.rounds
    # every board is played once at every table's worth: T times, so every board has the same top
    plays = Counter(b for a in movement.assignments for b in a.boards)
    assert set(plays.values()) == {tables}


@given(st.integers(1, 8), st.integers(1, 4), st.data())
@settings(max_examples=30, deadline=None)
def test_a_shorter_movement_still_repeats_no_partner_and_no_board(tables, per_round, data):
    rounds = data.draw(st.integers(1, 4 * tables - 1))
    movement = individual(tables, per_round, rounds)
    validate(movement)  # raises on a repeated partner or board
    for r in range(1, rounds + 1):
        seated = sorted(p for a in movement.round_plan(r) for p in a.players)
        assert seated == list(range(1, 4 * tables + 1))
    assert movement.seat_of(1, 1) is not None


def test_sizes_out_of_range_are_refused():
    with pytest.raises(ValueError):
        individual(0)
    with pytest.raises(ValueError):
        individual(2, rounds=8)


@pytest.mark.parametrize("tables", [1, 2, 3])
def test_small_movements_are_whist_tournaments(tables):
    # every two players meet as opponents exactly twice
    assert opponent_spread(individual(tables)) == (2, 2)


@pytest.mark.parametrize("tables", range(4, 9))
def test_usual_movements_let_everybody_face_everybody(tables):
    low, high = opponent_spread(individual(tables))
    assert 1 <= low and high <= 4


# --- scoring ------------------------------------------------------------------------------------------


def deals_of(movement, scores):
    """Results for a movement: `scores(board, table)` gives the NS score."""
    return [
        Deal(board, a.north, a.south, a.east, a.west, scores(board, a.table), table=a.table)
        for a in movement.assignments
        for board in a.boards
    ]


def test_each_player_gets_his_sides_matchpoints():
    # one board, three tables: NS scores 420, 450, -50 -> NS matchpoints 2, 4, 0 (top 4)
    deals = [
        Deal(1, 1, 2, 3, 4, 420, table=1),
        Deal(1, 5, 6, 7, 8, 450, table=2),
        Deal(1, 9, 10, 11, 12, -50, table=3),
    ]
    result = score_individual(deals)
    assert result.top == 4
    totals = {p: t.total for p, t in result.players.items()}
    assert totals == {1: 2, 2: 2, 3: 2, 4: 2, 5: 4, 6: 4, 7: 0, 8: 0, 9: 0, 10: 0, 11: 4, 12: 4}
    assert result.players[5].percentage == 100
    first = [p for p in result.ranking if p.place == "1-4"]
    assert sorted(int(p.pair) for p in first) == [5, 6, 11, 12]


def test_neuberg_for_a_board_played_fewer_times():
    # board 1 three times (top 4), board 2 twice: Neuberg P = (N T + N - n) / n with N = 3, n = 2
    deals = [
        Deal(1, 1, 2, 3, 4, 100, table=1),
        Deal(1, 5, 6, 7, 8, 200, table=2),
        Deal(1, 9, 10, 11, 12, 300, table=3),
        Deal(2, 5, 6, 7, 8, 100, table=1),
        Deal(2, 9, 10, 11, 12, 200, table=2),
    ]
    result = score_individual(deals)
    assert result.top == 4
    board2 = {s.deal.table: s for s in result.boards[2]}
    # NS on table 2 beat the other result: T = 2 on a top of 2 -> (3 x 2 + 1) / 2 = 3.5
    assert board2[2].mp_ns == D("3.5") and board2[2].mp_ew == D("0.5")
    # players 1-4 played one board, the others two: ranked on percentages
    assert result.by_percentage
    assert result.players[9].boards == 2 and result.players[9].total == D("7.5")


def test_a_player_twice_on_a_board_is_refused_with_where():
    deals = [Deal(1, 1, 2, 3, 4, 100, table=1, where="line 2"), Deal(1, 1, 6, 7, 8, 100, where="line 3")]
    with pytest.raises(IndividualError) as refused:
        score_individual(deals)
    assert refused.value.problem.params == {"where": "line 3", "player": 1, "board": 1}
    with pytest.raises(IndividualError):
        score_individual([Deal(1, 1, 1, 3, 4, 100)])


scores_strategy = st.lists(st.sampled_from([-200, -100, -50, 90, 110, 120, 140, 400, 420, 450]), min_size=48)


@given(st.integers(2, 4), scores_strategy)
@settings(max_examples=25, deadline=None)
def test_properties_on_a_whole_movement(tables, pool):
    movement = individual(tables, boards_per_round=1, rounds=min(4 * tables - 1, 5))
    result = score_individual(deals_of(movement, lambda b, t: pool[(b * 7 + t) % len(pool)]))
    board_top = top(tables)
    assert result.top == board_top
    for scored in result.boards.values():
        # matchpoints on a board sum to top x tables (each table's two sides share one top)
        assert sum(s.mp_ns + s.mp_ew for s in scored) == board_top * len(scored)
        # and they are the pairs' Law 78A matchpoints of the NS scores
        assert [s.mp_ns for s in scored] == matchpoints([s.deal.score for s in scored])
    for player, total in result.players.items():
        sides = result.sides[player]
        assert total.total == sum(mp for _, _, mp in sides)
        assert total.boards == len(sides)
        # a player's percentage is the mean of his sides' percentages (to the VSz 26 hundredth)
        mean = sum(mp * 100 / board_top for _, _, mp in sides) / len(sides)
        assert abs(total.percentage - mean) <= D("0.005")
    # ranking: best first, equal totals share one place
    ranked = [p.total for p in result.ranking]
    assert ranked == sorted(ranked, reverse=True)
    by_total = defaultdict(set)
    for p in result.ranking:
        by_total[p.total].add(p.place)
    assert all(len(places) == 1 for places in by_total.values())
    assert len(result.ranking) == 4 * tables


# --- readers ------------------------------------------------------------------------------------------


def test_csv_reader_names_the_line_and_reads_both_notations():
    rows = read_csv("board;table;N;S;E;W;c;d;l;r;s\n1;;1;2;3;4;3SZA;Ny;♠K;9;\n2;3;5;6;7;8;;;;;A+/A-\n").rows
    assert (rows[0].contract, rows[0].declarer, rows[0].lead, rows[0].score) == ("3NT", "W", "SK", -400)
    assert (rows[1].table, rows[1].artificial, rows[1].score) == (3, "A+/A-", None)
    for bad, line in (("1;1;1;2;3;4;4S;N;;10;\n99999;1;1;2;3;4;;;;;50\n", 2), ("1;1;0;2;3;4;;;;;50\n", 1)):
        with pytest.raises(CsvError) as refused:
            read_csv(bad)
        assert refused.value.line == line


def test_pbn_reader_takes_the_players_and_checks_the_score():
    text = (
        '[Board "1"]\n[ScoreTable "Table;PlayerId_North;PlayerId_South;PlayerId_East;PlayerId_West;'
        'Contract;Declarer;Result;Score_NS"]\n1 1 2 3 4 4S N 10 420\n2 5 6 7 8 4S N 9 "-50"\n'
    )
    rows = read_pbn(text).rows
    assert [(r.table, r.players, r.score) for r in rows] == [(1, (1, 2, 3, 4), 420), (2, (5, 6, 7, 8), -50)]
    with pytest.raises(PbnError) as refused:
        read_pbn(text.replace("10 420", "10 450"))
    assert refused.value.line == 3


@given(st.integers(2, 4), scores_strategy, st.sets(st.integers(0, 200), max_size=6))
@settings(max_examples=25, deadline=None)
def test_properties_with_boards_played_fewer_times(tables, pool, dropped):
    movement = individual(tables, boards_per_round=2, rounds=4)
    deals = deals_of(movement, lambda b, t: pool[(b * 5 + t) % len(pool)])
    kept = [d for i, d in enumerate(deals) if i not in dropped]
    result = score_individual(kept)
    board_top = top(tables)
    assert result.top == board_top  # N is still the most results any board has
    for scored in result.boards.values():
        for s in scored:
            # Neuberg (VSz 28) keeps each table's two sides sharing one top, to the VSz 26 hundredth
            assert abs(s.mp_ns + s.mp_ew - board_top) <= D("0.01")
    for player, total in result.players.items():
        sides = result.sides[player]
        mean = sum(mp * 100 / board_top for _, _, mp in sides) / len(sides)
        assert abs(total.percentage - mean) <= D("0.005")
    # ranked on percentages exactly when players played different numbers of boards
    assert result.by_percentage == (len({t.boards for t in result.players.values()}) > 1)
    ranked = [p.total for p in result.ranking]
    assert ranked == sorted(ranked, reverse=True)
