"""Hostile uploads: a corpus of malformed files posted through the director's upload pages and the API,
and handed to the upload services directly.

Every refusal must be clear (status 400, or 200 with the error shown; the message names the line, board or
table), write nothing (the row count of every model of the result apps is the same before and after), never
be a 500, and never render anything executable back (no unescaped <script> in the response).

The real defects this corpus found (digits that isdigit() accepts but int() refuses, csv module errors,
a cp1250 fallback that could not decode, numbers too large for their database column) each gave a 500;
they are fixed, and the `test_fixed_defect_*` tests keep them fixed.
"""

import datetime
import itertools
import random
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from bridge.models import PairSession, ResultVersion
from bridge.services import setup, uploads
from demo import bridge_sample as sample
from federation.models import Role
from results.models import VersionedUpload
from results.upload_input import UploadInputError, decode_text
from teams.engine.parsed import UploadError as TeamsUploadError
from teams.models import MatchUpload, TeamEvent
from teams.services import pairing
from teams.services import results as teams_results
from teams.services.uploads import parse_csv as teams_parse_csv
from teams.services.uploads import parse_pbn as teams_parse_pbn
from tournaments.models import Entry, EntryMember, Event
from ulti.models import RoundUpload
from ulti.services import UltiError
from ulti.services import draw as ulti_draw
from ulti.services import setup as ulti_setup
from ulti.services import uploads as ulti_uploads

pytestmark = pytest.mark.django_db

Source = VersionedUpload.Source
START = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))
SCRIPT = "<script>alert(1)</script>"
INJECTIONS = ["=cmd|' /C calc'!A0", "+SUM(1+1)", "-2+3+cmd|' /C calc'!A0", "@SUM(1+1)"]
HUGE = str(10**30)
RESULT_APPS = ("federation", "tournaments", "results", "bridge", "teams", "ulti", "rankings", "appeals")
_names = itertools.count(1)


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def client():
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def snapshot() -> dict[str, int]:
    """Row counts of every model of the project's apps (a partial write changes one of them)."""
    counts = {}
    for label in RESULT_APPS:
        for model in apps.get_app_config(label).get_models():
            counts[model._meta.label] = model._default_manager.count()
    return counts


def shows(text: str, expected: str) -> bool:
    """`expected` is one phrase or alternatives separated by '|'."""
    text = text.replace("&#x27;", "'").replace("&quot;", '"')
    return any(phrase in text for phrase in expected.split("|"))


def assert_safe(response):
    """No 500 and nothing executable echoed back."""
    assert response.status_code < 500
    body = response.content.decode("utf-8", "replace")
    assert "<script>alert" not in body.lower()
    return body


def errors_shown(body: str) -> str:
    """The alerts and form errors of a page, for a failing assertion's message."""
    import re

    return "\n".join(
        re.findall(r"<(?:div|li|ul)[^>]*(?:alert|error|invalid)[^>]*>.*?</(?:div|li|ul)>", body, re.S)
    )


def garbage(seed: int, size: int = 4096, *, avoid=b"") -> bytes:
    rng = random.Random(seed)
    data = bytes(rng.randrange(256) for _ in range(size))
    return bytes(b for b in data if b not in avoid)


# --- bridge pairs: PBN and CSV ----------------------------------------------------------------------------


@pytest.fixture
def bridge(mbsz, make_user):
    """A Mitchell session of 8 pairs (boards 1-8) with a first version already uploaded."""
    event = sample.event_with_pairs(mbsz, pairs=8, title="Ellenséges páros", start=START)
    director = make_user("td-hostile@example.hu", kind=Role.DIRECTOR, event=event)
    session = setup.create_session(
        event,
        movement="mitchell",
        pairs=setup.pairs_from_entries(event),
        announced=event.sessions.first(),
        boards_per_round=2,
    )
    rows = sample.play(session, random.Random(11))
    csv_text = sample.csv_text(session, rows)
    uploads.upload(session, uploads.parse_csv(csv_text), source=Source.CSV, user=director)
    return SimpleNamespace(
        event=event,
        director=director,
        session=session,
        rows=rows,
        csv=csv_text,
        pbn=sample.pbn_text(session, rows),
    )


COLUMN = {"board": 0, "ns": 1, "ew": 2, "contract": 3, "declarer": 4, "lead": 5, "result": 6, "score": 7}


