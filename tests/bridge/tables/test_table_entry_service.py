"""The table entry service (issue #18): a table code writes only its own table's current round, a resend
is a no-op, a second phone that has not seen the first one's result meets a conflict, and a confirmed result
becomes a new version through the one upload seam (source "table entry", this table's rows only)."""

import pytest
from django.utils import translation

from bridge.models import SessionPair, TableEntry
from bridge.services import setup, table_entry, upload_readers, uploads, versions
from results.models import VersionedUpload

from .conftest import key
from .helpers import answer, enter

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    """The refusals are matched by their English text (the phone page shows them in Hungarian)."""
    with translation.override("en"):
        yield


Kind = TableEntry.Kind


def test_codes_are_one_per_table_unambiguous_and_made_once(session, director, codes):
    assert sorted(codes) == [1, 2, 3]
    assert len({c.code for c in codes.values()}) == 3
    for code in codes.values():
        assert len(code.code) == 6 and set(code.code) <= set("ACDEFGHJKMNPQRTUVWXY34679")
    again = table_entry.create_codes(session, director)
    assert [c.pk for c in again] == [codes[t].pk for t in (1, 2, 3)]
    assert table_entry.find_code(" " + codes[2].code.lower()[:3] + "-" + codes[2].code[3:]) == codes[2]
    assert table_entry.find_code("AAAAAA") is None


def test_the_current_round_is_the_tables_movement_round(codes):
    now = table_entry.current_round(codes[2])
    assert now.round == 1
    assert [b.board for b in now.boards] == [3, 4]
    assert (now.ns.number, now.ew.number) == (2, 5)
    assert now.boards[0].dealer == "S" and now.boards[0].vulnerability == "EW"


def test_an_entry_is_scored_and_a_resend_with_the_same_key_is_a_no_op(codes):
    first = enter(codes[1], 1, k="abcdefgh-1")
    assert not first.repeated and first.entry.score == 420 and first.entry.tricks == 10
    again = enter(codes[1], 1, k="abcdefgh-1", contract="3NT")  # the resend answers what it got
    assert again.repeated and again.entry.pk == first.entry.pk and again.entry.contract == "4S"
    assert TableEntry.objects.count() == 1


def test_hungarian_notation_is_read(codes):
    entry = enter(codes[1], 2, contract="4♠", declarer="K", lead="♥K", result="-1").entry
    # board 2 (N-S vulnerable): East declares 4S and goes down one, E-W not vulnerable: N-S +50
    assert (entry.contract, entry.declarer, entry.lead, entry.tricks, entry.score) == ("4S", "E", "HK", 9, 50)


def test_an_impossible_entry_is_refused_with_its_reason(codes):
    with pytest.raises(table_entry.EntryRefused) as refused:
        enter(codes[1], 1, contract="8S")
    assert "8S" in refused.value.messages[0]
    with pytest.raises(table_entry.EntryRefused) as refused:
        enter(codes[1], 1, result="+4")  # 4S+4: 14 tricks
    assert refused.value.messages
    assert not TableEntry.objects.exists()


def test_a_second_phone_that_has_not_seen_the_first_meets_a_conflict(codes):
    first = enter(codes[1], 1).entry
    with pytest.raises(table_entry.Conflict) as conflict:
        enter(codes[1], 1, contract="3NT", result="=")  # based on nothing: it has not seen the first
    assert conflict.value.current == first
    same = enter(codes[1], 1)  # the same result from the second phone is no conflict
    assert same.entry == first
    replaced = enter(codes[1], 1, based_on=first.pk, contract="3NT", result="=").entry
    assert replaced.based_on == first and replaced.score == 400
    with pytest.raises(table_entry.Conflict):
        answer(codes[1], first)  # East confirms what he saw, which is no longer the table's result


def test_scope_other_tables_board_other_round_other_sessions_pair(event, codes, director):
    now = table_entry.current_round(codes[1])
    base = {"key": key(), "kind": Kind.RESULT, "contract": "4S", "declarer": "N", "result": "="}
    with pytest.raises(table_entry.EntryRefused, match="Board 3"):  # table 2's board
        table_entry.send(codes[1], round=1, board=3, ns=now.ns.pk, ew=now.ew.pk, **base)
    with pytest.raises(table_entry.EntryRefused, match="Round 2"):
        table_entry.send(codes[1], round=2, board=1, ns=now.ns.pk, ew=now.ew.pk, **base)
    other_table = table_entry.current_round(codes[2])
    with pytest.raises(table_entry.EntryRefused, match="pairs"):
        table_entry.send(codes[1], round=1, board=1, ns=other_table.ns.pk, ew=now.ew.pk, **base)
    second = setup.create_session(event, movement="mitchell", pairs=setup.pairs_from_entries(event))
    foreign = SessionPair.objects.get(section__session=second, number=1)
    with pytest.raises(table_entry.EntryRefused, match="pairs"):
        table_entry.send(codes[1], round=1, board=1, ns=foreign.pk, ew=now.ew.pk, **base)
    assert not TableEntry.objects.exists()


