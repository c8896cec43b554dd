"""Hostile bridge teams match uploads."""

import datetime
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from demo.team_usebio_sample import Team, level_match, team_file
from federation.models import Role
from teams.engine.parsed import UploadError as TeamsUploadError
from teams.models import MatchUpload, TeamEvent
from teams.services import pairing
from teams.services import results as teams_results
from teams.services.uploads import parse_csv as teams_parse_csv
from teams.services.uploads import parse_pbn as teams_parse_pbn
from teams.services.uploads import parse_usebio as teams_parse_usebio
from tournaments.models import Entry, EntryMember, Event

from .helpers import (
    DEFECT_BOARD,
    HUGE,
    INJECTIONS,
    SCRIPT,
    accepted_with_change,
    as_bytes,
    assert_safe,
    errors_shown,
    garbage,
    next_name,
    refused_cleanly,
    snapshot,
)

pytestmark = pytest.mark.django_db


# --- bridge teams: match uploads ----------------------------------------------------------------------------


@pytest.fixture
def teams(mbsz, make_person, make_user):
    """A published round of 4 teams, 6 boards a match; the first match is the one uploaded to."""
    event = Event.objects.create(
        federation=mbsz,
        title=f"Ellenséges csapatverseny {next_name()}",
        format=Event.Format.TEAMS,
        event_class=Event.EventClass.CLUB,
        start_date=datetime.date(2026, 3, 7),
        status=Event.Status.APPROVED,
        masterpoint_multiplier=Decimal("1.00"),
    )
    for n in range(4):
        # One team is named with a script: every page of these tests must show it escaped.
        entry = Entry.objects.create(event=event, team_name=f"Csapat {n + 1}" + (SCRIPT if n == 0 else ""))
        for position in range(1, 5):
            EntryMember.objects.create(
                entry=entry, person=make_person(federation=mbsz), position=position, is_captain=position == 1
            )
    TeamEvent.objects.create(event=event, first_round="seeding", boards_per_match=6, rounds=3)
    director = make_user(f"td-teams{event.pk}@example.hu", kind=Role.DIRECTOR, event=event)
    round_ = pairing.publish_round(pairing.generate_round(event, director), director)
    match = round_.matches.filter(away__isnull=False).order_by("table").first()
    return SimpleNamespace(event=event, director=director, match=match)


def teams_csv(boards=range(1, 7), extra=""):
    rows = "".join(f"{b};open;110\n{b};closed;-110\n" for b in boards)  # 2S made: any vulnerability
    return "board;room;ns_score\n" + rows + extra


def teams_pbn(boards=range(1, 7), room_tag="Room"):
    out = []
    for board in boards:
        for room in ("Open", "Closed"):
            out += [f'[Board "{board}"]', f'[{room_tag} "{room}"]', '[Contract "4S"]', '[Declarer "N"]']
            out += ['[Result "10"]', ""]
    return "\n".join(out)


def teams_usebio(teams=None, **changes):
    """A USEBIO team file of the fixture's 4 teams (by TEAM_ID: the start numbers) with a flat match between
    every two of them, so whichever match the fixture uploads to is in it; `changes` alter every match."""
    pairs = [(a, b) for a in range(1, 5) for b in range(a + 1, 5)]
    matches = [level_match(1, str(a), str(b)) for a, b in pairs]
    for match in matches:
        for change in changes.values():
            change(match)
    return team_file(teams or [Team(str(n)) for n in range(1, 5)], matches)


def _drop_board_6(match):
    del match.boards[5]


def _impossible(match):
    match.boards[0].lines[1].contract, match.boards[0].lines[1].score = None, 431


def _wrong_imps(match):
    match.boards[0].imps = 5


def _stranger(match):
    match.opposing = "9"


def _huge_board(match):
    match.boards[0].number = HUGE


