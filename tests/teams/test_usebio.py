"""USEBIO 1.2 team files: read into the same boards as PBN, through the one upload seam, and written back.

The files are built by `demo.team_usebio_sample` from the format's element names (no real public USEBIO
team file was found); the export is the portal's own writer, read back by the same reader.
"""

from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from bridge.engine.scoring.contract import board_vulnerability, contract_score, vulnerable_sides
from bridge.engine.scoring.imps import imps as imp_scale
from demo.team_usebio_sample import Board, Line, Match, Team, level_match, team_file
from teams.engine.parsed import ParsedBoard, UploadError
from teams.engine.problems import ParseError
from teams.engine.scores import played_of, room_score
from teams.engine.usebio_reader import TeamRef, parse_usebio
from teams.models import BoardScore, MatchResult, MatchUpload, Standing, UploadedBoard
from teams.services import pairing, uploads
from teams.services.recompute import recompute_event

pytestmark = pytest.mark.django_db

# (board, open room (contract, declarer, tricks), closed room): both matches of the round play these.
PLAYED = [
    (1, ("4S", "N", 10), ("4S", "N", 9)),  # +420 / -50: 470 -> 10 IMPs to home
    (2, ("3NT", "S", 9), ("3NT", "S", 9)),  # NS vulnerable: flat
    (3, ("4H", "E", 10), ("3H", "E", 10)),  # EW vulnerable: -620 / -170: home loses 10
    (4, ("6NT", "N", 12), ("3NT", "N", 12)),  # all vulnerable: +1440 / +690: 13 IMPs
    (5, ("PASS", None, None), ("1NT", "W", 6)),  # NS vulnerable: 0 / +50: 2 IMPs to away
    (6, ("2SX", "W", 7), ("2S", "W", 8)),  # EW vulnerable: +200 / -110: 310 -> 7 IMPs
]


def _score(board, played):
    contract, declarer, tricks = played
    return room_score(
        board, contract=contract, declarer=declarer, result=None if tricks is None else str(tricks)
    )[0]


def _pbn(rows=PLAYED) -> bytes:
    out = []
    for board, open_room, closed_room in rows:
        for room, (contract, declarer, tricks) in (("Open", open_room), ("Closed", closed_room)):
            out += [f'[Board "{board}"]', f'[Room "{room}"]', f'[Contract "{contract}"]']
            if declarer:
                out += [f'[Declarer "{declarer}"]', f'[Result "{tricks}"]']
            out.append("")
    return "\n".join(out).encode()


def _usebio_match(match, *, from_away: bool, rows=PLAYED) -> Match:
    """The portal match as a USEBIO MATCH, its TEAM the home team or (from_away) the away team."""
    team, opposing = (match.away, match.home) if from_away else (match.home, match.away)
    boards = []
    for board, open_room, closed_room in rows:
        home_imps = imp_scale(_score(board, open_room) - _score(board, closed_room))
        # The open room is where home sits NS: the away team sits EW there.
        lines = [
            Line("EW" if from_away else "NS", *open_room),
            Line("NS" if from_away else "EW", *closed_room),
        ]
        boards.append(Board(board, lines, imps=-home_imps if from_away else home_imps))
    return Match(match.round.number, str(team.start_number), str(opposing.start_number), boards, 1, len(rows))


def _file_of(event, matches) -> bytes:
    teams = [Team(str(t.start_number), t.name) for t in event.teams.order_by("start_number")]
    return team_file(teams, matches, nested=True).encode()


def _upload(match, user, data, fmt="usebio", name="csapat.xml"):
    return uploads.upload_match(match, user, fmt, file=SimpleUploadedFile(name, data))


def _standings(event):
    return [
        (s.after_round, s.place, s.team.name, s.vp, s.imps_won, s.imps_lost, s.played)
        for s in Standing.objects.filter(event=event).select_related("team").order_by("after_round", "place")
    ]


def _boards(event):
    return [
        (b.match.home.name, b.board, b.open_ns, b.closed_ns, b.open_contract, b.closed_contract, b.home_imps)
        for b in BoardScore.objects.filter(match__round__event=event)
        .select_related("match__home")
        .order_by("match__home__start_number", "board")
    ]


@pytest.fixture
def twin_rounds(make_team_event, director):
    """Two identical events of 4 teams, round 1 (seeded) published in each: one for PBN, one for USEBIO."""
    out = []
    for _ in range(2):
        event = make_team_event(teams=4, first_round="seeding", boards_per_match=6, rounds=3)
        user = director(event)
        round_ = pairing.publish_round(pairing.generate_round(event, user), user)
        out.append((event, user, list(round_.matches.order_by("table"))))
    return out


