"""PBN reading (with line numbers on every refusal), writing, the round trip, and USEBIO export."""

import xml.etree.ElementTree as ET
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridge.engine.pbn.games import PbnError, read_games
from bridge.engine.pbn.reader import read_session
from bridge.engine.pbn.records import BoardRecord, ResultRecord, SessionRecord, TotalRecord, session_record
from bridge.engine.pbn.usebio import write_usebio
from bridge.engine.pbn.writer import write_session
from bridge.engine.scoring.adjusted import ArtificialScore
from bridge.engine.scoring.contract import possible_scores
from bridge.engine.scoring.session import Entry, score_session
from results.upload_input import decode_text

FIXTURES = Path(__file__).parent / "fixtures"
D = Decimal


def fixture(name):
    return (FIXTURES / name).read_text(encoding="utf-8")


# --- reading -----------------------------------------------------------------------------------------


def test_games_tags_and_rows_keep_their_lines():
    games = read_games(fixture("mitchell.pbn"))
    assert len(games) == 3
    first = games[0]
    assert first.line == 6  # [Event ...] after five metadata lines
    assert first.tags["board"].line == 9
    table = first.tags["scoretable"]
    assert [c.name for c in table.columns][:3] == ["PairId_NS", "PairId_EW", "Contract"]
    assert (table.columns[0].width, table.columns[0].alignment) == (2, "R")
    assert [row.line for row in table.rows] == [15, 16, 17, 18]
    assert table.rows[0].values["Score_NS"] == "400"
    # "#" repeats the previous game's value
    assert games[1].value("Event") == "Klubverseny"
    assert games[2].value("scoring") == "MP2"


def test_quoted_names_comments_and_several_rows_on_a_line():
    text = "\n".join(
        [
            '[Board "1"] ; the first board',
            "{ a comment",
            "  over two lines }",
            '[ScoreTable "PairId_NS;PairId_EW;Names_NS;Score_NS"]',
            '1 2 "Kovács Péter; Nagy \\"Jani\\"" 420 3 4 "Szabó Éva" 400',
            "5 6 - 170 ; typed by hand",
            "{ a one-line comment between rows }",
            "7 8 - 140",
        ]
    )
    rows = read_games(text)[0].tags["scoretable"].rows
    assert [(r.line, r.values["Names_NS"]) for r in rows] == [
        (5, 'Kovács Péter; Nagy "Jani"'),
        (5, "Szabó Éva"),
        (6, "-"),
        (8, "-"),
    ]


def test_session_from_the_mitchell_fixture():
    session = read_session(fixture("mitchell.pbn"))
    assert (session.event, session.site, session.date, session.scoring) == (
        "Klubverseny",
        "Budapest",
        "2024.05.01",
        "MP2",
    )
    assert [b.number for b in session.boards] == [1, 2, 3]
    board_1 = session.boards[0]
    assert (board_1.dealer, board_1.vulnerable) == ("N", "None")
    assert board_1.deal.startswith("N:AKQJ.T98")
    first = board_1.results[0]
    assert (first.ns, first.ew, first.contract, first.declarer, first.tricks, first.score_ns) == (
        "1",
        "1",
        "3NT",
        "N",
        9,
        400,
    )
    # board 2: a score given for EW only, and contracts entered without a score (NS vulnerable)
    assert [r.score_ns for r in session.boards[1].results] == [-100, -420, 600, 100]
    assert session.boards[1].results[3].contract == "4HX"
    # board 3: EW scored 90 for 2D (EW vulnerable), and an artificial score
    assert session.boards[2].results[1].score_ns == -90
    adjusted = session.boards[2].results[2]
    assert (adjusted.score_ns, adjusted.artificial, adjusted.contract) == (None, "A+/A-", None)


def test_artificial_score_in_both_columns_and_passed_out_boards():
    text = "\n".join(
        [
            '[Board "1"]',
            '[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS;Score_EW"]',
            "1 2 - - - ^A+ ^A-",
            "3 4 AP - - - -",
            "5 6 Pass - - 0 -",
        ]
    )
    results = read_session(text).boards[0].results
    assert results[0].artificial == "A+/A-"
    assert [(r.contract, r.score_ns) for r in results[1:]] == [("Pass", 0), ("Pass", 0)]


def test_sections_make_pair_ids_unique_across_the_field():
    results = read_session(fixture("sections.pbn")).boards[0].results
    assert [(r.ns, r.ew) for r in results] == [("A1", "A1"), ("A2", "A2"), ("B1", "B1"), ("B2", "B2")]


