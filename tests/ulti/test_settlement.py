"""Settling deals (MAUSZ I.1-5): hand-settled deals, impossible bids and the zero-sum properties.

A is the declarer, B and C defend. "each" means per defender: the declarer plays against each of them.
"""

from dataclasses import replace
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ulti.engine.scoring import (
    MAUSZ,
    SZOLNOK,
    TABLE,
    Bid,
    Component,
    Deal,
    Offence,
    Phase,
    Revoke,
    ScoringError,
    Side,
    Silent,
    SilentGame,
    parse_bid,
    parse_component,
    settle,
)
from ulti.engine.scoring.components import CAN_BE_IMPOSSIBLE, SUITED_DURCHMARS

PLAYERS = ("A", "B", "C")


def deal(bid, won=None, kontra=None, **extra):
    return Deal(
        PLAYERS,
        "A",
        parse_bid(bid),
        won={parse_component(name): v for name, v in (won or {}).items()},
        kontra={parse_component(name): v for name, v in (kontra or {}).items()},
        **extra,
    )


def result(d, rules=MAUSZ):
    return settle(d, rules).units


HAND_SETTLED = [
    # passz won: parti 1 each -> A +2
    pytest.param(deal("passz", {"parti": True}), {"A": 2, "B": -1, "C": -1}, id="passz won"),
    # passz lost: A pays 1 each -> -2
    pytest.param(deal("passz", {"parti": False}), {"A": -2, "B": 1, "C": 1}, id="passz lost"),
    # red passz won, B's kontra binds both in a suited game: 2 x 2 = 4 each -> +8
    pytest.param(
        deal("piros passz", {"parti": True}, {"parti": {"B": 1}}),
        {"A": 8, "B": -4, "C": -4},
        id="red passz won kontra",
    ),
    # red passz lost, C rekontra: 2 x 4 = 8 each -> -16
    pytest.param(
        deal("piros passz", {"parti": False}, {"parti": {"C": 2}}),
        {"A": -16, "B": 8, "C": 8},
        id="red passz lost rekontra",
    ),
    # 40-100 won, no parti beside it: 4 each -> +8
    pytest.param(deal("40-100", {"40-100": True}), {"A": 8, "B": -4, "C": -4}, id="40-100 won"),
    # ulti + parti both won: 4 + 1 = 5 each -> +10
    pytest.param(deal("ulti", {"ulti": True, "parti": True}), {"A": 10, "B": -5, "C": -5}, id="ulti won"),
    # ulti lost pays double (2 x 4 = 8 each), parti won 1 each: -16 + 2 = -14
    pytest.param(deal("ulti", {"ulti": False, "parti": True}), {"A": -14, "B": 7, "C": 7}, id="ulti lost"),
    # ulti lost with kontra pays 3 x 4 = 12 each, parti won 1: -24 + 2 = -22
    pytest.param(
        deal("ulti", {"ulti": False, "parti": True}, {"ulti": {"B": 1}}),
        {"A": -22, "B": 11, "C": 11},
        id="ulti lost kontra",
    ),
    # ulti lost with rekontra pays 5 x 4 = 20 each, parti lost 1: -40 - 2 = -42
    pytest.param(
        deal("ulti", {"ulti": False, "parti": False}, {"ulti": {"C": 2}}),
        {"A": -42, "B": 21, "C": 21},
        id="ulti lost rekontra",
    ),
    # ulti won with kontra: 2 x 4 = 8 each, parti 1: +18
    pytest.param(
        deal("ulti", {"ulti": True, "parti": True}, {"ulti": {"B": 1}}),
        {"A": 18, "B": -9, "C": -9},
        id="ulti won kontra",
    ),
    # ulti won with rekontra: 4 x 4 = 16 each, parti 1: +34
    pytest.param(
        deal("ulti", {"ulti": True, "parti": True}, {"ulti": {"B": 2}}),
        {"A": 34, "B": -17, "C": -17},
        id="ulti won rekontra",
    ),
    # four aces lost pays only once: 4 each; parti won 1: -8 + 2 = -6
    pytest.param(
        deal("négy ász", {"four aces": False, "parti": True}), {"A": -6, "B": 3, "C": 3}, id="four aces lost"
    ),
    # four aces lost with kontra: 2 x 4 = 8 each; parti lost 1: -16 - 2 = -18
    pytest.param(
        deal("négy ász", {"four aces": False, "parti": False}, {"four aces": {"B": 1}}),
        {"A": -18, "B": 9, "C": 9},
        id="four aces lost kontra",
    ),
    # four aces lost rekontra 4 x 4 = 16 each; parti won with kontra 2 each: -32 + 4 = -28
    pytest.param(
        deal("four aces", {"four aces": False, "parti": True}, {"four aces": {"C": 2}, "parti": {"B": 1}}),
        {"A": -28, "B": 14, "C": 14},
        id="four aces lost rekontra",
    ),
    # 20-100 won: 8 each -> +16
    pytest.param(deal("20-100", {"20-100": True}), {"A": 16, "B": -8, "C": -8}, id="20-100 won"),
    # 20-100 lost with kontra: 16 each -> -32
    pytest.param(
        deal("20-100", {"20-100": False}, {"20-100": {"C": 1}}),
        {"A": -32, "B": 16, "C": 16},
        id="20-100 lost kontra",
    ),
    # suited durchmars won: 6 each -> +12
    pytest.param(deal("durchmars", {"durchmars": True}), {"A": 12, "B": -6, "C": -6}, id="durchmars won"),
    # suited durchmars won, B's kontra binds both: 12 each -> +24
    pytest.param(
        deal("színes durchmars", {"durchmars": True}, {"durchmars": {"B": 1}}),
        {"A": 24, "B": -12, "C": -12},
        id="suited kontra binds both",
    ),
    # the same as no-trump: B's kontra binds only B: B 12, C 6 -> +18
    pytest.param(
        deal("színtelen durchmars", {"no-trump durchmars": True}, {"no-trump durchmars": {"B": 1}}),
        {"A": 18, "B": -12, "C": -6},
        id="no-trump kontra binds the doubler",
    ),
    # open durchmars lost: 12 each -> -24
    pytest.param(
        deal("terített durchmars", {"open durchmars": False}),
        {"A": -24, "B": 12, "C": 12},
        id="open durchmars lost",
    ),
    # betli won, B kontra (no-trump: only B): B pays 10, C 5 -> +15
    pytest.param(
        deal("betli", {"betli": True}, {"betli": {"B": 1}}),
        {"A": 15, "B": -10, "C": -5},
        id="betli won kontra",
    ),
    # betli lost, C rekontra: A pays C 5 x 4 = 20 and B 5 -> -25
    pytest.param(
        deal("betli", {"betli": False}, {"betli": {"C": 2}}),
        {"A": -25, "B": 5, "C": 20},
        id="betli lost rekontra",
    ),
    # rebetli won: 10 each -> +20
    pytest.param(deal("rebetli", {"rebetli": True}), {"A": 20, "B": -10, "C": -10}, id="rebetli won"),
    # open betli lost, both defenders doubled: 20 x 2 = 40 each -> -80
    pytest.param(
        deal("terített betli", {"open betli": False}, {"open betli": {"B": 1, "C": 1}}),
        {"A": -80, "B": 40, "C": 40},
        id="open betli lost double kontra",
    ),
    # redurchmars lost: 12 each -> -24
    pytest.param(
        deal("redurchmars", {"redurchmars": False}), {"A": -24, "B": 12, "C": 12}, id="redurchmars lost"
    ),
    # no-trump open durchmars won, B kontra: B 48, C 24 -> +72
    pytest.param(
        deal(
            "színtelen terített durchmars",
            {"no-trump open durchmars": True},
            {"no-trump open durchmars": {"B": 1}},
        ),
        {"A": 72, "B": -48, "C": -24},
        id="no-trump open durchmars won kontra",
    ),
    # red 40-100 won 8 each; red ulti lost with kontra 3 x 8 = 24 each: 8 - 24 = -16 each -> -32
    pytest.param(
        deal("piros 40-100 ulti", {"40-100": True, "ulti": False}, {"ulti": {"B": 1}}),
        {"A": -32, "B": 16, "C": 16},
        id="red 40-100 ulti, ulti lost kontra",
    ),
    # red 20-100 16 + red ulti 8 + red open durchmars 24, all won: 48 each -> +96
    pytest.param(
        deal("piros 20-100 ulti terített durchmars", {"20-100": True, "ulti": True, "open durchmars": True}),
        {"A": 96, "B": -48, "C": -48},
        id="red 20-100 ulti open durchmars won",
    ),
    # 40-100 won +4, ulti lost kontra -12, four aces won rekontra +16: +8 each -> +16
    pytest.param(
        deal(
            "40-100 ulti négy ász",
            {"40-100": True, "ulti": False, "four aces": True},
            {"ulti": {"B": 1}, "four aces": {"B": 2}},
        ),
        {"A": 16, "B": -8, "C": -8},
        id="40-100 ulti four aces mixed",
    ),
    # red ulti won +8, red durchmars lost with kontra -12 x 2 = -24: -16 each -> -32
    pytest.param(
        deal("piros ulti durchmars", {"ulti": True, "durchmars": False}, {"durchmars": {"C": 1}}),
        {"A": -32, "B": 16, "C": 16},
        id="red ulti durchmars, durchmars lost kontra",
    ),
    # red ulti four aces: ulti won +8, four aces lost -8, parti won +2: +2 each -> +4
    pytest.param(
        deal("piros ulti négy ász", {"ulti": True, "four aces": False, "parti": True}),
        {"A": 4, "B": -2, "C": -2},
        id="red ulti four aces",
    ),
    # 20-100 lost -8, ulti won +4, four aces won with kontra +8: +4 each -> +8
    pytest.param(
        deal(
            "20-100 ulti négy ász",
            {"20-100": False, "ulti": True, "four aces": True},
            {"four aces": {"C": 1}},
        ),
        {"A": 8, "B": -4, "C": -4},
        id="20-100 ulti four aces",
    ),
]