def test_usebio_gives_the_same_standings_as_pbn(twin_rounds):
    (pbn_event, pbn_user, pbn_matches), (xml_event, xml_user, xml_matches) = twin_rounds
    for match in pbn_matches:
        _upload(match, pbn_user, _pbn(), "pbn", "m.pbn")
    # One file for the whole round; the first match seen from its away team, the second from home.
    data = _file_of(
        xml_event,
        [_usebio_match(xml_matches[0], from_away=True), _usebio_match(xml_matches[1], from_away=False)],
    )
    for match in xml_matches:
        upload = _upload(match, xml_user, data)
        assert upload.source == "usebio" and upload.file_name == "csapat.xml" and len(upload.sha256) == 64
    recompute_event(pbn_event.pk)
    recompute_event(xml_event.pk)
    assert _standings(xml_event) == _standings(pbn_event)
    assert _boards(xml_event) == _boards(pbn_event)
    first = MatchResult.objects.get(match=xml_matches[0])
    # Home: board 1 +10, board 4 +13, board 6 +7; away: board 3 +10, board 5 +2.
    assert (first.home_imps, first.away_imps) == (Decimal(30), Decimal(12))
    assert BoardScore.objects.get(match=xml_matches[0], board=1).open_contract == "4S N ="


def test_usebio_through_the_upload_page_and_the_api(twin_rounds, client):
    _pbn_twin, (event, user, matches) = twin_rounds
    data = _file_of(event, [_usebio_match(m, from_away=False) for m in matches])
    client.force_login(user)
    response = client.post(
        reverse("teams_upload", args=[matches[0].pk]),
        {"kind": "file", "file-kind": "usebio", "file-file": SimpleUploadedFile("f.xml", data)},
    )
    assert response.status_code == 302
    # The API reads a .xml file as USEBIO without being told.
    response = client.post(
        f"/api/v1/team-matches/{matches[1].pk}/upload/", {"file": SimpleUploadedFile("f.xml", data)}
    )
    assert response.status_code == 201, response.content
    assert (
        list(MatchUpload.objects.filter(match__in=matches).values_list("source", flat=True)) == ["usebio"] * 2
    )


def test_the_upload_page_reads_the_format_from_the_file_name_when_not_told(twin_rounds, client):
    _pbn_twin, (event, user, matches) = twin_rounds
    data = _file_of(event, [_usebio_match(m, from_away=False) for m in matches])
    client.force_login(user)
    page = client.get(reverse("teams_upload", args=[matches[0].pk])).content.decode()
    assert '<option value="" selected>' in page
    response = client.post(
        reverse("teams_upload", args=[matches[0].pk]),
        {"kind": "file", "file-kind": "", "file-file": SimpleUploadedFile("fordulo.XML", data)},
    )
    assert response.status_code == 302
    assert list(MatchUpload.objects.filter(match=matches[0]).values_list("source", flat=True)) == ["usebio"]


def test_export_reads_back_to_the_same_boards_and_standings(twin_rounds, client):
    (event, user, matches), (twin, twin_user, twin_matches) = twin_rounds
    for match in matches:
        _upload(match, user, _pbn(), "pbn", "m.pbn")
    recompute_event(event.pk)
    response = client.get(reverse("teams_export_usebio", args=[event.pk]))
    assert response.status_code == 200 and response["Content-Type"].startswith("application/xml")
    exported = response.content
    assert b'EVENT_TYPE="SWISS_TEAMS"' in exported and b"<MATCH>" in exported
    # Into the twin event: the same standings and boards, contracts included.
    for match in twin_matches:
        _upload(match, twin_user, exported)
    recompute_event(twin.pk)
    assert _standings(twin) == _standings(event)
    assert _boards(twin) == _boards(event)
    # Into the event itself: a new version with exactly the boards it had.
    before = sorted(
        UploadedBoard.objects.filter(upload__match=matches[0]).values_list(
            "board", "open_ns", "closed_ns", "open_contract", "closed_contract"
        )
    )
    again = _upload(matches[0], user, exported)
    assert (
        again.number == 2
        and sorted(
            again.boards.values_list("board", "open_ns", "closed_ns", "open_contract", "closed_contract")
        )
        == before
    )
    recompute_event(event.pk)
    assert _standings(event) == _standings(twin)


def test_the_standings_page_links_the_export(twin_rounds, client):
    (event, _user, _matches), _twin = twin_rounds
    body = client.get(reverse("teams_standings", args=[event.pk])).content.decode()
    assert reverse("teams_export_usebio", args=[event.pk]) in body


