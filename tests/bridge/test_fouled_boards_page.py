"""Fouled boards (VSz 27) marked by the director: deal groups scored by the engine (70-60-50, 65-55, Neuberg),
the automatic fouling penalties, and the marking kept as a decision layer across a later upload."""

import datetime
import random
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from bridge.models import BoardScore, ResultPenalty, SessionStanding
from bridge.services import decisions, fouled, setup, upload_readers, uploads, versions
from bridge.services.compute import recompute_event
from demo import bridge_sample as sample
from federation.models import Club, Role
from results.models import VersionedUpload

D = Decimal
START = timezone.now() - datetime.timedelta(hours=3)
# Board 1 (nobody vulnerable), 4H by North at each of the five tables: 12, 11, 10, 9 and 8 tricks.
TRICKS = [12, 11, 10, 9, 8]
SCORES = [480, 450, 420, -50, -100]


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def event(mbsz):
    return sample.event_with_pairs(mbsz, pairs=10, title="Eltokolás", start=START)


@pytest.fixture
def director(make_user, event):
    return make_user("td@example.hu", kind=Role.DIRECTOR, event=event)


@pytest.fixture
def rows(event):
    session = setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )
    rows = sample.play(session, random.Random(5))
    board_one = [r for r in rows if r["board"] == 1]
    assert len(board_one) == 5
    for r, tricks, score in zip(board_one, TRICKS, SCORES, strict=True):
        r.update(contract="4H", declarer="N", lead="", tricks=tricks, score=score, artificial="")
    return rows


@pytest.fixture
def session(event, rows, director):
    session = event.pair_sessions.get()
    uploads.upload(
        session,
        upload_readers.parse_csv(sample.csv_text(session, rows)),
        source=VersionedUpload.Source.CSV,
        user=director,
    )
    recompute_event(event.pk)
    return session


def board_one(session):
    return sorted(fouled.board_rows(session, 1), key=lambda r: -r["score"])


def scores(session):
    return {
        s.score: (s.deal_group, s.mp_ns, s.mp_ew, s.pct_ns, s.pct_ew)
        for s in BoardScore.objects.filter(session=session, board=1)
    }


@pytest.mark.django_db
def test_three_and_two_results_get_the_fixed_percentages(event, session, director):
    """VSz 27 b-c on a top of 8 (five results): 70/60/50 in the group of three, 65/55 in the group of two;
    the line against the group's best result gets 120 minus its percentage."""
    played = board_one(session)
    groups = {(r["ns_id"], r["ew_id"]): 1 if r["score"] > 0 else 2 for r in played}
    version = fouled.mark(session, 1, groups, reason="a 3. asztalnál rosszul duplikálták", user=director)
    assert version.source == "adjustment" and version.note.startswith("a 3.")
    recompute_event(event.pk)
    got = scores(session)
    # The best result of a small group gets average-plus if the pair's session average is higher (VSz 27).
    assert got[480][0] == 1 and got[480][1] >= D("5.60") and got[480][2] == D("4.00")
    assert got[450][:5] == (1, D("4.80"), D("4.80"), D("60.00"), D("60.00"))
    assert got[420][0] == 1 and got[420][1] == D("4.00") and got[420][2] >= D("5.60")
    assert got[-50][0] == 2 and got[-50][1] >= D("5.20") and got[-50][2] == D("4.40")
    assert got[-100][0] == 2 and got[-100][1] == D("4.40") and got[-100][2] >= D("5.20")


@pytest.mark.django_db
def test_a_group_of_four_is_scaled_by_neuberg(event, session, director):
    """VSz 28 with N = 5, n = 4: P = (5 T + 1) / 4; the lone result gets 60% (4.8) on each line."""
    played = board_one(session)
    groups = {(r["ns_id"], r["ew_id"]): 2 if r["score"] == -100 else 1 for r in played}
    fouled.mark(session, 1, groups, reason="egy asztal más leosztást játszott", user=director)
    recompute_event(event.pk)
    got = scores(session)
    assert got[480][1:3] == (D("7.75"), D("0.25"))
    assert got[450][1:3] == (D("5.25"), D("2.75"))
    assert got[420][1:3] == (D("2.75"), D("5.25"))
    assert got[-50][1:3] == (D("0.25"), D("7.75"))
    assert got[-100][1] >= D("4.80") and got[-100][2] >= D("4.80")