def csv_with(text: str, line: int = 2, **cells) -> str:
    """The file with cells of one (1-based) line replaced."""
    lines = text.splitlines()
    fields = lines[line - 1].split(";")
    for name, value in cells.items():
        fields[COLUMN[name]] = value
    lines[line - 1] = ";".join(fields)
    return "\n".join(lines) + "\n"


def pbn_truncated_mid_tag(text: str) -> str:
    cut = text.index("[ScoreTable", len(text) // 2)
    return text[: cut + 6]


def pbn_first_board_twice(text: str) -> str:
    start = text.index('[Board "1"]')
    end = text.index('[Board "2"]')
    return text + "\n" + text[start:end]


def pbn_score_row(text: str, value: str) -> str:
    """The first result row's NS score replaced (its contract, declarer and result dropped with '-')."""
    lines = text.splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith("[ScoreTable")) + 1
    ns, ew, *_rest = lines[index].split()
    lines[index] = f"{ns} {ew} - - - {value}"
    return "\n".join(lines) + "\n"


def pbn_first_row(text: str, **cells) -> str:
    """The first ScoreTable row with some cells replaced, by column name (other programs' files)."""
    lines = text.splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith("[ScoreTable"))
    names = [column.split("\\")[0] for column in lines[index].split('"')[1].split(";")]
    row = lines[index + 1].split()
    for name, value in cells.items():
        row[names.index(name)] = value
    lines[index + 1] = " ".join(row)
    return "\n".join(lines) + "\n"


def pbn_with_column(text: str, column: str, first: str, other: str) -> str:
    """Every ScoreTable with one more column: `first` in the first row of the file, `other` elsewhere."""
    out, in_table, done = [], False, False
    for line in text.splitlines():
        if line.startswith("[ScoreTable"):
            line = line[:-2] + f';{column}"]'
            in_table = True
        elif in_table and line and not line.startswith("["):
            line = f"{line} {other if done else first}"
            done = True
        else:
            in_table = False
        out.append(line)
    return "\n".join(out) + "\n"


