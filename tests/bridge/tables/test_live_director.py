"""The director's hand in table entry (issue #18): "next round" moves every phone on with its announcement
(a late table's open boards wait in the control room) and starts the round's clock; the director's own
correction of any table's board is a correction version he countersigns (VSz 12); a table's phone shows
the frequency of the boards it has played as the event's setting says."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from bridge.models import CorrectionRequest, PairEvent, RoundCall, RoundClock, TableEntry
from bridge.services import table_director, table_entry, versions
from results.models import VersionedUpload

from .conftest import key
from .helpers import answer, enter

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def finish_round(code):
    now = table_entry.current_round(code)
    for board in now.boards:
        answer(code, enter(code, board.board).entry)
    return now


def test_a_finished_table_sees_its_next_round_before_the_director_calls_it(codes):
    finish_round(codes[1])
    assert table_entry.current_round(codes[1]).round == 2
    assert table_entry.current_round(codes[2]).round == 1


def test_next_round_moves_every_phone_on_and_keeps_the_late_tables_boards_for_the_director(
    session, codes, director
):
    finish_round(codes[1])
    finish_round(codes[2])
    enter(codes[3], 5)  # table 3 entered one board of its two and no more
    call = table_director.call_next_round(session, director, announcement="Mozgás: 2. kör")
    assert call.round == 2 and call.announcement == "Mozgás: 2. kör"
    assert [table_entry.current_round(c).round for c in codes.values()] == [2, 2, 2]
    clock = RoundClock.objects.get(session=session)
    assert clock.round == 2 and clock.minutes == 15  # VSz 31: 2 boards, 15 minutes
    _tables, waiting = table_entry.control_room(session)
    assert sorted((r.code.table, r.round, b.board, b.status) for r, b in waiting) == [
        (3, 1, 5, "entered"),
        (3, 1, 6, "open"),
    ]
    # Its round-1 board is no longer the phone's to enter.
    with pytest.raises(table_entry.EntryRefused, match="not this table's current round"):
        table_entry.send(codes[3], key=key(), kind="result", round=1, board=6, ns=1, ew=1, contract="4S N =")
    # Called again: round 3, then nothing left.
    assert table_director.call_next_round(session, director).round == 3
    assert "next table" in RoundCall.objects.get(round=3).announcement  # the default announcement
    with pytest.raises(table_entry.EntryRefused, match="last round"):
        table_director.call_next_round(session, director)


def test_the_phone_shows_the_announcement_of_its_round(clients, session, codes, director):
    table_director.call_next_round(session, director, announcement="Mozgás: 2. kör, a leosztások lefelé")
    text = clients["anonymous"].get(reverse("bridge_table", args=[codes[2].code])).content.decode()
    assert 'id="round-call"' in text and "Mozgás: 2. kör, a leosztások lefelé" in text
    assert re.search(r'id="board-\d+" data-status="open"', text)
    assert table_entry.current_round(codes[2]).round == 2


@pytest.mark.parametrize(
    "role, allowed",
    [
        ("director", True),
        ("staff", True),
        ("other_director", False),
        ("player", False),
        ("anonymous", False),
    ],
)
def test_only_who_runs_the_event_calls_the_next_round_and_corrects(clients, session, codes, role, allowed):
    client = clients[role]
    client.post(reverse("bridge_next_round", args=[session.pk]), {"announcement": "Tovább"})
    assert RoundCall.objects.filter(session=session).exists() is allowed
    client.post(
        reverse("bridge_table_correction", args=[session.pk]),
        {"table": 1, "round": 1, "board": 1, "contract": "4♠ É =", "reason": "elírás"},
    )
    assert TableEntry.objects.filter(kind=TableEntry.Kind.CORRECTION).exists() is allowed
    if allowed:
        assert clients[role].get(reverse("bridge_control_room", args=[session.pk])).status_code == 200


def test_the_directors_correction_is_a_countersigned_correction_version(session, codes, director):
    result = enter(codes[1], 1).entry
    answer(codes[1], result)
    before = versions.latest_version(session)
    entry = table_director.correct(
        codes[1], director, round=1, board=1, contract="4S N +1", lead="HK", reason="11 ütés volt"
    )
    version = versions.latest_version(session)
    assert version.number == before.number + 1 and version.source == VersionedUpload.Source.CORRECTION
    assert version.uploaded_by == director and "VSz 12" in version.note and "11 ütés volt" in version.note
    rows = [r for r in versions.rows_of(version) if r["board"] == 1]
    assert [(r["table"], r["score"], r["tricks"]) for r in rows] == [(1, 450, 11)]
    request = CorrectionRequest.objects.get(version=version)
    assert request.status == CorrectionRequest.Status.APPROVED and request.decided_by == director
    assert request.recorded["score"] == 420 and request.score == 450
    assert entry.kind == TableEntry.Kind.CORRECTION and entry.based_on_id is not None
    state = table_entry.table_rounds(codes[1])[0].board(1)
    assert state.status == "corrected" and state.result.score == 450 and state.done


def test_the_director_enters_a_disputed_board_the_table_never_confirmed(session, codes, director):
    result = enter(codes[2], 3).entry
    answer(codes[2], result, kind=TableEntry.Kind.DISPUTE)
    table_director.correct(codes[2], director, round=1, board=3, contract="3NT S =", reason="vita eldöntve")
    rows = versions.rows_of(versions.latest_version(session))
    assert [(r["board"], r["table"], r["score"]) for r in rows] == [(3, 2, 400)]
    _tables, waiting = table_entry.control_room(session)
    assert waiting == []


def test_a_correction_needs_a_reason_a_real_board_and_a_possible_result(session, codes, director):
    with pytest.raises(table_entry.EntryRefused, match="why"):
        table_director.correct(codes[1], director, round=1, board=1, contract="4S N =", reason=" ")
    with pytest.raises(table_entry.EntryRefused, match="not played at table 1"):
        table_director.correct(codes[1], director, round=1, board=5, contract="4S N =", reason="x")
    with pytest.raises(table_entry.EntryRefused):
        table_director.correct(codes[1], director, round=1, board=1, contract="8S N =", reason="x")
    assert versions.latest_version(session) is None


def test_a_phone_cannot_send_the_directors_kind(codes):
    now = table_entry.current_round(codes[1])
    with pytest.raises(table_entry.EntryRefused, match="Unknown kind"):
        table_entry.send(
            codes[1],
            key=key(),
            kind=TableEntry.Kind.CORRECTION,
            round=1,
            board=1,
            ns=now.ns.pk,
            ew=now.ew.pk,
            contract="4S N =",
        )


def _phone_boards(client, code):
    text = client.get(reverse("bridge_table", args=[code.code])).content.decode()
    return sorted(int(n) for n in re.findall(r'id="frequency-(\d+)"', text))


@pytest.mark.parametrize(
    "setting, expected",
    [
        (PairEvent.PhoneFrequencies.ALL_TABLES, []),
        (PairEvent.PhoneFrequencies.AFTER_ROUND, [1, 2]),
        (PairEvent.PhoneFrequencies.NEVER, []),
    ],
)
def test_the_phone_shows_its_played_boards_frequencies_as_the_event_says(
    clients, event, codes, setting, expected, django_capture_on_commit_callbacks
):
    PairEvent.objects.update_or_create(event=event, defaults={"phone_frequencies": setting})
    with django_capture_on_commit_callbacks(execute=True):
        finish_round(codes[1])
    assert _phone_boards(clients["anonymous"], codes[1]) == expected


def test_by_default_a_board_shows_on_the_phone_once_every_table_played_it(
    clients, session, codes, director, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        finish_round(codes[1])  # boards 1 and 2 at table 1
        for code in (codes[2], codes[3]):
            rounds = table_entry.table_rounds(code)
            played = next(r.round for r in rounds if r.board(1))
            table_director.correct(code, director, round=played, board=1, contract="4S N =", reason="lap")
    assert _phone_boards(clients["anonymous"], codes[1]) == [1]
    text = clients["anonymous"].get(reverse("bridge_table", args=[codes[1].code])).content.decode()
    assert "Frequencies of the boards you played" in text or "A lejátszott leosztások frekvencialapja" in text


def test_the_control_room_publishes_and_says_which_boards_still_wait(clients, session, codes, play):
    """The director ends the live day where he runs it: the control room's publish button, which names the
    boards still waiting for him (a dispute) before he presses it; once published, it says when."""
    url = reverse("bridge_control_room", args=[session.pk])
    play(codes[1])
    answer(codes[2], enter(codes[2]).entry, kind=TableEntry.Kind.DISPUTE)
    page = clients["director"].get(url).content.decode()
    assert 'id="publish-results"' in page and reverse("bridge_publish", args=[session.pk]) in page
    assert "1 leosztás még Önre vár" in page  # the page in Hungarian, the default
    response = clients["director"].post(reverse("bridge_publish", args=[session.pk]))
    assert response.status_code == 302
    session.refresh_from_db()
    assert session.published_at is not None
    page = clients["director"].get(url).content.decode()
    assert 'id="publish-results"' not in page and 'id="results-published"' in page
