"""The one way in for result files (results/upload_input.py), through every game's upload page and API.

Size (issue #14): a file over RESULT_UPLOAD_MAX_BYTES is refused with a clear message on the pages and a 413
with a JSON body on the API, and nothing is written; a file of exactly the limit is accepted.

Hungarian files (issue #15): a Windows-1250 PBN and an ISO-8859-2 CSV keep their ő and ű (never read as
Latin-1, which makes them õ and û); a file that is no known text is refused naming the line of the first
bad byte, and nothing is written.
"""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from django.urls import reverse

from bridge.models import Pair, ResultVersion
from bridge.services import setup
from results.upload_input import (
    UndecodableUpload,
    UploadTooLarge,
    check_request_size,
    check_text_size,
    decode_text,
    read_upload_bytes,
    read_upload_text,
)
from teams.models import MatchUpload
from tests.reliability.hostile_uploads import helpers as hostile
from tests.reliability.hostile_uploads import test_appeals as hostile_appeals
from tests.reliability.hostile_uploads import test_bridge as hostile_bridge
from tests.reliability.hostile_uploads import test_teams as hostile_teams
from tests.reliability.hostile_uploads import test_ulti as hostile_ulti
from ulti.models import RoundUpload

pytestmark = pytest.mark.django_db

# The hostile-upload corpus's worlds (a bridge session, a team match, an ulti round, an appeal), English
# pages, and its checks: what a refusal must be is the same here.
bridge, teams, ulti, appeal = (
    hostile_bridge.bridge,
    hostile_teams.teams,
    hostile_ulti.ulti,
    hostile_appeals.appeal,
)
client, english = hostile.client, hostile.english
assert_safe, errors_shown, snapshot = hostile.assert_safe, hostile.errors_shown, hostile.snapshot
teams_csv, teams_pbn, ulti_csv = hostile_teams.teams_csv, hostile_teams.teams_pbn, hostile_ulti.ulti_csv
PNG = hostile_appeals.PNG

NAMES = "Őry Űrsula;Kővári Gyöngyvér"
# What Latin-1 makes of them: the defect of issue #15.
MANGLED = ("Õry", "Ûrsula", "Kõvári")
# A comment with „ ” and – (0x84, 0x94, 0x96): only Windows-1250 has these, so the file is cp1250.
CP1250_COMMENT = "„Őszi kupa” – Kővári Gyöngyvér"
# 0x81 is not defined in Windows-1250 and the file is not UTF-8: nothing can tell its encoding.
BAD_BYTE = b"\x81"


def limit(size: int):
    return override_settings(RESULT_UPLOAD_MAX_BYTES=size)


def with_bad_byte(text: str, line: int) -> bytes:
    """The file (cp1250) with an undefined byte at the end of its (1-based) line."""
    lines = text.encode("cp1250").split(b"\n")
    lines[line - 1] += BAD_BYTE
    return b"\n".join(lines)


# --- the entry module itself ---------------------------------------------------------------------------


def test_decode_text_reads_utf8_with_or_without_a_bom():
    assert decode_text(NAMES.encode()) == NAMES
    assert decode_text(b"\xef\xbb\xbf" + NAMES.encode()) == NAMES


def test_decode_text_reads_cp1250_and_iso_8859_2_with_their_letters():
    assert decode_text(CP1250_COMMENT.encode("cp1250")) == CP1250_COMMENT
    assert decode_text(NAMES.encode("iso-8859-2")) == NAMES
    # ISO-8859-2 letters that cp1250 puts elsewhere (š, ž): no byte 0x80-0x9F, so read as ISO-8859-2.
    assert decode_text("Šimon Žofia, Őry".encode("iso-8859-2")) == "Šimon Žofia, Őry"
    assert decode_text("Šimon Žofia, Őry".encode("cp1250")) == "Šimon Žofia, Őry"


@pytest.mark.parametrize(
    "data, line",
    [
        (b"a\nb\nc" + BAD_BYTE + "ő„".encode("cp1250"), 3),  # a byte cp1250 does not define
        ("board\nŐry Űrsula\n".encode("utf-16"), 1),  # NUL bytes: UTF-16 or binary
        ("Őry\nŰrsula\n".encode() + b"K\xf5v\xe1ri\n", 3),  # UTF-8 with a Latin-2 line in it
        (b"a\rb\rc\x00", 3),  # old Mac line ends count as lines
        (b"a\r\nb\r\n\x00", 3),
    ],
)
def test_decode_text_refuses_what_it_cannot_tell_naming_the_line(data, line):
    with pytest.raises(UndecodableUpload) as refused:
        decode_text(data)
    assert refused.value.line == line
    assert refused.value.message.startswith(f"line {line}:") and "UTF-8" in refused.value.message


