import pytest

from ulti.engine.formats import RULE_TABLE, FormatError, group_schedules, propose_format


@pytest.mark.parametrize(
    "players, groups, rounds, final",
    [
        (45, (15, 15, 15), 5, 21),
        (42, (21, 21), 8, 21),
        (30, (15, 15), 5, 21),
        (21, (21,), 8, 15),
    ],
)
def test_rule_book_formats(players, groups, rounds, final):
    fmt = propose_format(players)
    assert (fmt.groups, fmt.rounds, fmt.final_players) == (groups, rounds, final)
    assert fmt.from_rule_table
    assert fmt.final_rounds == (final - 1) // 2
    assert RULE_TABLE[players] == (groups, rounds, final)


@pytest.mark.parametrize("players", [44, 43, 31, 20, 1])
def test_field_not_divisible_by_three_is_refused(players):
    with pytest.raises(FormatError, match=f"divisible by three.*{players} players cannot be seated"):
        propose_format(players)


def test_refusal_names_the_nearest_fields():
    with pytest.raises(FormatError, match="nearest fields are 42 and 45"):
        propose_format(44)


@pytest.mark.parametrize("players", [0, 3, 6])
def test_too_small(players):
    with pytest.raises(FormatError, match="too few"):
        propose_format(players)


def test_not_a_number():
    with pytest.raises(FormatError, match="whole number"):
        propose_format("45")


@pytest.mark.parametrize(
    "players, groups, rounds, final",
    [
        (24, (12, 12), 5, 21),
        (27, (15, 12), 5, 21),
        (36, (18, 18), 5, 21),
        (48, (18, 15, 15), 5, 21),
        (60, (21, 21, 18), 5, 21),
        (63, (21, 21, 21), 8, 21),
        (84, (21, 21, 21, 21), 8, 21),
        (90, (18, 18, 18, 18, 18), 5, 21),
    ],
)
def test_other_sizes_closest_split(players, groups, rounds, final):
    fmt = propose_format(players)
    assert (fmt.groups, fmt.rounds, fmt.final_players) == (groups, rounds, final)
    assert not fmt.from_rule_table
    assert sum(fmt.groups) == players
    assert all(g % 3 == 0 and g <= 21 for g in fmt.groups)
    assert max(fmt.groups) - min(fmt.groups) <= 3


@pytest.mark.parametrize("players, rounds", [(9, 4), (12, 6), (15, 7), (18, 9)])
def test_small_fields_play_one_all_play_all_group(players, rounds):
    fmt = propose_format(players)
    assert fmt.groups == (players,) and fmt.rounds == rounds and fmt.final_players == 0


def test_describe():
    assert propose_format(45).describe() == (
        "45 players: day one 3 x 15, 5 rounds; day two final of the top 21, 10 rounds"
    )


def test_group_schedules_have_no_repeats_for_rule_book_groups():
    for players in (45, 42, 30, 21):
        fmt = propose_format(players)
        schedules = group_schedules(fmt)
        assert [len(s.rounds) for s in schedules] == [fmt.rounds] * len(fmt.groups)
        assert all(s.repeats == 0 for s in schedules)