@pytest.mark.parametrize(("d", "expected"), HAND_SETTLED)
def test_hand_settled(d, expected):
    assert result(d) == expected


IMPOSSIBLE = [
    # ulti without the trump seven, not doubled in the first round: base value 4 each; parti won 1:
    # -8 + 2 = -6
    pytest.param(
        deal("ulti", {"parti": True}, impossible=frozenset({Component.ULTI})),
        {"A": -6, "B": 3, "C": 3},
        id="impossible ulti undoubled",
    ),
    # doubled in the first round: a failed ulti with kontra, 3 x 4 = 12 each; parti lost 1: -24 - 2 = -26
    pytest.param(
        deal(
            "ulti",
            {"parti": False},
            {"ulti": {"B": 1}},
            impossible=frozenset({Component.ULTI}),
            impossible_doubled=True,
        ),
        {"A": -26, "B": 13, "C": 13},
        id="impossible ulti doubled in time",
    ),
    # kontra said, but not in the first round: still only the base value 4 each; parti won 1: -6
    pytest.param(
        deal("ulti", {"parti": True}, {"ulti": {"B": 1}}, impossible=frozenset({Component.ULTI})),
        {"A": -6, "B": 3, "C": 3},
        id="impossible ulti doubled late",
    ),
    # 20-100 without a 20: base 8 each; the playable ulti is still played and won, 4 each: -4 each -> -8
    pytest.param(
        deal("20-100 ulti", {"ulti": True}, impossible=frozenset({Component.TWENTY_HUNDRED})),
        {"A": -8, "B": 4, "C": 4},
        id="impossible 20-100, ulti played",
    ),
    # red 40-100 without the 40, rekontra in the first round: 8 x 4 = 32 each -> -64
    pytest.param(
        deal(
            "piros 40-100",
            {},
            {"40-100": {"B": 2}},
            impossible=frozenset({Component.FORTY_HUNDRED}),
            impossible_doubled=True,
        ),
        {"A": -64, "B": 32, "C": 32},
        id="impossible red 40-100 rekontra",
    ),
    # red ulti impossible, rekontra in the first round: 8 x 5 = 40 each; parti won 2 each: -80 + 4 = -76
    pytest.param(
        deal(
            "piros ulti",
            {"parti": True},
            {"ulti": {"C": 2}},
            impossible=frozenset({Component.ULTI}),
            impossible_doubled=True,
        ),
        {"A": -76, "B": 38, "C": 38},
        id="impossible red ulti rekontra",
    ),
]