def test_read_upload_refuses_by_declared_size_before_reading():
    upload = SimpleUploadedFile("big.pbn", b"x" * 101)
    with limit(100), pytest.raises(UploadTooLarge) as refused:
        read_upload_bytes(upload)
    assert upload.tell() == 0  # not a byte was read
    assert refused.value.status_code == 413 and "too large" in refused.value.message


def test_read_upload_reads_at_most_one_byte_over_a_lying_size():
    upload = SimpleUploadedFile("liar.pbn", b"x" * 1000)
    upload.size = 10
    with limit(100), pytest.raises(UploadTooLarge):
        read_upload_bytes(upload)
    assert upload.tell() == 101


def test_read_upload_takes_a_file_of_exactly_the_limit():
    with limit(100):
        assert read_upload_text(SimpleUploadedFile("ok.csv", "ő".encode("iso-8859-2") * 100)) == "ő" * 100


def test_text_and_body_size_checks():
    with limit(10):
        assert check_text_size("ő" * 5) == "ő" * 5
        with pytest.raises(UploadTooLarge):
            check_text_size("ő" * 6)  # 6 characters, 12 bytes


# --- bridge pairs: the upload page and the API -------------------------------------------------------------


def post_bridge_page(client, w, fmt, data, session=None):
    client.force_login(w.director)
    return client.post(
        reverse("bridge_upload", args=[(session or w.session).pk]),
        {"format": fmt, "file": SimpleUploadedFile(f"x.{fmt}", data)},
    )


def post_bridge_api(client, w, fmt, data, session=None):
    client.force_login(w.director)
    return client.post(
        f"/api/v1/bridge/sessions/{(session or w.session).pk}/upload/",
        {"file": SimpleUploadedFile(f"x.{fmt}", data), "file_format": fmt},
    )


def test_bridge_page_refuses_a_file_over_the_limit(client, bridge):
    data = bridge.csv.encode()
    before = snapshot()
    with limit(len(data) - 1):
        response = post_bridge_page(client, bridge, "csv", data)
    body = assert_safe(response)
    assert response.status_code == 400 and "The file is too large" in body, errors_shown(body)
    assert snapshot() == before


def test_bridge_page_takes_a_file_of_exactly_the_limit(client, bridge):
    data = bridge.csv.encode()
    with limit(len(data)):
        response = post_bridge_page(client, bridge, "csv", data)
    assert response.status_code == 302
    assert ResultVersion.objects.filter(session=bridge.session).count() == 2


def test_bridge_api_answers_413_over_the_limit(client, bridge):
    data = bridge.pbn.encode()
    before = snapshot()
    with limit(len(data) - 1):
        response = post_bridge_api(client, bridge, "pbn", data)
    assert response.status_code == 413 and response["Content-Type"].startswith("application/json")
    assert "too large" in response.json()["errors"][0]
    assert snapshot() == before
    with limit(len(data)):
        assert post_bridge_api(client, bridge, "pbn", data).status_code == 201


def test_bridge_api_refuses_a_huge_body_before_parsing_it(client, bridge):
    """A body far over the limit is refused by its Content-Length: a broken multipart body gets the 413,
    not the parser's 400."""
    client.force_login(bridge.director)
    before = snapshot()
    with limit(1000):
        response = client.post(
            f"/api/v1/bridge/sessions/{bridge.session.pk}/upload/",
            data=b"x" * 200_000,
            content_type="multipart/form-data; boundary=nothing",
        )
    assert response.status_code == 413, response.content[:300]
    assert snapshot() == before


def uploaded_session(w):
    return setup.create_session(w.event, movement="uploaded")


