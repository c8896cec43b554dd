import random
from dataclasses import replace
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from teams.engine.pairing.danish import pair_danish
from teams.engine.pairing.first_round import draw_first_round, seeded_first_round
from teams.engine.pairing.hybrid import pair_danish_swiss, suggested_swiss_rounds
from teams.engine.pairing.knockout import (
    advance,
    bracket_order,
    consolation_draw,
    plan_match,
    seed_knockout,
)
from teams.engine.pairing.pairings import (
    BYE,
    BYE_MOVED,
    MATCHING_FALLBACK,
    PULLED_UP,
    REMATCH,
    REMATCH_AVOIDED,
    REMATCH_UNAVOIDABLE,
    REPEAT_BYE,
)
from teams.engine.pairing.ranking import final_table, rank_for_pairing
from teams.engine.pairing.round_robin import berger_table, round_robin, snake_groups
from teams.engine.pairing.standing import TeamStanding
from teams.engine.pairing.swiss import NoRematchFreePairing, pair_swiss


def team(tid, start, vp=0, imps=0, opponents=(), previous_place=None):
    return TeamStanding(tid, start, Decimal(vp), Decimal(imps), previous_place, tuple(opponents))


def games(result):
    return [(p.home, p.away) for p in result.pairings]


# --- ranking ----------------------------------------------------------------------------------


def test_ranking_vp_then_imps_then_start_number():
    teams = [team("a", 3, 30, 5), team("b", 1, 30, 5), team("c", 2, 30, 9), team("d", 4, 31, -20)]
    assert [t.team_id for t in rank_for_pairing(teams)] == ["d", "c", "b", "a"]


def test_ranking_previous_place_tiebreak():
    teams = [
        team("a", 1, 30, 5, previous_place=4),
        team("b", 2, 30, 5, previous_place=2),
        team("c", 3, 30, 5),
    ]
    order = rank_for_pairing(teams, {"tiebreak": "previous_place"})
    assert [t.team_id for t in order] == ["b", "a", "c"]  # no previous place ranks last among equals
    assert [t.team_id for t in rank_for_pairing(teams)] == ["a", "b", "c"]


def test_final_table_shared_places():
    teams = [team("a", 1, 30, 5), team("b", 2, 30, 5), team("c", 3, 20, 0), team("d", 4, 40, 0)]
    table = final_table(teams, {"tiebreak": "shared"})
    assert [(r.place, r.team.team_id, r.shared) for r in table] == [
        (1, "d", False),
        (2, "a", True),
        (2, "b", True),
        (4, "c", False),
    ]
    assert [r.place for r in final_table(teams)] == [1, 2, 3, 4]


def test_ranking_rejects_bad_input():
    with pytest.raises(ValueError, match="unknown option"):
        rank_for_pairing([team("a", 1)], {"tie_break": "start_number"})
    with pytest.raises(ValueError):
        rank_for_pairing([team("a", 1)], {"tiebreak": "coin"})
    with pytest.raises(ValueError):
        rank_for_pairing([team("a", 1), team("b", 1)])


# --- unknown options everywhere ----------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda: pair_danish([team("a", 1), team("b", 2)], {"bogus": 1}),
        lambda: pair_swiss([team("a", 1), team("b", 2)], {"bogus": 1}),
        lambda: pair_danish_swiss([team("a", 1), team("b", 2)], 1, {"bogus": 1}),
        lambda: round_robin(["a", "b"], {"bogus": 1}),
        lambda: seed_knockout(["a", "b"], {"bogus": 1}),
        lambda: plan_match(16, {"bogus": 1}),
        lambda: draw_first_round(["a", "b"], {"bogus": 1}),
    ],
)
def test_unknown_option_key_rejected(call):
    with pytest.raises(ValueError, match="unknown option"):
        call()


# --- Danish -----------------------------------------------------------------------------------


def test_danish_pairs_by_ranking_and_allows_rematches():
    teams = [
        team("a", 1, 40, opponents=["b"]),
        team("b", 2, 35, opponents=["a"]),
        team("c", 3, 30, opponents=["d"]),
        team("d", 4, 20, opponents=["c"]),
    ]
    result = pair_danish(teams)
    assert games(result) == [("a", "b"), ("c", "d")]
    assert result.rematches == 2
    assert all(REMATCH in p.flags for p in result.pairings)
    assert [p.table for p in result.pairings] == [1, 2]


