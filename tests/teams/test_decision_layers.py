"""Decisions survive every upload of a team match: a correction, an adjusted IMP score and an appeal
decision are layers the next upload of the match keeps unless the director sets them aside (who, why); the
upload is not stored until he has chosen. Team uploads and line-ups are append-only in the ORM."""

from decimal import Decimal

import pytest

from results.services import state_of
from results.upload_decisions import DecisionsPending
from teams.engine.parsed import UploadError
from teams.models import SCOPE, LineUp, LineUpSeat, MatchResult, MatchUpload, UploadDecision, UploadedBoard
from teams.services import pairing, results
from teams.services.recompute import recompute_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(make_team_event, director, level):
    """Round 1 (1 v 4, 2 v 3) of 4 teams, 6 boards a match, every match uploaded level (0 - 0)."""
    event = make_team_event(teams=4, first_round="seeding", boards_per_match=6, rounds=3)
    user = director(event)
    round_ = pairing.publish_round(pairing.generate_round(event, user), user)
    first, second = round_.matches.order_by("table")
    for match in (first, second):
        results.upload_result(match, user, level(6))
    recompute_event(event.pk)
    return event, user, first, second


def imps(match):
    result = MatchResult.objects.get(match=match)
    return result.home_imps, result.away_imps


@pytest.fixture
def adjusted(published):
    """Board 3 of the first match: the director's adjusted score, 3 IMPs to the home team."""
    event, user, match, _other = published
    decision = results.rule_match(
        match,
        user,
        boards={3: {"adjusted_imps": Decimal(3)}},
        reason="Hibás tájékoztatás.",
        source="adjustment",
    )
    recompute_event(event.pk)
    assert imps(match) == (3, 0)
    return decision


def test_reupload_after_an_adjusted_score_waits_and_stores_nothing(published, adjusted, level):
    event, user, match, _other = published
    before = state_of(event.pk, SCOPE).latest_version
    with pytest.raises(DecisionsPending) as pending:
        results.upload_result(match, user, level(6))
    assert MatchUpload.objects.filter(match=match).count() == 2
    assert state_of(event.pk, SCOPE).latest_version == before
    [shown] = pending.value.affected
    assert shown["id"] == adjusted.pk and shown["kind"] == "adjustment"
    assert shown["reason"] == "Hibás tájékoztatás." and shown["by"]
    assert shown["teams"] == [match.home.name, match.away.name]
    [change] = shown["changes"]
    assert change["what"] == "board 3" and "adjusted: 3" in change["decision"]
    assert "adjusted" not in change["upload"]
    assert pending.value.based_on == 2


@pytest.mark.parametrize("action", ["keep", "reconfirm"])
def test_a_kept_adjusted_score_stays_in_the_standings(published, adjusted, level, action):
    event, user, match, _other = published
    version = results.upload_result(match, user, level(6, 10), decisions={str(adjusted.pk): action})
    recompute_event(event.pk)
    # The upload gives home 10 points on every board (0 IMPs); board 3 stays the adjusted 3 IMPs.
    assert imps(match) == (3, 0)
    assert version.boards.get(board=3).adjusted_imps == 3
    recorded = UploadDecision.objects.get(upload=version, decision=adjusted)
    assert recorded.action == action and recorded.decided_by == user


def test_an_adjusted_score_set_aside_drops_with_who_and_why(published, adjusted, level):
    event, user, match, _other = published
    with pytest.raises(UploadError, match="needs a reason"):
        results.upload_result(match, user, level(6), decisions={adjusted.pk: "set_aside"})
    version = results.upload_result(
        match, user, level(6), decisions={adjusted.pk: "set_aside"}, reasons={adjusted.pk: "Téves volt."}
    )
    recompute_event(event.pk)
    assert imps(match) == (0, 0)
    recorded = UploadDecision.objects.get(upload=version, decision=adjusted)
    assert (recorded.action, recorded.reason, recorded.decided_by) == ("set_aside", "Téves volt.", user)
    results.upload_result(match, user, level(6))  # no longer in force: stored without asking
    assert MatchUpload.objects.filter(match=match).count() == 4


def test_reupload_after_an_appeal_decision_keeps_it(published, level):
    event, user, match, other = published
    appeal = results.rule_match(match, user, imps=(20, 5), reason="Óvás 2: 20-5.", source="appeal")
    with pytest.raises(DecisionsPending) as pending:
        results.upload_result(match, user, level(6))
    assert [d["kind"] for d in pending.value.affected] == ["appeal"]
    assert pending.value.affected[0]["changes"][0]["decision"] == "20 – 5 IMPs"
    results.upload_result(match, user, level(6), decisions={appeal.pk: "keep"})
    results.upload_result(other, user, results.imps_result(7, 1))  # another match: no decision there
    recompute_event(event.pk)
    assert imps(match) == (20, 5) and imps(other) == (7, 1)


