"""Decisions survive every upload of an ulti round: a ruling (appeal or the director's adjustment) and a
point deduction are layers the next upload of their table keeps unless the director sets them aside (with
who and why); an upload is not stored until he has chosen, and a table the upload does not touch carries its
decision silently."""

import datetime

import pytest
from django.utils import translation

from federation.models import Role
from results.services import state_of
from results.upload_decisions import DecisionsPending
from tournaments.models import Entry, EntryMember, Event
from ulti.models import PointDeduction, RoundUpload, Standing, UploadDecision
from ulti.services import UltiError, draw, setup, uploads
from ulti.services.adjustments import apply_ruling, deduct_points

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def client():
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def seats(table):
    return [s.participant for s in table.seats.select_related("participant__person").order_by("position")]


def round_results(rnd):
    """At every table seat 1 wins 300, seat 2 loses 50, seat 3 loses 250."""
    return {
        t.number: dict(zip([p.pk for p in seats(t)], (300, -50, -250), strict=True)) for t in rnd.tables.all()
    }


@pytest.fixture
def played(mausz, ulti_club, make_person, make_user, django_capture_on_commit_callbacks):
    event = Event.objects.create(
        federation=mausz,
        club=ulti_club,
        title="Ulti döntések",
        format="ulti_individual",
        event_class="nub_qualifier",
        start_date=datetime.date(2026, 3, 7),
        status="approved",
        rule_set="mausz",
    )
    for _ in range(9):
        entry = Entry.objects.create(event=event)
        EntryMember.objects.create(entry=entry, person=make_person(mausz, ulti_club))
    user = make_user("vezeto@example.hu", kind=Role.DIRECTOR, event=event)
    group = setup.start_event(event, user).groups.get()
    rnd = draw.publish_round(draw.generate_round(group, user), user)
    with django_capture_on_commit_callbacks(execute=True):
        uploads.upload_round(rnd, round_results(rnd), user=user)
    return event, rnd, user


@pytest.fixture
def ruled(played, make_user, django_capture_on_commit_callbacks):
    """Table 2 reversed by the appeals committee (version 2)."""
    event, rnd, user = played
    table = rnd.tables.get(number=2)
    winner, middle, loser = seats(table)
    chair = make_user("elnok@example.hu")
    with django_capture_on_commit_callbacks(execute=True):
        ruling = apply_ruling(
            rnd,
            table,
            forints={winner: -250, middle: -50, loser: 300},
            reason="Óvás 1: megfordul.",
            user=chair,
        )
    return event, rnd, user, table, ruling


def forint(stage, participant):
    return Standing.objects.get(stage=stage, group=None, after_round=1, participant=participant).forint


def points(stage, participant):
    return Standing.objects.get(stage=stage, group=None, after_round=1, participant=participant).points


def test_reupload_after_an_appeal_ruling_waits_for_the_director_and_stores_nothing(ruled):
    event, rnd, user, table, ruling = ruled
    before = state_of(event.pk, "ulti").latest_version
    with pytest.raises(DecisionsPending) as pending:
        uploads.upload_round(rnd, round_results(rnd), user=user)
    assert RoundUpload.objects.filter(round=rnd).count() == 2
    assert state_of(event.pk, "ulti").latest_version == before
    [shown] = pending.value.affected
    winner = seats(table)[0]
    assert shown["id"] == ruling.pk and shown["kind"] == "appeal" and shown["tables"] == [2]
    assert shown["reason"] == "Óvás 1: megfordul." and shown["by"]
    assert f"{winner.number}. {winner.person}" in shown["players"]
    change = next(c for c in shown["changes"] if str(winner.person) in c["what"])
    assert (change["upload"], change["decision"]) == ("+300", "-250")
    assert pending.value.based_on == 2


@pytest.mark.parametrize("action", ["keep", "reconfirm"])
def test_a_kept_ruling_is_reapplied_on_the_new_upload(ruled, action, django_capture_on_commit_callbacks):
    event, rnd, user, table, ruling = ruled
    winner, _middle, loser = seats(table)
    other_winner = seats(rnd.tables.get(number=1))[0]
    results = round_results(rnd)
    results[1][other_winner.pk], results[1][seats(rnd.tables.get(number=1))[1].pk] = 250, 0  # table 1 fixed
    with django_capture_on_commit_callbacks(execute=True):
        version = uploads.upload_round(rnd, results, user=user, decisions={str(ruling.pk): action})
    stage = rnd.group.stage
    assert forint(stage, winner) == -250 and forint(stage, loser) == 300  # the ruling stands
    assert forint(stage, other_winner) == 250  # the upload's own change too
    recorded = UploadDecision.objects.get(upload=version, decision=ruling)
    assert recorded.action == action and recorded.decided_by == user