# (id, format, builder(world) -> bytes, text the refusal must contain)
BRIDGE_CORPUS = [
    *[
        (
            f"csv-injection-{n}-{column}",
            "csv",
            (lambda w, c=column, v=value: csv_with(w.csv, **{c: v})),
            "line 2",
        )
        for n, value in enumerate(INJECTIONS)
        for column in ("ns", "ew", "contract", "lead", "score")
    ],
    ("csv-duplicate-row", "csv", lambda w: w.csv + w.csv.splitlines()[1] + "\n", "already has a result"),
    (
        "csv-impossible-score",
        "csv",
        lambda w: csv_with(w.csv, contract="", declarer="", result="", score="431"),
        "431",
    ),
    ("csv-eight-spades", "csv", lambda w: csv_with(w.csv, contract="8S"), "line 2"),
    (
        "csv-fourteen-tricks",
        "csv",
        lambda w: csv_with(w.csv, contract="4S", declarer="N", result="+9"),
        "line 2",
    ),
    (
        "csv-score-disagrees",
        "csv",
        lambda w: csv_with(w.csv, contract="4S", declarer="N", result="=", score="9999"),
        "9999",
    ),
    (
        "csv-huge-score",
        "csv",
        lambda w: csv_with(w.csv, contract="", declarer="", result="", score=HUGE),
        "line 2",
    ),
    ("csv-huge-board", "csv", lambda w: csv_with(w.csv, board=HUGE), "line 2"),
    (
        "csv-huge-board-passed-out",
        "csv",
        lambda w: csv_with(w.csv, board=HUGE, contract="Pass", declarer="", lead="", result="", score=""),
        "not in play",
    ),
    ("csv-negative-board", "csv", lambda w: csv_with(w.csv, board="-3"), "is not a board number"),
    ("csv-board-zero", "csv", lambda w: csv_with(w.csv, board="0"), "is not a board number"),
    (
        "csv-declarer-x",
        "csv",
        lambda w: csv_with(w.csv, contract="4S", declarer="X", result="10"),
        "declarer",
    ),
    ("csv-script-pair", "csv", lambda w: csv_with(w.csv, ns=SCRIPT), "line 2"),
    ("csv-script-contract", "csv", lambda w: csv_with(w.csv, contract=SCRIPT), "line 2"),
    ("csv-script-everywhere", "csv", lambda w: csv_with(w.csv, **dict.fromkeys(COLUMN, SCRIPT)), "line 2"),
    ("csv-empty", "csv", lambda w: "", "empty|no results"),  # the form's own "The submitted file is empty."
    ("csv-header-only", "csv", lambda w: w.csv.splitlines()[0] + "\n", "no results"),
    ("csv-too-many-columns", "csv", lambda w: csv_with(w.csv).replace("\n", ";x;y\n", 2), "columns"),
    ("csv-truncated-line", "csv", lambda w: w.csv.rstrip("\n").rsplit("\n", 1)[0] + "\n3;1;", "pair"),
    ("csv-unseated-pair", "csv", lambda w: csv_with(w.csv, ns="77"), "not seated"),
    ("csv-utf16", "csv", lambda w: w.csv.encode("utf-16"), "line"),
    ("csv-garbage", "csv", lambda w: garbage(1, avoid=b"\r"), "line"),
    ("pbn-truncated-mid-tag", "pbn", lambda w: pbn_truncated_mid_tag(w.pbn), "line"),
    ("pbn-board-twice", "pbn", lambda w: pbn_first_board_twice(w.pbn), "appears twice"),
    ("pbn-huge-board", "pbn", lambda w: w.pbn.replace('[Board "1"]', f'[Board "{HUGE}"]'), "not in play"),
    ("pbn-negative-board", "pbn", lambda w: w.pbn.replace('[Board "1"]', '[Board "-1"]'), "line"),
    ("pbn-impossible-score", "pbn", lambda w: pbn_score_row(w.pbn, "431"), "illegal score 431"),
    ("pbn-huge-score", "pbn", lambda w: pbn_score_row(w.pbn, HUGE), "illegal score"),
    ("pbn-injection-score", "pbn", lambda w: pbn_score_row(w.pbn, "=cmd|'/C+calc'!A0"), "is not a score"),
    ("pbn-script-score", "pbn", lambda w: pbn_score_row(w.pbn, SCRIPT.replace(" ", "")), "line"),
    (
        "pbn-script-in-tags",
        "pbn",
        lambda w: w.pbn.replace('[Board "2"]', f'[Board "{SCRIPT}"]').replace(w.event.title, SCRIPT),
        "line",
    ),
    (
        "pbn-bad-vulnerable",
        "pbn",
        lambda w: w.pbn.replace('[Vulnerable "None"]', f'[Vulnerable "{SCRIPT}"]', 1),
        "line",
    ),
    ("pbn-utf16", "pbn", lambda w: w.pbn.encode("utf-16"), "line 1"),
    ("pbn-garbage", "pbn", lambda w: garbage(2), "line"),
    ("pbn-empty", "pbn", lambda w: "", "empty|ScoreTable"),
    ("pbn-blank", "pbn", lambda w: "\n\n", "ScoreTable"),
    ("pbn-oversized-no-results", "pbn", lambda w: "{ padding }\n" * 60000, "ScoreTable"),
    # Files of other programs: lenient only where the data allow (a legal score), clear errors otherwise.
    (
        "pbn-foreign-bad-contract-illegal-score",
        "pbn",
        lambda w: pbn_first_row(w.pbn, Contract="42", Score_NS="431"),
        "not a contract: '42'",
    ),
    (
        "pbn-foreign-bad-contract-no-score",
        "pbn",
        lambda w: pbn_first_row(w.pbn, Contract="42", Score_NS="-"),
        "not a contract: '42'",
    ),
    ("pbn-foreign-bad-artificial", "pbn", lambda w: pbn_score_row(w.pbn, "^Z"), "not an artificial score"),
    (
        "pbn-foreign-no-pair-columns",
        "pbn",
        lambda w: w.pbn.replace("PairId_NS", "Pair_NS"),
        "needs PairId_NS and PairId_EW",
    ),
    (
        "pbn-foreign-bad-mp-column",
        "pbn",
        lambda w: pbn_with_column(w.pbn, "MP_NS", SCRIPT.replace(" ", ""), "1"),
        "is not a number",
    ),
    (
        "pbn-foreign-bad-total-table",
        "pbn",
        lambda w: w.pbn + '\n[Event "x"]\n[TotalScoreTable "PairId\\2R;NrBoards\\2R"]\n1 xx\n',
        "NrBoards 'xx' is not a number",
    ),
    (
        "pbn-foreign-mixed-scorings",
        "pbn",
        lambda w: w.pbn.replace('[Scoring "MP2"]', '[Scoring "IMP"]', 1),
        "differs from",
    ),
]


def _bytes(value) -> bytes:
    return value if isinstance(value, bytes) else value.encode()