def test_danish_odd_field_bye_to_lowest_without_a_bye():
    teams = [
        team("a", 1, 40),
        team("b", 2, 35),
        team("c", 3, 30),
        team("d", 4, 25),
        team("e", 5, 20, opponents=[None]),
    ]
    result = pair_danish(teams)
    assert games(result) == [("a", "b"), ("c", "e"), ("d", None)]
    assert result.bye == "d"
    assert BYE in result.pairings[-1].flags


# --- Swiss: hand-checked ----------------------------------------------------------------------


def test_swiss_takes_next_unmet_team():
    teams = [
        team("a", 1, 30, opponents=["b"]),
        team("b", 2, 20, opponents=["a"]),
        team("c", 3, 15, opponents=["d"]),
        team("d", 4, 5, opponents=["c"]),
    ]
    result = pair_swiss(teams)
    assert games(result) == [("a", "c"), ("b", "d")]
    assert REMATCH_AVOIDED in result.pairings[0].flags
    assert result.rematches == 0 and result.flags == ()


def test_swiss_looks_ahead_and_pulls_a_team_up():
    # Greedy would give a-b, c-d and strand e-f (who have met).  The rule's pairing that works:
    # a-b, c-e, d-f.  c "pulls up" e past d.
    teams = [
        team("a", 1, 60),
        team("b", 2, 50),
        team("c", 3, 40),
        team("d", 4, 30),
        team("e", 5, 20, opponents=["f"]),
        team("f", 6, 10, opponents=["e"]),
    ]
    result = pair_swiss(teams)
    assert games(result) == [("a", "b"), ("c", "e"), ("d", "f")]
    assert PULLED_UP in result.pairings[1].flags
    assert "pulled up" in result.pairings[1].explanation


def test_swiss_impossible_is_said_and_has_fewest_rematches():
    # Four teams after a full round robin: every pairing is a rematch.
    ids = "abcd"
    teams = [team(x, i + 1, 10 - i, opponents=[y for y in ids if y != x]) for i, x in enumerate(ids)]
    result = pair_swiss(teams)
    assert REMATCH_UNAVOIDABLE in result.flags
    assert result.rematches == 2
    assert "no rematch-free pairing" in result.explanation
    with pytest.raises(NoRematchFreePairing) as raised:
        pair_swiss(teams, {"on_impossible": "raise"})
    assert raised.value.best.rematches == 2


def test_swiss_stage_ignores_meetings_before_the_stage():
    teams = [team("a", 1, 30, opponents=["b", "c"]), team("b", 2, 20, opponents=["a", "d"])]
    teams += [team("c", 3, 15, opponents=["d", "a"]), team("d", 4, 5, opponents=["c", "b"])]
    assert games(pair_swiss(teams)) == [("a", "d"), ("b", "c")]
    assert games(pair_swiss(teams, {"stage_start_round": 2})) == [("a", "b"), ("c", "d")]


def test_swiss_bye_moves_up_only_when_needed():
    # e (last, no bye) would leave a, b, c, d to pair; but d has met a, b and c, so d takes the bye.
    teams = [
        team("a", 1, 50, opponents=["d"]),
        team("b", 2, 40, opponents=["d"]),
        team("c", 3, 30, opponents=["d"]),
        team("d", 4, 20, opponents=["a", "b", "c"]),
        team("e", 5, 10),
    ]
    result = pair_swiss(teams)
    assert result.bye == "d"
    bye = next(p for p in result.pairings if p.is_bye)
    assert BYE_MOVED in bye.flags
    assert result.rematches == 0


def test_swiss_repeat_bye_only_when_everyone_had_one():
    teams = [
        team("a", 1, 30, opponents=[None]),
        team("b", 2, 20, opponents=[None]),
        team("c", 3, 10, opponents=[None]),
    ]
    result = pair_swiss(teams)
    bye = next(p for p in result.pairings if p.is_bye)
    assert bye.home == "c"
    assert REPEAT_BYE in bye.flags