def test_pbn_files_decode_as_utf8_with_a_bom_or_as_hungarian_single_byte_text():
    assert decode_text('[Event "Kovács"]'.encode()) == '[Event "Kovács"]'
    assert decode_text(b"\xef\xbb\xbf% PBN 2.1") == "% PBN 2.1"
    # ő and ű of an ISO-8859-2 or Windows-1250 file stay ő and ű (Latin-1 would make them õ and û).
    assert decode_text('[Event "Kővári Űrsula"]'.encode("iso-8859-2")) == '[Event "Kővári Űrsula"]'
    assert decode_text('[Event "„Kővári”"]'.encode("cp1250")) == '[Event "„Kővári”"]'


# --- refusals, each with its line --------------------------------------------------------------------

HEADER = ["% PBN 2.1", '[Event "Test"]', '[Board "1"]', '[ScoreTable "PairId_NS;PairId_EW;Score_NS"]']


def refusal(lines):
    with pytest.raises(PbnError) as caught:
        read_session("\n".join(lines))
    return caught.value


@pytest.mark.parametrize(
    ("lines", "line", "reason"),
    [
        # truncated files
        ([*HEADER, "1 11 420", "2 12"], 6, "row has 2 values but the table has 3 columns"),
        (HEADER[:3] + ['[ScoreTable "PairId_NS;PairId_EW;Score_NS'], 4, "malformed tag pair"),
        ([*HEADER, "1 11 420", "", "{ the rest of the file went missing", '[Board "2"]'], 7, "never closed"),
        ([*HEADER, '1 11 "Kovács Pé'], 5, "unterminated quoted string"),
        ([*HEADER, "1 11 420", "{ a note that", "goes on }", "2 12 400"], 6, "must close on the same line"),
        # bad tags
        (['[Event "Test"]', "[Board 1]"], 2, "malformed tag pair"),
        (['[Event "Test"]', 'Board "1"'], 2, "expected a tag pair"),
        (['[Event "Test"]', '[Board "1"]', '[Board "2"]'], 3, "appears twice in one game"),
        (['[Board "1"]', '[Event "#"]'], 2, "no earlier game has it"),
        ([*HEADER[:3], '[Dealer "Q"]'], 4, "dealer 'Q'"),
        ([*HEADER[:3], '[Vulnerable "Sometimes"]'], 4, "unknown vulnerability"),
        (
            [*HEADER[:3], '[Deal "N:AKQJ.T98.765.432 AKQJ.765.432.AKQ 765.432.AKQJ.T98 432.AKQJ.T98.765"]'],
            4,
            "card twice",
        ),
        (
            [*HEADER[:3], '[Deal "N:AKQJ.T98.765.43 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]'],
            4,
            "13 cards",
        ),
        ([*HEADER[:3], '[Scoring "MP2"]', "", '[Board "2"]', '[Scoring "IMP"]'], 7, "differs from"),
        # unknown boards
        (['[Event "Test"]', '[Board "x"]'], 2, "unknown board 'x'"),
        (['[Event "Test"]', '[Board "0"]'], 2, "unknown board '0'"),
        ([*HEADER, "1 11 420", "", '[Board "1"]'], 7, "board 1 appears twice (first at line 3)"),
        (
            ['[Event "Test"]', '[ScoreTable "PairId_NS;PairId_EW;Score_NS"]', "1 2 420"],
            2,
            "without a Board tag",
        ),
        # illegal scores and results
        ([*HEADER, "1 11 420", "2 12 425"], 6, "illegal score 425"),
        ([*HEADER, "1 11 four"], 5, "Score_NS 'four' is not a score"),
        ([*HEADER, "1 11 ^B"], 5, "not an artificial score"),
        (
            HEADER[:3] + ['[ScoreTable "PairId_NS;PairId_EW;Score_NS;Score_EW"]', "1 11 420 -400"],
            5,
            "disagree",
        ),
        (
            HEADER[:3] + ['[ScoreTable "PairId_NS;PairId_EW;Score_NS;Score_EW"]', "1 11 - ^A"],
            5,
            "goes in Score_NS",
        ),
        (
            HEADER[:3] + ['[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result"]', "1 11 8NT N 9"],
            5,
            "not a contract",
        ),
        (
            HEADER[:3] + ['[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result"]', "1 11 3NT Q 9"],
            5,
            "declarer 'Q'",
        ),
        (
            HEADER[:3] + ['[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result"]', "1 11 3NT N 15"],
            5,
            "declarer takes 0 to 13",
        ),
        (
            HEADER[:3] + ['[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result"]', "1 11 3NT - 9"],
            5,
            "needs a Declarer",
        ),
        (
            HEADER[:3]
            + ['[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS"]', "1 11 3NT N 9 430"],
            5,
            "does not match 3NT by N taking 9 tricks (400)",
        ),
        (
            HEADER[:3] + ['[ScoreTable "PairId_NS;PairId_EW;Contract;Score_NS"]', "1 11 - -"],
            5,
            "neither a score",
        ),
        (
            HEADER[:3] + ['[ScoreTable "PairId_NS;PairId_EW;Score_NS;MP_NS"]', "1 11 420 lots"],
            5,
            "MP_NS 'lots'",
        ),
        # who played
        ([*HEADER, "1 11 420", "1 12 400"], 6, "pair 1 NS already has a result on board 1 (line 5)"),
        ([*HEADER, "- 11 420"], 5, "needs both PairId_NS and PairId_EW"),
        (HEADER[:3] + ['[ScoreTable "Table;Score_NS"]', "1 420"], 4, "needs PairId_NS and PairId_EW"),
        (HEADER[:3] + ['[ScoreTable "PairId_NS;PairId_EW;Lead"]', "1 2 SA"], 4, "needs Score_NS"),
        (HEADER[:3] + ['[TotalScoreTable "Rank;Names"]', '1 "A; B"'], 5, "needs a PairId"),
    ],
)
def test_malformed_pbn_is_refused_with_the_line_and_the_reason(lines, line, reason):
    error = refusal(lines)
    assert error.line == line, str(error)
    assert reason in error.message
    assert str(error).startswith(f"line {line}: ")