def test_a_ruling_set_aside_drops_with_who_and_why(ruled, django_capture_on_commit_callbacks):
    event, rnd, user, table, ruling = ruled
    winner, _middle, loser = seats(table)
    with pytest.raises(UltiError) as refused:
        uploads.upload_round(rnd, round_results(rnd), user=user, decisions={ruling.pk: "set_aside"})
    assert "needs a reason" in str(refused.value)
    assert RoundUpload.objects.filter(round=rnd).count() == 2
    with django_capture_on_commit_callbacks(execute=True):
        version = uploads.upload_round(
            rnd,
            round_results(rnd),
            user=user,
            decisions={ruling.pk: "set_aside"},
            reasons={ruling.pk: "A másodfok megsemmisítette."},
        )
    stage = rnd.group.stage
    assert forint(stage, winner) == 300 and forint(stage, loser) == -250
    recorded = UploadDecision.objects.get(upload=version, decision=ruling)
    assert (recorded.action, recorded.reason, recorded.decided_by) == (
        "set_aside",
        "A másodfok megsemmisítette.",
        user,
    )
    # Set aside, it is no longer in force: the next upload is stored without asking.
    uploads.upload_round(rnd, round_results(rnd), user=user)
    assert RoundUpload.objects.filter(round=rnd).count() == 4


def test_an_unknown_decision_id_or_action_is_refused(ruled):
    event, rnd, user, table, ruling = ruled
    with pytest.raises(UltiError):
        uploads.upload_round(rnd, round_results(rnd), user=user, decisions={ruling.pk: "keep", 99999: "keep"})
    with pytest.raises(UltiError):
        uploads.upload_round(rnd, round_results(rnd), user=user, decisions={ruling.pk: "forget"})
    assert RoundUpload.objects.filter(round=rnd).count() == 2


def test_a_changed_round_meanwhile_is_refused(ruled):
    event, rnd, user, table, ruling = ruled
    with pytest.raises(UltiError) as refused:
        uploads.upload_round(rnd, round_results(rnd), user=user, decisions={ruling.pk: "keep"}, based_on=1)
    assert "changed meanwhile" in str(refused.value)


def test_a_score_sheet_of_another_table_carries_the_ruling_silently(
    ruled, django_capture_on_commit_callbacks
):
    event, rnd, user, table, ruling = ruled
    other = rnd.tables.get(number=1)
    a, b, c = seats(other)
    with django_capture_on_commit_callbacks(execute=True):
        version = uploads.upload_table(other, {a.pk: 100, b.pk: 0, c.pk: -100}, user=user)
    assert UploadDecision.objects.get(upload=version, decision=ruling).action == "carried"
    assert forint(rnd.group.stage, seats(table)[0]) == -250
    # ... and one of the ruled table waits for the director.
    x, y, z = seats(table)
    with pytest.raises(DecisionsPending):
        uploads.upload_table(table, {x.pk: 300, y.pk: -50, z.pk: -250}, user=user)


def test_a_directors_adjustment_is_a_decision_too(played, django_capture_on_commit_callbacks):
    event, rnd, user = played
    table = rnd.tables.get(number=3)
    a, b, c = seats(table)
    ruling = apply_ruling(
        rnd, table, forints={a: 0, b: 0, c: 0}, reason="Hibás összesítés.", user=user, source="adjustment"
    )
    with pytest.raises(DecisionsPending) as pending:
        uploads.upload_round(rnd, round_results(rnd), user=user)
    assert [d["kind"] for d in pending.value.affected] == ["adjustment"]
    with django_capture_on_commit_callbacks(execute=True):
        uploads.upload_round(rnd, round_results(rnd), user=user, decisions={ruling.pk: "keep"})
    assert forint(rnd.group.stage, a) == 0