@pytest.mark.parametrize("case, fmt, build, expected", BRIDGE_CORPUS, ids=[c[0] for c in BRIDGE_CORPUS])
def test_bridge_page_refuses_and_writes_nothing(client, bridge, case, fmt, build, expected):
    data = _bytes(build(bridge))
    client.force_login(bridge.director)
    before = snapshot()
    response = client.post(
        reverse("bridge_upload", args=[bridge.session.pk]),
        {"format": fmt, "file": SimpleUploadedFile(f"{case}.{fmt}", data), "note": SCRIPT},
    )
    body = assert_safe(response)
    assert response.status_code in (200, 400)
    assert shows(body, expected), errors_shown(body)
    assert snapshot() == before
    assert PairSession.objects.get(pk=bridge.session.pk).boards == bridge.session.boards


@pytest.mark.parametrize("case, fmt, build, expected", BRIDGE_CORPUS, ids=[c[0] for c in BRIDGE_CORPUS])
def test_bridge_api_refuses_with_400(client, bridge, case, fmt, build, expected):
    client.force_login(bridge.director)
    before = snapshot()
    response = client.post(
        f"/api/v1/bridge/sessions/{bridge.session.pk}/upload/",
        {"file": SimpleUploadedFile(f"{case}.{fmt}", _bytes(build(bridge))), "file_format": fmt},
    )
    assert response.status_code == 400, response.content[:500]
    body = response.json()
    messages = body.get("errors") or [m for field in body.values() for m in field]
    assert any(shows(message, expected) for message in messages), messages
    assert snapshot() == before


@pytest.mark.parametrize("case, fmt, build, expected", BRIDGE_CORPUS, ids=[c[0] for c in BRIDGE_CORPUS])
def test_bridge_service_refuses_and_writes_nothing(bridge, case, fmt, build, expected):
    data = _bytes(build(bridge))
    before = snapshot()
    # A file that is no text (UTF-16, garbage) is refused by its decoding, before the parser sees it.
    with pytest.raises((uploads.UploadError, UploadInputError)) as refused:
        text = decode_text(data)
        parsed = uploads.parse_pbn(text) if fmt == "pbn" else uploads.parse_csv(text)
        uploads.upload(bridge.session, parsed, source=fmt, user=bridge.director, raw=text)
    assert refused.value.messages and any(shows(m, expected) for m in refused.value.messages)
    assert snapshot() == before


def test_bridge_traveller_refuses_hostile_lines_naming_board_and_table(bridge):
    lines = [
        {"ns": "1", "ew": "5", "contract": SCRIPT, "declarer": "N", "lead": "", "result": "10", "score": ""},
        {"ns": INJECTIONS[0], "ew": "6", "contract": "4S", "declarer": "N", "lead": "", "result": "10"},
        {"ns": "3", "ew": "7", "contract": "", "declarer": "", "lead": "", "result": "", "score": HUGE},
    ]
    before = snapshot()
    with pytest.raises(uploads.UploadError) as refused:
        uploads.upload(
            bridge.session, uploads.parse_traveller(1, lines), source=Source.FORM, user=bridge.director
        )
    assert [m.split(":")[0] for m in refused.value.messages] == [f"board 1, table {t}" for t in (1, 2, 3)]
    assert snapshot() == before


def test_bridge_accepted_upload_shows_hostile_text_escaped(client, bridge):
    """A valid file with a script in the note and names: stored as text, shown escaped everywhere."""
    event = bridge.event
    session = setup.create_session(event, movement="uploaded")
    pbn = (
        bridge.pbn.rstrip("\n")
        + "\n\n"
        + "\n".join(
            ['[Event ""]', '[TotalScoreTable "Rank\\1R;PairId\\1R;Direction\\2L;Names\\40L"]']
            + [f'{n} {n} NS "{SCRIPT};{SCRIPT}"' for n in range(1, 5)]
        )
    )
    client.force_login(bridge.director)
    response = client.post(
        reverse("bridge_upload", args=[session.pk]),
        {"format": "pbn", "file": SimpleUploadedFile(f"{SCRIPT}.pbn", pbn.encode()), "note": SCRIPT},
    )
    assert response.status_code == 302, response.content.decode()[-2000:]
    assert ResultVersion.objects.filter(session=session, note=SCRIPT).exists()
    for name in ("bridge_versions", "bridge_session"):
        body = assert_safe(client.get(reverse(name, args=[session.pk])))
        assert "&lt;script&gt;" in body or name == "bridge_session"