def pbn_with_names(w, names: str) -> str:
    """The session's PBN with a total score table naming its pairs (an uploaded movement creates them)."""
    return "\n".join(
        [
            f"% {CP1250_COMMENT}",
            w.pbn.rstrip("\n"),
            "",
            '[Event ""]',
            '[TotalScoreTable "Rank\\1R;PairId\\1R;Direction\\2L;Names\\40L"]',
            *[f'{n} {n} NS "{names}"' for n in range(1, 5)],
            "",
        ]
    )


@pytest.mark.parametrize("post", [post_bridge_page, post_bridge_api], ids=["page", "api"])
def test_bridge_cp1250_pbn_keeps_its_letters(client, bridge, post):
    session = uploaded_session(bridge)
    text = pbn_with_names(bridge, NAMES)
    response = post(client, bridge, "pbn", text.encode("cp1250"), session=session)
    assert response.status_code in (201, 302), response.content.decode()[-1500:]
    names = set(Pair.objects.filter(event=bridge.event).values_list("name", flat=True))
    assert "Őry Űrsula – Kővári Gyöngyvér" in names, names
    version = ResultVersion.objects.get(session=session)
    assert CP1250_COMMENT in version.raw and not any(m in version.raw for m in MANGLED)


@pytest.mark.parametrize("post", [post_bridge_page, post_bridge_api], ids=["page", "api"])
def test_bridge_iso_8859_2_csv_keeps_its_letters(client, bridge, post):
    text = bridge.csv.replace("\n", f"\n# {NAMES}\n", 1)
    response = post(client, bridge, "csv", text.encode("iso-8859-2"))
    assert response.status_code in (201, 302), response.content.decode()[-1500:]
    version = ResultVersion.objects.filter(session=bridge.session).latest("number")
    assert version.number == 2 and NAMES in version.raw


@pytest.mark.parametrize("post", [post_bridge_page, post_bridge_api], ids=["page", "api"])
@pytest.mark.parametrize("fmt", ["pbn", "csv"])
def test_bridge_undecodable_file_is_refused_naming_the_line(client, bridge, post, fmt):
    text = bridge.pbn if fmt == "pbn" else bridge.csv
    before = snapshot()
    response = post(client, bridge, fmt, with_bad_byte(text, 4))
    body = assert_safe(response)
    assert response.status_code == 400
    assert "line 4: the file cannot be read as UTF-8" in body, body[-1500:]
    assert snapshot() == before


# --- bridge: any PBN file's deal statistics (the dealing pages) --------------------------------------------


def post_statistics(client, data):
    return client.post(reverse("bridge_deal_statistics"), {"file": SimpleUploadedFile("deals.pbn", data)})


def deals_pbn() -> str:
    from bridge.engine.dealing import deal_board

    return "\n".join(f'[Board "{b}"]\n[Deal "{deal_board("ab" * 16, "A", b)}"]\n' for b in range(1, 9))


def test_deal_statistics_refuses_a_file_over_the_limit(client):
    data = deals_pbn().encode()
    with limit(len(data) - 1):
        body = assert_safe(post_statistics(client, data))
    assert "The file is too large" in body, errors_shown(body)
    with limit(len(data)):
        body = assert_safe(post_statistics(client, data))
    assert "The file is too large" not in body and "line" not in errors_shown(body)


def test_deal_statistics_refuses_an_undecodable_file_naming_the_line(client):
    body = assert_safe(post_statistics(client, with_bad_byte(f"% {CP1250_COMMENT}\n" + deals_pbn(), 3)))
    assert "line 3: the file cannot be read as UTF-8" in body, errors_shown(body)


# --- bridge teams: the match upload page and the API -------------------------------------------------------


def post_teams_page(client, w, fmt, data):
    client.force_login(w.director)
    return client.post(
        reverse("teams_upload", args=[w.match.pk]),
        {"kind": "file", "file-kind": fmt, "file-file": SimpleUploadedFile(f"x.{fmt}", data)},
    )


def post_teams_api(client, w, fmt, data):
    client.force_login(w.director)
    return client.post(
        f"/api/v1/team-matches/{w.match.pk}/upload/",
        {"file": SimpleUploadedFile(f"x.{fmt}", data), "file_format": fmt},
    )


