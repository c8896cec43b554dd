import pytest

from ulti.engine.rulesets import MAUSZ, SZOLNOK
from ulti.engine.standings import (
    RoundResult,
    StandingsError,
    compute_standings,
    stages_of,
    standings_by_group,
)
from ulti.engine.tables import TableResult


def T(label, *pairs):
    players = tuple(p for p, _ in pairs)
    forints = tuple(f for _, f in pairs)
    return TableResult(label, players, forints)


def rows(standings):
    return [(s.place, s.player, s.points, s.forint) for s in standings]


def test_points_then_forint():
    rounds = [
        RoundResult(
            1, (T("1", ("A", 500), ("B", -200), ("C", -300)), T("2", ("D", 100), ("E", 50), ("F", -150)))
        ),
        RoundResult(
            2, (T("1", ("A", -100), ("D", 300), ("F", -200)), T("2", ("B", 400), ("C", -200), ("E", -200)))
        ),
    ]
    st = compute_standings(rounds, MAUSZ)
    # D wins both tables; A and B both have 6 points and A is ahead on forint.
    assert rows(st) == [
        ("1", "D", 8, 400),
        ("2", "A", 6, 400),
        ("3", "B", 6, 200),
        ("4", "E", 3, -150),
        ("5", "C", 1, -500),
        ("6", "F", 0, -350),
    ]
    assert st[0].tables == 2 and st[0].byes == 0
    assert st[0].round_points == (4, 4)


def test_equal_points_and_forint_share_the_place_in_a_stable_order():
    rounds = [
        RoundResult(
            1, (T("1", ("Z", 300), ("Y", -150), ("X", -150)), T("2", ("W", 300), ("V", -150), ("U", -150)))
        ),
    ]
    st = compute_standings(rounds, MAUSZ)
    assert rows(st) == [
        ("1-2", "W", 4, 300),
        ("1-2", "Z", 4, 300),
        ("3-6", "U", 1, -150),
        ("3-6", "V", 1, -150),
        ("3-6", "X", 1, -150),
        ("3-6", "Y", 1, -150),
    ]
    assert (st[2].place_from, st[2].place_to) == (3, 6)
    # Same input in another order: same list.
    assert rows(compute_standings(list(reversed(rounds)), MAUSZ)) == rows(st)


def test_display_key_orders_inside_a_shared_place():
    rounds = [RoundResult(1, (T("1", ("b", 0), ("a", 0), ("c", 0)),))]
    names = {"a": "Zoltán", "b": "Anna", "c": "Béla"}
    st = compute_standings(rounds, MAUSZ, display_key=names.get)
    assert [s.player for s in st] == ["b", "c", "a"]
    assert {s.place for s in st} == {"1-3"}


@pytest.mark.parametrize("ruleset, bye_points", [(MAUSZ, 4), (SZOLNOK, 3)])
def test_bye_scores_bye_points_and_zero_forint(ruleset, bye_points):
    rounds = [RoundResult(1, (T("1", ("A", 100), ("B", 0), ("C", -100)),), byes=("D",))]
    st = {s.player: s for s in compute_standings(rounds, ruleset)}
    assert st["D"].points == bye_points
    assert st["D"].forint == 0
    assert st["D"].byes == 1 and st["D"].tables == 0


def test_groups_per_group_and_combined():
    rounds = [
        RoundResult(1, (T("1", ("A", 10), ("B", 0), ("C", -10)),), group="1"),
        RoundResult(1, (T("1", ("D", 30), ("E", -10), ("F", -20)),), group="2"),
        RoundResult(2, (T("1", ("A", 0), ("B", 20), ("C", -20)),), group="1"),
        RoundResult(2, (T("1", ("D", 0), ("E", 0), ("F", 0)),), group="2"),
    ]
    by_group = standings_by_group(rounds, MAUSZ)
    assert list(by_group) == ["1", "2"]
    assert [s.player for s in by_group["1"]] == ["B", "A", "C"]
    assert [s.player for s in by_group["2"]] == ["D", "E", "F"]
    combined = compute_standings(rounds, MAUSZ)
    assert [(s.place, s.player, s.points, s.group) for s in combined] == [
        ("1", "D", 6, "2"),
        ("2", "B", 6, "1"),
        ("3", "A", 6, "1"),
        ("4", "E", 4, "2"),
        ("5", "F", 2, "2"),
        ("6", "C", 0, "1"),
    ]


def test_stages_start_from_zero():
    rounds = [
        RoundResult(1, (T("1", ("A", 10), ("B", 0), ("C", -10)),), stage="qualifier"),
        RoundResult(1, (T("1", ("C", 10), ("B", 0), ("A", -10)),), stage="final"),
    ]
    assert stages_of(rounds) == ["qualifier", "final"]
    final = compute_standings(rounds, MAUSZ, stage="final")
    assert rows(final) == [("1", "C", 4, 10), ("2", "B", 2, 0), ("3", "A", 0, -10)]
    with pytest.raises(StandingsError, match="each stage starts from zero"):
        compute_standings(rounds, MAUSZ)


def test_entrants_without_results_appear_with_zero():
    rounds = [RoundResult(1, (T("1", ("A", 10), ("B", 0), ("C", -10)),))]
    st = compute_standings(rounds, MAUSZ, players=["A", "B", "C", "Late"])
    late = next(s for s in st if s.player == "Late")
    # 0 points and 0 forint: ahead of C, who has 0 points but lost 10.
    assert (late.place, late.points, late.forint, late.tables) == ("3", 0, 0, 0)
    assert st[-1].player == "C"


def test_a_player_plays_once_per_round():
    with pytest.raises(StandingsError, match="seated at two tables"):
        RoundResult(1, (T("1", ("A", 0), ("B", 0), ("C", 0)), T("2", ("A", 0), ("D", 0), ("E", 0))))
    with pytest.raises(StandingsError, match="has a bye but is also seated"):
        RoundResult(1, (T("1", ("A", 0), ("B", 0), ("C", 0)),), byes=("A",))
    rounds = [
        RoundResult(1, (T("1", ("A", 0), ("B", 0), ("C", 0)),), group="1"),
        RoundResult(1, (T("1", ("A", 0), ("D", 0), ("E", 0)),), group="2"),
    ]
    with pytest.raises(StandingsError, match="A also plays round 1 in group 1"):
        compute_standings(rounds, MAUSZ)
    twice = [RoundResult(1, (T("1", ("A", 0), ("B", 0), ("C", 0)),))] * 2
    with pytest.raises(StandingsError, match="given twice"):
        compute_standings(twice, MAUSZ)


def test_cut_line_at_60_splits_a_shared_place_and_says_how_many_fit():
    from ulti.engine.standings import cut_line

    # 58 clear places, then 59-61 shared (equal points and forints), then 62-70
    places = [(f"p{i}", i, i) for i in range(1, 59)]
    places += [(f"t{i}", 59, 61) for i in range(3)]
    places += [(f"q{i}", i, i) for i in range(62, 71)]
    cut = cut_line(places, 60)
    assert cut.is_tied and cut.seats == 2 and len(cut.through) == 58
    assert cut.tied == ("t0", "t1", "t2") and cut.sizes_without_tie == (58, 61)
    # the line between places is no tie: 61 takes the whole shared place, 21 cuts clean
    assert not cut_line(places, 61).is_tied and len(cut_line(places, 61).through) == 61
    assert not cut_line(places, 21).is_tied and cut_line(places, 21).through[-1] == "p21"
    # a field smaller than the cut: everyone goes on
    assert cut_line(places[:10], 21).through == tuple(p for p, _lo, _hi in places[:10])