@pytest.mark.parametrize(("d", "expected"), IMPOSSIBLE)
def test_impossible_bids(d, expected):
    assert result(d) == expected


@pytest.mark.parametrize(
    ("d", "message"),
    [
        (deal("ulti", {"ulti": True}), "no result for parti"),
        (deal("ulti", {"ulti": True, "parti": True, "40-100": True}), "not part of"),
        (deal("ulti", {"ulti": True, "parti": True}, {"ulti": {"A": 1}}), "declarer"),
        (deal("ulti", {"ulti": True, "parti": True}, {"ulti": {"B": 3}}), "1 .kontra. or 2"),
        (deal("ulti", {"ulti": True, "parti": True}, {"betli": {"B": 1}}), "not part of"),
        (
            deal("ulti", {"ulti": True, "parti": True}, impossible=frozenset({Component.ULTI})),
            "cannot be won",
        ),
        (deal("passz", {"parti": True}, impossible=frozenset({Component.PARTI})), "cannot be impossible"),
        (
            deal("ulti", {"parti": True}, impossible=frozenset({Component.ULTI}), impossible_doubled=True),
            "no kontra",
        ),
        (deal("passz", {"parti": True}, impossible_doubled=True), "no component is impossible"),
    ],
)
def test_refused_deals(d, message):
    with pytest.raises(ScoringError, match=message):
        settle(d, MAUSZ)