def test_bridge_latin2_file_is_read_without_a_500(client, bridge):
    """ISO-8859-2 bytes (ő, ű) in a header: the file is understood and keeps its letters (not Latin-1's õ, û)."""
    text = bridge.csv.replace("board;NS;EW", "tábla;ÉD-ő;KNy-ű", 1)
    client.force_login(bridge.director)
    response = client.post(
        reverse("bridge_upload", args=[bridge.session.pk]),
        {"format": "csv", "file": SimpleUploadedFile("latin2.csv", text.encode("iso-8859-2"))},
    )
    assert_safe(response)
    assert response.status_code == 302
    assert ResultVersion.objects.filter(session=bridge.session).count() == 2
    assert (
        ResultVersion.objects.filter(session=bridge.session)
        .latest("number")
        .raw.startswith("tábla;ÉD-ő;KNy-ű")
    )


# --- bridge teams: match uploads ----------------------------------------------------------------------------


@pytest.fixture
def teams(mbsz, make_person, make_user):
    """A published round of 4 teams, 6 boards a match; the first match is the one uploaded to."""
    event = Event.objects.create(
        federation=mbsz,
        title=f"Ellenséges csapatverseny {next(_names)}",
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
            "file-file": SimpleUploadedFile(f"{case}.{fmt}", _bytes(content)),
            "file-note": SCRIPT,
        },
    )
    body = assert_safe(response)
    assert response.status_code == (200 if case == "csv-empty" else 400)
    assert expected in body.replace("&#x27;", "'"), errors_shown(body)
    assert snapshot() == before


@pytest.mark.parametrize("case, fmt, content, expected", TEAMS_CORPUS, ids=[c[0] for c in TEAMS_CORPUS])
def test_teams_service_refuses_and_writes_nothing(teams, case, fmt, content, expected):
    data = _bytes(content)
    if len(data) > 2 * 1024 * 1024:
        pytest.skip("the size limit is the view's")
    before = snapshot()
    with pytest.raises(TeamsUploadError) as refused:
        parsed = teams_parse_pbn(data) if fmt == "pbn" else teams_parse_csv(data)
        teams_results.upload_result(teams.match, teams.director, parsed, source=fmt, content=data)
    assert any(expected in m for m in refused.value.messages)
    assert snapshot() == before


def test_teams_api_refuses_with_400(client, teams):
    client.force_login(teams.director)
    before = snapshot()
    for fmt, content in (("csv", teams_csv().replace("110", SCRIPT, 1)), ("pbn", garbage(5))):
        response = client.post(
            f"/api/v1/team-matches/{teams.match.pk}/upload/",
            {"file": SimpleUploadedFile(f"x.{fmt}", _bytes(content)), "file_format": fmt},
        )
        assert response.status_code == 400 and response.json()["errors"]
        assert "<script>" not in response.content.decode() or response["Content-Type"].startswith(
            "application/json"
        )
    assert snapshot() == before


def test_teams_good_file_is_accepted_after_the_hostile_ones(client, teams):
    client.force_login(teams.director)
    response = client.post(
        reverse("teams_upload", args=[teams.match.pk]),
        {"kind": "file", "file-kind": "csv", "file-file": SimpleUploadedFile("ok.csv", teams_csv().encode())},
    )
    assert response.status_code == 302
    assert MatchUpload.objects.filter(match=teams.match).count() == 1


# --- ulti: round results --------------------------------------------------------------------------------


@pytest.fixture
def ulti(mausz, ulti_club, make_person, make_user):
    """A published round of 6 players: tables 1 and 2."""
    event = Event.objects.create(
        federation=mausz,
        club=ulti_club,
        title=f"Ellenséges ulti {next(_names)}",
        format="ulti_individual",
        event_class="nub_qualifier",
        start_date=datetime.date(2026, 7, 4),
        status="approved",
        rule_set="mausz",
    )
    for n in range(6):
        entry = Entry.objects.create(event=event)
        # Every player's last name carries a script: the upload page lists them all, escaped.
        person = make_person(mausz, ulti_club, last_name=f"Teszt{n}{SCRIPT}")
        EntryMember.objects.create(entry=entry, person=person)
    director = make_user(f"td-ulti{event.pk}@example.hu", kind=Role.DIRECTOR, event=event)
    group = ulti_setup.start_event(event, director).groups.get()
    rnd = ulti_draw.publish_round(ulti_draw.generate_round(group, director), director)
    tables = {
        t.number: [s.participant for s in t.seats.select_related("participant").order_by("position")]
        for t in rnd.tables.all()
    }
    return SimpleNamespace(event=event, director=director, round=rnd, tables=tables)


