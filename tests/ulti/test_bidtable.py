"""The table of games (MAUSZ 2013 I.1 (1)), bid names, and the auction order (I.1 (2))."""

import pytest

from ulti.engine.scoring import (
    MAUSZ,
    SZOLNOK,
    TABLE,
    Component,
    ScoringError,
    SilentGame,
    beats,
    bid_of,
    get_ruleset,
    parse_bid,
    parse_component,
    parse_silent_game,
)

# The seed's table (seeds/001, I.1 (1)) reconstructed from its flattened text: three columns, read top to
# bottom, left column first; names as printed ("40 100" lost its dash in places). Values marked "apart"
# were printed away from their names by the extraction; they were placed by the component sums, and by
# the column being ordered weakest first, which test_seed_table_is_listed_weakest_first confirms.
SEED_TABLE = [
    # column 1
    ("Passz", "1"),
    ("Piros passz", "2"),
    ("40 100", "4"),
    ("Négy ász", "4+1"),
    ("Ulti", "4+1"),
    ("Betli", "5"),
    ("Színes durchmars", "6"),  # apart
    ("Színtelen durchmars", "6"),
    ("40-100 négy ász", "8"),
    ("40 100 ulti", "8"),
    ("Piros 40 100", "8"),  # apart
    ("20 100", "8"),  # apart
    ("Ulti négy ász", "8+1"),
    ("Piros négy ász", "8+2"),
    ("Piros ulti", "8+2"),
    ("40 100 durchmars", "10"),  # apart
    ("Ulti durchmars", "10"),  # apart
    ("Rebetli", "10"),
    # column 2
    ("40-100 ulti négy ász", "12"),
    ("20-100 négy ász", "12"),
    ("20 100 ulti", "12"),
    ("Piros durchmars", "12"),  # apart
    ("Színtelen redurchmars", "12"),
    ("Színes terített durchmars", "12"),  # apart
    ("40 100 ulti durchmars", "14"),
    ("20 100 durchmars", "14"),
    ("20-100 ulti négy ász", "16"),
    ("40 100 terített durchmars", "16"),  # apart
    ("Ulti terített durchmars", "16"),
    ("Piros 40-100 négy ász", "16"),  # apart
    ("Piros 40 100 ulti", "16"),
    ("Piros 20 100", "16"),
    ("Piros ulti négy ász", "16+2"),
    ("20 100 ulti durchmars", "18"),
    ("40 100 ulti terített durchmars", "20"),
    # column 3
    ("20 100 terített durchmars", "20"),  # apart
    ("Piros 40 100 durchmars", "20"),
    ("Piros ulti durchmars", "20"),  # apart
    ("Terített betli", "20"),
    ("Piros 40-100 ulti négy ász", "24"),  # apart
    ("20 100 ulti terített durchmars", "24"),
    ("Piros 20-100 négy ász", "24"),  # apart
    ("Piros 20 100 ulti", "24"),
    ("Piros terített durchmars", "24"),  # apart
    ("Színtelen terített durchmars", "24"),
    ("Piros 40 100 ulti durchmars", "28"),
    ("Piros 20 100 durchmars", "28"),
    ("Piros 20-100 ulti négy ász", "32"),
    ("Piros 40 100 terített durchmars", "32"),  # apart
    ("Piros ulti terített durchmars", "32"),
    ("Piros 20 100 ulti durchmars", "36"),
    ("Piros 40 100 ulti terített durchmars", "40"),
    ("Piros 20 100 terített durchmars", "40"),
    ("Piros 20 100 ulti terített durchmars", "48"),
]


@pytest.mark.parametrize(("name", "printed"), SEED_TABLE)
def test_every_seed_value(name, printed):
    assert parse_bid(name).display_value == printed


