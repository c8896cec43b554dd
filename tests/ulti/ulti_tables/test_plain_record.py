"""The plain form's deal (`ulti.engine.table_entry.plain_record`, a phone without JavaScript) is the picker's
deal: for any deal the picker can send, the fields a browser posts from the plain form make the same
record, and the sheet engine settles both to the same forints (or refuses both alike). In a suited game
the form asks one kontra per part (one defender's kontra binds both, I.3 (3)): the picker's taps on both
defenders come down to the one that counts, which settles as all of them did."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ulti.engine import sheet
from ulti.engine import table_entry as deals
from ulti.engine.scoring import MAUSZ, SZOLNOK

KEYS = ["11", "12", "13"]
BIDS = sorted(sheet.BIDS)
RULES = {
    "mausz": (MAUSZ, ("100", "four_aces", "ulti")),
    "szolnok": (SZOLNOK, ("100", "four_aces", "ulti", "durchmars")),
}
SILENT_OPTIONS = {  # what the picker offers per silent game (ulti.views.table_data.SILENT_OPTIONS)
    "100": ("declarer", "defenders", "declarer_notrick", "defenders_notrick"),
    "aces": ("declarer", "defenders", "defenders_split"),
    "ulti": ("declarer", "defenders", "declarer_failed", "defenders_failed"),
    "durchmars": ("declarer", "defenders"),
}


@st.composite
def picked(draw, silent_games):
    """A deal as the picker sends it: every part's outcome (impossible only where its chip offers it), the
    kontras tapped (0 after tapping back), silent games, a revoke, an impossible part doubled."""
    bid = draw(st.sampled_from(BIDS))
    declarer = draw(st.sampled_from(KEYS))
    defenders = [k for k in KEYS if k != declarer]
    slots = sheet.slots_of(bid)
    results = {slot: draw(st.sampled_from(deals.outcomes_of(slot))) for slot in slots}
    kontra = {
        slot: {d: draw(st.integers(0, 2)) for d in draw(st.sets(st.sampled_from(defenders), min_size=1))}
        for slot in slots
        if draw(st.booleans())
    }
    games = deals.silent_games_for(bid, silent_games)
    silent = {g: draw(st.sampled_from(SILENT_OPTIONS[g])) for g in games if draw(st.integers(0, 3)) == 0}
    revoke = None
    if draw(st.integers(0, 5)) == 0:
        phase, offence = draw(st.sampled_from(sorted(deals.REVOKE_TIMES.values())))
        revoke = {"player": draw(st.sampled_from(KEYS)), "phase": phase, "offence": offence}
    # The picker offers the box only beside an impossible part.
    doubled = "impossible" in results.values() and draw(st.booleans())
    return {
        "declarer": declarer,
        "bid": bid,
        "results": results,
        "kontra": kontra,
        "silent": silent,
        "revoke": revoke,
        "impossible_doubled": doubled,
    }


def counting_kontra(levels: dict[str, int]) -> str:
    """What a player taps in a suited part's one kontra question for the picker's taps: the highest level
    tapped, by the first defender in seat order who reached it; "0" when every tap went back to none."""
    tapped = {d: level for d, level in levels.items() if level}
    if not tapped:
        return "0"
    top = max(tapped.values())
    said = next(d for d in KEYS if tapped.get(d) == top)
    return f"{said}:{top}"


def browser_fields(raw: dict, silent_games) -> dict[str, str]:
    """What the browser posts from the plain form's step two for the same deal: every control of the
    page with its value, the untouched ones at their defaults ("0", "", "play")."""
    declarer, bid = raw["declarer"], raw["bid"]
    fields = {"declarer": declarer, "bid": bid, "kind": "deal", "number": "1", "key": "k" * 12}
    for slot in sheet.slots_of(bid):
        fields[f"r_{slot}"] = raw["results"][slot]
        if not sheet.BIDS[bid].no_trump:  # one question per part
            fields[f"k_{slot}"] = counting_kontra(raw["kontra"].get(slot, {}))
            continue
        for d in KEYS:
            if d != declarer:
                fields[f"k_{slot}_{d}"] = str(raw["kontra"].get(slot, {}).get(d, 0))
    for game in deals.silent_games_for(bid, silent_games):
        fields[f"s_{game}"] = raw["silent"].get(game, "")
    revoke = raw["revoke"]
    fields["rv_player"] = revoke["player"] if revoke else ""
    when = {times: value for value, times in deals.REVOKE_TIMES.items()}
    fields["rv_when"] = when[(revoke["phase"], revoke["offence"])] if revoke else "play"
    if raw["impossible_doubled"]:  # the box the page shows beside a part that can be impossible
        assert set(sheet.slots_of(bid)) & set(deals.IMPOSSIBLE_SLOTS)
        fields["impdbl"] = "1"
    return fields


def settled(record, rules):
    line = sheet.settle_sheet([(1, record)], KEYS, rules, 10).lines[0]
    if line.error is not None:
        refusal = line.error.params.get("refusal")
        return ("refused", line.error.kind, refusal.template if refusal else line.error.detail)
    assert sum(line.forints.values()) == 0
    return ("settled", line.forints)


@pytest.mark.parametrize("rule_set", sorted(RULES))
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_the_plain_form_posts_the_pickers_deal(rule_set, data):
    rules, silent_games = RULES[rule_set]
    raw = data.draw(picked(silent_games))
    from_picker = deals.clean(raw, KEYS, 1, silent_games)
    from_form = deals.clean(deals.plain_record(browser_fields(raw, silent_games)), KEYS, 1, silent_games)
    assert from_form == from_picker
    assert settled(from_form, rules) == settled(from_picker, rules)
    # Every kontra the picker tapped, kept as tapped, settles as the one the record keeps.
    tapped = {
        slot: {d: level for d, level in levels.items() if level} for slot, levels in raw["kontra"].items()
    }
    as_tapped = from_picker | {"kontra": {slot: levels for slot, levels in tapped.items() if levels}}
    assert settled(as_tapped, rules) == settled(from_picker, rules)
    if not sheet.BIDS[raw["bid"]].no_trump:
        assert all(len(levels) == 1 for levels in from_picker["kontra"].values())
    # A stored deal shown again for a correction posts itself unchanged.
    assert (
        deals.clean(deals.plain_record(deals.plain_fields(from_picker)), KEYS, 1, silent_games) == from_picker
    )


@given(
    st.sampled_from(BIDS),
    st.sampled_from(sorted(sheet.SILENT_GAMES)),
    st.sampled_from(sorted(sheet.SILENT_CHOICES)),
)
def test_the_silent_games_the_form_leaves_out_are_ones_the_engine_refuses(bid, game, choice):
    """The plain form offers only `silent_games_for` the bid; every other silent game is refused anyway."""
    if game in deals.silent_games_for(bid, ("100", "four_aces", "ulti", "durchmars")):
        return
    record = deals.clean({"declarer": "11", "bid": bid, "silent": {game: choice}}, KEYS, 1)
    outcome = settled(record, SZOLNOK)
    assert outcome[0] == "refused" and outcome[1] == "engine"


def test_step_one_gives_every_part_the_one_outcome():
    raw = deals.plain_record({"declarer": "12", "bid": "40-100 ulti", "outcome": "lost"})
    assert (
        raw["results"] == {"hundred": "lost", "ulti": "lost"}
        and raw["kontra"] == {}
        and raw["revoke"] is None
    )
    assert deals.plain_record({"declarer": "12", "bid_other": "red 20-100"})["results"] == {"hundred": "won"}
    with pytest.raises(deals.DealError) as error:
        deals.plain_record({"declarer": "12", "bid": "passz", "bid_other": "red 20-100"})
    assert error.value.code == "two_bids"


def test_an_impossible_part_doubled_and_a_revoke_in_the_bidding_settle():
    # An impossible ulti doubled in the first round pays as a failed ulti with its kontra (I.4 (5)).
    fields = {
        "declarer": "11",
        "bid": "ulti",
        "r_ulti": "impossible",
        "r_parti": "won",
        "k_ulti_12": "1",
        "impdbl": "1",
    }
    doubled = deals.clean(deals.plain_record(fields), KEYS, 1)
    assert doubled["impossible_doubled"] is True and doubled["kontra"] == {"ulti": {"12": 1}}
    plain = deals.clean(deals.plain_record(fields | {"impdbl": ""}), KEYS, 1)
    assert settled(doubled, MAUSZ)[1]["11"] < settled(plain, MAUSZ)[1]["11"] < 0
    # The declarer revealed a non-red trump suit in the bidding: double the bid to each defender (I.6 (2)).
    fields = {"declarer": "11", "bid": "40-100", "rv_player": "11", "rv_when": "bidding:trump suit"}
    record = deals.clean(deals.plain_record(fields), KEYS, 1)
    assert record["revoke"] == {"player": "11", "phase": "bidding", "offence": "trump suit"}
    assert settled(record, MAUSZ) == ("settled", {"11": -160, "12": 80, "13": 80})
    assert deals.plain_fields(record)["rv_when"] == "bidding:trump suit"
    # ... which only the declarer can do: a defender's is the engine's refusal.
    record = deals.clean(deals.plain_record(fields | {"rv_player": "12"}), KEYS, 1)
    assert settled(record, MAUSZ) == (
        "refused",
        "engine",
        "revealing the trump suit is an offence of the declarer",
    )


@pytest.mark.parametrize(
    "fields, code",
    [
        ({"declarer": "11", "bid": "ulti", "k_ulti_11": "1"}, "kontra"),  # the declarer doubles
        ({"declarer": "11", "bid": "ulti", "k_ulti_12": "3"}, "kontra"),  # no level beyond rekontra
        ({"declarer": "11", "bid": "ulti", "k_betli_12": "1"}, "kontra"),  # not a part of the bid
        ({"declarer": "11", "bid": "ulti", "r_ulti": "maybe"}, "outcome"),
        ({"declarer": "11", "bid": "passz", "r_parti": "impossible"}, None),  # the engine's refusal
        ({"declarer": "11", "bid": "passz", "rv_player": "12", "rv_when": "lunch"}, "revoke"),
        ({"declarer": "11", "bid": "passz", "s_durchmars": "declarer"}, "silent"),  # not under MAUSZ
        ({"declarer": "11", "bid": "ulti", "k_ulti": "1"}, "kontra"),  # a suited kontra names its doubler
        ({"declarer": "11", "bid": "ulti", "k_ulti": "11:1"}, "kontra"),  # ... a defender
        # The box without a part marked impossible: refused, not guessed either way.
        ({"declarer": "11", "bid": "ulti", "k_ulti": "12:1", "impdbl": "1"}, "impossible_doubled"),
        ({"declarer": "11", "bid": "40-100 ulti", "r_ulti": "lost", "impdbl": "1"}, "impossible_doubled"),
    ],
)
def test_what_the_plain_form_cannot_send_is_refused(fields, code):
    if code is None:
        record = deals.clean(deals.plain_record(fields), KEYS, 1, ("100", "four_aces", "ulti"))
        assert settled(record, MAUSZ)[:2] == ("refused", "engine")
        return
    # Refused as the fields are read or as the deal is checked: either way the page shows the form again.
    with pytest.raises(deals.DealError) as error:
        deals.clean(deals.plain_record(fields), KEYS, 1, ("100", "four_aces", "ulti"))
    assert error.value.code == code


def test_a_suited_part_has_one_kontra_a_no_trump_part_one_per_defender():
    """I.3 (3): in a suited game the kontra of either defender binds both, so the record keeps the one
    that counts and either defender's kontra settles alike; in a no-trump game each binds its doubler."""
    by_12 = deals.clean(deals.plain_record({"declarer": "11", "bid": "40-100", "k_hundred": "12:1"}), KEYS, 1)
    by_13 = deals.clean(deals.plain_record({"declarer": "11", "bid": "40-100", "k_hundred": "13:1"}), KEYS, 1)
    assert by_12["kontra"] == {"hundred": {"12": 1}} and by_13["kontra"] == {"hundred": {"13": 1}}
    assert settled(by_12, MAUSZ) == settled(by_13, MAUSZ) == ("settled", {"11": 160, "12": -80, "13": -80})
    # The picker's taps on both defenders: the rekontra counts, for both.
    both = deals.clean(
        {"declarer": "11", "bid": "40-100", "kontra": {"hundred": {"12": 1, "13": 2}}}, KEYS, 1
    )
    assert both["kontra"] == {"hundred": {"13": 2}}
    assert deals.plain_fields(both)["k_hundred"] == "13:2" and "k_hundred_13" not in deals.plain_fields(both)
    # Betli, no-trump: one defender's kontra doubles only his own stake.
    fields = {"declarer": "11", "bid": "betli", "k_betli_12": "1", "k_betli_13": "0"}
    betli = deals.clean(deals.plain_record(fields), KEYS, 1)
    assert betli["kontra"] == {"betli": {"12": 1}}
    assert settled(betli, MAUSZ) == ("settled", {"11": 150, "12": -100, "13": -50})
    assert deals.plain_fields(betli)["k_betli_12"] == "1"
