"""Uploads (PBN, CSV, score card form, IMP result) become VPs and standings; refused input changes nothing."""

from decimal import Decimal

import pytest

from results.services import state_of
from teams.engine.parsed import ParsedBoard, ParsedResult, UploadError
from teams.engine.vp import wbf_vp
from teams.models import SCOPE, BoardScore, MatchResult, MatchUpload, Standing
from teams.services import pairing, results
from teams.services.recompute import recompute_event
from teams.services.uploads import parse_csv, parse_pbn

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(make_team_event, director):
    """A published round 1 (1 v 4, 2 v 3 by seeding) of 4 teams, 6 boards a match."""
    event = make_team_event(teams=4, first_round="seeding", boards_per_match=6, rounds=3)
    user = director(event)
    round_ = pairing.publish_round(pairing.generate_round(event, user), user)
    recompute_event(event.pk)
    first, second = round_.matches.order_by("table")
    return event, user, first, second


def pbn(rows):
    """rows: (board, room, contract, declarer, tricks)."""
    out = []
    for board, room, contract, declarer, tricks in rows:
        out += [f'[Board "{board}"]', f'[Room "{room}"]', f'[Contract "{contract}"]']
        out += [f'[Declarer "{declarer}"]', f'[Result "{tricks}"]', ""]
    return "\n".join(out).encode()


def both_rooms_equal(boards=range(2, 7)):
    return [(b, room, "4S", "N", 10) for b in boards for room in ("Open", "Closed")]


def test_pbn_with_both_rooms(published):
    event, user, match, _other = published
    # Board 1 (nobody vulnerable): 4S made in the open room (+420), one down in the closed room (-50).
    data = pbn([(1, "Open", "4S", "N", 10), (1, "Closed", "4S", "N", 9), *both_rooms_equal()])
    results.upload_result(match, user, parse_pbn(data), source="pbn", content=data, file_name="m.pbn")
    recompute_event(event.pk)
    result = MatchResult.objects.get(match=match)
    assert (result.home_imps, result.away_imps) == (10, 0)  # 470 points = 10 IMPs
    assert (result.home_vp, result.away_vp) == wbf_vp(10, 6)
    first = BoardScore.objects.get(match=match, board=1)
    assert (first.open_ns, first.closed_ns, first.difference, first.open_contract) == (
        420,
        -50,
        470,
        "4S N =",
    )
    upload = MatchUpload.objects.get(match=match)
    assert upload.source == "pbn" and len(upload.sha256) == 64


def test_csv_by_score_or_contract(published):
    event, user, match, _other = published
    data = (
        "board;room;contract;declarer;result;ns_score\n"
        "1;open;3NT;S;9;400\n1;closed;3NT;S;8;\n"  # board 1: +400 / -50: 450 -> 10 IMPs
        + "".join(f"{b};open;;;;110\n{b};closed;;;;110\n" for b in range(2, 7))
    ).encode()
    results.upload_result(match, user, parse_csv(data), source="csv")
    recompute_event(event.pk)
    result = MatchResult.objects.get(match=match)
    assert (result.home_imps, result.home_vp) == (10, wbf_vp(10, 6)[0])


def test_score_card_form_and_imp_only_give_standings(published, client):
    event, user, first, second = published
    card = ParsedResult(
        tuple(ParsedBoard(b, 420 if b == 1 else 100, 100) for b in range(1, 7))
    )  # 320 -> 8 IMPs
    results.upload_result(first, user, card)
    results.upload_result(second, user, results.imps_result(3, 25))
    recompute_event(event.pk)
    table = {s.team.start_number: s for s in Standing.objects.filter(event=event, after_round=1)}
    assert table[1].vp == wbf_vp(8, 6)[0] and table[4].vp == wbf_vp(8, 6)[1]
    assert table[3].vp == wbf_vp(22, 6)[0] and table[2].imps == -22
    assert [s.team.start_number for s in Standing.objects.filter(event=event, after_round=1)] == [3, 1, 4, 2]


