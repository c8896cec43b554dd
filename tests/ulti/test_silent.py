"""Silent achievements (csendes teljesítések, I.2, I.3 (4), I.5), hand-settled.

A is the declarer, B and C defend; "each" means per defender.
"""

import pytest

from ulti.engine.scoring import (
    MAUSZ,
    SZOLNOK,
    Deal,
    ScoringError,
    Side,
    Silent,
    SilentGame,
    parse_bid,
    parse_component,
    settle,
)

PLAYERS = ("A", "B", "C")
DECLARER, DEFENDERS = Side.DECLARER, Side.DEFENDERS
HUNDRED, ACES, ULTI, DURCHMARS = (
    SilentGame.HUNDRED,
    SilentGame.FOUR_ACES,
    SilentGame.ULTI,
    SilentGame.DURCHMARS,
)


def deal(bid, won, *silent, kontra=None):
    return Deal(
        PLAYERS,
        "A",
        parse_bid(bid),
        won={parse_component(name): v for name, v in won.items()},
        kontra={parse_component(name): v for name, v in (kontra or {}).items()},
        silent=silent,
    )


def result(d, rules=MAUSZ):
    return settle(d, rules).units


SETTLED = [
    # silent 100 by the declarer, parti undoubled: the parti is not counted, silent 100 is 2 each -> +4
    pytest.param(
        deal("passz", {"parti": True}, Silent(HUNDRED, DECLARER)),
        {"A": 4, "B": -2, "C": -2},
        id="100 undoubled parti",
    ),
    # parti doubled (B's kontra binds both): silent 100 2 + parti 1 x 2 = 4 each -> +8
    pytest.param(
        deal("passz", {"parti": True}, Silent(HUNDRED, DECLARER), kontra={"parti": {"B": 1}}),
        {"A": 8, "B": -4, "C": -4},
        id="100 kontra parti",
    ),
    # parti rekontra: silent 100 2 + parti 1 x 4 = 6 each -> +12
    pytest.param(
        deal("passz", {"parti": True}, Silent(HUNDRED, DECLARER), kontra={"parti": {"C": 2}}),
        {"A": 12, "B": -6, "C": -6},
        id="100 rekontra parti",
    ),
    # red, by the defenders, parti undoubled: silent 100 4 each to B and C -> -8
    pytest.param(
        deal("piros passz", {"parti": False}, Silent(HUNDRED, DEFENDERS)),
        {"A": -8, "B": 4, "C": 4},
        id="red 100 defenders undoubled",
    ),
    # red, defenders, parti kontra: 4 + 2 x 2 = 8 each -> -16
    pytest.param(
        deal("piros passz", {"parti": False}, Silent(HUNDRED, DEFENDERS), kontra={"parti": {"B": 1}}),
        {"A": -16, "B": 8, "C": 8},
        id="red 100 defenders kontra",
    ),
    # red, defenders, parti rekontra: 4 + 2 x 4 = 12 each -> -24
    pytest.param(
        deal("piros passz", {"parti": False}, Silent(HUNDRED, DEFENDERS), kontra={"parti": {"B": 2}}),
        {"A": -24, "B": 12, "C": 12},
        id="red 100 defenders rekontra",
    ),
    # in the "ulti" bid (ulti + parti): ulti won 4 each, the defenders' silent 100 replaces the parti,
    # 2 each to them: +4 - 2 = +2 each -> +4
    pytest.param(
        deal("ulti", {"ulti": True, "parti": False}, Silent(HUNDRED, DEFENDERS)),
        {"A": 4, "B": -2, "C": -2},
        id="100 defenders beside ulti",
    ),
    # silent ulti made by the declarer: parti 1 + ulti 2 = 3 each -> +6
    pytest.param(
        deal("passz", {"parti": True}, Silent(ULTI, DECLARER)),
        {"A": 6, "B": -3, "C": -3},
        id="ulti declarer made",
    ),
    # silent ulti failed by the declarer pays double, 4 each; parti won 1: -4 + 1 = -3 each -> -6
    pytest.param(
        deal("passz", {"parti": True}, Silent(ULTI, DECLARER, won=False)),
        {"A": -6, "B": 3, "C": 3},
        id="ulti declarer failed",
    ),
    # red: silent ulti failed 8 each, parti won 2: -6 each -> -12
    pytest.param(
        deal("piros passz", {"parti": True}, Silent(ULTI, DECLARER, won=False)),
        {"A": -12, "B": 6, "C": 6},
        id="red ulti declarer failed",
    ),
    # silent ulti made by a defender: both defenders win 2; parti lost 1: 3 each to them -> -6
    pytest.param(
        deal("passz", {"parti": False}, Silent(ULTI, DEFENDERS)),
        {"A": -6, "B": 3, "C": 3},
        id="ulti defenders made",
    ),
    # silent ulti failed by a defender: both defenders pay 4; parti won 1: 5 each -> +10
    pytest.param(
        deal("passz", {"parti": True}, Silent(ULTI, DEFENDERS, won=False)),
        {"A": 10, "B": -5, "C": -5},
        id="ulti defenders failed",
    ),
    # silent four aces by the declarer beside a won 40-100: 4 + 2 = 6 each -> +12
    pytest.param(
        deal("40-100", {"40-100": True}, Silent(ACES, DECLARER)),
        {"A": 12, "B": -6, "C": -6},
        id="aces declarer",
    ),
    # red: one defender took all four aces: 40-100 lost 8 + silent aces 4 = 12 each -> -24
    pytest.param(
        deal("piros 40-100", {"40-100": False}, Silent(ACES, DEFENDERS)),
        {"A": -24, "B": 12, "C": 12},
        id="red aces one defender",
    ),
    # the defenders took the four aces between them: does not count, only the 40-100 lost, 4 each -> -8
    pytest.param(
        deal("40-100", {"40-100": False}, Silent(ACES, DEFENDERS, split=True)),
        {"A": -8, "B": 4, "C": 4},
        id="aces split between defenders",
    ),
    # beside a made declared durchmars the silent four aces does not count: durchmars 6 each -> +12
    pytest.param(
        deal("durchmars", {"durchmars": True}, Silent(ACES, DECLARER)),
        {"A": 12, "B": -6, "C": -6},
        id="aces beside made durchmars",
    ),
    # beside a failed red durchmars it does: -12 + 4 = -8 each -> -16
    pytest.param(
        deal("piros durchmars", {"durchmars": False}, Silent(ACES, DECLARER)),
        {"A": -16, "B": 8, "C": 8},
        id="aces beside failed durchmars",
    ),
    # silent 100 and silent four aces together, parti undoubled: 2 + 2 = 4 each -> +8
    pytest.param(
        deal("passz", {"parti": True}, Silent(HUNDRED, DECLARER), Silent(ACES, DECLARER)),
        {"A": 8, "B": -4, "C": -4},
        id="100 and aces together",
    ),
    # a defender kept the trump seven to the last trick and lost it beside a made durchmars:
    # durchmars 6 + failed silent ulti 4 = 10 each -> +20
    pytest.param(
        deal("durchmars", {"durchmars": True}, Silent(ULTI, DEFENDERS, won=False)),
        {"A": 20, "B": -10, "C": -10},
        id="defenders' ulti failed beside durchmars",
    ),
]