def test_the_round_number_picks_between_two_matches_of_the_same_teams(twin_rounds):
    _pbn_twin, (event, user, matches) = twin_rounds
    match = matches[0]
    home, away = str(match.home.start_number), str(match.away.start_number)
    earlier = level_match(7, home, away)
    earlier.boards[0].lines[0] = Line("NS", "4S", "N", 11)  # another match: board 1 +450
    earlier.boards[0].imps = 1
    data = _file_of(event, [earlier, level_match(1, home, away)])
    upload = _upload(match, user, data)
    assert upload.boards.get(board=1).open_ns == 420


def test_a_refused_usebio_upload_writes_nothing(twin_rounds):
    _pbn_twin, (event, user, matches) = twin_rounds
    match = matches[0]
    bad = _usebio_match(match, from_away=False)
    bad.boards[0].imps = 9  # the rooms give 10
    with pytest.raises(UploadError) as refused:
        _upload(match, user, _file_of(event, [bad]))
    assert "<IMPS> 9 on board 1; the two rooms give 10" in refused.value.messages[0]
    assert not MatchUpload.objects.filter(match=match).exists()


# --- the reader alone -----------------------------------------------------------------------------------

HOME, AWAY = TeamRef(1, "Első"), TeamRef(2, "Második")
TEAMS = [Team("1", "Első"), Team("2", "Második")]


def test_team_number_as_child_elements_and_flat_event():
    text = team_file([Team("1"), Team("2")], [level_match(1, "2", "1")])
    parsed = parse_usebio(text, HOME, AWAY)
    assert parsed.boards[0] == ParsedBoard(1, 420, 420, "4S N =", "4S N =")
    assert len(parsed.boards) == 6


def test_orientation_follows_direction_of_the_matchs_team():
    match = Match(1, "2", "1", [Board(1, [Line("NS", score=-50), Line("EW", score=420)])])
    board = parse_usebio(team_file(TEAMS, [match]), HOME, AWAY).boards[0]
    # TEAM is the away team: its EW line is the open room (home NS), its NS line the closed room.
    assert (board.open_ns, board.closed_ns) == (420, -50)


@pytest.mark.parametrize(
    "text, expected",
    [
        (team_file(TEAMS, [level_match(1, "1", "2")])[:-40], "not well-formed"),
        (
            team_file(TEAMS, [level_match(1, "1", "2")], event_type="MP_PAIRS"),
            "'MP_PAIRS' is not a team event",
        ),
        (
            team_file(TEAMS, [level_match(1, "1", "2")], prolog='<!DOCTYPE USEBIO [<!ENTITY a "b">]>'),
            "line 1: a DOCTYPE",
        ),
        (
            team_file([Team("1", "Első"), Team("2", "Senki")], [level_match(1, "1", "2")]),
            "'Senki' (TEAM_ID 2) is not a team",
        ),
        (team_file(TEAMS, [level_match(1, "1", "3")]), "<OPPOSING_TEAM> 3 of the <MATCH> is not a <TEAM>"),
        (team_file(TEAMS, []), "no <MATCH> between Első and Második"),
    ],
)
def test_refusals_name_the_line_and_element(text, expected):
    with pytest.raises(ParseError) as refused:
        parse_usebio(text, HOME, AWAY)
    assert expected in str(refused.value)


def test_missing_board_and_impossible_score_name_their_lines():
    match = level_match(1, "1", "2")
    del match.boards[3]  # board 4
    match.boards[0].lines[1] = Line("EW", score=431)
    text = team_file(TEAMS, [match])
    with pytest.raises(ParseError) as refused:
        parse_usebio(text, HOME, AWAY)
    messages = [str(p) for p in refused.value.problems]
    match_line = text.splitlines().index("<MATCH>") + 1
    assert f"line {match_line}: board 4 has no <BOARD> (the <MATCH> covers 1–6)" in messages
    assert any(
        "431 is not a possible score on this board" in m and "board 1, <TRAVELLER_LINE>" in m
        for m in messages
    )


@given(
    board=st.integers(1, 32),
    level=st.integers(1, 7),
    strain=st.sampled_from(["C", "D", "H", "S", "NT"]),
    doubled=st.sampled_from(["", "X", "XX"]),
    declarer=st.sampled_from("NESW"),
    tricks=st.integers(0, 13),
)
def test_a_score_cards_text_reads_back_to_the_same_result(board, level, strain, doubled, declarer, tricks):
    score, shown = room_score(
        board, contract=f"{level}{strain}{doubled}", declarer=declarer, result=str(tricks)
    )
    contract, seat, taken = played_of(shown)
    assert room_score(board, contract=contract, declarer=seat, result=str(taken)) == (score, shown)
    vul = vulnerable_sides(board_vulnerability(board))
    assert score == contract_score(contract, seat, taken, *vul)