@pytest.mark.django_db
def test_fouling_penalties_50_then_25_and_25_for_not_noticing(event, session, director):
    played = board_one(session)
    first, second = played[0], played[1]
    groups = {(r["ns_id"], r["ew_id"]): 1 if r["score"] > 0 else 2 for r in played}
    fouled.mark(
        session, 1, groups, duplicated_by=[first["ns_id"], first["ew_id"]], unnoticed_by=[second["ns_id"]],
        reason="rossz duplikálás", user=director,
    )  # fmt: skip
    latest = versions.latest_version(session)
    got = {(p.pair_id, p.code): p.percent for p in ResultPenalty.objects.filter(version=latest)}
    assert got == {
        (first["ns_id"], "fouling_duplication"): D(50),
        (first["ew_id"], "fouling_duplication"): D(50),
        (second["ns_id"], "fouling_unnoticed"): D(25),
    }
    # The same pair's next wrong duplication (another board of the event) costs 25%.
    others = [r for r in versions.rows_of(latest) if r["board"] == 2]
    table = next(
        r for r in others if first["ns_id"] in (r["ns_id"], r["ew_id"])
    )  # a Mitchell's NS pair plays all
    groups = {(r["ns_id"], r["ew_id"]): 1 if r is table else 2 for r in others}
    fouled.mark(session, 2, groups, duplicated_by=[first["ns_id"]], reason="megint", user=director)
    latest = versions.latest_version(session)
    again = ResultPenalty.objects.filter(version=latest, board=2, pair_id=first["ns_id"]).get()
    assert again.percent == D(25) and again.code == "fouling_duplication"
    recompute_event(event.pk)
    penalty = SessionStanding.objects.get(session=session, pair_id=first["ns_id"]).penalty
    assert penalty == D("6.00")  # 50% + 25% of the top of 8


@pytest.mark.django_db
def test_bad_markings_are_refused_and_nothing_is_written(session, director):
    played = board_one(session)
    before = versions.latest_version(session).number
    one_group = {(r["ns_id"], r["ew_id"]): 1 for r in played}
    with pytest.raises(fouled.FouledBoardError, match="at least two versions"):
        fouled.mark(session, 1, one_group, reason="x", user=director)
    partial = {(played[0]["ns_id"], played[0]["ew_id"]): 1, (played[1]["ns_id"], played[1]["ew_id"]): 2}
    with pytest.raises(fouled.FouledBoardError, match="missing"):
        fouled.mark(session, 1, partial, reason="x", user=director)
    with pytest.raises(fouled.FouledBoardError, match="no results"):
        fouled.mark(session, 99, {}, reason="x", user=director)
    groups = {(r["ns_id"], r["ew_id"]): 1 if r["score"] > 0 else 2 for r in played}
    stranger = 999999
    with pytest.raises(fouled.FouledBoardError, match="no result on board 1"):
        fouled.mark(session, 1, groups, duplicated_by=[stranger], reason="x", user=director)
    assert versions.latest_version(session).number == before


@pytest.mark.django_db
def test_a_later_upload_keeps_the_deal_groups(event, session, rows, director):
    played = board_one(session)
    groups = {(r["ns_id"], r["ew_id"]): 1 if r["score"] > 0 else 2 for r in played}
    marking = fouled.mark(session, 1, groups, reason="eltokolás", user=director)
    recompute_event(event.pk)
    marked = scores(session)
    # The same file again: the board has the same tables, the marking is carried silently.
    version = uploads.upload(
        session, upload_readers.parse_csv(sample.csv_text(session, rows)), source=VersionedUpload.Source.CSV,
        user=director,
    )  # fmt: skip
    assert version.decisions.get(decision=marking).action == "carried"
    assert {(r["ns_id"], r["ew_id"]): r["deal_group"] for r in fouled.board_rows(session, 1)} == groups
    recompute_event(event.pk)
    assert scores(session) == marked


