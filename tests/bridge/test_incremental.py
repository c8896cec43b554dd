"""Incremental rescoring (bridge.engine.scoring.incremental): after any sequence of single-result changes the live
session is exactly what `score_session` gives for the same boards, and a change scores only what it reaches."""

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridge.engine.scoring.adjusted import ArtificialScore, Award, Penalty
from bridge.engine.scoring.incremental import LiveSession
from bridge.engine.scoring.session import Entry, score_session

NS = [f"n{i}" for i in range(6)]
EW = [f"e{i}" for i in range(6)]
SCORES = [-500, -200, -100, -50, 0, 50, 100, 110, 140, 420, 450, 620]
AWARDS = [
    ArtificialScore(Award.AVERAGE_PLUS, Award.AVERAGE_MINUS),
    ArtificialScore(Award.AVERAGE, Award.AVERAGE),
    ArtificialScore(Award.AVERAGE_MINUS, Award.AVERAGE_PLUS),
]


def _rows(score):
    return {board: list(rows) for board, rows in score.boards.items()}


def assert_same(live, full):
    assert live.method == full.method
    assert live.top == full.top
    assert live.full_results == full.full_results
    assert live.pairs == full.pairs
    assert list(live.pairs) == list(full.pairs)
    assert live.ranking == full.ranking
    assert live.averages == full.averages
    assert _rows(live) == _rows(full)


@st.composite
def result(draw, ns, ew, method):
    """One table's entry: mostly a score, sometimes an award (or, at matchpoints, a fouled deal's group)."""
    kind = draw(st.sampled_from(["score"] * 6 + ["award", "group"]))
    if kind == "award":
        return Entry(ns, ew, None, draw(st.sampled_from(AWARDS)))
    group = draw(st.sampled_from(["x", "y"])) if kind == "group" and method == "mp" else None
    return Entry(ns, ew, draw(st.sampled_from(SCORES)), None, group)


@st.composite
def change(draw, boards, method):
    """A single-result change: add a table, change one, remove one; or change the penalties."""
    board = draw(st.integers(1, 6))
    entries = list(boards.get(board, []))
    kind = draw(st.sampled_from(["add", "add", "change", "remove", "penalties"]))
    if kind == "penalties":
        return ("penalties", None, None)
    if kind == "add" or not entries:
        free_ns = [p for p in NS if p not in {e.ns for e in entries}]
        free_ew = [p for p in EW if p not in {e.ew for e in entries}]
        if not free_ns or not free_ew:
            return ("board", board, entries)
        entry = draw(result(draw(st.sampled_from(free_ns)), draw(st.sampled_from(free_ew)), method))
        at = draw(st.integers(0, len(entries)))
        return ("board", board, entries[:at] + [entry] + entries[at:])
    at = draw(st.integers(0, len(entries) - 1))
    if kind == "remove":
        return ("board", board, entries[:at] + entries[at + 1 :])
    old = entries[at]
    return ("board", board, entries[:at] + [draw(result(old.ns, old.ew, method))] + entries[at + 1 :])


@st.composite
def penalties(draw, boards):
    """Penalties of pairs that play: on a board they have a result on, or on the session total."""
    seated = sorted({(b, p) for b, entries in boards.items() for e in entries for p in (e.ns, e.ew)})
    if not seated:
        return []
    out = []
    for _ in range(draw(st.integers(0, 3))):
        board, pair = draw(st.sampled_from(seated))
        percent = Decimal(draw(st.sampled_from([10, 25, 50])))
        out.append(Penalty(pair, percent, draw(st.sampled_from([board, None])), ""))
    return out