@pytest.mark.parametrize(
    ("data", "parser", "expected"),
    [
        (
            b'[Board "1"]\n[Room "Open"]\n[Contract "4Q"]\n[Declarer "N"]\n[Result "10"]\n',
            parse_pbn,
            "line 1 (board 1)",
        ),
        (b'[Board "2"]\n[Room "Lounge"]\n[Contract "4S"]\n', parse_pbn, "Room tag"),
        (b'[Board "3"]\n[Room "Open"\n', parse_pbn, "line 2"),
        (b"board,room,ns_score\n1,open,420\n1,closed,421\n", parse_csv, "line 3 (board 1)"),
        (b"board,room,ns_score\n1,open,420\n", parse_csv, "board 1 has no result from the closed room"),
        (
            b"board,room,ns_score\n1,open,420\n1,open,400\n",
            parse_csv,
            "line 3: board 1, open room appears twice",
        ),
        (b"board,score\n1,420\n", parse_csv, "line 1"),
    ],
)
def test_malformed_input_is_refused_with_line_and_board(data, parser, expected):
    with pytest.raises(UploadError) as error:
        parser(data)
    assert expected in str(error.value)


def test_refused_upload_changes_nothing(published):
    event, user, match, _other = published
    before = state_of(event.pk, SCOPE).latest_version
    short = ParsedResult(tuple(ParsedBoard(b, 100, 100) for b in range(1, 5)))
    with pytest.raises(UploadError, match="has 6 boards; the upload has 4"):
        results.upload_result(match, user, short)
    with pytest.raises(UploadError, match="at least 6 boards"):
        results.upload_result(match, user, results.imps_result(5, 0, boards=4))
    assert not MatchUpload.objects.exists() and state_of(event.pk, SCOPE).latest_version == before


def test_a_new_version_replaces_the_result_and_keeps_the_old(published):
    event, user, match, _other = published
    results.upload_result(match, user, results.imps_result(10, 0))
    results.upload_result(match, user, results.imps_result(0, 10), note="javítás")
    recompute_event(event.pk)
    assert list(MatchUpload.objects.filter(match=match).values_list("number", flat=True)) == [1, 2]
    assert MatchResult.objects.get(match=match).away_imps == 10


def test_recompute_is_idempotent(published):
    event, user, first, second = published
    results.upload_result(first, user, results.imps_result(12, 2))
    results.upload_result(second, user, results.imps_result(7, 7))

    def snapshot():
        return (
            list(
                MatchResult.objects.order_by("match_id").values_list(
                    "match_id", "home_imps", "home_vp", "away_vp"
                )
            ),
            list(
                Standing.objects.order_by("after_round", "place").values_list(
                    "team_id", "place", "vp", "imps_won"
                )
            ),
        )

    assert recompute_event(event.pk)["skipped"] is False
    once = snapshot()
    assert recompute_event(event.pk)["skipped"] is True
    assert recompute_event(event.pk, force=True)["skipped"] is False
    assert snapshot() == once
    assert not state_of(event.pk, SCOPE).processing


@pytest.mark.parametrize(
    ("bye_vp", "expected"), [(None, Decimal("12.00")), (Decimal("10"), Decimal("10.00"))]
)
def test_bye_scores_as_the_event_states(make_team_event, director, bye_vp, expected):
    options = {"bye_vp": bye_vp} if bye_vp is not None else {}
    event = make_team_event(teams=5, first_round="seeding", **options)
    user = director(event)
    round_ = pairing.publish_round(pairing.generate_round(event, user), user)
    bye = round_.matches.get(away__isnull=True)
    for match in round_.matches.filter(away__isnull=False):
        results.upload_result(match, user, results.imps_result(0, 0))
    recompute_event(event.pk)
    row = Standing.objects.get(event=event, after_round=1, team=bye.home)
    assert (row.vp, row.imps, row.played) == (expected, 0, 0)
    assert bye.home.start_number == 3  # the middle seed sits out in an odd seeded field