def ulti_csv(w, amounts=((300, -100, -200), (50, 50, -100)), header=True, extra=""):
    lines = ["asztal;játékos;forint"] if header else []
    for (number, players), forints in zip(sorted(w.tables.items()), amounts, strict=True):
        lines += [f"{number};{p.number};{f}" for p, f in zip(players, forints, strict=True)]
    return "\n".join(lines) + "\n" + extra


ULTI_CORPUS = [
    ("non-zero-sum", lambda w: ulti_csv(w, ((300, -100, -190), (50, 50, -100))), "Table 1", "sum to +10"),
    (
        "non-zero-sum-huge",
        lambda w: ulti_csv(w, ((10**30, -100, -200), (50, 50, -100))),
        "Table 1",
        "larger than any game",
    ),
    *[
        (
            f"injection-{n}-player",
            (lambda w, v=value: ulti_csv(w).replace(";1;", f";{v};", 1)),
            "Line",
            "unknown",
        )
        for n, value in enumerate(INJECTIONS)
    ],
    *[
        (
            f"injection-{n}-forint",
            (lambda w, v=value: ulti_csv(w).replace(";300", f";{v}", 1)),
            "Line 2",
            "forint",
        )
        for n, value in enumerate(INJECTIONS)
    ],
    (
        "duplicate-row",
        lambda w: ulti_csv(w, extra=ulti_csv(w, header=False).splitlines()[0]),
        "Line 8",
        "twice",
    ),
    ("negative-table", lambda w: ulti_csv(w).replace("\n1;", "\n-1;", 1), "Line 2", "table number"),
    ("unknown-table", lambda w: ulti_csv(w).replace("\n2;", "\n99;"), "Table 99", "no such table"),
    ("missing-table", lambda w: "\n".join(ulti_csv(w).splitlines()[:4]), "Table 2", "no results"),
    ("truncated-line", lambda w: ulti_csv(w).rstrip("\n").rsplit(";", 1)[0], "Line 7", "expected table"),
    ("script-player", lambda w: ulti_csv(w).replace(";1;", f";{SCRIPT};", 1), "Line", "unknown player"),
    ("script-forint", lambda w: ulti_csv(w).replace(";300", f";{SCRIPT}", 1), "Line 2", "forint"),
    ("script-table", lambda w: ulti_csv(w).replace("\n1;", f"\n{SCRIPT};", 1), "Line 2", "table number"),
    ("empty", lambda w: "", "", "empty"),
    ("utf16", lambda w: ulti_csv(w).encode("utf-16"), "", "UTF-8"),
    ("garbage", lambda w: garbage(6), "", "UTF-8"),
]


@pytest.mark.parametrize("case, build, where, expected", ULTI_CORPUS, ids=[c[0] for c in ULTI_CORPUS])
def test_ulti_page_refuses_and_writes_nothing(client, ulti, case, build, where, expected):
    client.force_login(ulti.director)
    before = snapshot()
    response = client.post(
        reverse("ulti_upload", args=[ulti.round.pk]),
        {"csv": "1", "file": SimpleUploadedFile(f"{case}.csv", _bytes(build(ulti))), "note": SCRIPT},
    )
    body = assert_safe(response)
    assert response.status_code == 200
    assert where in body and expected in body, errors_shown(body)
    assert snapshot() == before


@pytest.mark.parametrize("case, build, where, expected", ULTI_CORPUS, ids=[c[0] for c in ULTI_CORPUS])
def test_ulti_service_refuses_and_writes_nothing(ulti, case, build, where, expected):
    content = build(ulti)
    if isinstance(content, bytes):
        pytest.skip("decoding is the view's: the service takes text")
    before = snapshot()
    with pytest.raises(UltiError) as refused:
        ulti_uploads.upload_csv(ulti.round, content, user=ulti.director, file_name=f"{SCRIPT}.csv")
    assert any(where in m and expected in m for m in refused.value.messages) or any(
        expected in m for m in refused.value.messages
    )
    assert snapshot() == before


def test_ulti_api_refuses_with_400(client, ulti):
    client.force_login(ulti.director)
    before = snapshot()
    for text in (
        ulti_csv(ulti, ((300, -100, -190), (50, 50, -100))),
        ulti_csv(ulti).replace(";1;", f";{SCRIPT};"),
    ):
        response = client.post(
            f"/api/v1/ulti/rounds/{ulti.round.pk}/upload/", {"csv": text}, content_type="application/json"
        )
        assert response.status_code == 400 and response.json()["errors"], response.content[:300]
    assert snapshot() == before


