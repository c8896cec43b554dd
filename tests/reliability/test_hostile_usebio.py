"""The hostile-upload corpus for USEBIO XML (next to hostile_uploads/, which holds PBN and CSV):
each malformed file is refused by the page, the API and the service with an error naming the line and the
element, and no row of any result model changes."""

import html

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from bridge.services import upload_readers, uploads
from results.upload_input import UploadInputError, decode_text
from tests.reliability.hostile_uploads.helpers import (  # noqa: F401 (fixtures)
    SCRIPT,
    assert_safe,
    client,
    english,
    errors_shown,
    shows,
    snapshot,
)
from tests.reliability.hostile_uploads.test_bridge import bridge  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def exported(world) -> str:
    """The session's results as USEBIO, written from its first upload (what a program would send)."""
    from bridge.engine.pbn.reader import read_session
    from bridge.engine.pbn.usebio import write_usebio

    return write_usebio(read_session(world.pbn))


def replace_first(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


def first_line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), start=1) if needle in line)


def _score_line(text: str) -> tuple[str, str]:
    """The first line's SCORE element and the same with an impossible score (437 scores nowhere)."""
    start = text.index("<SCORE>")
    element = text[start : text.index("</SCORE>", start) + len("</SCORE>")]
    return element, "<SCORE>437</SCORE>"


USEBIO_CORPUS = [
    ("usebio-not-xml", lambda w: exported(w)[:-40], "not well-formed XML"),
    (
        "usebio-billion-laughs",
        lambda w: (
            '<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">'
            '<!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>\n<USEBIO>&lol2;</USEBIO>'
        ),
        "line 2: a DOCTYPE or entity declaration is not allowed",
    ),
    (
        "usebio-external-entity",
        lambda w: (
            '<?xml version="1.0"?>\n<!DOCTYPE u [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
            "<USEBIO>&x;</USEBIO>"
        ),
        "DOCTYPE or entity declaration is not allowed",
    ),
    ("usebio-undeclared-entity", lambda w: replace_first(exported(w), "<BOARD>", "<BOARD>&x;"), "undefined"),
    ("usebio-wrong-root", lambda w: exported(w).replace("USEBIO", "RESULTS"), "not <USEBIO>"),
    (
        "usebio-no-event",
        lambda w: '<?xml version="1.0"?>\n<USEBIO Version="1.2">\n<CLUB/>\n</USEBIO>',
        "line 2: <USEBIO> has no <EVENT>",
    ),
    (
        "usebio-missing-pair-number",
        lambda w: replace_first(
            exported(w),
            exported(w)[exported(w).index("<EW_PAIR_NUMBER>") : exported(w).index("</EW_PAIR_NUMBER>") + 17],
            "",
        ),
        "needs NS_PAIR_NUMBER and EW_PAIR_NUMBER",
    ),
    (
        "usebio-missing-board-number",
        lambda w: replace_first(exported(w), "<BOARD_NUMBER>1</BOARD_NUMBER>", ""),
        "a <BOARD> needs a <BOARD_NUMBER> from 1",
    ),
    ("usebio-impossible-score", lambda w: _impossible(exported(w)), "<SCORE> 437 on board"),
    ("usebio-score-against-contract", lambda w: _mismatch(exported(w)), "does not match"),
    (
        "usebio-tricks-out-of-range",
        lambda w: _tricks(exported(w), "14"),
        "<TRICKS> 14 on board",
    ),
    ("usebio-script-in-contract", lambda w: _contract_only(exported(w), SCRIPT), "<CONTRACT> on board"),
    ("usebio-teams-event", lambda w: exported(w).replace("MP_PAIRS", "SWISS_PAIRS"), "SWISS_PAIRS"),
    (
        "usebio-unseated-pair",
        lambda w: exported(w).replace("<NS_PAIR_NUMBER>1<", "<NS_PAIR_NUMBER>97<"),
        "97",
    ),
    ("usebio-empty", lambda w: '<USEBIO Version="1.2"><EVENT EVENT_TYPE="MP_PAIRS"/></USEBIO>', "TRAVELLER"),
]


def _impossible(text: str) -> str:
    # The contract goes too, so the line stands on its score alone (the lenient read's case).
    text = _contract_only(text, "")
    element, impossible = _score_line(text)
    return replace_first(text, element, impossible)


def _mismatch(text: str) -> str:
    element = text[text.index("<SCORE>") : text.index("</SCORE>") + len("</SCORE>")]
    value = int(element[len("<SCORE>") : -len("</SCORE>")])
    return replace_first(text, element, f"<SCORE>{value + 10 if value else 50}</SCORE>")


def _tricks(text: str, value: str) -> str:
    """The first line's tricks replaced and its score dropped (with a legal score the line would be taken
    by its score, with a warning)."""
    start = text.index("<TRICKS>")
    text = text[:start] + f"<TRICKS>{value}" + text[text.index("</TRICKS>", start) :]
    score = text.index("<SCORE>", start)
    return text[:score] + text[text.index("</SCORE>", score) + len("</SCORE>") :]


def _contract_only(text: str, contract: str) -> str:
    """The first played line's contract replaced (and its score dropped: nothing to take the line by)."""
    start = text.index("<CONTRACT>")
    while text[start : start + 14] == "<CONTRACT>Pass":
        start = text.index("<CONTRACT>", start + 1)
    end = text.index("</CONTRACT>", start) + len("</CONTRACT>")
    text = text[:start] + f"<CONTRACT>{contract.replace('<', '&lt;')}</CONTRACT>" + text[end:]
    if not contract:
        return text
    score = text.index("<SCORE>", start)
    return text[:score] + text[text.index("</SCORE>", score) + len("</SCORE>") :]


def shown(text: str, expected: str) -> bool:
    return shows(html.unescape(text), expected)


# One session for the whole corpus (the fixture is costly): every case is refused against the same state.


def test_usebio_page_refuses_and_writes_nothing(client, bridge):  # noqa: F811
    client.force_login(bridge.director)
    before = snapshot()
    for case, build, expected in USEBIO_CORPUS:
        response = client.post(
            reverse("bridge_upload", args=[bridge.session.pk]),
            {"format": "usebio", "file": SimpleUploadedFile(f"{case}.xml", build(bridge).encode())},
        )
        body = assert_safe(response)
        assert response.status_code == 400, case
        assert shown(body, expected), (case, errors_shown(body))
        assert snapshot() == before, case


def test_usebio_api_refuses_with_400(client, bridge):  # noqa: F811
    client.force_login(bridge.director)
    before = snapshot()
    for case, build, expected in USEBIO_CORPUS:
        response = client.post(
            f"/api/v1/bridge/sessions/{bridge.session.pk}/upload/",
            {"file": SimpleUploadedFile(f"{case}.xml", build(bridge).encode())},  # .xml: read as USEBIO
        )
        assert response.status_code == 400, (case, response.content[:500])
        assert any(shown(message, expected) for message in response.json()["errors"]), case
        assert snapshot() == before, case


def test_usebio_service_refuses_naming_the_line(bridge):  # noqa: F811
    before = snapshot()
    for case, build, expected in USEBIO_CORPUS:
        with pytest.raises((uploads.UploadError, UploadInputError)) as refused:
            uploads.submit(
                bridge.session,
                upload_readers.USEBIO,
                user=bridge.director,
                text=decode_text(build(bridge).encode()),
            )
        messages = refused.value.messages
        assert any(shown(message, expected) for message in messages), (case, messages)
        if case != "usebio-empty":  # the empty event has no line to name
            assert all(message.startswith("line ") for message in messages), (case, messages)
        assert snapshot() == before, case
