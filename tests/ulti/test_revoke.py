"""Irregularities (renonsz, I.6) with a monetary consequence, hand-settled.

A is the declarer, B and C defend. The stake is the current bid with its kontras, a ulti counted as
failed (2x / 3x / 5x); the declarer pays it to each defender, a defender pays the declarer double and
his partner single.
"""

import pytest

from ulti.engine.scoring import (
    MAUSZ,
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

PLAYERS = ("A", "B", "C")


def deal(bid, revoke, kontra=None, **extra):
    return Deal(
        PLAYERS,
        "A",
        parse_bid(bid),
        kontra={parse_component(name): v for name, v in (kontra or {}).items()},
        revoke=revoke,
        **extra,
    )


def in_play(player):
    return Revoke(player, Phase.PLAY)


def result(d):
    return settle(d, MAUSZ).units


SETTLED = [
    # declarer revokes in "ulti": stake = ulti failure 2 x 4 + parti 1 = 9, to each defender -> -18
    pytest.param(deal("ulti", in_play("A")), {"A": -18, "B": 9, "C": 9}, id="declarer, ulti"),
    # defender B revokes in "ulti": B pays A double (18) and C single (9) -> B -27
    pytest.param(deal("ulti", in_play("B")), {"A": 18, "B": -27, "C": 9}, id="defender, ulti"),
    # declarer revokes in red ulti with kontra: 8 x 3 + parti 2 = 26 each -> -52
    pytest.param(
        deal("piros ulti", in_play("A"), {"ulti": {"B": 1}}),
        {"A": -52, "B": 26, "C": 26},
        id="declarer, red ulti kontra",
    ),
    # defender C revokes in 20-100 ulti, ulti rekontra: stake 8 + 4 x 5 = 28; C pays A 56, B 28
    pytest.param(
        deal("20-100 ulti", in_play("C"), {"ulti": {"B": 2}}),
        {"A": 56, "B": 28, "C": -84},
        id="defender, ulti rekontra",
    ),
    # no ulti: 40-100 with C's kontra: stake 4 x 2 = 8; B revokes, pays A 16 and C 8
    pytest.param(
        deal("40-100", in_play("B"), {"40-100": {"C": 1}}),
        {"A": 16, "B": -24, "C": 8},
        id="defender, no ulti",
    ),
    # declarer revokes in durchmars rekontra: 6 x 4 = 24 each -> -48
    pytest.param(
        deal("durchmars", in_play("A"), {"durchmars": {"B": 2}}),
        {"A": -48, "B": 24, "C": 24},
        id="declarer, no ulti",
    ),
    # four aces counts once, kontras included: 4 x 2 + parti 1 = 9; defender B pays A 18, C 9
    pytest.param(
        deal("négy ász", in_play("B"), {"four aces": {"B": 1}}),
        {"A": 18, "B": -27, "C": 9},
        id="defender, four aces",
    ),
    # no-trump betli, only B doubled: stakes B 10, C 5. Declarer revokes: pays B 10, C 5
    pytest.param(
        deal("betli", in_play("A"), {"betli": {"B": 1}}),
        {"A": -15, "B": 10, "C": 5},
        id="declarer, betli kontra",
    ),
    # same, C revokes: pays A both stakes 10 + 5 = 15 and his partner B his own stake 10
    pytest.param(
        deal("betli", in_play("C"), {"betli": {"B": 1}}),
        {"A": 15, "B": 10, "C": -25},
        id="defender, betli kontra",
    ),
    # shuffling or dealing irregularity: redeal, nobody pays
    pytest.param(deal("piros ulti", Revoke("B", Phase.DEAL)), {"A": 0, "B": 0, "C": 0}, id="in the deal"),
    # too many cards in the talon, found after play started: double the bid (ulti 4+1 = 5) -> 10 to each
    # innocent player; kontras do not count
    pytest.param(
        deal("ulti", Revoke("B", Phase.BIDDING, Offence.TALON), {"ulti": {"C": 1}}),
        {"A": 10, "B": -20, "C": 10},
        id="talon, defender",
    ),
    # the declarer's wrong talon in red 40-100: 2 x 8 = 16 to each -> -32
    pytest.param(
        deal("piros 40-100", Revoke("A", Phase.BIDDING, Offence.TALON)),
        {"A": -32, "B": 16, "C": 16},
        id="talon, declarer",
    ),
    # the declarer revealed his (non-red) trump suit in the bidding: 40-100 ulti = 8, double to both -> -32
    pytest.param(
        deal("40-100 ulti", Revoke("A", Phase.BIDDING, Offence.TRUMP_SUIT)),
        {"A": -32, "B": 16, "C": 16},
        id="trump suit revealed",
    ),
]


@pytest.mark.parametrize(("d", "expected"), SETTLED)
def test_revokes(d, expected):
    assert result(d) == expected


@pytest.mark.parametrize(
    ("d", "message"),
    [
        (deal("piros ulti", Revoke("A", Phase.BIDDING, Offence.TRUMP_SUIT)), "non-red"),
        (deal("betli", Revoke("A", Phase.BIDDING, Offence.TRUMP_SUIT)), "non-red"),
        (deal("ulti", Revoke("B", Phase.BIDDING, Offence.TRUMP_SUIT)), "offence of the declarer"),
        (deal("ulti", Revoke("B", Phase.BIDDING)), "needs its offence"),
        (deal("ulti", Revoke("B", Phase.PLAY, Offence.TALON)), "needs its offence"),
        (deal("ulti", Revoke("D", Phase.PLAY)), "not at the table"),
        (deal("ulti", in_play("B"), won={parse_component("ulti"): True}), "replaces the results"),
        (
            deal("passz", in_play("B"), silent=(Silent(SilentGame.ULTI, Side.DECLARER),)),
            "replaces the results",
        ),
    ],
)
def test_refused_revokes(d, message):
    with pytest.raises(ScoringError, match=message):
        settle(d, MAUSZ)