def test_a_confirmation_writes_a_table_entry_version_of_this_tables_rows_only(session, codes, director):
    other = enter(codes[2], 3).entry
    answer(codes[2], other)
    entry = enter(codes[1], 1).entry
    confirmed = answer(codes[1], entry).entry
    assert confirmed.version is not None and confirmed.problem == ""
    version = versions.latest_version(session)
    assert version == confirmed.version and version.source == VersionedUpload.Source.TABLE
    assert version.uploaded_by == director
    rows = versions.rows_of(version)
    assert {(r["board"], r["table"], r["score"]) for r in rows} == {(1, 1, 420), (3, 2, 420)}
    state = table_entry.current_round(codes[1]).board(1)
    assert state.status == "confirmed"
    with pytest.raises(table_entry.EntryRefused, match="already confirmed"):
        enter(codes[1], 1, based_on=entry.pk, contract="3NT")
    # A later file upload is a version of the same results (the traveller of the board, as the director)
    labels = {"ns": "1", "ew": "4", "contract": "3NT", "declarer": "N", "result": "=", "table": 1}
    uploads.submit(session, upload_readers.FORM, user=director, board=1, lines=[labels])
    assert versions.latest_version(session).number == version.number + 1


def test_the_traveller_kind_requests_the_partial_boards_recompute(session, codes, monkeypatch):
    asked = []
    monkeypatch.setattr(versions, "request_recompute", lambda *a, **kw: asked.append(kw))
    answer(codes[1], enter(codes[1], 1).entry)
    answer(codes[1], enter(codes[1], 2).entry)
    assert asked[-1].get("partial") == "boards"


def test_a_dispute_flags_the_board_and_north_may_enter_again(session, codes):
    entry = enter(codes[1], 1).entry
    answer(codes[1], entry, Kind.DISPUTE)
    tables, waiting = table_entry.control_room(session)
    assert [(r.round, b.board, b.status) for r, b in waiting] == [(1, 1, "disputed")]
    assert versions.latest_version(session) is None
    again = enter(codes[1], 1, based_on=entry.pk, result="+1").entry
    assert table_entry.current_round(codes[1]).board(1).status == "entered"
    answer(codes[1], again)
    assert table_entry.current_round(codes[1]).board(1).status == "confirmed"


def test_the_round_moves_on_once_its_boards_are_confirmed_and_publication_closes(session, codes, director):
    for board in (1, 2):
        answer(codes[1], enter(codes[1], board).entry)
    now = table_entry.current_round(codes[1])
    assert now.round == 2 and [b.board for b in now.boards] == [3, 4]  # the boards move down a table
    tables, _waiting = table_entry.control_room(session)
    assert tables[0].counts == {"confirmed": 2, "open": 4}
    setup.publish(session, director)
    with pytest.raises(table_entry.EntryRefused, match="published"):
        enter(codes[1], 3)


def test_a_key_must_look_like_one(codes):
    with pytest.raises(table_entry.EntryRefused):
        enter(codes[1], 1, k="short")


def test_a_tables_version_keeps_the_other_tables_rows_of_the_same_board(session, codes, director):
    later = next(r for r in table_entry.table_rounds(codes[3]) if r.board(1) is not None)
    line = {
        "ns": later.ns.code,
        "ew": later.ew.code,
        "contract": "3NT",
        "declarer": "S",
        "result": "=",
        "table": 3,
    }
    uploads.submit(session, upload_readers.FORM, user=director, board=1, lines=[line])
    answer(codes[1], enter(codes[1], 1).entry)
    rows = versions.rows_of(versions.latest_version(session))
    assert sorted((r["table"], r["contract"], r["score"]) for r in rows if r["board"] == 1) == [
        (1, "4S", 420),
        (3, "3NT", 400),
    ]
    # table 3's round with board 1 shows it as the director's (filed), not open
    again = next(r for r in table_entry.table_rounds(codes[3]) if r.round == later.round)
    assert again.board(1).status == "filed"


def test_a_howell_table_enters_its_round_with_the_whole_line_notation(event, director):
    howell = setup.create_session(event, movement="howell", pairs=setup.pairs_from_entries(event))
    codes = {c.table: c for c in table_entry.create_codes(howell, director)}
    assert sorted(codes) == [1, 2, 3]
    for code in codes.values():
        now = table_entry.current_round(code)
        assert now.round == 1 and now.ns != now.ew and len(now.boards) == 2
    code = codes[2]
    now = table_entry.current_round(code)
    board = now.boards[0].board
    entry = enter(code, board, contract="4S E =", declarer="", result="").entry
    assert (entry.contract, entry.declarer, entry.tricks) == ("4S", "E", 10) and entry.score < 0
    assert answer(code, entry).entry.version.source == VersionedUpload.Source.TABLE
    assert {(r["board"], r["table"]) for r in versions.rows_of(versions.latest_version(howell))} == {
        (board, 2)
    }


def test_the_director_settles_a_dispute_on_the_traveller(session, codes, director):
    entry = enter(codes[1], 1).entry
    answer(codes[1], entry, Kind.DISPUTE)
    now = table_entry.current_round(codes[1])
    line = {
        "ns": now.ns.code,
        "ew": now.ew.code,
        "contract": "4S",
        "declarer": "N",
        "result": "-1",
        "table": 1,
    }
    uploads.submit(session, upload_readers.FORM, user=director, board=1, lines=[line])
    _tables, waiting = table_entry.control_room(session)
    assert waiting == []
    assert table_entry.current_round(codes[1]).board(1).status == "filed"
    with pytest.raises(table_entry.EntryRefused, match="already confirmed"):
        enter(codes[1], 1, based_on=entry.pk)