def full_score(boards, penalties, options):
    ordered = {board: entries for board, entries in sorted(boards.items()) if entries}
    return score_session(ordered, penalties=penalties, **options)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_incremental_equals_full_after_any_sequence_of_changes(data):
    method = data.draw(st.sampled_from(["mp", "mp", "mp", "cross-imps", "butler"]), "method")
    options = dict(
        method=method,
        scale=data.draw(st.sampled_from([1, 2]), "scale"),
        rounding=data.draw(st.sampled_from(["computer", "hand"]), "rounding"),
        tie_break=data.draw(st.sampled_from(["shared", "head_to_head", "best_boards"]), "tie_break"),
    )
    boards: dict[int, list[Entry]] = {}
    for board in range(1, data.draw(st.integers(1, 5)) + 1):
        tables = data.draw(st.integers(1, 6))
        boards[board] = [data.draw(result(NS[t], EW[(t + board) % 6], method)) for t in range(tables)]
    current = []
    live = LiveSession(boards, penalties=current, **options)
    expected = full_score(boards, current, options)
    assert_same(live.score(), expected)
    for _step in range(data.draw(st.integers(1, 12))):
        kind, board, entries = data.draw(change(boards, method))
        proposed = dict(boards)
        new_penalties = current
        if kind == "penalties":
            if method != "mp":
                continue
            new_penalties = data.draw(penalties(boards))
        else:
            proposed[board] = entries
        try:
            wanted = full_score(proposed, new_penalties, options)
        except ValueError:
            # The full score refuses it (a penalty left without its result): so does the live session,
            # and it stays as it was.
            with pytest.raises(ValueError):
                if kind == "penalties":
                    live.set_penalties(new_penalties)
                else:
                    live.set_board(board, entries)
            assert_same(live.score(), expected)
            continue
        if kind == "penalties":
            live.set_penalties(new_penalties)
        else:
            live.set_board(board, entries)
        boards, current, expected = proposed, new_penalties, wanted
        assert_same(live.score(), expected)
        assert live.boards == {b: tuple(e) for b, e in sorted(boards.items()) if e}


def _session(pairs_per_line=10, boards=9):
    return {
        board: [
            Entry(f"n{t}", f"e{(t + board) % pairs_per_line}", [-100, 110, 140, 420, 450][(t * board) % 5])
            for t in range(pairs_per_line)
        ]
        for board in range(1, boards + 1)
    }


def test_one_changed_result_scores_only_its_board():
    boards = _session()
    live = LiveSession(boards)
    before = live.scored_boards
    boards[4] = [Entry(e.ns, e.ew, e.score + 10 if i == 2 else e.score) for i, e in enumerate(boards[4])]
    assert live.set_board(4, boards[4]) == {4}
    assert live.scored_boards == before + 1
    assert_same(live.score(), score_session(boards))


def test_an_award_waits_for_the_average_of_its_pair_only():
    # n3 has average-plus on board 9: a change on board 4 (where n3 plays) moves n3's session average, so
    # board 9 gets its second pass again; a change that leaves every average alone scores its board only.
    boards = _session()
    boards[9][3] = Entry("n3", boards[9][3].ew, None, AWARDS[0])
    live = LiveSession(boards)
    boards[4] = [Entry(e.ns, e.ew, -500 if e.ns == "n3" else e.score) for e in boards[4]]
    assert live.set_board(4, boards[4]) == {4, 9}
    assert_same(live.score(), score_session(boards))


def test_a_board_with_more_results_than_any_rescores_every_board():
    # N (the results of a complete board) is the Neuberg reference of every board: when it grows, every
    # board and the top change.
    boards = _session()
    boards[2] = boards[2][:-1]
    live = LiveSession({b: e for b, e in boards.items() if b != 1})
    boards[1] = boards[1] + [Entry("n10", "e10", 600)]
    assert live.set_board(1, boards[1]) == set(boards)
    assert_same(live.score(), score_session(dict(sorted(boards.items()))))


def test_a_refused_change_leaves_the_session_as_it_was():
    boards = _session()
    live = LiveSession(boards, penalties=[Penalty("n1", Decimal(25), 3, "")])
    before = live.score()
    with pytest.raises(ValueError):
        live.set_board(3, [e for e in boards[3] if e.ns != "n1"])  # the penalised result goes
    with pytest.raises(ValueError):
        live.set_board(5, boards[5] + [Entry("n1", "e9", 100)])  # n1 twice on board 5
    assert live.score() is before
    assert_same(live.score(), score_session(boards, penalties=[Penalty("n1", Decimal(25), 3, "")]))