def test_the_bad_score_fixture():
    with pytest.raises(PbnError, match=r"^line 7: board 1: illegal score 425"):
        read_session(fixture("bad_score.pbn"))


def test_vulnerability_decides_which_scores_are_legal():
    vulnerable = ['[Board "2"]', '[ScoreTable "PairId_NS;PairId_EW;Score_NS"]', "1 11 600"]
    assert read_session("\n".join(vulnerable)).boards[0].results[0].score_ns == 600
    # 2210 is 7S= vulnerable: legal for NS on board 2 (NS vulnerable), not on board 1 ...
    assert read_session("\n".join([*vulnerable[:2], "1 11 2210"])).boards[0].results[0].score_ns == 2210
    assert refusal(['[Board "1"]', *vulnerable[1:2], "1 11 2210"]).line == 3
    # ... unless a Vulnerable tag says otherwise
    tagged = ['[Board "1"]', '[Vulnerable "All"]', *vulnerable[1:2], "1 11 2210"]
    assert read_session("\n".join(tagged)).boards[0].vulnerable == "All"


# The cells of a board's rows: mostly good and repeated (as a session's file repeats them), some refused (a
# score that does not match, an illegal score, an unreadable contract) and one a lenient read takes by its
# score with a warning.
CELLS = [
    "4S N 10 420",
    "4S N 10 420",
    "4S N 11 450",
    "4S N 9 -50",
    "3NT S 9 400",
    "Pass - - 0",
    "4S N 10 -",
    "- - - 420",
    "4S N 10 400",  # does not match 4S= (420)
    "- - - 425",  # no contract scores that
    "4Q N 10 420",  # no such contract: a lenient read takes the score
    "4S N 10 ^A+/A-",
]


@settings(max_examples=60, deadline=None)
@given(
    board=st.integers(1, 16),
    cells=st.lists(st.sampled_from(CELLS), min_size=1, max_size=25),
    lenient=st.booleans(),
)
def test_a_board_s_rows_read_as_each_row_read_alone(board, cells, lenient):
    """The reader keeps what it found of a board's repeated cells; the rows, the warnings, and the first
    refusal with its line are those of each row checked on its own."""
    from bridge.engine.pbn.reader import _result
    from bridge.engine.scoring.contract import board_vulnerability, vulnerable_sides

    lines = [f'[Board "{board}"]', '[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS"]']
    lines += [f"{n} {100 + n} {c}" for n, c in enumerate(cells, start=1)]
    text = "\n".join(lines)
    expected, warnings, refused = [], [], None
    vul = vulnerable_sides(board_vulnerability(board))
    for row in read_games(text)[0].tags["scoretable"].rows:
        try:
            expected.append(_result(row, board, *vul, warnings if lenient else None, played=None))
        except PbnError as error:
            refused = (error.line, error.message)
            break
    try:
        session = read_session(text, lenient=lenient)
    except PbnError as error:
        assert (error.line, error.message) == refused
        return
    assert refused is None
    results = session.boards[0].results
    assert results == expected
    assert [r.line for r in results] == [r.line for r in expected] == list(range(3, 3 + len(cells)))
    assert session.warnings == warnings