def test_a_point_deduction_survives_the_reupload_and_is_listed(played, django_capture_on_commit_callbacks):
    event, rnd, user = played
    table = rnd.tables.get(number=1)
    player = seats(table)[0]
    stage = rnd.group.stage
    full = points(stage, player)
    with django_capture_on_commit_callbacks(execute=True):
        deduction = deduct_points(player, 2, reason="Késés.", user=user)
    assert points(stage, player) == full - 2
    with pytest.raises(DecisionsPending) as pending:
        uploads.upload_round(rnd, round_results(rnd), user=user)
    [shown] = pending.value.affected
    assert shown["id"] == deduction.pk and shown["tables"] == [1]
    assert any("2 table points" in c["decision"] for c in shown["changes"])
    with django_capture_on_commit_callbacks(execute=True):
        uploads.upload_round(rnd, round_results(rnd), user=user, decisions={deduction.pk: "keep"})
    assert points(stage, player) == full - 2
    with django_capture_on_commit_callbacks(execute=True):
        uploads.upload_round(
            rnd,
            round_results(rnd),
            user=user,
            decisions={deduction.pk: "set_aside"},
            reasons={deduction.pk: "Tévedés volt."},
        )
    assert points(stage, player) == full
    assert PointDeduction.objects.count() == 1  # the deduction itself stays on record


def test_a_score_sheet_of_another_table_keeps_the_deduction_silently(
    played, django_capture_on_commit_callbacks
):
    event, rnd, user = played
    player = seats(rnd.tables.get(number=1))[0]
    stage = rnd.group.stage
    full = points(stage, player)
    deduct_points(player, 1, reason="Késés.", user=user)
    other = rnd.tables.get(number=2)
    a, b, c = seats(other)
    with django_capture_on_commit_callbacks(execute=True):
        uploads.upload_table(other, {a.pk: 100, b.pk: 0, c.pk: -100}, user=user)
    assert points(stage, player) == full - 1


def form_of(rnd, results):
    """The upload page's fields: f<table id>_<participant id> = forint."""
    data = {"note": "újra"}
    for table in rnd.tables.all():
        for pid, value in results[table.number].items():
            data[f"f{table.pk}_{pid}"] = str(value)
    return data


def test_page_reupload_asks_first_and_keeps_the_ruling(ruled, client, django_capture_on_commit_callbacks):
    event, rnd, user, table, ruling = ruled
    client.force_login(user)
    response = client.post(f"/ulti/rounds/{rnd.pk}/upload/", form_of(rnd, round_results(rnd)))
    page = response.content.decode()
    winner = seats(table)[0]
    assert response.status_code == 200 and "Nothing is saved yet" in page
    assert "Óvás 1: megfordul." in page and str(winner.person) in page
    assert RoundUpload.objects.filter(round=rnd).count() == 2  # abandoned here: nothing stored
    token = client.session["pending_uploads"][f"ulti-round:{rnd.pk}"]["token"]
    confirm = f"/ulti/rounds/{rnd.pk}/upload/confirm/"
    response = client.post(confirm, {"token": token, f"decision_{ruling.pk}": "set_aside"})
    assert response.status_code == 400 and "needs a reason" in response.content.decode()
    assert RoundUpload.objects.filter(round=rnd).count() == 2
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(confirm, {"token": token, f"decision_{ruling.pk}": "keep"})
    assert response.status_code == 302
    assert forint(rnd.group.stage, winner) == -250
    page = client.get(f"/ulti/rounds/{rnd.pk}/").content.decode()
    assert "Computed from version 3" in page and "appeal decision (version 2, kept" in page
    assert "Óvás 1: megfordul." in client.get(f"/ulti/rounds/{rnd.pk}/versions/").content.decode()
    client.post(confirm, {"token": token, f"decision_{ruling.pk}": "keep"})  # used up
    assert RoundUpload.objects.filter(round=rnd).count() == 3


def test_page_csv_reupload_set_aside_and_cancel(ruled, client, django_capture_on_commit_callbacks):
    event, rnd, user, table, ruling = ruled
    client.force_login(user)
    csv = "table;player;forint\n" + "".join(
        f"{t};{p.number};{v}\n"
        for t in sorted(round_results(rnd))
        for p, v in zip(seats(rnd.tables.get(number=t)), (300, -50, -250), strict=True)
    )
    url, confirm = f"/ulti/rounds/{rnd.pk}/upload/", f"/ulti/rounds/{rnd.pk}/upload/confirm/"
    assert "Nothing is saved yet" in client.post(url, {"csv": "1", "text": csv}).content.decode()
    token = client.session["pending_uploads"][f"ulti-round:{rnd.pk}"]["token"]
    assert client.post(confirm, {"token": token, "cancel": "1"}).status_code == 302
    assert client.post(confirm, {"token": token, f"decision_{ruling.pk}": "keep"}).status_code == 302
    assert RoundUpload.objects.filter(round=rnd).count() == 2  # cancelled: nothing stored
    client.post(url, {"csv": "1", "text": csv})
    token = client.session["pending_uploads"][f"ulti-round:{rnd.pk}"]["token"]
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            confirm,
            {"token": token, f"decision_{ruling.pk}": "set_aside", f"reason_{ruling.pk}": "Visszavonva."},
        )
    assert response.status_code == 302
    version = RoundUpload.objects.filter(round=rnd).latest("number")
    assert version.source == "csv" and forint(rnd.group.stage, seats(table)[0]) == 300
    recorded = UploadDecision.objects.get(upload=version, decision=ruling)
    assert (recorded.action, recorded.reason, recorded.decided_by) == ("set_aside", "Visszavonva.", user)