BILLION_LAUGHS = '<?xml version="1.0"?>\n<!DOCTYPE USEBIO [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>'
USEBIO_CORPUS = [
    ("usebio-truncated", "usebio", teams_usebio()[:-60], "not well-formed"),
    (
        "usebio-billion-laughs",
        "usebio",
        teams_usebio().replace('<?xml version="1.0" encoding="UTF-8"?>', BILLION_LAUGHS),
        "line 2: a DOCTYPE or entity declaration is not allowed",
    ),
    (
        "usebio-external-entity",
        "usebio",
        teams_usebio().replace("<USEBIO ", '<!DOCTYPE USEBIO SYSTEM "file:///etc/passwd">\n<USEBIO ', 1),
        "DOCTYPE",
    ),
    (
        "usebio-unknown-team",
        "usebio",
        teams_usebio([Team(str(n)) for n in (1, 2, 3, 9)]),
        "(TEAM_ID 9) is not a team of this event",
    ),
    (
        "usebio-script-team",
        "usebio",
        teams_usebio([Team("1", SCRIPT), *[Team(str(n)) for n in (2, 3, 4)]]),
        "is not a team of this event",
    ),
    ("usebio-match-stranger", "usebio", teams_usebio(change=_stranger), " 9 of the "),
    ("usebio-impossible-score", "usebio", teams_usebio(change=_impossible), "431 is not a possible score"),
    ("usebio-missing-board", "usebio", teams_usebio(change=_drop_board_6), "board 6 has no "),
    ("usebio-wrong-imps", "usebio", teams_usebio(change=_wrong_imps), "5 on board 1; the two rooms give 0"),
    ("usebio-huge-board", "usebio", teams_usebio(change=_huge_board), "is not a board number"),
    (
        "usebio-pairs-event",
        "usebio",
        teams_usebio().replace("SWISS_TEAMS", "MP_PAIRS"),
        "'MP_PAIRS' is not a team event",
    ),
    ("usebio-utf16", "usebio", teams_usebio().encode("utf-16"), "line 1"),
    ("usebio-garbage", "usebio", garbage(6), "line"),
]

TEAMS_CORPUS = [
    *[
        (f"csv-injection-{n}-{where}", "csv", teams_csv().replace(target, value, 1), expected)
        for n, value in enumerate(INJECTIONS)
        for where, target, expected in (("room", "1;open", "line 2"), ("score", "110", "line 2"))
    ],
    ("csv-duplicate-row", "csv", teams_csv(extra="1;open;110\n"), "appears twice"),
    ("csv-missing-room", "csv", teams_csv().rsplit("6;closed", 1)[0], "closed room"),
    ("csv-impossible-score", "csv", teams_csv().replace("110", "431", 1), "431"),
    ("csv-huge-score", "csv", teams_csv().replace("110", HUGE, 1), "line 2"),
    ("csv-negative-board", "csv", teams_csv().replace("1;open", "-1;open", 1), "line 2"),
    ("csv-wrong-board-count", "csv", teams_csv(boards=range(1, 4)), "6 boards"),
    ("csv-huge-board-alone", "csv", teams_csv(boards=[10**30]), "is not a board number"),
    ("csv-script-room", "csv", teams_csv().replace("open", SCRIPT, 1), "line 2"),
    ("csv-script-score", "csv", teams_csv().replace("110", SCRIPT, 1), "line 2"),
    ("csv-no-header", "csv", teams_csv().split("\n", 1)[1], "line 1"),
    ("csv-script-header", "csv", f"{SCRIPT};room\n1;open\n", "line 1"),
    ("csv-empty", "csv", "", "empty"),  # the form's or the parser's
    ("csv-utf16", "csv", teams_csv().encode("utf-16"), "line 1"),
    ("csv-garbage", "csv", garbage(3, avoid=b"\r\x81\x83\x88\x90\x98"), "line"),
    ("csv-too-large", "csv", teams_csv() + "#" * settings.RESULT_UPLOAD_MAX_BYTES, "too large"),
    ("pbn-truncated-mid-tag", "pbn", teams_pbn()[:-30], "line"),
    ("pbn-no-room", "pbn", teams_pbn(room_tag="Site"), "Room"),
    ("pbn-script-room", "pbn", teams_pbn().replace('"Open"', f'"{SCRIPT}"', 1), "Room"),
    ("pbn-eight-spades", "pbn", teams_pbn().replace('"4S"', '"8S"', 1), "board 1"),
    ("pbn-huge-board", "pbn", teams_pbn().replace('"1"', f'"{HUGE}"', 1), "is not a board number"),
    ("pbn-negative-board", "pbn", teams_pbn().replace('"1"', '"-1"'), "board number"),
    ("pbn-utf16", "pbn", teams_pbn().encode("utf-16"), "line 1"),
    ("pbn-garbage", "pbn", garbage(4), "line"),
    *USEBIO_CORPUS,
]


