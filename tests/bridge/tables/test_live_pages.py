"""Live public pages (issue #18): a session played with table entry is public before it is published,
marked "live, provisional"; its standings and frequency fragments answer 304 to an unchanged ETag (in a
couple of queries) and the new table once a result arrives, behind the page cache; a frequency sheet
shows a board only once every table has played it. Publishing ends the mark, mails the players who did not
unsubscribe from result mails and shows the VSz 12 correction window."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone, translation
from freezegun import freeze_time

from bridge.services import live, table_director, table_entry
from federation.models import MailPreference, Notification, Person
from federation.services import mail_preferences

pytestmark = pytest.mark.django_db


@pytest.fixture
def settle(django_capture_on_commit_callbacks, director):
    def settled(codes, board):
        with django_capture_on_commit_callbacks(execute=True):
            everywhere(codes, director, board)

    return settled


def played_round(code, board) -> int:
    return next(r.round for r in table_entry.table_rounds(code) if r.board(board))


def everywhere(codes, director, board, contract="3NT N ="):
    """Board `board` settled at every table (the director's word: any round)."""
    for code in codes.values():
        table_director.correct(
            code, director, round=played_round(code, board), board=board, contract=contract, reason="lap"
        )


def get(client, name, session, **headers):
    return client.get(reverse(name, args=[session.pk]), headers=headers)


def test_a_session_with_table_codes_is_public_and_live_before_it_is_published(clients, session, codes):
    anonymous = clients["anonymous"]
    page = get(anonymous, "bridge_session", session)
    assert page.status_code == 200
    text = page.content.decode()
    assert "élő, nem végleges" in text and 'id="live-status"' in text
    assert "js/live.js" in text and 'data-live-etag="&quot;' in text
    # The rest stays the director's until publication: hand records, score cards, the exports.
    seat = session.sections.first().pairs.first()
    for name, args in (
        ("bridge_hand_records", [session.pk]),
        ("bridge_score_card", [session.pk, seat.pk]),
        ("bridge_export_pbn", [session.pk]),
    ):
        assert anonymous.get(reverse(name, args=args)).status_code in (302, 404), name
    assert reverse("bridge_hand_records", args=[session.pk]) not in text
    event_page = anonymous.get(reverse("bridge_event", args=[session.event_id])).content.decode()
    assert reverse("bridge_session", args=[session.pk]) in event_page  # the live session is linked


def test_without_table_codes_an_unpublished_session_stays_hidden(clients, session):
    for name in ("bridge_session", "bridge_frequencies", "bridge_live_standings", "bridge_live_boards"):
        assert get(clients["anonymous"], name, session).status_code in (302, 404), name
        assert get(clients["player"], name, session).status_code in (403, 404), name
    assert get(clients["director"], "bridge_live_standings", session).status_code == 200


def test_the_standings_fragment_answers_304_until_a_result_arrives(clients, session, codes, play):
    anonymous = clients["anonymous"]
    first = get(anonymous, "bridge_live_standings", session)
    assert first.status_code == 200 and first["ETag"].startswith('"')
    assert "<html" not in first.content.decode() and 'id="live-status"' in first.content.decode()
    tag = first["ETag"]
    again = get(anonymous, "bridge_live_standings", session, if_none_match=tag)
    assert again.status_code == 304 and again["ETag"] == tag and again.content == b""
    play(codes[1], 1)  # a confirmed result: a version, the recompute (eager)
    changed = get(anonymous, "bridge_live_standings", session, if_none_match=tag)
    assert changed.status_code == 200 and changed["ETag"] != tag
    assert "table-results" in changed.content.decode()
    assert get(anonymous, "bridge_live_standings", session, if_none_match=changed["ETag"]).status_code == 304


def test_the_304_costs_two_row_reads_and_the_fragment_is_shared_through_the_page_cache(
    clients, session, codes, django_assert_max_num_queries
):
    anonymous = clients["anonymous"]
    first = get(anonymous, "bridge_live_standings", session)
    with django_assert_max_num_queries(2):
        assert (
            get(anonymous, "bridge_live_standings", session, if_none_match=first["ETag"]).status_code == 304
        )
    second = get(anonymous, "bridge_live_standings", session)
    assert second["X-Page-Cache"] == "hit" and second["ETag"] == first["ETag"]
    assert second.content == first.content


def test_the_frequency_sheets_show_a_board_only_once_every_table_played_it(
    clients, session, codes, play, settle
):
    anonymous = clients["anonymous"]
    play(codes[1], 1)
    text = get(anonymous, "bridge_frequencies", session).content.decode()
    assert 'id="board-1"' not in text and "Még egyik leosztást sem játszotta le minden asztal." in text
    settle(codes, 2)
    fragment = get(anonymous, "bridge_live_boards", session).content.decode()
    assert 'id="board-2"' in fragment and 'id="board-1"' not in fragment
    assert 'id="hidden-boards"' in fragment
    assert live.complete_boards(session) == {2}
    # The director sees every board.
    assert 'id="board-1"' in get(clients["director"], "bridge_frequencies", session).content.decode()


def test_publishing_ends_the_live_mark_mails_the_players_and_opens_the_correction_window(
    clients, session, codes, director, play
):
    seats = list(session.sections.first().pairs.select_related("pair__player1", "pair__player2"))
    people = [p for seat in seats for p in (seat.pair.player1, seat.pair.player2)]
    for number, person in enumerate(people):
        Person.objects.filter(pk=person.pk).update(email=f"jatekos{number}@example.hu")
    mail_preferences.save("jatekos0@example.hu", set())  # unsubscribed from every optional mail
    play(codes[1], 1)
    tag = get(clients["anonymous"], "bridge_live_standings", session)["ETag"]
    before = Notification.objects.count()
    response = clients["director"].post(reverse("bridge_publish", args=[session.pk]))
    assert response.status_code == 302
    mails = Notification.objects.all()[before:] if before else Notification.objects.all()
    recipients = {m.recipient for m in mails}
    assert recipients == {f"jatekos{n}@example.hu" for n in range(1, len(people))}
    assert all("VSz 12" in m.body for m in mails)
    # Published again: nobody is mailed twice.
    clients["director"].post(reverse("bridge_publish", args=[session.pk]))
    assert Notification.objects.count() == before + len(people) - 1

    fragment = get(clients["anonymous"], "bridge_live_standings", session, if_none_match=tag)
    assert fragment.status_code == 200
    text = fragment.content.decode()
    assert "élő, nem végleges" not in text and "data-live-final" in text
    session.refresh_from_db()
    deadline = timezone.localtime(session.published_at + datetime.timedelta(minutes=30))
    assert deadline.strftime("%Y. %m. %d. %H:%M") in text  # Hungarian date and time, not ISO
    assert deadline.strftime("%Y-%m-%d") not in text
    boards = get(clients["anonymous"], "bridge_frequencies", session).content.decode()
    assert 'id="correction-window"' in boards and 'id="board-1"' in boards  # published: every board


def test_mail_preferences_decide_and_the_category_is_results(session, codes, director, play):
    seat = session.sections.first().pairs.select_related("pair__player1").first()
    Person.objects.filter(pk=seat.pair.player1_id).update(email="egy@example.hu")
    play(codes[1], 1)
    with translation.override("hu"):
        session, now = live.publish(session, director)
    assert now and session.published_at is not None
    mail = Notification.objects.get(recipient="egy@example.hu")
    assert mail.subject.startswith("Eredmények közzétéve")
    assert MailPreference.RESULTS in dict(MailPreference.OPTIONAL)


def test_the_event_page_links_a_session_as_live_as_soon_as_its_table_codes_exist(
    clients, session, director, django_capture_on_commit_callbacks
):
    """The event page is cached for anonymous visitors: the first table code bumps it, so the live session
    is linked with its "live, provisional" badge at once, not when the cache expires."""
    anonymous = clients["anonymous"]
    url = reverse("bridge_event", args=[session.event_id])
    with translation.override("hu"):
        before = anonymous.get(url, HTTP_ACCEPT_LANGUAGE="hu").content.decode()
        assert anonymous.get(url, HTTP_ACCEPT_LANGUAGE="hu")["X-Page-Cache"] == "hit"
        assert reverse("bridge_session", args=[session.pk]) not in before
        with django_capture_on_commit_callbacks(execute=True):
            table_entry.create_codes(session, director)
        after = anonymous.get(url, HTTP_ACCEPT_LANGUAGE="hu")
    text = after.content.decode()
    assert after["X-Page-Cache"] != "hit"
    assert reverse("bridge_session", args=[session.pk]) in text
    assert "élő, nem végleges" in text and "nincs közzétéve" not in text


def test_the_home_page_links_the_live_session_on_its_day_until_it_is_published(
    clients, session, codes, director, play
):
    """A spectator's shortest way to the live standings: the home page's "live now", on the event's day."""
    home, url = reverse("home"), reverse("bridge_session", args=[session.pk])
    with freeze_time("2026-05-09 12:00"):  # the event's day
        page = clients["anonymous"].get(home).content.decode()
        assert 'id="live-now"' in page and url in page and "élő eredmények" in page
    with freeze_time("2026-05-10 12:00"):  # the day after: nothing is live now
        assert 'id="live-now"' not in clients["anonymous"].get(home).content.decode()
    with freeze_time("2026-05-09 12:00"):
        play(codes[1], 1)
        live.publish(session, director)
        assert 'id="live-now"' not in clients["anonymous"].get(home).content.decode()


def test_the_live_bench_reads_each_pairs_boards_off_the_fragment(clients, session, codes, play):
    """bench/live reads the fragment to time when a confirmed board shows: its reader and the template agree."""
    import importlib.util
    from pathlib import Path

    from bridge.models import SessionStanding

    path = Path(__file__).resolve().parents[3] / "bench" / "live" / "standings.py"
    spec = importlib.util.spec_from_file_location("live_bench_standings", path)
    reader = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(reader)
    play(codes[1])
    html = get(clients["anonymous"], "bridge_live_standings", session).content.decode()
    expected = {
        row.pair.number: row.boards
        for row in SessionStanding.objects.filter(session=session).select_related("pair")
    }
    assert reader.boards_by_pair(html) == expected and sum(expected.values()) == 2  # one board, both pairs