def test_a_correction_and_a_later_appeal_apply_in_order(published, level):
    event, user, match, _other = published
    correction = results.rule_match(
        match, user, boards={2: {"open_ns": 620}}, reason="Elírás.", source="correction"
    )
    appeal = results.rule_match(
        match, user, boards={2: {"adjusted_imps": Decimal(-4)}}, reason="Óvás.", source="appeal"
    )
    with pytest.raises(DecisionsPending) as pending:
        results.upload_result(match, user, level(6))
    assert [d["id"] for d in pending.value.affected] == [correction.pk, appeal.pk]
    results.upload_result(match, user, level(6), decisions={correction.pk: "keep", appeal.pk: "keep"})
    recompute_event(event.pk)
    assert imps(match) == (0, 4)  # the appeal's adjusted score, laid over the correction
    results.upload_result(
        match,
        user,
        level(6),
        decisions={correction.pk: "keep", appeal.pk: "set_aside"},
        reasons={appeal.pk: "Másodfokon megváltoztatva."},
    )
    recompute_event(event.pk)
    assert imps(match) == (5, 0)  # the correction alone: 620 against 420, 200 points = 5 IMPs


def test_the_orm_refuses_to_rewrite_team_uploads_and_line_ups(published, make_person):
    event, user, match, _other = published
    upload = MatchUpload.objects.filter(match=match).first()
    board = upload.boards.first()
    home, away = match.home, match.away
    seats = [
        (1, team.pk, room, member.person_id)
        for team in (home, away)
        for room, members in (
            ("open", team.entry.members.all()[:2]),
            ("closed", team.entry.members.all()[2:4]),
        )
        for member in members
    ]
    segments = len(results.plan_of(match).segments)
    seats = [(s, t, r, p) for s in range(1, segments + 1) for _one, t, r, p in seats]
    lineup = results.set_lineup(match, user, seats)
    seat = lineup.seats.first()
    for row in (upload, board, lineup, seat):
        with pytest.raises(TypeError, match="append-only"):
            row.save()
        with pytest.raises(TypeError, match="append-only"):
            row.delete()
    for model in (MatchUpload, UploadedBoard, LineUp, LineUpSeat):
        with pytest.raises(TypeError, match="append-only"):
            model.objects.all().update(pk=1)
        with pytest.raises(TypeError, match="append-only"):
            model.objects.all().delete()
    assert MatchUpload.objects.filter(match=match).count() == 1 and LineUpSeat.objects.count() == len(seats)


def card_form(boards=6):
    """Every board level: 110 in both rooms."""
    form = {"kind": "card", "card-note": "újra"}
    for i in range(boards):
        form |= {f"card-board_{i}": i + 1, f"card-open_{i}": "110", f"card-closed_{i}": "110"}
    return form


def test_page_reupload_asks_first_and_stores_nothing_until_confirmed(published, adjusted, client):
    event, user, match, _other = published
    client.force_login(user)
    url = f"/teams/matches/{match.pk}/upload/"
    response = client.post(url, card_form())
    page = response.content.decode()
    assert response.status_code == 200 and "Nothing is saved yet" in page
    assert "Hibás tájékoztatás." in page and match.home.name in page and "board 3" in page
    assert f'name="decision_{adjusted.pk}"' in page and 'data-confirm="' in page
    assert MatchUpload.objects.filter(match=match).count() == 2  # abandoned here: nothing stored
    token = client.session["pending_uploads"][f"teams-match:{match.pk}"]["token"]
    confirm = f"/teams/matches/{match.pk}/upload/confirm/"
    # A set-aside without a reason is refused and asked again; still nothing stored.
    response = client.post(confirm, {"token": token, f"decision_{adjusted.pk}": "set_aside"})
    assert response.status_code == 400 and "needs a reason" in response.content.decode()
    assert MatchUpload.objects.filter(match=match).count() == 2
    # Keep: stored, the adjusted board re-applied.
    response = client.post(confirm, {"token": token, f"decision_{adjusted.pk}": "keep"})
    assert response.status_code == 302
    version = MatchUpload.objects.filter(match=match).latest("number")
    assert version.number == 3 and version.boards.get(board=3).adjusted_imps == 3
    assert UploadDecision.objects.get(upload=version).action == "keep"
    recompute_event(event.pk)
    assert imps(match) == (3, 0)
    page = client.get(f"/teams/matches/{match.pk}/").content.decode()
    assert "Computed from version 3" in page and "adjusted score (version 2, kept" in page
    # The token was used up: a second post stores nothing more.
    client.post(confirm, {"token": token, f"decision_{adjusted.pk}": "keep"})
    assert MatchUpload.objects.filter(match=match).count() == 3


