"""Records that contradict themselves are refused, not paid (issue 22; MAUSZ I.1 (2), I.2 (4), I.6 (3)).

A is the declarer, B and C defend; units per player as settle() returns them.
"""

import pytest

from ulti.engine.scoring import (
    MAUSZ,
    Deal,
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
from ulti.engine.sheet import deal_of

PLAYERS = ("A", "B", "C")


def deal(bid, won, *silent, revoke=None):
    return Deal(
        PLAYERS,
        "A",
        parse_bid(bid),
        won={parse_component(name): v for name, v in won.items()},
        silent=silent,
        revoke=revoke,
    )


def units(d):
    return settle(d, MAUSZ).units


# --- A made durchmars decides the ulti and the 100 inside the same bid ---------------------------------


@pytest.mark.parametrize(
    ("bid", "won"),
    [
        ("ulti durchmars", {"ulti": False, "durchmars": True}),
        ("40-100 durchmars", {"40-100": False, "durchmars": True}),
        ("20-100 ulti durchmars", {"20-100": True, "ulti": False, "durchmars": True}),
        ("piros ulti terített durchmars", {"ulti": False, "open durchmars": True}),
    ],
)
def test_made_durchmars_with_a_lost_part_is_refused(bid, won):
    with pytest.raises(ScoringError, match="took every trick"):
        units(deal(bid, won))


def test_ulti_durchmars_outcomes_that_agree_are_paid():
    # ulti 4 + durchmars 6 = 10 each -> +20
    assert units(deal("ulti durchmars", {"ulti": True, "durchmars": True})) == {"A": 20, "B": -10, "C": -10}
    # a failed durchmars leaves the ulti open: +4 - 6 = -2 each -> -4
    assert units(deal("ulti durchmars", {"ulti": True, "durchmars": False})) == {"A": -4, "B": 2, "C": 2}
    # both failed: ulti 4 x 2 + durchmars 6 = 14 each -> -28
    assert units(deal("ulti durchmars", {"ulti": False, "durchmars": False})) == {"A": -28, "B": 14, "C": 14}


# --- A silent 100 in a durchmars game is a revoke (I.6 (3)) ----------------------------------------------


@pytest.mark.parametrize("side", [Side.DECLARER, Side.DEFENDERS])
@pytest.mark.parametrize("made", [True, False])
def test_silent_100_in_a_durchmars_game_is_refused(side, made):
    d = deal("durchmars", {"durchmars": made}, Silent(SilentGame.HUNDRED, side))
    with pytest.raises(ScoringError, match=r"revoke \(I.6 \(3\)\)"):
        units(d)


def test_the_same_deal_recorded_as_the_revoke_is_paid():
    # The declarer announced a 40 in his durchmars: he pays the bid, 6 to each defender.
    d = deal("durchmars", {}, revoke=Revoke("A", Phase.PLAY))
    assert units(d) == {"A": -12, "B": 6, "C": 6}


# --- Silent 100 needs at least one trick (I.2 (4)) --------------------------------------------------------


def test_silent_100_with_a_trick_is_paid_and_without_one_is_not():
    hundred = SilentGame.HUNDRED
    # defenders' silent 100 with a trick: it replaces the undoubled parti, 2 each to them -> A -4
    with_trick = deal("passz", {"parti": False}, Silent(hundred, Side.DEFENDERS))
    assert units(with_trick) == {"A": -4, "B": 2, "C": 2}
    # the defenders' 40 + 20 + 20 + 20 without a trick: no 100; the declarer took every card point and
    # wins the plain parti, 1 each -> A +2
    melds_only = deal("passz", {"parti": True}, Silent(hundred, Side.DEFENDERS, trick=False))
    assert units(melds_only) == {"A": 2, "B": -1, "C": -1}
    # red doubles it: 2 each -> A +4
    red = deal("piros passz", {"parti": True}, Silent(hundred, Side.DEFENDERS, trick=False))
    assert units(red) == {"A": 4, "B": -2, "C": -2}
    # a declarer without a trick loses the parti: 1 each -> A -2
    declarer = deal("passz", {"parti": False}, Silent(hundred, Side.DECLARER, trick=False))
    assert units(declarer) == {"A": -2, "B": 1, "C": 1}


def test_trickless_side_cannot_win_the_parti():
    d = deal("passz", {"parti": False}, Silent(SilentGame.HUNDRED, Side.DEFENDERS, trick=False))
    with pytest.raises(ScoringError, match="took no trick"):
        units(d)


def test_only_a_silent_100_takes_the_trick_condition():
    d = deal("passz", {"parti": True}, Silent(SilentGame.ULTI, Side.DECLARER, trick=False))
    with pytest.raises(ScoringError, match="only a silent 100 needs a trick"):
        units(d)


def test_score_sheet_records_the_trickless_100():
    keys = ["1", "2", "3"]
    record = {
        "dealer": "1",
        "declarer": "1",
        "bid": "passz",
        "results": {"parti": "won"},
        "silent": {"100": "defenders_notrick"},
    }
    d = deal_of(record, keys, 1)
    assert d.silent == (Silent(SilentGame.HUNDRED, Side.DEFENDERS, trick=False),)
    assert settle(d, MAUSZ).units == {"1": 2, "2": -1, "3": -1}
    record["silent"] = {"100": "defenders"}
    with pytest.raises(ScoringError, match="wins the parti for the same side"):
        settle(deal_of(record, keys, 1), MAUSZ)
