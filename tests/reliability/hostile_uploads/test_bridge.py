"""Hostile bridge pairs uploads: PBN and CSV through the page, the API and the service."""

import random
from types import SimpleNamespace

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from bridge.models import PairSession, ResultVersion
from bridge.services import setup, upload_readers, uploads
from demo import bridge_sample as sample
from federation.models import Role
from results.upload_input import UploadInputError, decode_text

from .helpers import (
    DEFECT_BOARD,
    HUGE,
    INJECTIONS,
    SCRIPT,
    START,
    Source,
    accepted_with_change,
    as_bytes,
    assert_safe,
    errors_shown,
    garbage,
    refused_cleanly,
    shows,
    snapshot,
)

pytestmark = pytest.mark.django_db


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
    uploads.upload(session, upload_readers.parse_csv(csv_text), source=Source.CSV, user=director)
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


@pytest.mark.parametrize("case, fmt, build, expected", BRIDGE_CORPUS, ids=[c[0] for c in BRIDGE_CORPUS])
def test_bridge_page_refuses_and_writes_nothing(client, bridge, case, fmt, build, expected):
    data = as_bytes(build(bridge))
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
        {"file": SimpleUploadedFile(f"{case}.{fmt}", as_bytes(build(bridge))), "file_format": fmt},
    )
    assert response.status_code == 400, response.content[:500]
    body = response.json()
    messages = body.get("errors") or [m for field in body.values() for m in field]
    assert any(shows(message, expected) for message in messages), messages
    assert snapshot() == before


@pytest.mark.parametrize("case, fmt, build, expected", BRIDGE_CORPUS, ids=[c[0] for c in BRIDGE_CORPUS])
def test_bridge_service_refuses_and_writes_nothing(bridge, case, fmt, build, expected):
    data = as_bytes(build(bridge))
    before = snapshot()
    # A file that is no text (UTF-16, garbage) is refused by its decoding, before the parser sees it.
    with pytest.raises((uploads.UploadError, UploadInputError)) as refused:
        text = decode_text(data)
        parsed = upload_readers.parse_pbn(text) if fmt == "pbn" else upload_readers.parse_csv(text)
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
            bridge.session, upload_readers.parse_traveller(1, lines), source=Source.FORM, user=bridge.director
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


# --- real defects, pinned: each fails today; fixing one turns its case red (strict) ----------------------


def _bridge_post(client, w, fmt, data):
    client.force_login(w.director)
    return client.post(
        reverse("bridge_upload", args=[w.session.pk]),
        {"format": fmt, "file": SimpleUploadedFile(f"x.{fmt}", data)},
    )


def test_fixed_defect_bridge_csv_superscript_board(client, bridge):
    before = snapshot()
    refused_cleanly(
        _bridge_post(client, bridge, "csv", csv_with(bridge.csv, board=DEFECT_BOARD).encode()), before
    )


def test_fixed_defect_bridge_pbn_superscript_board(client, bridge):
    before = snapshot()
    data = bridge.pbn.replace('[Board "2"]', f'[Board "{DEFECT_BOARD}"]').encode()
    refused_cleanly(_bridge_post(client, bridge, "pbn", data), before)


def test_fixed_defect_bridge_csv_lone_carriage_return(client, bridge):
    before = snapshot()
    accepted_with_change(_bridge_post(client, bridge, "csv", bridge.csv.replace("\n", "\r").encode()), before)


def test_fixed_defect_bridge_csv_oversized_cell(client, bridge):
    before = snapshot()
    data = csv_with(bridge.csv, contract="4" * 200_000).encode()
    refused_cleanly(_bridge_post(client, bridge, "csv", data), before)