# --- writing and the round trip ----------------------------------------------------------------------


def scored_fixture():
    session = read_session(fixture("mitchell.pbn"))
    boards = {
        b.number: [
            Entry(
                f"{r.ns} NS",
                f"{r.ew} EW",
                r.score_ns,
                ArtificialScore.parse(r.artificial) if r.artificial else None,
            )
            for r in b.results
        ]
        for b in session.boards
    }
    return session, score_session(boards)


def test_written_session_has_deals_scores_matchpoints_and_totals():
    session, score = scored_fixture()
    record = session_record(
        score,
        event=session.event,
        date=session.date,
        deals={1: session.boards[0].deal},
        names={"3 NS": "Kovács Péter - Nagy Anna"},
        results={b.number: b.results for b in session.boards},
    )
    text = write_session(record)
    assert text.startswith("% PBN 2.1\n")
    assert '[Deal "N:AKQJ.T98.765.432' in text
    assert '[Scoring "MP2"]' in text
    score_table = next(line for line in text.splitlines() if line.startswith("[ScoreTable"))
    for column in ("PairId_NS", "Score_NS", "MP_NS", "MP_EW", "Percentage_NS", "Percentage_EW"):
        assert column in score_table
    assert "[TotalScoreTable" in text
    assert "^A+/A-" in text
    assert '"Kovács Péter - Nagy Anna"' in text
    back = read_session(text)
    assert back == record
    assert back.totals[0] == TotalRecord(
        "3 NS", "1", "NS", "Kovács Péter - Nagy Anna", D("15.00"), None, D("83.33"), 3
    )


def test_imp_sessions_write_imp_columns():
    entries = [Entry("1", "11", 420), Entry("2", "12", 450), Entry("3", "13", -50)]
    record = session_record(score_session({1: entries}, method="cross-imps"))
    text = write_session(record)
    assert '[Scoring "IMP;Cross2"]' in text
    columns = [c.name for c in read_games(text)[0].tags["scoretable"].columns]
    assert "IMP_NS" in columns and "MP_NS" not in columns and "TotalIMP" in text
    assert read_session(text) == record


def test_an_empty_session_still_writes_a_game():
    record = SessionRecord(event='Quote " and \\ backslash', totals=[TotalRecord("1", "1", total_mp=D(3))])
    assert read_session(write_session(record)) == record


names = (
    st.text(alphabet="abcÁéőű \"'\\;-{}", min_size=1, max_size=15)
    .map(str.strip)
    .filter(lambda name: name not in ("", "-", "?"))
)
decimals = st.decimals(min_value=-50, max_value=100, places=2, allow_nan=False, allow_infinity=False)
pair_ids = st.from_regex(r"[A-C]?[1-9][0-9]?", fullmatch=True)


@st.composite
def result_records(draw, vulnerability):
    ns, ew = draw(pair_ids), draw(pair_ids)
    if draw(st.booleans()):
        award = draw(st.sampled_from(["A", "A+", "A-", "A+/A-", "A-/A+", "A/A+"]))
        return ResultRecord(ns, ew, artificial=award, mp_ns=draw(decimals), mp_ew=draw(decimals))
    score = draw(st.sampled_from(sorted(possible_scores(*vulnerability))))
    return ResultRecord(
        ns,
        ew,
        score,
        mp_ns=draw(decimals),
        mp_ew=draw(decimals),
        pct_ns=draw(decimals),
        pct_ew=draw(decimals),
    )


