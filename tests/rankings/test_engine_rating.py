"""The ulti live rating: openskill Plackett-Luce over table places; display mapping; the 20-player rule."""

from hypothesis import given
from hypothesis import strategies as st

from rankings.engine import rating
from rankings.engine.rating import Rating


def test_a_new_player_starts_at_1000_and_is_provisional():
    r = Rating()
    assert r.display == 1000 and r.provisional and r.tables == 0


def test_places_move_ratings_and_count_tables():
    new = rating.rate_table({}, {1: 1, 2: 2, 3: 3})
    assert new[1].mu > new[2].mu > new[3].mu
    assert all(r.tables == 1 for r in new.values())


def test_players_who_tie_at_a_table_move_alike():
    # Tie for first: both winners get the same update, and more than the loser.
    new = rating.rate_table({}, {1: 1, 2: 1, 3: 3})
    assert new[1].mu == new[2].mu and new[1].sigma == new[2].sigma
    assert new[1].mu > new[3].mu
    # Three-way tie among equals: nobody's mean moves, uncertainty shrinks.
    new = rating.rate_table({}, {1: 1, 2: 1, 3: 1})
    assert all(abs(r.mu - rating.INITIAL_MU) < 1e-9 for r in new.values())
    assert all(r.sigma < rating.INITIAL_SIGMA for r in new.values())


def test_rate_event_applies_rounds_in_order_and_counts_events():
    rounds = [[{1: 1, 2: 2, 3: 3}], [{1: 1, 2: 2, 3: 3}]]
    new = rating.rate_event({}, rounds)
    assert new[1].tables == 2 and new[1].events == 1
    once = rating.rate_event({}, rounds[:1])
    assert new[1].mu > once[1].mu


def test_a_player_at_two_tables_in_one_round_is_refused():
    import pytest

    with pytest.raises(ValueError):
        rating.rate_event({}, [[{1: 1, 2: 2, 3: 3}, {1: 1, 4: 2, 5: 3}]])


def test_provisional_until_enough_tables():
    r = Rating(tables=rating.PROVISIONAL_TABLES - 1)
    assert r.provisional and not Rating(tables=rating.PROVISIONAL_TABLES).provisional


def test_the_20_player_rule():
    def counts(**kw):
        base = dict(rating_earning=True, in_calendar=False, club_event=True, players=19)
        base.update(kw)
        return rating.counts_for_rating(**base)

    assert not counts()  # club event outside the calendar, 19 players
    assert counts(players=20)
    assert counts(in_calendar=True)  # in the federation calendar: counts with any field
    assert counts(club_event=False)
    assert not counts(rating_earning=False, players=100)


@given(
    st.floats(0, 60, allow_nan=False),
    st.floats(0.5, 9, allow_nan=False),
    st.floats(0, 60, allow_nan=False),
    st.floats(0.5, 9, allow_nan=False),
)
def test_display_is_monotone_in_the_conservative_estimate(mu1, s1, mu2, s2):
    if mu1 - 3 * s1 <= mu2 - 3 * s2:
        assert rating.display(mu1, s1) <= rating.display(mu2, s2)
    else:
        assert rating.display(mu1, s1) >= rating.display(mu2, s2)