def test_ulti_web_form_refuses_hostile_forints(client, ulti):
    client.force_login(ulti.director)
    data = {"note": SCRIPT}
    for number, players in ulti.tables.items():
        for p, value in zip(players, (SCRIPT, "=1+1", "100"), strict=True):
            data[f"f{ulti.round.tables.get(number=number).pk}_{p.pk}"] = value
    before = snapshot()
    response = client.post(reverse("ulti_upload", args=[ulti.round.pk]), data)
    body = assert_safe(response)
    assert response.status_code == 200 and "Table 1" in body and "is not a forint amount" in body
    assert snapshot() == before
    assert not RoundUpload.objects.filter(round=ulti.round).exists()


# --- real defects, pinned: each fails today; fixing one turns its case red (strict) ----------------------

DEFECT_BOARD = "\u00b2"  # '²': str.isdigit() says yes, int() says no


def _bridge_post(client, w, fmt, data):
    client.force_login(w.director)
    return client.post(
        reverse("bridge_upload", args=[w.session.pk]),
        {"format": fmt, "file": SimpleUploadedFile(f"x.{fmt}", data)},
    )


def _refused_cleanly(response, before):
    assert response.status_code in (200, 400)
    assert snapshot() == before


def _accepted(response, before):
    # Old Mac line ends (a bare CR) are line ends: such a file is read like any other.
    assert response.status_code < 500
    assert snapshot() != before


def test_fixed_defect_bridge_csv_superscript_board(client, bridge):
    before = snapshot()
    _refused_cleanly(
        _bridge_post(client, bridge, "csv", csv_with(bridge.csv, board=DEFECT_BOARD).encode()), before
    )


def test_fixed_defect_bridge_pbn_superscript_board(client, bridge):
    before = snapshot()
    data = bridge.pbn.replace('[Board "2"]', f'[Board "{DEFECT_BOARD}"]').encode()
    _refused_cleanly(_bridge_post(client, bridge, "pbn", data), before)


def test_fixed_defect_bridge_csv_lone_carriage_return(client, bridge):
    before = snapshot()
    _accepted(_bridge_post(client, bridge, "csv", bridge.csv.replace("\n", "\r").encode()), before)


def test_fixed_defect_bridge_csv_oversized_cell(client, bridge):
    before = snapshot()
    data = csv_with(bridge.csv, contract="4" * 200_000).encode()
    _refused_cleanly(_bridge_post(client, bridge, "csv", data), before)


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
    _refused_cleanly(_teams_post(client, teams, fmt, content.encode()), before)


def test_fixed_defect_teams_csv_binary_garbage(client, teams):
    before = snapshot()
    response = _teams_post(client, teams, "csv", b"board;room;ns_score\n\x81\x98\xff\n")
    _refused_cleanly(response, before)
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
    check = _accepted if variant == "lone-cr" else _refused_cleanly
    check(_teams_post(client, teams, "csv", content.encode()), before)


def test_fixed_defect_teams_huge_board_numbers(client, teams):
    before = snapshot()
    content = teams_csv(boards=range(10**30, 10**30 + 6))
    _refused_cleanly(_teams_post(client, teams, "csv", content.encode()), before)


def _ulti_post(client, w, data):
    client.force_login(w.director)
    return client.post(reverse("ulti_upload", args=[w.round.pk]), {"csv": "1", **data})


def test_fixed_defect_ulti_csv_superscript_table(client, ulti):
    before = snapshot()
    content = ulti_csv(ulti).replace("\n1;", f"\n{DEFECT_BOARD};", 1)
    _refused_cleanly(
        _ulti_post(client, ulti, {"file": SimpleUploadedFile("x.csv", content.encode())}), before
    )


@pytest.mark.parametrize("variant", ["lone-cr", "oversized-cell"])
def test_fixed_defect_ulti_csv_csv_error(client, ulti, variant):
    before = snapshot()
    content = ulti_csv(ulti)
    content = content.replace("\n", "\r") if variant == "lone-cr" else content + "1;1;" + "4" * 200_000
    check = _accepted if variant == "lone-cr" else _refused_cleanly
    check(_ulti_post(client, ulti, {"file": SimpleUploadedFile("x.csv", content.encode())}), before)