def test_the_table_is_exactly_the_seed_table():
    assert len(SEED_TABLE) == 54
    assert sorted(parse_bid(name).name for name, _ in SEED_TABLE) == sorted(b.name for b in TABLE)
    assert MAUSZ.table == SZOLNOK.table == TABLE


def test_seed_table_is_listed_weakest_first():
    seed = [parse_bid(name) for name, _ in SEED_TABLE]
    for i, earlier in enumerate(seed):
        for later in seed[i + 1 :]:
            assert not beats(earlier, later), (earlier.name, later.name)


@pytest.mark.parametrize(
    ("components", "units"),
    [
        # parti 1 rides along only without 40-100, 20-100 and durchmars
        ((), 1),
        ((Component.ULTI,), 4 + 1),
        ((Component.FOUR_ACES,), 4 + 1),
        ((Component.ULTI, Component.FOUR_ACES), 4 + 4 + 1),
        ((Component.FORTY_HUNDRED,), 4),
        ((Component.TWENTY_HUNDRED, Component.ULTI), 8 + 4),
        ((Component.ULTI, Component.DURCHMARS), 4 + 6),
        ((Component.ULTI, Component.OPEN_DURCHMARS), 4 + 12),
        ((Component.TWENTY_HUNDRED, Component.ULTI, Component.OPEN_DURCHMARS), 8 + 4 + 12),
    ],
)
def test_values_are_built_from_components_and_red_doubles_all(components, units):
    assert bid_of(*components).value == units
    assert bid_of(*components, red=True).value == 2 * units


def test_stand_alone_no_trump_games():
    expected = {
        "betli": 5,
        "rebetli": 10,
        "terített betli": 20,
        "színtelen durchmars": 6,
        "színtelen redurchmars": 12,
        "színtelen terített durchmars": 24,
    }
    for name, units in expected.items():
        bid = parse_bid(name)
        assert bid.no_trump and len(bid.components) == 1 and bid.value == units


def test_four_aces_never_combine_with_durchmars():
    assert not [
        b
        for b in TABLE
        if {Component.FOUR_ACES} <= b.components
        and b.components & {Component.DURCHMARS, Component.OPEN_DURCHMARS}
    ]
    for name in ("négy ász durchmars", "ulti four aces open durchmars", "piros 20-100 négy ász durchmars"):
        with pytest.raises(ScoringError, match="four aces"):
            parse_bid(name)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("piros 40-100 ulti", "red 40-100 ulti"),
        ("Piros negyvenszáz ulti", "red 40-100 ulti"),
        ("PIROS NEGYVENSZAZ ULTI", "red 40-100 ulti"),
        ("red 40-100 ulti", "red 40-100 ulti"),
        ("Red 40 100 Ulti", "red 40-100 ulti"),
        ("20-100 ulti terített durchmars", "20-100 ulti open durchmars"),
        ("húszszáz ulti open durchmars", "20-100 ulti open durchmars"),
        ("ulti 20-100 teritett durchmars", "20-100 ulti open durchmars"),
        ("színtelen durchmars", "no-trump durchmars"),
        ("no-trump durchmars", "no-trump durchmars"),
        ("Színes durchmars", "durchmars"),
        ("durchmars", "durchmars"),
        ("four aces", "four aces"),
        ("négy ász", "four aces"),
        ("Négy Ász", "four aces"),
        ("passz", "passz"),
        ("piros passz", "red passz"),
        ("Terített betli", "open betli"),
        ("színtelen betli", "betli"),
        ("redurchmars", "redurchmars"),
        ("színtelen terített durchmars", "no-trump open durchmars"),
    ],
)
def test_names_in_hungarian_and_english(text, name):
    assert parse_bid(text).name == name


def test_every_bid_reads_back_from_its_names():
    for bid in TABLE:
        assert parse_bid(bid.name) == bid
        assert parse_bid(bid.hungarian) == bid