@pytest.mark.parametrize(("d", "expected"), SETTLED)
def test_silent_achievements(d, expected):
    assert result(d) == expected


def test_szolnok_allows_silent_durchmars_at_half_value():
    # parti 1 + silent durchmars 6 / 2 = 3: 4 each -> +8
    plain = deal("passz", {"parti": True}, Silent(DURCHMARS, DECLARER))
    assert result(plain, SZOLNOK) == {"A": 8, "B": -4, "C": -4}
    # red: parti 2 + silent durchmars 6: 8 each -> +16
    red = deal("piros passz", {"parti": True}, Silent(DURCHMARS, DECLARER))
    assert result(red, SZOLNOK) == {"A": 16, "B": -8, "C": -8}
    with pytest.raises(ScoringError, match="does not count under the mausz rules"):
        result(plain, MAUSZ)


@pytest.mark.parametrize(
    ("d", "message"),
    [
        (deal("ulti", {"ulti": True, "parti": True}, Silent(ULTI, DECLARER)), "already bids ulti"),
        (deal("40-100", {"40-100": False}, Silent(HUNDRED, DEFENDERS)), "already bids 100"),
        (deal("betli", {"betli": True}, Silent(ACES, DECLARER)), "only in games with trumps"),
        (deal("passz", {"parti": False}, Silent(HUNDRED, DECLARER)), "wins the parti for the same side"),
        (deal("passz", {"parti": True}, Silent(ACES, DECLARER, won=False)), "only a silent ulti can fail"),
        (deal("passz", {"parti": True}, Silent(ACES, DECLARER, split=True)), "split"),
        (deal("durchmars", {"durchmars": True}, Silent(ULTI, DEFENDERS)), "cannot make a silent ulti"),
        (deal("passz", {"parti": True}, Silent(ACES, DECLARER), Silent(ACES, DECLARER)), "twice"),
        # I.6 (3): melds announced in a durchmars game are a revoke, not a silent 100
        (
            deal("ulti durchmars", {"ulti": True, "durchmars": True}, Silent(HUNDRED, DECLARER)),
            "is a revoke",
        ),
    ],
)
def test_refused_silent_achievements(d, message):
    with pytest.raises(ScoringError, match=message):
        settle(d, SZOLNOK)