def test_fixed_defect_ulti_huge_zero_sum_forints(client, ulti):
    before = snapshot()
    content = ulti_csv(ulti, ((10**30, -(10**30), 0), (50, 50, -100)))
    _refused_cleanly(
        _ulti_post(client, ulti, {"file": SimpleUploadedFile("x.csv", content.encode())}), before
    )


def test_fixed_defect_ulti_sheet_superscript_seat(client, ulti):
    table = ulti.round.tables.get(number=1)
    client.force_login(ulti.director)
    before = snapshot()
    response = client.post(
        reverse("ulti_sheet", args=[table.pk]), {"d1_bid": "passz", "d1_dealer": DEFECT_BOARD, "note": SCRIPT}
    )
    _refused_cleanly(response, before)


# --- appeals: attachments (photos of score cards, PDFs) --------------------------------------------------


@pytest.fixture
def appeal(mbsz, make_person, make_user, settings, tmp_path):
    from appeals.models import Appeal
    from tournaments.models import Session

    settings.MEDIA_ROOT = str(tmp_path)
    event = Event.objects.create(
        federation=mbsz,
        title="Fellebbezés",
        format=Event.Format.PAIRS,
        event_class=Event.EventClass.CLUB,
        start_date=datetime.date(2026, 12, 5),
        status=Event.Status.APPROVED,
        masterpoint_multiplier="1.00",
    )
    session = Session.objects.create(event=event, name="1. forduló", starts_at=START)
    entry = Entry.objects.create(event=event, status=Entry.Status.ACTIVE)
    EntryMember.objects.create(entry=entry, person=make_person(federation=mbsz), position=1)
    user = make_user("fellebbezo@example.hu")
    case = Appeal.objects.create(
        event=event,
        number=1,
        session=session,
        board_number=1,
        entry=entry,
        director_name=SCRIPT,
        ruling=SCRIPT,
        request=SCRIPT,
        statement=SCRIPT,
        filed_by=user,
    )
    return SimpleNamespace(case=case, user=user)


PNG = b"\x89PNG\r\n\x1a\n"
ATTACHMENTS = [
    ("html-named-png", "card.png", f"<html>{SCRIPT}</html>".encode(), "Only PNG"),
    (
        "svg-with-script",
        "card.svg",
        f'<svg xmlns="http://www.w3.org/2000/svg">{SCRIPT}</svg>'.encode(),
        "Only PNG",
    ),
    ("utf16-text", "card.pdf", "%PDF-1.7 hamis".encode("utf-16"), "Only PNG"),
    ("garbage", "card.jpg", garbage(7), "Only PNG"),
    ("empty", "card.png", b"", "empty"),
    ("oversized-png", "card.png", PNG + b"\0" * (5 * 1024 * 1024), "larger"),
]


@pytest.mark.parametrize("case, name, data, expected", ATTACHMENTS, ids=[a[0] for a in ATTACHMENTS])
def test_appeal_attachment_refuses_and_writes_nothing(appeal, case, name, data, expected):
    from django.core.exceptions import ValidationError

    from appeals.services.attachments import add_attachment

    before = snapshot()
    with pytest.raises(ValidationError) as refused:
        add_attachment(appeal.case, appeal.user, SimpleUploadedFile(name, data, content_type="image/png"))
    assert any(expected in m for m in refused.value.messages)
    assert snapshot() == before


def test_appeal_attachment_with_a_script_name_is_refused_and_a_disguised_one_stored_as_a_sniffed_png(appeal):
    from django.core.exceptions import ValidationError

    from appeals.models import Attachment
    from appeals.services.attachments import add_attachment

    before = Attachment.objects.count()
    upload = SimpleUploadedFile(f"{SCRIPT}.html", PNG + SCRIPT.encode(), content_type="text/html")
    with pytest.raises(ValidationError, match=r"\.html"):
        add_attachment(appeal.case, appeal.user, upload)
    assert Attachment.objects.count() == before
    # A PNG under a PDF's name and a script's type is kept as what its bytes are, under a safe name.
    upload = SimpleUploadedFile(f"{SCRIPT}.pdf", PNG + SCRIPT.encode(), content_type="text/html")
    attachment = add_attachment(appeal.case, appeal.user, upload)
    assert attachment.content_type == "image/png"
    assert attachment.file.name.endswith(".png") and "<" not in attachment.file.name
    assert attachment.original_name.endswith(".png") and "<" not in attachment.original_name
