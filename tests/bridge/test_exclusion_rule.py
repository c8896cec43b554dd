"""VSz 23 exclusion, the rule alone: what leaves the standings, and what the measure needs."""

from bridge.engine.scoring.exclusion import (
    EVENT,
    SESSION,
    Exclusion,
    boards_out,
    out_by_session,
    ranked,
    refusal,
)


def test_excluded_from_the_event_every_result_goes_and_the_pair_is_not_ranked():
    measure = Exclusion(pair=7, scope=EVENT, session=2)
    assert [boards_out(measure, n) for n in (1, 2, 3)] == [None, None, None]  # earlier sessions too
    assert not ranked(measure)


def test_excluded_from_a_session_only_that_session_goes():
    measure = Exclusion(pair=7, scope=SESSION, session=2)
    assert boards_out(measure, 1) == frozenset() and boards_out(measure, 3) == frozenset()
    assert boards_out(measure, 2) is None
    assert ranked(measure)


def test_excluded_from_a_part_of_a_session_only_those_boards_go():
    measure = Exclusion(pair=7, scope=SESSION, session=1, boards=frozenset({11, 12, 13, 14}))
    assert boards_out(measure, 1) == {11, 12, 13, 14}
    assert boards_out(measure, 2) == frozenset()


def test_measures_add_up_per_session():
    measures = [
        Exclusion(7, SESSION, 1, frozenset({13, 14})),
        Exclusion(7, SESSION, 1, frozenset({11, 12})),
        Exclusion(8, SESSION, 2),
        Exclusion(8, SESSION, 2, frozenset({1})),
        Exclusion(9, EVENT, 2),
    ]
    assert out_by_session(measures, [1, 2]) == {
        1: {7: {11, 12, 13, 14}, 9: None},
        2: {8: None, 9: None},
    }


def test_exclusion_from_the_event_needs_the_appeals_committee():
    assert refusal(EVENT, (), committee_consent=False) == "needs_committee"
    assert refusal(EVENT, (), committee_consent=True) is None
    assert refusal(SESSION, (), committee_consent=False) is None  # the director alone
    assert refusal(EVENT, (3,), committee_consent=True) == "boards_with_event"
    assert refusal("round", (), committee_consent=True) == "unknown_scope"
    assert refusal(SESSION, (0,), committee_consent=False) == "bad_board"
