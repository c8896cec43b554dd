import itertools

import pytest

from ulti.engine.schedule import (
    ScheduleError,
    count_meetings,
    is_kirkman_size,
    kirkman,
    minimum_rounds,
    round_robin,
)


def verify_every_pair_once(n, rounds):
    assert len(rounds) == (n - 1) // 2
    met = {}
    for rnd in rounds:
        assert len(rnd) == n // 3
        assert all(len(t) == 3 for t in rnd)
        assert sorted(p for t in rnd for p in t) == list(range(1, n + 1)), "a round is not a partition"
        for t in rnd:
            for a, b in itertools.combinations(sorted(t), 2):
                met[(a, b)] = met.get((a, b), 0) + 1
    for a, b in itertools.combinations(range(1, n + 1), 2):
        assert met.get((a, b)) == 1, f"{a} and {b} meet {met.get((a, b), 0)} times"


@pytest.mark.parametrize("n", [3, 9, 15, 21, 27, 33, 39, 45])
def test_kirkman_every_pair_meets_exactly_once(n):
    verify_every_pair_once(n, kirkman(n))
    sched = round_robin(n)
    assert sched.kirkman and sched.repeats == 0 and sched.missing == 0
    verify_every_pair_once(n, sched.rounds)
    assert all(b == () for b in sched.byes)


def test_kirkman_is_deterministic():
    assert kirkman(21) == kirkman(21)
    assert kirkman(15)[0] == ((1, 2, 4), (3, 8, 12), (5, 11, 13), (6, 9, 10), (7, 14, 15))


@pytest.mark.parametrize("n", [2, 6, 10, 12, 14])
def test_kirkman_refuses_other_sizes(n):
    with pytest.raises(ScheduleError, match="n = 3 mod 6"):
        kirkman(n)


def test_kirkman_cut_short_has_no_repeats():
    sched = round_robin(21, rounds=8)
    assert len(sched.rounds) == 8 and sched.repeats == 0
    assert sched.missing == 210 - 8 * 7 * 3


def test_ids_are_used_when_given():
    names = [f"J{i}" for i in range(9)]
    sched = round_robin(names)
    assert {p for rnd in sched.rounds for t in rnd for p in t} == set(names)


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 16, 18])
def test_other_sizes_report_repeats_correctly(n):
    sched = round_robin(n)
    assert not sched.kirkman
    assert len(sched.rounds) == minimum_rounds(n)
    bye_count = {p: 0 for p in range(1, n + 1)}
    for rnd, byes in zip(sched.rounds, sched.byes, strict=True):
        assert len(byes) == n % 3
        assert sorted([p for t in rnd for p in t] + list(byes)) == list(range(1, n + 1))
        for p in byes:
            bye_count[p] += 1
    assert max(bye_count.values()) - min(bye_count.values()) <= 1
    # Count independently of the module.
    meetings = {}
    for rnd in sched.rounds:
        for t in rnd:
            for pair in itertools.combinations(sorted(t), 2):
                meetings[pair] = meetings.get(pair, 0) + 1
    assert sched.repeats == sum(c - 1 for c in meetings.values())
    assert sched.missing == n * (n - 1) // 2 - len(meetings)
    assert (sched.repeats, sched.missing) == count_meetings(sched.rounds, list(range(1, n + 1)))
    assert sched.lower_bound <= sched.repeats
    assert sched.as_lists()[0][0] == list(sched.rounds[0][0])


def test_minimum_rounds():
    assert minimum_rounds(6) == 3  # 5 opponents, two a round
    assert minimum_rounds(12) == 6
    assert minimum_rounds(7) == 4  # one bye a round: a player needs 3 rounds of play plus room for his bye
    assert minimum_rounds(8) == 6  # two byes a round
    assert is_kirkman_size(15) and not is_kirkman_size(18)


def test_small_and_bad_input():
    assert round_robin(3).rounds == (((1, 2, 3),),)
    with pytest.raises(ScheduleError, match="cannot fill a table"):
        round_robin(2)
    with pytest.raises(ScheduleError, match="listed twice"):
        round_robin(["a", "a", "b"])
    with pytest.raises(ScheduleError, match="rounds must be"):
        round_robin(9, rounds=0)