@pytest.fixture
def client_of(client):
    def login(user):
        client.force_login(user)
        return client

    return login


@pytest.mark.django_db
def test_the_page_marks_the_board_and_shows_the_engines_scores(event, session, director, client_of):
    client = client_of(director)
    url = reverse("bridge_fouled_board", args=[session.pk, 1])
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="duplicated"' in html and "nincs eltokolva: meccspont a teljes leosztásra" in html
    played = board_one(session)
    data = {f"group-{r['ns_id']}-{r['ew_id']}": "1" if r["score"] > 0 else "2" for r in played}
    data["reason"] = "rossz duplikálás"
    data["unnoticed"] = [str(played[0]["ns_id"])]
    done = client.post(url, data)
    assert done.status_code == 302 and done.url == url
    recompute_event(event.pk)
    html = client.get(url).content.decode()
    assert "3 eredmény: 70%, 60% és 50%" in html and "2 eredmény: 65% és 55%" in html
    assert "4,40" in html  # the worse result of the group of two: 55% of 8, decimal comma (Hungarian page)
    # A bad group number: 400, the message names the table, nothing written.
    number = versions.latest_version(session).number
    bad = {**data, f"group-{played[0]['ns_id']}-{played[0]['ew_id']}": "x"}
    refused = client.post(url, bad)
    assert refused.status_code == 400 and "a leosztásváltozat" in refused.content.decode()
    assert versions.latest_version(session).number == number
    # Reachable from the session page's director menu.
    assert url in client.get(reverse("bridge_session", args=[session.pk])).content.decode()


@pytest.mark.django_db
def test_who_may_mark_a_fouled_board(event, session, director, make_user, mbsz, client):
    url = reverse("bridge_fouled_board", args=[session.pk, 1])
    other_event = sample.event_with_pairs(mbsz, pairs=4, title="Másik", start=START)
    club = Club.objects.create(federation=mbsz, name="Klub", city="Pécs")
    event.club = club  # the organiser's admin still does not run the results
    event.save()
    refused = {
        "anonymous": None,
        "other director": make_user("other@example.hu", kind=Role.DIRECTOR, event=other_event),
        "club admin": make_user("club@example.hu", kind=Role.CLUB_ADMIN, club=club),
        "player": make_user("player@example.hu"),
    }
    for who, user in refused.items():
        client.logout()
        if user is not None:
            client.force_login(user)
        response = client.get(url)
        assert response.status_code in (302, 403), who
        if user is None:
            assert "login" in response.url
        assert client.post(url, {"reason": "x"}).status_code in (302, 403), who
    allowed = {
        "director": director,
        "staff": make_user("staff@example.hu", kind=Role.FEDERATION_STAFF, federation=mbsz),
    }
    for who, user in allowed.items():
        client.force_login(user)
        assert client.get(url).status_code == 200, who


@pytest.mark.django_db
def test_an_upload_that_changes_the_boards_tables_asks_the_director(event, session, rows, director):
    played = board_one(session)
    groups = {(r["ns_id"], r["ew_id"]): 1 if r["score"] > 0 else 2 for r in played}
    marking = fouled.mark(session, 1, groups, reason="eltokolás", user=director)
    # The new file lacks one table's result on board 1: the board no longer has the tables of the groups.
    moved = [r for r in rows if not (r["board"] == 1 and r["score"] == -100)]
    before = versions.latest_version(session).number
    with pytest.raises(decisions.DecisionsPending) as pending:
        uploads.upload(
            session, upload_readers.parse_csv(sample.csv_text(session, moved)), source=VersionedUpload.Source.CSV,
            user=director,
        )  # fmt: skip
    [affected] = pending.value.affected
    assert affected.decision == marking and affected.conflicts[0].grouping
    assert decisions.describe(session, pending.value.affected)[0]["kind"] == "fouled_board"
    assert versions.latest_version(session).number == before