@st.composite
def sessions(draw):
    boards = []
    for number in draw(st.lists(st.integers(1, 36), min_size=1, max_size=4, unique=True)):
        vulnerable = draw(st.sampled_from(["None", "NS", "EW", "All"]))
        vulnerability = {
            "None": (False, False),
            "NS": (True, False),
            "EW": (False, True),
            "All": (True, True),
        }[vulnerable]
        results = draw(st.lists(result_records(vulnerability), max_size=5))
        seen_ns, seen_ew = set(), set()
        results = [
            r
            for r in results
            if not (r.ns in seen_ns or r.ew in seen_ew or seen_ns.add(r.ns) or seen_ew.add(r.ew))
        ]
        boards.append(
            BoardRecord(number, draw(st.sampled_from(["N", "E", "S", "W"])), vulnerable, None, results)
        )
    totals = draw(
        st.lists(
            st.builds(
                TotalRecord,
                pair=pair_ids,
                rank=st.from_regex(r"[1-9](-[1-9])?", fullmatch=True),
                direction=st.sampled_from([None, "NS", "EW"]),
                names=st.none() | names,
                total_mp=st.none() | decimals,
                percentage=st.none() | decimals,
                boards=st.none() | st.integers(0, 40),
            ),
            max_size=5,
        )
    )
    return SessionRecord(
        draw(st.none() | names), draw(st.none() | names), "2024.05.01", "MP2", boards, totals
    )


@settings(max_examples=150, deadline=None)
@given(sessions())
def test_write_then_read_gives_the_same_session(session):
    assert read_session(write_session(session)) == session


# --- USEBIO ------------------------------------------------------------------------------------------


def test_usebio_export_of_a_mitchell():
    session, score = scored_fixture()
    record = session_record(
        score,
        event="Klubverseny <tavasz> & nyár",
        date="2024.05.01",
        names={"3 NS": "Kovács Péter;Nagy & Társa"},
        results={b.number: b.results for b in session.boards},
    )
    xml = write_usebio(
        record, club_name="Budapesti Bridzs Klub", club_id="042", player_ids={"3 NS": ["111", "222"]}
    )
    assert xml.startswith("<?xml")
    root = ET.fromstring(xml)
    assert root.tag == "USEBIO" and root.get("Version") == "1.2"
    assert root.findtext("CLUB/CLUB_NAME") == "Budapesti Bridzs Klub"
    event = root.find("EVENT")
    assert event.get("EVENT_TYPE") == "MP_PAIRS"
    assert event.findtext("EVENT_DESCRIPTION") == "Klubverseny <tavasz> & nyár"
    assert event.findtext("DATE") == "01/05/2024"
    assert event.findtext("WINNER_TYPE") == "2"
    assert event.findtext("BOARDS_PLAYED") == "3"
    winner = event.find("PARTICIPANTS/PAIR")
    assert [p.findtext("PLAYER_NAME") for p in winner.findall("PLAYER")] == ["Kovács Péter", "Nagy & Társa"]
    assert [p.findtext("NATIONAL_ID_NUMBER") for p in winner.findall("PLAYER")] == ["111", "222"]
    assert (winner.findtext("PLACE"), winner.findtext("DIRECTION"), winner.findtext("PERCENTAGE")) == (
        "1",
        "NS",
        "83.33",
    )
    assert winner.findtext("TOTAL_SCORE") == "15.00"
    board_3 = event.findall("BOARD")[2]
    lines = board_3.findall("TRAVELLER_LINE")
    assert lines[0].findtext("SCORE") == "90" and lines[0].findtext("CONTRACT") == "1NT"
    assert lines[2].findtext("CONTRACT") == "A+/A-" and lines[2].find("SCORE") is None
    assert lines[2].findtext("NS_MATCH_POINTS") == "5.00"
    assert "&amp;" in xml and "&lt;tavasz&gt;" in xml


def test_usebio_howell_and_imp_events():
    howell = score_session(
        {1: [Entry("1", "2", 420), Entry("3", "4", 400)], 2: [Entry("4", "1", 100), Entry("2", "3", 50)]}
    )
    root = ET.fromstring(write_usebio(session_record(howell)))
    assert root.findtext("EVENT/WINNER_TYPE") == "1"
    assert root.find("CLUB") is None
    butler = score_session(
        {1: [Entry("1", "11", 420), Entry("2", "12", 450), Entry("3", "13", -50)]}, method="butler"
    )
    root = ET.fromstring(write_usebio(session_record(butler)))
    assert root.find("EVENT").get("EVENT_TYPE") == "BUTLER_PAIRS"
    # datum 420 (the middle result): 420, 450 and -50 are worth 0, 1 and -10 IMPs
    lines = root.findall("EVENT/BOARD/TRAVELLER_LINE")
    assert [line.findtext("NS_MATCH_POINTS") for line in lines] == ["0", "1", "-10"]