@pytest.mark.parametrize("case, fmt, content, expected", TEAMS_CORPUS, ids=[c[0] for c in TEAMS_CORPUS])
def test_teams_page_refuses_and_writes_nothing(client, teams, case, fmt, content, expected):
    client.force_login(teams.director)
    before = snapshot()
    response = client.post(
        reverse("teams_upload", args=[teams.match.pk]),
        {
            "kind": "file",
            "file-kind": fmt,
            "file-file": SimpleUploadedFile(f"{case}.{fmt}", as_bytes(content)),
            "file-note": SCRIPT,
        },
    )
    body = assert_safe(response)
    assert response.status_code == (200 if case == "csv-empty" else 400)
    assert expected in body.replace("&#x27;", "'"), errors_shown(body)
    assert snapshot() == before


@pytest.mark.parametrize("case, fmt, content, expected", TEAMS_CORPUS, ids=[c[0] for c in TEAMS_CORPUS])
def test_teams_service_refuses_and_writes_nothing(teams, case, fmt, content, expected):
    data = as_bytes(content)
    if len(data) > 2 * 1024 * 1024:
        pytest.skip("the size limit is the view's")
    before = snapshot()
    with pytest.raises(TeamsUploadError) as refused:
        if fmt == "usebio":
            parsed = teams_parse_usebio(data, teams.match)
        else:
            parsed = teams_parse_pbn(data) if fmt == "pbn" else teams_parse_csv(data)
        teams_results.upload_result(teams.match, teams.director, parsed, source=fmt, content=data)
    assert any(expected in m for m in refused.value.messages)
    assert snapshot() == before


def test_teams_api_refuses_with_400(client, teams):
    client.force_login(teams.director)
    before = snapshot()
    bad_xml = teams_usebio(change=_impossible)
    for fmt, content in (
        ("csv", teams_csv().replace("110", SCRIPT, 1)),
        ("pbn", garbage(5)),
        ("usebio", bad_xml),
    ):
        response = client.post(
            f"/api/v1/team-matches/{teams.match.pk}/upload/",
            {"file": SimpleUploadedFile(f"x.{fmt}", as_bytes(content)), "file_format": fmt},
        )
        assert response.status_code == 400 and response.json()["errors"]
        assert "<script>" not in response.content.decode() or response["Content-Type"].startswith(
            "application/json"
        )
    assert snapshot() == before


@pytest.mark.parametrize("fmt, content", [("csv", teams_csv()), ("usebio", teams_usebio())])
def test_teams_good_file_is_accepted_after_the_hostile_ones(client, teams, fmt, content):
    client.force_login(teams.director)
    response = client.post(
        reverse("teams_upload", args=[teams.match.pk]),
        {"kind": "file", "file-kind": fmt, "file-file": SimpleUploadedFile(f"ok.{fmt}", content.encode())},
    )
    assert response.status_code == 302
    assert list(MatchUpload.objects.filter(match=teams.match).values_list("source", flat=True)) == [fmt]


# --- real defects, pinned ---


def _teams_post(client, w, fmt, data):
    client.force_login(w.director)
    return client.post(
        reverse("teams_upload", args=[w.match.pk]),
        {"kind": "file", "file-kind": fmt, "file-file": SimpleUploadedFile(f"x.{fmt}", data)},
    )


@pytest.mark.parametrize("fmt", ["csv", "pbn"])
def test_fixed_defect_teams_superscript_board(client, teams, fmt):
    before = snapshot()
    content = teams_csv() if fmt == "csv" else teams_pbn()
    content = content.replace("\n1;", f"\n{DEFECT_BOARD};", 1).replace('"1"', f'"{DEFECT_BOARD}"', 1)
    refused_cleanly(_teams_post(client, teams, fmt, content.encode()), before)


def test_fixed_defect_teams_csv_binary_garbage(client, teams):
    before = snapshot()
    response = _teams_post(client, teams, "csv", b"board;room;ns_score\n\x81\x98\xff\n")
    refused_cleanly(response, before)
    assert (
        "line 2: the file cannot be read as UTF-8" in response.content.decode()
    )  # the first bad byte's line


@pytest.mark.parametrize("variant", ["lone-cr", "oversized-cell"])
def test_fixed_defect_teams_csv_csv_error(client, teams, variant):
    before = snapshot()
    content = (
        teams_csv().replace("\n", "\r")
        if variant == "lone-cr"
        else teams_csv(extra="7;open;" + "4" * 200_000)
    )
    check = accepted_with_change if variant == "lone-cr" else refused_cleanly
    check(_teams_post(client, teams, "csv", content.encode()), before)


def test_fixed_defect_teams_huge_board_numbers(client, teams):
    before = snapshot()
    content = teams_csv(boards=range(10**30, 10**30 + 6))
    refused_cleanly(_teams_post(client, teams, "csv", content.encode()), before)