@pytest.mark.parametrize(
    "text",
    [
        "",
        "kontra ulti",  # unknown word
        "piros betli",  # no-trump games have no suit
        "ulti passz",  # the parti is not said
        "40-100 20-100",
        "terített redurchmars",
        "100",
        "ulti ulti",
        "betli ulti",
        "piros",
    ],
)
def test_bad_bid_names(text):
    with pytest.raises(ScoringError):
        parse_bid(text)


def test_component_and_silent_names():
    assert parse_component("Négy ász") is Component.FOUR_ACES
    assert parse_component("passz") is Component.PARTI
    assert parse_component("terített durchmars") is Component.OPEN_DURCHMARS
    assert parse_component("open betli") is Component.OPEN_BETLI
    assert parse_component("no-trump open durchmars") is Component.NO_TRUMP_OPEN_DURCHMARS
    assert parse_component("negyvenszáz") is Component.FORTY_HUNDRED
    assert parse_silent_game("száz") is SilentGame.HUNDRED
    assert parse_silent_game("100") is SilentGame.HUNDRED
    assert parse_silent_game("four aces") is SilentGame.FOUR_ACES
    with pytest.raises(ScoringError):
        parse_component("ulti four aces")
    with pytest.raises(ScoringError):
        parse_silent_game("betli")


def test_rule_sets():
    assert get_ruleset("MAUSZ") is MAUSZ and get_ruleset("szolnok") is SZOLNOK
    assert SilentGame.DURCHMARS not in MAUSZ.silent_games
    assert SilentGame.DURCHMARS in SZOLNOK.silent_games
    with pytest.raises(ScoringError):
        get_ruleset("budapest")


class TestAuction:
    def test_higher_value_wins(self):
        assert beats(parse_bid("four aces"), parse_bid("40-100"))  # 4+1 > 4
        assert beats(parse_bid("ulti four aces"), parse_bid("20-100"))  # 8+1 > 8
        assert not beats(parse_bid("40-100"), parse_bid("four aces"))

    def test_equal_value_the_simpler_wins(self):
        # betli 5 (one component) against ulti 4+1 (ulti and the parti riding along)
        assert beats(parse_bid("betli"), parse_bid("ulti"))
        assert not beats(parse_bid("ulti"), parse_bid("betli"))
        # 20-100 (8, one) against 40-100 ulti (8, two)
        assert beats(parse_bid("20-100"), parse_bid("40-100 ulti"))
        assert not beats(parse_bid("40-100 ulti"), parse_bid("20-100"))
        assert beats(parse_bid("rebetli"), parse_bid("piros ulti"))  # 10 against 8+2

    def test_equal_components_the_earlier_stands(self):
        assert not beats(parse_bid("színtelen durchmars"), parse_bid("durchmars"))
        assert not beats(parse_bid("durchmars"), parse_bid("színtelen durchmars"))
        assert not beats(parse_bid("20-100"), parse_bid("piros 40-100"))
        assert not beats(parse_bid("piros 40-100"), parse_bid("20-100"))

    def test_ulti_beats_four_aces(self):
        assert beats(parse_bid("ulti"), parse_bid("four aces"))
        assert not beats(parse_bid("four aces"), parse_bid("ulti"))
        assert beats(parse_bid("40-100 ulti"), parse_bid("40-100 four aces"))
        assert beats(parse_bid("piros ulti"), parse_bid("piros négy ász"))
        assert beats(parse_bid("20-100 ulti"), parse_bid("20-100 four aces"))

    def test_ulti_beats_four_aces_only_in_bids_otherwise_alike(self):
        # both 16 with two components; the seed lists the ulti bid first, so the earlier stands
        assert not beats(parse_bid("ulti terített durchmars"), parse_bid("piros 40-100 négy ász"))
        assert not beats(parse_bid("piros 40-100 négy ász"), parse_bid("ulti terített durchmars"))
        # both 8+2 = 10 with two components
        assert not beats(parse_bid("ulti durchmars"), parse_bid("piros négy ász"))