def test_page_set_aside_and_cancel(published, adjusted, client):
    event, user, match, _other = published
    client.force_login(user)
    url, confirm = f"/teams/matches/{match.pk}/upload/", f"/teams/matches/{match.pk}/upload/confirm/"
    client.post(url, {"kind": "imps", "imps-home_imps": "1", "imps-away_imps": "0"})
    token = client.session["pending_uploads"][f"teams-match:{match.pk}"]["token"]
    assert client.post(confirm, {"token": token, "cancel": "1"}).status_code == 302
    assert MatchUpload.objects.filter(match=match).count() == 2
    assert client.post(confirm, {"token": token, f"decision_{adjusted.pk}": "keep"}).status_code == 302
    assert MatchUpload.objects.filter(match=match).count() == 2  # cancelled: the token is gone
    client.post(url, card_form())
    token = client.session["pending_uploads"][f"teams-match:{match.pk}"]["token"]
    response = client.post(
        confirm, {"token": token, f"decision_{adjusted.pk}": "set_aside", f"reason_{adjusted.pk}": "Tévedés."}
    )
    assert response.status_code == 302
    recompute_event(event.pk)
    assert imps(match) == (0, 0)
    recorded = UploadDecision.objects.get(decision=adjusted, action="set_aside")
    assert (recorded.reason, recorded.decided_by) == ("Tévedés.", user)
    page = client.get(f"/teams/matches/{match.pk}/").content.decode()
    assert "set aside" in page and "Tévedés." in page


def test_page_confirmation_refused_when_the_match_changed_meanwhile(published, adjusted, client):
    event, user, match, _other = published
    client.force_login(user)
    client.post(f"/teams/matches/{match.pk}/upload/", card_form())
    token = client.session["pending_uploads"][f"teams-match:{match.pk}"]["token"]
    results.rule_match(match, user, boards={4: {"adjusted_imps": Decimal(1)}}, reason="Még egy.")
    response = client.post(
        f"/teams/matches/{match.pk}/upload/confirm/", {"token": token, f"decision_{adjusted.pk}": "keep"}
    )
    assert response.status_code == 302
    assert MatchUpload.objects.filter(match=match).count() == 3  # the upload was not stored


def test_api_reupload_answers_409_then_takes_the_choice(published, adjusted):
    from rest_framework.test import APIClient

    event, user, match, _other = published
    api = APIClient()
    api.force_authenticate(user)
    url = f"/api/v1/team-matches/{match.pk}/upload/"
    boards = [{"board": b, "open_ns": 420, "closed_ns": 420} for b in range(1, 7)]
    response = api.post(url, {"boards": boards}, format="json")
    assert response.status_code == 409
    body = response.json()
    [shown] = body["decisions"]
    assert (
        shown["id"] == adjusted.pk and shown["kind"] == "adjustment" and shown["teams"][0] == match.home.name
    )
    assert body["based_on_version"] == 2 and MatchUpload.objects.filter(match=match).count() == 2
    response = api.post(
        url,
        {"boards": boards, "decisions": {str(adjusted.pk): "set_aside"}, "based_on_version": 2},
        format="json",
    )
    assert response.status_code == 400 and "indoklás kell" in str(response.json())  # the API speaks Hungarian
    response = api.post(
        url,
        {
            "boards": boards,
            "decisions": {str(adjusted.pk): "reconfirm"},
            "reasons": {str(adjusted.pk): ""},
            "based_on_version": 2,
        },
        format="json",
    )
    assert response.status_code == 201 and response.json()["version"] == 3
    recompute_event(event.pk)
    assert imps(match) == (3, 0)
    assert UploadDecision.objects.get(upload__number=3, decision=adjusted).action == "reconfirm"
    stale = api.post(
        url, {"boards": boards, "decisions": {str(adjusted.pk): "keep"}, "based_on_version": 2}, format="json"
    )
    assert stale.status_code == 400 and "közben megváltozott" in str(stale.json())  # Hungarian API


def test_api_schema_documents_the_409(client):
    schema = client.get("/api/schema/").content.decode()
    assert "DecisionsPending" in schema and "set_aside" in schema


def test_the_directors_decision_page_records_an_adjusted_score(published, client, make_user):
    event, user, match, _other = published
    url = f"/teams/matches/{match.pk}/decision/"
    client.force_login(make_user("jatekos@example.hu"))
    assert (
        client.post(
            url, {"source": "adjustment", "board": 2, "adjusted_imps": "2", "reason": "x"}
        ).status_code
        == 403
    )
    client.force_login(user)
    page = client.get(url).content.decode()
    assert 'data-confirm="' in page
    response = client.post(url, {"source": "adjustment", "board": 2, "adjusted_imps": "2", "reason": ""})
    assert response.status_code == 200 and MatchUpload.objects.filter(match=match).count() == 1
    response = client.post(
        url, {"source": "adjustment", "board": 99, "adjusted_imps": "2", "reason": "Rossz."}
    )
    assert response.status_code == 400 and "Board 99 is not in the match" in response.content.decode()
    response = client.post(url, {"source": "adjustment", "board": 2, "adjusted_imps": "2", "reason": "Hiba."})
    assert response.status_code == 302
    decision = MatchUpload.objects.filter(match=match).latest("number")
    assert (decision.source, decision.note, decision.uploaded_by) == ("adjustment", "Hiba.", user)
    recompute_event(event.pk)
    assert imps(match) == (2, 0)
    # The next upload from the page asks about it.
    response = client.post(f"/teams/matches/{match.pk}/upload/", card_form())
    assert "Hiba." in response.content.decode() and MatchUpload.objects.filter(match=match).count() == 2