def test_a_bid_outside_the_table_is_refused():
    four_aces_durchmars = Bid(frozenset({Component.FOUR_ACES, Component.DURCHMARS}))
    with pytest.raises(ScoringError, match="not a game"):
        settle(Deal(PLAYERS, "A", four_aces_durchmars, won={}), MAUSZ)


def test_players_must_be_three_and_include_the_declarer():
    with pytest.raises(ScoringError, match="three different"):
        settle(Deal(("A", "B", "B"), "A", parse_bid("passz"), {Component.PARTI: True}), MAUSZ)
    with pytest.raises(ScoringError, match="not one of the players"):
        settle(Deal(PLAYERS, "D", parse_bid("passz"), {Component.PARTI: True}), MAUSZ)


def test_forints_use_whole_units_or_decimal():
    s = settle(deal("ulti", {"ulti": True, "parti": True}), MAUSZ)
    assert s.forints(10) == {"A": 100, "B": -50, "C": -50}
    assert s.forints(Decimal("2.5")) == {"A": Decimal("25.0"), "B": Decimal("-12.5"), "C": Decimal("-12.5")}
    with pytest.raises(TypeError):
        s.forints(2.5)


def test_every_payment_is_explained():
    s = settle(deal("ulti", {"ulti": False, "parti": True}, {"ulti": {"B": 1}}), MAUSZ)
    assert [(t.payer, t.payee, t.units, t.reason) for t in s.transfers] == [
        ("A", "B", 12, "ulti lost (kontra)"),
        ("A", "C", 12, "ulti lost (kontra)"),
        ("B", "A", 1, "parti won"),
        ("C", "A", 1, "parti won"),
    ]


# ---- properties over random deals ----------------------------------------------------------------


def _sorted(components):
    return sorted(components, key=lambda c: c.label)