@pytest.mark.parametrize("fmt", ["pbn", "csv"])
def test_teams_page_size_limit(client, teams, fmt):
    data = (teams_pbn() if fmt == "pbn" else teams_csv()).encode()
    before = snapshot()
    with limit(len(data) - 1):
        response = post_teams_page(client, teams, fmt, data)
    body = assert_safe(response)
    assert response.status_code == 400 and "The file is too large" in body, errors_shown(body)
    assert snapshot() == before
    with limit(len(data)):
        assert post_teams_page(client, teams, fmt, data).status_code == 302
    assert MatchUpload.objects.filter(match=teams.match).count() == 1


@pytest.mark.parametrize("fmt", ["pbn", "csv"])
def test_teams_api_answers_413_over_the_limit(client, teams, fmt):
    data = (teams_pbn() if fmt == "pbn" else teams_csv()).encode()
    before = snapshot()
    with limit(len(data) - 1):
        response = post_teams_api(client, teams, fmt, data)
    assert response.status_code == 413 and "too large" in response.json()["errors"][0]
    assert snapshot() == before
    with limit(len(data)):
        assert post_teams_api(client, teams, fmt, data).status_code == 201


def test_teams_api_refuses_a_huge_body_before_parsing_it(client, teams):
    client.force_login(teams.director)
    with limit(1000):
        response = client.post(
            f"/api/v1/team-matches/{teams.match.pk}/upload/",
            data=b"x" * 200_000,
            content_type="multipart/form-data; boundary=nothing",
        )
    assert response.status_code == 413, response.content[:300]


def teams_files_with_names():
    """(format, text, encoding): a refused line quotes the file's text, so its letters can be seen."""
    pbn = f"% {CP1250_COMMENT}\n" + teams_pbn().replace('[Contract "4S"]', '[Contract "Őry Űrsula"]', 1)
    csv = teams_csv().replace("1;open;110", "1;Kővári Gyöngyvér;110", 1)
    return [("pbn", pbn, "cp1250"), ("csv", csv, "iso-8859-2")]


@pytest.mark.parametrize("post", [post_teams_page, post_teams_api], ids=["page", "api"])
@pytest.mark.parametrize("fmt, text, encoding", teams_files_with_names(), ids=["cp1250-pbn", "latin2-csv"])
def test_teams_hungarian_files_keep_their_letters(client, teams, post, fmt, text, encoding):
    response = post(client, teams, fmt, text.encode(encoding))
    body = assert_safe(response).replace("&#x27;", "'")
    assert response.status_code == 400
    expected = "Őry Űrsula" if fmt == "pbn" else "Kővári Gyöngyvér"
    assert expected in body and not any(m in body for m in MANGLED), body[-1500:]


@pytest.mark.parametrize("post", [post_teams_page, post_teams_api], ids=["page", "api"])
@pytest.mark.parametrize("fmt", ["pbn", "csv"])
def test_teams_hungarian_files_are_accepted(client, teams, post, fmt):
    if fmt == "pbn":
        data = (f"% {CP1250_COMMENT}\n" + teams_pbn()).encode("cp1250")
    else:  # a column the parser does not use, holding names
        data = teams_csv().replace("\n", ";megjegyzés\n", 1).replace("110\n", f"110;{NAMES.split(';')[0]}\n")
        data = data.encode("iso-8859-2")
    response = post(client, teams, fmt, data)
    assert response.status_code in (201, 302), response.content.decode()[-1500:]
    assert MatchUpload.objects.filter(match=teams.match).count() == 1


@pytest.mark.parametrize("post", [post_teams_page, post_teams_api], ids=["page", "api"])
@pytest.mark.parametrize("fmt", ["pbn", "csv"])
def test_teams_undecodable_file_is_refused_naming_the_line(client, teams, post, fmt):
    text = teams_pbn() if fmt == "pbn" else teams_csv()
    before = snapshot()
    response = post(client, teams, fmt, with_bad_byte(text, 5))
    body = assert_safe(response)
    assert response.status_code == 400
    assert "line 5: the file cannot be read as UTF-8" in body, body[-1500:]
    assert snapshot() == before


# --- ulti: the round upload page (a file or pasted text) and the API (CSV text) ---------------------------


def post_ulti_page(client, w, data=None, text=None):
    client.force_login(w.director)
    fields = {"csv": "1"}
    if data is not None:
        fields["file"] = SimpleUploadedFile("round.csv", data)
    if text is not None:
        fields["text"] = text
    return client.post(reverse("ulti_upload", args=[w.round.pk]), fields)