def test_swiss_budget_fallback_stays_rematch_free():
    teams = [
        team("a", 1, 60),
        team("b", 2, 50),
        team("c", 3, 40),
        team("d", 4, 30),
        team("e", 5, 20, opponents=["f"]),
        team("f", 6, 10, opponents=["e"]),
    ]
    result = pair_swiss(teams, {"search_budget": 0})
    assert MATCHING_FALLBACK in result.flags
    assert result.rematches == 0


def test_swiss_needs_two_teams():
    with pytest.raises(ValueError):
        pair_swiss([team("a", 1)])


# --- Swiss: brute force comparison -------------------------------------------------------------


def all_pairings(items):
    """Every perfect matching of an even-length list."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for i, other in enumerate(rest):
        for tail in all_pairings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *tail]


def brute_force(teams, since_round=1):
    """(fewest rematches possible, the rule's pairing if a rematch-free one exists with a fair bye)."""
    ranked = [t.team_id for t in rank_for_pairing(teams)]
    by_id = {t.team_id: t for t in teams}
    met = {tid: set() for tid in ranked}
    for t in teams:
        for opponent in t.met(since_round):
            met[t.team_id].add(opponent)
            met[opponent].add(t.team_id)
    byes = [None] if len(ranked) % 2 == 0 else ranked
    fewest = None
    rule_key = rule_pairing = None
    min_byes = min(by_id[t].byes for t in ranked)
    for bye in byes:
        rest = [t for t in ranked if t != bye]
        for pairing in all_pairings(rest):
            count = sum(1 for a, b in pairing if b in met[a])
            fewest = count if fewest is None else min(fewest, count)
            if count or (bye is not None and by_id[bye].byes > min_byes):
                continue
            partner = {}
            for a, b in pairing:
                partner[a], partner[b] = b, a
            seen, seq = set(), []
            for tid in rest:
                if tid not in seen:
                    seq.append(ranked.index(partner[tid]))
                    seen.update((tid, partner[tid]))
            key = ((by_id[bye].byes, -ranked.index(bye)) if bye is not None else (), seq)
            if rule_key is None or key < rule_key:
                rule_key = key
                rule_pairing = sorted(tuple(sorted((a, b), key=ranked.index)) for a, b in pairing)
    return fewest, rule_pairing


def play(teams, result, rng):
    teams = {t.team_id: t for t in teams}
    for p in result.pairings:
        if p.is_bye:
            t = teams[p.home]
            teams[p.home] = replace(t, vp=t.vp + 12, opponents=(*t.opponents, None))
            continue
        margin = rng.randint(-30, 30)
        vp = Decimal(min(20, max(0, 10 + margin // 3)))
        h, a = teams[p.home], teams[p.away]
        teams[p.home] = replace(h, vp=h.vp + vp, imps=h.imps + margin, opponents=(*h.opponents, p.away))
        teams[p.away] = replace(a, vp=a.vp + 20 - vp, imps=a.imps - margin, opponents=(*a.opponents, p.home))
    return list(teams.values())


def check_round(teams, options=None):
    result = pair_swiss(teams, options)
    fewest, rule = brute_force(teams)
    played = sorted(p.teams for p in result.pairings if not p.is_bye)
    assert len({x for p in result.pairings for x in p.teams}) == len(teams)
    if fewest == 0:
        assert result.rematches == 0, "a rematch-free pairing existed"
        assert REMATCH_UNAVOIDABLE not in result.flags
        if rule is not None and not (options or {}).get("search_budget") == 0:
            assert played == rule, "not the rule's top-down pairing"
    else:
        assert result.rematches == fewest
        assert REMATCH_UNAVOIDABLE in result.flags
    return result


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(min_value=2, max_value=9),
    seed=st.integers(0, 2**32 - 1),
    budget=st.sampled_from([20_000, 0]),
)
def test_swiss_whole_event_never_repeats_when_avoidable(n, seed, budget):
    rng = random.Random(seed)
    teams = [team(f"t{i}", i) for i in range(1, n + 1)]
    rng.shuffle(teams)
    rounds = rng.randint(1, n + 1)  # sometimes beyond n - 1 rounds, where rematches become unavoidable
    for _ in range(rounds):
        result = check_round(teams, {"search_budget": budget})
        teams = play(teams, result, rng)


def test_swiss_matches_brute_force_on_a_fixed_set_of_events():
    rng = random.Random(7)
    for n in (6, 7, 8, 9, 10):
        teams = [team(f"t{i}", i) for i in range(1, n + 1)]
        for _ in range(n - 1):
            teams = play(teams, check_round(teams), rng)


# --- hybrid -----------------------------------------------------------------------------------


def test_hybrid_swiss_then_danish():
    teams = [
        team("a", 1, 40, opponents=["b"]),
        team("b", 2, 35, opponents=["a"]),
        team("c", 3, 30, opponents=["d"]),
        team("d", 4, 20, opponents=["c"]),
    ]
    swiss = pair_danish_swiss(teams, 2, {"swiss_rounds": 2})
    assert games(swiss) == [("a", "c"), ("b", "d")]
    assert swiss.method == "danish_swiss:swiss"
    danish = pair_danish_swiss(teams, 3, {"swiss_rounds": 2})
    assert games(danish) == [("a", "b"), ("c", "d")]
    assert danish.method == "danish_swiss:danish"


def test_hybrid_suggestion():
    assert suggested_swiss_rounds(16) == 4
    assert suggested_swiss_rounds(40) == 6
    assert suggested_swiss_rounds(3) == 2
    assert suggested_swiss_rounds(64, total_rounds=5) == 3
    assert suggested_swiss_rounds(16, total_rounds=2) == 1
    teams = [team(f"t{i}", i) for i in range(1, 17)]
    assert pair_danish_swiss(teams, 4).method == "danish_swiss:swiss"
    assert pair_danish_swiss(teams, 5).method == "danish_swiss:danish"
    assert pair_danish_swiss(teams, 5).extra["swiss_rounds"] == 4


# --- round robin ------------------------------------------------------------------------------


def test_berger_table_matches_the_published_six_team_table():
    assert berger_table(6) == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]


@pytest.mark.parametrize("n", range(2, 15))
def test_round_robin_everyone_meets_everyone_once(n):
    ids = [f"t{i}" for i in range(n)]
    rounds = round_robin(ids)
    assert len(rounds) == n - 1 + n % 2
    met = {}
    for r in rounds:
        seen = [x for p in r.pairings for x in p.teams]
        assert sorted(seen) == sorted(ids)
        assert sum(p.is_bye for p in r.pairings) == n % 2
        for p in r.pairings:
            if not p.is_bye:
                key = frozenset(p.teams)
                met[key] = met.get(key, 0) + 1
    assert len(met) == n * (n - 1) // 2 and set(met.values()) == {1}
    if n % 2:
        byes = [r.bye for r in rounds]
        assert sorted(byes) == sorted(ids)


def test_double_round_robin_swaps_home_and_stages():
    rounds = round_robin(["a", "b", "c", "d"], {"cycles": 2, "stages": 2})
    assert len(rounds) == 6
    first = {(p.home, p.away) for r in rounds[:3] for p in r.pairings}
    second = {(p.away, p.home) for r in rounds[3:] for p in r.pairings}
    assert first == second
    assert [r.stage for r in rounds] == [1, 1, 1, 2, 2, 2]
    with pytest.raises(ValueError):
        round_robin(["a", "b"], {"stages": 5})
    with pytest.raises(ValueError):
        round_robin(["a", "b"], {"cycles": 3})


def test_snake_groups():
    assert snake_groups(list(range(1, 10)), 3) == [[1, 6, 7], [2, 5, 8], [3, 4, 9]]


# --- knockout ---------------------------------------------------------------------------------


def test_bracket_order_keeps_top_seeds_apart():
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_order(16)[:4] == [1, 16, 8, 9]
    with pytest.raises(ValueError):
        bracket_order(6)


def test_seeding_and_byes_for_top_seeds():
    first = seed_knockout(["s1", "s2", "s3", "s4", "s5", "s6"])
    lines = [(m.top, m.bottom) for m in first.matches]
    assert lines == [("s1", None), ("s4", "s5"), ("s2", None), ("s3", "s6")]
    assert first.matches[0].is_bye
    second = advance(first, {2: "s5", 4: "s3"})
    assert [(m.top, m.bottom) for m in second.matches] == [("s1", "s5"), ("s2", "s3")]
    final = advance(second, {1: "s1", 2: "s3"})
    assert final.is_final and (final.matches[0].top, final.matches[0].bottom) == ("s1", "s3")
    assert advance(final, {1: "s3"}) is None
    with pytest.raises(ValueError):
        advance(second, {1: "s2", 2: "s3"})


def test_eight_team_draw_is_first_v_last():
    first = seed_knockout([f"s{i}" for i in range(1, 9)])
    pairs = {frozenset((m.top_seed, m.bottom_seed)) for m in first.matches}
    assert pairs == {frozenset((1, 8)), frozenset((2, 7)), frozenset((3, 6)), frozenset((4, 5))}


def test_consolation_bracket_from_first_round_losers():
    first = seed_knockout([f"s{i}" for i in range(1, 9)])
    winners = {1: "s1", 2: "s5", 3: "s2", 4: "s6"}  # s5 and s6 win: s4 and s3 go to the consolation
    consolation = consolation_draw(first, winners)
    assert consolation.bracket == "consolation"
    assert [(m.top, m.bottom) for m in consolation.matches] == [("s8", "s4"), ("s7", "s3")]
    final = advance(consolation, {1: "s4", 2: "s7"})
    assert (final.matches[0].top, final.matches[0].bottom) == ("s4", "s7")
    # With byes in round one, the consolation has a bye too.
    six = seed_knockout([f"s{i}" for i in range(1, 7)])
    small = consolation_draw(six, {2: "s4", 4: "s3"})
    assert [(m.top, m.bottom) for m in small.matches] == [(None, "s5"), (None, "s6")]
    assert consolation_draw(seed_knockout(["a", "b"]), {1: "a"}) is None


@pytest.mark.parametrize(
    ("boards", "options", "segments"),
    [
        (6, None, (6,)),
        (12, None, (12,)),
        (16, {"knockout_main_draw": True}, (8, 8)),
        (24, None, (12, 12)),
        (40, None, (20, 20)),
        (48, None, (16, 16, 16)),
        (56, None, (14, 14, 14, 14)),
        (64, None, (16, 16, 16, 16)),
        (96, None, (16,) * 6),
        (4, {"form": "patton"}, (4,)),
        (3, {"form": "board_a_match"}, (3,)),
    ],
)
def test_match_plans(boards, options, segments):
    assert plan_match(boards, options).segments == segments


@pytest.mark.parametrize(
    ("boards", "options", "message"),
    [
        (5, None, "at least 6"),
        (12, {"knockout_main_draw": True}, "at least 16"),
        (8, {"form": "chicago"}, "unknown match form"),
    ],
)
def test_match_plan_errors(boards, options, message):
    with pytest.raises(ValueError, match=message):
        plan_match(boards, options)


# --- round one --------------------------------------------------------------------------------


def test_seeded_first_round():
    assert games(seeded_first_round(["a", "b", "c", "d", "e", "f"])) == [("a", "f"), ("b", "e"), ("c", "d")]
    odd = seeded_first_round(["a", "b", "c", "d", "e"])
    assert games(odd) == [("a", "e"), ("b", "d"), ("c", None)]


def test_draw_is_recorded_and_replayable():
    ids = [f"t{i}" for i in range(1, 12)]
    drawn = draw_first_round(ids)
    assert len(bytes.fromhex(drawn.draw_seed)) == 20
    assert sorted(drawn.extra["permutation"]) == list(range(11))
    assert sorted(x for p in drawn.pairings for x in p.teams) == sorted(ids)
    assert drawn.bye is not None
    replay = draw_first_round(ids, {"seed": drawn.draw_seed})
    assert games(replay) == games(drawn)
    other = draw_first_round(ids, {"seed": "00" * 20})
    assert other.extra["permutation"] != drawn.extra["permutation"] or other.draw_seed == drawn.draw_seed