@st.composite
def deals(draw):
    """Any deal the Szolnok rules (MAUSZ plus silent durchmars) accept."""
    bid = draw(st.sampled_from(TABLE))
    parts = bid.components
    kontra = {}
    for component in _sorted(parts):
        levels = draw(st.dictionaries(st.sampled_from(["B", "C"]), st.sampled_from([1, 2]), max_size=2))
        if levels:
            kontra[component] = levels
    revoke = draw(st.sampled_from([None, None, None, "play", "deal", "talon", "trump suit"]))
    if revoke == "trump suit" and (bid.red or bid.no_trump):
        revoke = "play"
    if revoke is not None:
        player = "A" if revoke == "trump suit" else draw(st.sampled_from(PLAYERS))
        phase = {"play": Phase.PLAY, "deal": Phase.DEAL}.get(revoke, Phase.BIDDING)
        offence = None if phase is not Phase.BIDDING else Offence(revoke)
        return Deal(PLAYERS, "A", bid, kontra=kontra, revoke=Revoke(player, phase, offence))
    impossible = frozenset(draw(st.sets(st.sampled_from(_sorted(CAN_BE_IMPOSSIBLE)))) & parts)
    doubled = bool(impossible) and all(c in kontra for c in impossible) and draw(st.booleans())
    won = {c: draw(st.booleans()) for c in _sorted(parts - impossible)}
    silent = []
    made_durchmars = any(won.get(c) for c in SUITED_DURCHMARS)
    if made_durchmars:
        # Every trick to the declarer: the ulti and the 100 in the same bid are made too.
        won.update({c: True for c in won if c not in SUITED_DURCHMARS})
    for game in sorted(SZOLNOK.silent_games, key=lambda g: g.label):
        if bid.no_trump or game.declared_forms & parts or not draw(st.booleans()):
            continue
        if game is SilentGame.HUNDRED and parts & SUITED_DURCHMARS:
            continue  # announcing melds in a durchmars game is a revoke (I.6 (3))
        side = draw(st.sampled_from(list(Side)))
        made = draw(st.booleans()) if game is SilentGame.ULTI else True
        if made_durchmars and made and side is Side.DEFENDERS:
            continue
        split = game is SilentGame.FOUR_ACES and side is Side.DEFENDERS and draw(st.booleans())
        silent.append(Silent(game, side, made, split))
        if game is SilentGame.HUNDRED and Component.PARTI in parts:
            won[Component.PARTI] = side is Side.DECLARER
    return Deal(PLAYERS, "A", bid, won, kontra, tuple(silent), impossible, doubled)


@given(deals())
def test_every_settlement_sums_to_zero(d):
    assert sum(settle(d, SZOLNOK).units.values()) == 0


@given(deals(), st.data())
def test_doubling_a_component_never_lowers_its_amount(d, data):
    component = data.draw(st.sampled_from(_sorted(d.bid.components)))
    defender = data.draw(st.sampled_from(["B", "C"]))
    level = d.kontra.get(component, {}).get(defender, 0)
    if level == 2:
        return
    raised = {**d.kontra, component: {**d.kontra.get(component, {}), defender: level + 1}}
    before = settle(d, SZOLNOK).units["A"]
    after = settle(replace(d, kontra=raised), SZOLNOK).units["A"]
    # The doubled stake moves money the way that component already went.
    if d.revoke is not None:
        declarer_gains = d.revoke.player != "A"
    elif component in d.impossible:
        declarer_gains = False
    else:
        declarer_gains = d.won[component]
    assert (after >= before) if declarer_gains else (after <= before)


@given(deals())
def test_red_doubles_everything(d):
    if d.bid.no_trump or d.bid.red or (d.revoke and d.revoke.offence is Offence.TRUMP_SUIT):
        return
    red = replace(d, bid=Bid(d.bid.components, red=True))
    plain, doubled = settle(d, SZOLNOK).units, settle(red, SZOLNOK).units
    assert doubled == {player: 2 * units for player, units in plain.items()}