def ulti_csv_with_names(w):
    return ulti_csv(w).replace("asztal;játékos;forint", f"asztal;játékos;forint;{NAMES.replace(';', ' és ')}")


def test_ulti_page_size_limit_for_a_file(client, ulti):
    data = ulti_csv(ulti).encode()
    before = snapshot()
    with limit(len(data) - 1):
        body = assert_safe(post_ulti_page(client, ulti, data=data))
    assert "The file is too large" in body, errors_shown(body)
    assert snapshot() == before
    with limit(len(data)):
        assert post_ulti_page(client, ulti, data=data).status_code == 302
    assert RoundUpload.objects.filter(round=ulti.round).count() == 1


def test_ulti_page_size_limit_for_pasted_text(client, ulti):
    text = ulti_csv(ulti)
    before = snapshot()
    with limit(len(text.encode()) - 1):
        body = assert_safe(post_ulti_page(client, ulti, text=text))
    assert "The file is too large" in body, errors_shown(body)
    assert snapshot() == before
    with limit(len(text.encode())):
        assert post_ulti_page(client, ulti, text=text).status_code == 302


@pytest.mark.parametrize("encoding", ["iso-8859-2", "cp1250", "utf-8-sig"])
def test_ulti_page_hungarian_file_keeps_its_letters(client, ulti, encoding):
    text = ulti_csv_with_names(ulti)
    if encoding == "cp1250":
        text = text.replace("forint;", f"forint;{CP1250_COMMENT};", 1)
    response = post_ulti_page(client, ulti, data=text.encode(encoding))
    assert response.status_code == 302, errors_shown(response.content.decode())
    raw = RoundUpload.objects.get(round=ulti.round).raw
    assert "Őry Űrsula és Kővári Gyöngyvér" in raw and not any(m in raw for m in MANGLED)


def test_ulti_page_undecodable_file_is_refused_naming_the_line(client, ulti):
    before = snapshot()
    body = assert_safe(post_ulti_page(client, ulti, data=with_bad_byte(ulti_csv(ulti), 3)))
    assert "line 3: the file cannot be read as UTF-8" in body, errors_shown(body)
    assert snapshot() == before


def post_ulti_api(client, w, body, content_type="application/json"):
    client.force_login(w.director)
    return client.post(f"/api/v1/ulti/rounds/{w.round.pk}/upload/", body, content_type=content_type)


def test_ulti_api_answers_413_over_the_limit(client, ulti):
    text = ulti_csv_with_names(ulti).rstrip("\n")  # as the serializer keeps it: trimmed
    before = snapshot()
    with limit(len(text.encode()) - 1):
        response = post_ulti_api(client, ulti, {"csv": text})
    assert response.status_code == 413 and "too large" in response.json()["errors"][0]
    assert snapshot() == before
    with limit(len(text.encode())):
        assert post_ulti_api(client, ulti, {"csv": text}).status_code == 201
    assert "Őry Űrsula" in RoundUpload.objects.get(round=ulti.round).raw


def test_ulti_api_refuses_a_huge_body_before_parsing_it(client, ulti):
    before = snapshot()
    with limit(1000):
        response = post_ulti_api(client, ulti, b"{" * 200_000)  # not JSON: the parser would say 400
    assert response.status_code == 413, response.content[:300]
    assert snapshot() == before


def test_request_size_check_leaves_room_for_the_rest_of_the_body(rf):
    with limit(1000):
        check_request_size(rf.post("/", data=b"x" * 2000, content_type="application/json"))
        with pytest.raises(UploadTooLarge):
            check_request_size(rf.post("/", data=b"x" * 100_000, content_type="application/json"))


# --- appeals: attachments keep their own 5 MB, read the same bounded way -----------------------------------


def test_appeal_attachment_that_lies_about_its_size_is_read_one_byte_over_the_limit(appeal):
    from django.core.exceptions import ValidationError

    from appeals.services.attachments import MAX_BYTES, add_attachment

    upload = SimpleUploadedFile("card.png", PNG + b"\0" * MAX_BYTES, content_type="image/png")
    upload.size = 100
    before = snapshot()
    with pytest.raises(ValidationError, match="larger"):
        add_attachment(appeal.case, appeal.user, upload)
    assert upload.tell() == MAX_BYTES + 1
    assert snapshot() == before