def test_page_score_sheet_of_a_ruled_table_asks_first(
    mausz, ulti_club, make_person, make_user, client, django_capture_on_commit_callbacks
):
    from tests.ulti.test_sheet_entry import form_data, records

    event = Event.objects.create(
        federation=mausz,
        club=ulti_club,
        title="Pontozólap döntés",
        format="ulti_individual",
        event_class="nub_qualifier",
        start_date=datetime.date(2026, 5, 2),
        status="approved",
        rule_set="mausz",
    )
    for _ in range(6):
        EntryMember.objects.create(
            entry=Entry.objects.create(event=event), person=make_person(mausz, ulti_club)
        )
    user = make_user("lap@example.hu", kind=Role.DIRECTOR, event=event)
    setup.ensure_settings(event, unit_forints=20)
    rnd = draw.publish_round(draw.generate_round(setup.start_event(event, user).groups.get(), user), user)
    # whole 20 Ft units (the upload refuses anything else): 300 / -40 / -260
    results = {t: dict(zip(r, (300, -40, -260), strict=True)) for t, r in round_results(rnd).items()}
    uploads.upload_round(rnd, results, user=user)
    table = rnd.tables.get(number=1)
    a, b, c = seats(table)
    ruling = apply_ruling(
        rnd, table, forints={a: 0, b: 0, c: 0}, reason="Döntés.", user=user, source="adjustment"
    )
    keys = [str(p.pk) for p in (a, b, c)]
    client.force_login(user)
    response = client.post(f"/ulti/tables/{table.pk}/sheet/", form_data(keys, records(keys)))
    assert response.status_code == 200 and "Nothing is saved yet" in response.content.decode()
    assert RoundUpload.objects.filter(round=rnd).count() == 2
    token = client.session["pending_uploads"][f"ulti-sheet:{table.pk}"]["token"]
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/ulti/tables/{table.pk}/sheet/confirm/", {"token": token, f"decision_{ruling.pk}": "reconfirm"}
        )
    assert response.status_code == 302
    version = RoundUpload.objects.filter(round=rnd).latest("number")
    assert {line.forint for line in version.lines.filter(table=table)} == {0}  # the ruling re-applied
    assert version.sheets.count() == 1
    assert UploadDecision.objects.get(upload=version, decision=ruling).action == "reconfirm"


def test_api_reupload_answers_409_then_takes_the_choice(ruled, django_capture_on_commit_callbacks):
    from rest_framework.test import APIClient

    event, rnd, user, table, ruling = ruled
    api = APIClient()
    api.force_authenticate(user)
    body = {
        "tables": [
            {"table": t, "results": [{"participant": pid, "forint": v} for pid, v in got.items()]}
            for t, got in round_results(rnd).items()
        ]
    }
    url = f"/api/v1/ulti/rounds/{rnd.pk}/upload/"
    response = api.post(url, body, format="json")
    assert response.status_code == 409
    [shown] = response.json()["decisions"]
    assert shown["id"] == ruling.pk and shown["tables"] == [2] and shown["kind"] == "appeal"
    assert response.json()["based_on_version"] == 2 and RoundUpload.objects.filter(round=rnd).count() == 2
    response = api.post(url, {**body, "decisions": {str(ruling.pk): "set_aside"}}, format="json")
    assert response.status_code == 400
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(
            url,
            {
                **body,
                "decisions": {str(ruling.pk): "set_aside"},
                "reasons": {str(ruling.pk): "Semmis."},
                "based_on_version": 2,
            },
            format="json",
        )
    assert response.status_code == 201
    assert forint(rnd.group.stage, seats(table)[0]) == 300
    assert UploadDecision.objects.get(decision=ruling, action="set_aside").reason == "Semmis."
