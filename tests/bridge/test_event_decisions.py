"""Decisions survive every upload (issue #14): corrections, appeal rulings, the director's adjusted and
artificial scores, penalties and withdrawals are layers re-applied on each new upload; one the upload touches
waits for the director (keep, re-confirm, set aside with a reason), on the page and in the API (409)."""

import datetime
import json
import random
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone, translation
from rest_framework.test import APIClient

from bridge.models import BoardResult, ResultVersion, SessionPair, SessionStanding, VersionDecision
from bridge.services import corrections, decisions, roster, setup, uploads, versions
from bridge.services.adjustments import apply_ruling
from bridge.services.compute import recompute_event
from demo import bridge_sample as sample
from federation.models import Role
from results.models import VersionedUpload

Source = VersionedUpload.Source
START = timezone.now() - datetime.timedelta(hours=3)


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def event(mbsz):
    return sample.event_with_pairs(mbsz, pairs=10, title="Rétegek", start=START)


@pytest.fixture
def director(make_user, event):
    return make_user("td@example.hu", kind=Role.DIRECTOR, event=event)


@pytest.fixture
def session(event):
    return setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )


@pytest.fixture
def rows(session):
    return sample.play(session, random.Random(11))


def text_of(session, rows, kind):
    return sample.pbn_text(session, rows) if kind == "pbn" else sample.csv_text(session, rows)


def parse(text, kind):
    return uploads.parse_pbn(text) if kind == "pbn" else uploads.parse_csv(text)


@pytest.fixture
def uploaded(event, session, rows, director):
    uploads.upload(session, parse(sample.csv_text(session, rows), "csv"), source=Source.CSV, user=director)
    recompute_event(event.pk)
    return session


def standings(session):
    return sorted(
        SessionStanding.objects.filter(session=session).values_list("pair__number", "total", "penalty")
    )


def counts():
    return ResultVersion.objects.count(), BoardResult.objects.count(), VersionDecision.objects.count()


def latest_row(session, board, ns_id, ew_id):
    return BoardResult.objects.get(
        version=versions.latest_version(session), board=board, ns_id=ns_id, ew_id=ew_id
    )


def played_row(rows, board=None):
    return next(
        r for r in rows if r["contract"] not in ("", "Pass") and (board is None or r["board"] == board)
    )


def correct(session, director, make_user, row):
    """A player's request approved by the director: one more trick on `row`."""
    session = setup.publish(session, director)
    seat = SessionPair.objects.get(pk=row["ns_id"])
    user = make_user("player@example.hu")
    request = corrections.request_correction(
        session,
        board=row["board"],
        ns=seat,
        ew=SessionPair.objects.get(pk=row["ew_id"]),
        requester=seat,
        contract=row["contract"],
        declarer=row["declarer"],
        result=str(row["tricks"] + 1 if row["tricks"] < 13 else row["tricks"] - 1),
        reason="elírás",
        user=user,
    )
    request = corrections.decide(request, approve=True, user=director)
    recompute_event(session.event_id)
    return request


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["csv", "pbn"])
def test_a_reupload_keeps_an_approved_correction(event, uploaded, rows, director, make_user, kind):
    row = played_row(rows)
    request = correct(uploaded, director, make_user, row)
    corrected = standings(uploaded)
    fixed = latest_row(uploaded, row["board"], row["ns_id"], row["ew_id"])
    assert fixed.tricks != row["tricks"]
    before = counts()

    with pytest.raises(decisions.DecisionsPending) as pending:
        uploads.upload(uploaded, parse(text_of(uploaded, rows, kind), kind), source=kind, user=director)
    assert counts() == before  # nothing stored
    [item] = decisions.describe(uploaded, pending.value.affected)
    assert item["id"] == request.version_id and item["kind"] == "correction"
    assert item["label"] == f"correction #{request.pk}"
    [conflict] = item["conflicts"]
    assert conflict["board"] == row["board"] and conflict["upload"]["tricks"] == row["tricks"]
    assert conflict["decision"]["tricks"] == fixed.tricks

    version = uploads.upload(
        uploaded,
        parse(text_of(uploaded, rows, kind), kind),
        source=kind,
        user=director,
        resolutions={request.version_id: "keep"},
    )
    recompute_event(event.pk)
    assert latest_row(uploaded, row["board"], row["ns_id"], row["ew_id"]).tricks == fixed.tricks
    assert standings(uploaded) == corrected
    assert [(r.decision_id, r.action) for r in version.decisions.all()] == [(request.version_id, "kept")]
    assert [d["label"] for d in decisions.summary(version)] == [f"correction #{request.pk}"]

    # the next upload still sees it in force, through the version that kept it
    with pytest.raises(decisions.DecisionsPending):
        uploads.upload(uploaded, parse(text_of(uploaded, rows, kind), kind), source=kind, user=director)


@pytest.mark.django_db
def test_setting_aside_drops_the_correction_and_records_who_and_why(
    event, uploaded, rows, director, make_user
):
    original = standings(uploaded)
    row = played_row(rows)
    request = correct(uploaded, director, make_user, row)
    text = sample.csv_text(uploaded, rows)
    with pytest.raises(uploads.UploadError, match="give the reason"):
        uploads.upload(
            uploaded,
            parse(text, "csv"),
            source="csv",
            user=director,
            resolutions={request.version_id: "set_aside"},
        )
    with pytest.raises(uploads.UploadError, match="not one this upload affects"):
        uploads.upload(
            uploaded, parse(text, "csv"), source="csv", user=director, resolutions={"999999": "keep"}
        )
    version = uploads.upload(
        uploaded,
        parse(text, "csv"),
        source="csv",
        user=director,
        resolutions={request.version_id: "set_aside"},
        reasons={request.version_id: "a helyes eredmény a fájlban van"},
    )
    recompute_event(event.pk)
    assert latest_row(uploaded, row["board"], row["ns_id"], row["ew_id"]).tricks == row["tricks"]
    assert standings(uploaded) == original
    record = version.decisions.get()
    assert (record.decision_id, record.action, record.reason) == (
        request.version_id,
        "set_aside",
        "a helyes eredmény a fájlban van",
    )
    assert record.version.uploaded_by == director
    assert decisions.in_force(version) == []
    # set aside: the next upload of the same file asks nothing
    uploads.upload(uploaded, parse(text, "csv"), source="csv", user=director)


@pytest.fixture
def client_of(client):
    def login(user):
        client.force_login(user)
        return client

    return login


def post_file(client, session, text, name, kind):
    return client.post(
        reverse("bridge_upload", args=[session.pk]),
        {"format": kind, "file": SimpleUploadedFile(name, text.encode()), "note": "újra"},
    )


@pytest.mark.django_db
def test_an_appeal_ruling_survives_a_pbn_reupload_on_the_page(event, uploaded, rows, director, client_of):
    row = played_row(rows)
    ruling = apply_ruling(
        uploaded, row["board"], SessionPair.objects.get(pk=row["ns_id"]), SessionPair.objects.get(pk=row["ew_id"]),
        artificial="A+/A-", reason="FA-1: jogosulatlan információ", user=director, source="appeal",
    )  # fmt: skip
    recompute_event(event.pk)
    ruled = standings(uploaded)
    before = counts()
    client = client_of(director)

    response = post_file(client, uploaded, sample.pbn_text(uploaded, rows), "session.pbn", "pbn")
    assert response.status_code == 302 and response.url == reverse(
        "bridge_upload_confirm", args=[uploaded.pk]
    )
    assert counts() == before
    page = client.get(response.url)
    assert page.status_code == 200
    html = page.content.decode()
    assert "A+/A-" in html and "FA-1" in html  # the page is in Hungarian
    assert f'name="decision-{ruling.pk}"' in html and 'value="keep" checked' in html
    assert counts() == before

    done = client.post(response.url, {"base": ruling.pk, f"decision-{ruling.pk}": "reconfirm"})
    assert done.status_code == 302 and done.url == reverse("bridge_session", args=[uploaded.pk])
    recompute_event(event.pk)
    assert standings(uploaded) == ruled
    latest = versions.latest_version(uploaded)
    assert latest.source == "pbn" and latest.decisions.get().action == "reconfirmed"
    assert latest_row(uploaded, row["board"], row["ns_id"], row["ew_id"]).artificial == "A+/A-"
    # the kept upload is gone from the Django session
    assert client.get(reverse("bridge_upload_confirm", args=[uploaded.pk])).status_code == 302
    # the session page says what the standings reflect
    with translation.override("hu"):
        [label] = [d["label"] for d in decisions.summary(latest)]
    assert label in client.get(reverse("bridge_session", args=[uploaded.pk])).content.decode()


@pytest.mark.django_db
def test_abandoning_the_confirmation_stores_nothing(event, uploaded, rows, director, make_user, client_of):
    correct(uploaded, director, make_user, played_row(rows))
    before = counts()
    client = client_of(director)
    response = post_file(client, uploaded, sample.csv_text(uploaded, rows), "session.csv", "csv")
    assert response.status_code == 302 and counts() == before
    gone = client.post(response.url, {"abandon": "1"})
    assert gone.status_code == 302 and gone.url == reverse("bridge_upload", args=[uploaded.pk])
    assert counts() == before
    assert client.get(response.url).url == reverse("bridge_upload", args=[uploaded.pk])


@pytest.mark.django_db
def test_the_confirmation_rechecks_what_changed_meanwhile(
    event, uploaded, rows, director, make_user, client_of
):
    row = played_row(rows)
    request = correct(uploaded, director, make_user, row)
    client = client_of(director)
    response = post_file(client, uploaded, sample.csv_text(uploaded, rows), "session.csv", "csv")
    other = next(r for r in rows if r["board"] != row["board"])
    ruling = apply_ruling(
        uploaded, other["board"], SessionPair.objects.get(pk=other["ns_id"]),
        SessionPair.objects.get(pk=other["ew_id"]), artificial="A", reason="lassú játék", user=director,
        source="adjustment",
    )  # fmt: skip
    before = counts()
    stale = client.post(response.url, {"base": request.version_id, f"decision-{request.version_id}": "keep"})
    assert stale.status_code == 409 and counts() == before
    html = stale.content.decode()
    assert 'id="decisions-changed"' in html
    assert f'name="decision-{ruling.pk}"' in html and f'name="decision-{request.version_id}"' in html
    done = client.post(
        response.url,
        {"base": ruling.pk, f"decision-{request.version_id}": "keep", f"decision-{ruling.pk}": "keep"},
    )
    assert done.status_code == 302
    latest = versions.latest_version(uploaded)
    assert latest_row(uploaded, other["board"], other["ns_id"], other["ew_id"]).artificial == "A"
    assert {r.decision_id for r in latest.decisions.all()} == {request.version_id, ruling.pk}


@pytest.mark.django_db
def test_the_traveller_asks_too(event, uploaded, rows, director, make_user, client_of):
    row = played_row(rows)
    request = correct(uploaded, director, make_user, row)
    labels = sample.pair_labels(uploaded)
    lines = [r for r in rows if r["board"] == row["board"]]
    data = {"line-TOTAL_FORMS": len(lines), "line-INITIAL_FORMS": 0, "note": ""}
    for i, r in enumerate(lines):
        data.update(
            {
                f"line-{i}-ns": labels[r["ns_id"]],
                f"line-{i}-ew": labels[r["ew_id"]],
                f"line-{i}-contract": r["contract"],
                f"line-{i}-declarer": r["declarer"],
                f"line-{i}-result": "" if r["tricks"] is None else r["tricks"],
                f"line-{i}-score": "" if r["score"] is None else r["score"],
            }
        )
    client = client_of(director)
    before = counts()
    response = client.post(reverse("bridge_traveller", args=[uploaded.pk, row["board"]]), data)
    assert response.status_code == 302 and response.url == reverse(
        "bridge_upload_confirm", args=[uploaded.pk]
    )
    assert counts() == before
    with translation.override("hu"):
        label = decisions.label_of(request.version, "correction")
    assert label in client.get(response.url).content.decode()
    client.post(response.url, {"base": request.version_id, f"decision-{request.version_id}": "keep"})
    assert versions.latest_version(uploaded).source == "form"
    fixed = latest_row(uploaded, row["board"], row["ns_id"], row["ew_id"])
    assert fixed.tricks != row["tricks"]


def api_upload(api, session, text, name="session.csv", **extra):
    return api.post(
        f"/api/v1/bridge/sessions/{session.pk}/upload/",
        {"file": SimpleUploadedFile(name, text.encode()), **extra},
        format="multipart",
    )


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["csv", "pbn"])
def test_the_api_answers_409_with_the_artificial_score_and_takes_the_resolution(
    event, uploaded, rows, director, kind
):
    row = played_row(rows)
    ns, ew = SessionPair.objects.get(pk=row["ns_id"]), SessionPair.objects.get(pk=row["ew_id"])
    ruling = apply_ruling(
        uploaded,
        row["board"],
        ns,
        ew,
        artificial="A+/A-",
        reason="kártyahiba",
        user=director,
        source="adjustment",
    )
    recompute_event(event.pk)
    ruled = standings(uploaded)
    api = APIClient()
    api.force_authenticate(director)
    text, name = text_of(uploaded, rows, kind), f"session.{kind}"
    before = counts()

    answer = api_upload(api, uploaded, text, name)
    assert answer.status_code == 409 and counts() == before
    body = answer.json()
    assert body["base_version"] == ruling.pk and body["changed"] is False
    [item] = body["decisions"]
    assert item["id"] == ruling.pk and item["kind"] == "artificial_score" and item["reason"] == "kártyahiba"
    assert item["by"] == "td@example.hu"
    [conflict] = item["conflicts"]
    assert conflict["board"] == row["board"]
    assert (conflict["ns"]["id"], conflict["ew"]["id"]) == (ns.pk, ew.pk)
    assert conflict["ns"]["number"] == str(ns.number) and conflict["ns"]["name"] == ns.pair.display_name
    assert conflict["upload"]["contract"] == row["contract"] and conflict["decision"]["artificial"] == "A+/A-"

    bad = api_upload(api, uploaded, text, name, decisions=json.dumps({ruling.pk: "set_aside"}))
    assert (
        bad.status_code == 400 and "miért ejti el" in bad.json()["errors"][0] and counts() == before
    )  # Hungarian API
    stale = api_upload(
        api, uploaded, text, name, decisions=json.dumps({ruling.pk: "keep"}), base_version=ruling.pk - 1
    )
    assert stale.status_code == 409 and stale.json()["changed"] is True and counts() == before
    wrong = api_upload(api, uploaded, text, name, decisions="[1]")
    assert wrong.status_code == 400 and counts() == before

    done = api_upload(
        api, uploaded, text, name, decisions=json.dumps({ruling.pk: "keep"}), base_version=ruling.pk
    )
    assert done.status_code == 201
    recompute_event(event.pk)
    assert standings(uploaded) == ruled
    assert latest_row(uploaded, row["board"], ns.pk, ew.pk).artificial == "A+/A-"


@pytest.mark.django_db
def test_a_board_penalty_is_carried_kept_or_set_aside(event, uploaded, rows, director):
    row = played_row(rows)
    ns = SessionPair.objects.get(pk=row["ns_id"])
    penalty = apply_ruling(
        uploaded,
        None,
        penalties=[(ns, 25, row["board"])],
        reason="lassú játék",
        user=director,
        source="adjustment",
    )
    recompute_event(event.pk)
    penalised = standings(uploaded)
    assert dict((n, p) for n, _t, p in penalised)[ns.number] > 0
    api = APIClient()
    api.force_authenticate(director)

    # the same file does not change the penalised board: the penalty is carried silently
    same = api_upload(api, uploaded, sample.csv_text(uploaded, rows))
    assert same.status_code == 201
    recompute_event(event.pk)
    assert standings(uploaded) == penalised
    assert versions.latest_version(uploaded).decisions.get().action == "carried"

    # a file with another result on that board asks
    changed = [
        {**r, "contract": "", "declarer": "", "tricks": None, "score": 50} if r is row else r for r in rows
    ]
    text = sample.csv_text(uploaded, changed)
    answer = api_upload(api, uploaded, text)
    assert answer.status_code == 409
    [item] = answer.json()["decisions"]
    assert item["id"] == penalty.pk and item["kind"] == "penalty"
    assert item["conflicts"][0]["decision"] == {"penalty_percent": "25.00"}
    kept_penalty = api_upload(api, uploaded, text, decisions=json.dumps({penalty.pk: "keep"}))
    assert kept_penalty.status_code == 201
    assert versions.penalties_of(versions.latest_version(uploaded))[0]["percent"] == Decimal("25.00")

    # set aside, on a file that changes the board again
    where = (row["board"], row["ns_id"], row["ew_id"])
    text = sample.csv_text(
        uploaded,
        [{**r, "score": 100} if (r["board"], r["ns_id"], r["ew_id"]) == where else r for r in changed],
    )
    again = api_upload(
        api,
        uploaded,
        text,
        decisions=json.dumps({penalty.pk: "set_aside"}),
        reasons=json.dumps({penalty.pk: "a táblán nem volt lassú játék"}),
    )
    assert again.status_code == 201, again.json()
    recompute_event(event.pk)
    latest = versions.latest_version(uploaded)
    assert versions.penalties_of(latest) == []
    assert dict((n, p) for n, _t, p in standings(uploaded))[ns.number] == 0
    assert latest.decisions.get().reason == "a táblán nem volt lassú játék"


@pytest.mark.django_db
def test_a_session_penalty_and_a_withdrawal_survive_and_a_correction_is_kept(
    event, session, rows, director, make_user
):
    """Pair 1 withdraws after 2 rounds (its results are deleted, VSz 25); a correction and a session penalty
    are in force.
    Re-uploading the whole file (with pair 1's rows) asks about the correction only; the withdrawn pair is
    still handled by VSz 25 and the penalty still counts."""
    gone = SessionPair.objects.get(section__session=session, number=1)
    plan = session.sections.get().plan()
    later = {b for a in plan.assignments if a.round > 2 and 1 in (a.ns, a.ew) for b in a.boards}
    rows = [r for r in rows if not (r["board"] in later and gone.pk in (r["ns_id"], r["ew_id"]))]
    uploads.upload(session, parse(sample.csv_text(session, rows), "csv"), source="csv", user=director)
    recompute_event(event.pk)
    row = next(
        r for r in rows if gone.pk not in (r["ns_id"], r["ew_id"]) and r["contract"] not in ("", "Pass")
    )
    request = correct(session, director, make_user, row)
    other = SessionPair.objects.get(section__session=session, number=3)
    apply_ruling(session, None, penalties=[(other, 10)], reason="késés", user=director, source="adjustment")
    roster.record_withdrawal(session, gone.pair, director)
    recompute_event(event.pk)
    before = standings(session)
    assert gone.number not in {n for n, *_rest in before}

    with pytest.raises(decisions.DecisionsPending) as pending:
        uploads.upload(session, parse(sample.csv_text(session, rows), "csv"), source="csv", user=director)
    assert [a.decision.pk for a in pending.value.affected] == [request.version_id]
    version = uploads.upload(
        session,
        parse(sample.csv_text(session, rows), "csv"),
        source="csv",
        user=director,
        resolutions={request.version_id: "keep"},
    )
    recompute_event(event.pk)
    assert standings(session) == before
    # the penalty and the withdrawal's version are carried, the correction kept: every one is on the record
    assert sorted(version.decisions.values_list("action", flat=True)) == ["carried", "carried", "kept"]


@pytest.mark.django_db
def test_the_history_shows_the_diff_and_restores_a_version(
    event, uploaded, rows, director, make_user, client_of
):
    row = played_row(rows)
    request = correct(uploaded, director, make_user, row)
    client = client_of(director)
    page = client.get(reverse("bridge_versions", args=[uploaded.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    with translation.override("hu"):
        label = decisions.label_of(request.version, "correction")
    assert 'id="version-2"' in html and label in html
    diff = decisions.diff(
        ResultVersion.objects.get(session=uploaded, number=1), versions.latest_version(uploaded)
    )
    [(old, new)] = diff.changed
    assert (old["board"], old["tricks"], new["tricks"]) == (row["board"], row["tricks"], new["tricks"])
    assert new["tricks"] != row["tricks"] and not diff.added and not diff.removed
    assert f'{old["result"]}</td><td class="text-nowrap">{new["result"]}' in html

    restore_url = reverse("bridge_version_restore", args=[uploaded.pk, 1])
    before = counts()
    ask = client.get(restore_url)
    assert ask.status_code == 200 and f'name="decision-{request.version_id}"' in ask.content.decode()
    assert counts() == before
    refused = client.post(
        restore_url, {"base": request.version_id, f"decision-{request.version_id}": "set_aside"}
    )
    assert refused.status_code == 400 and counts() == before
    done = client.post(
        restore_url,
        {
            "base": request.version_id,
            f"decision-{request.version_id}": "set_aside",
            f"reason-{request.version_id}": "x",
        },
    )
    assert done.status_code == 302
    restored = versions.latest_version(uploaded)
    assert restored.source == "restore" and restored.number == 3
    assert versions.rows_of(restored) == versions.rows_of(
        ResultVersion.objects.get(session=uploaded, number=1)
    )
    assert restored.decisions.get().action == "set_aside"

    # restoring version 2 brings the correction back: it is part of that version
    client.post(reverse("bridge_version_restore", args=[uploaded.pk, 2]), {"base": restored.pk})
    again = versions.latest_version(uploaded)
    assert (
        again.number == 4
        and latest_row(uploaded, row["board"], row["ns_id"], row["ew_id"]).tricks == new["tricks"]
    )
    assert [(r.decision_id, r.action) for r in again.decisions.all()] == [(request.version_id, "carried")]


@pytest.mark.django_db
def test_players_and_visitors_may_not_see_the_history_or_restore(
    event, uploaded, director, make_user, client
):
    setup.publish(uploaded, director)
    urls = (
        reverse("bridge_versions", args=[uploaded.pk]),
        reverse("bridge_version_restore", args=[uploaded.pk, 1]),
        reverse("bridge_upload_confirm", args=[uploaded.pk]),
    )
    for url in urls:
        assert client.get(url).status_code == 302  # a visitor is sent to log in
        assert client.post(url, {}).status_code == 302
    client.force_login(make_user("p@example.hu"))
    for url in urls:
        assert client.get(url).status_code == 403
        assert client.post(url, {}).status_code == 403
    assert ResultVersion.objects.filter(session=uploaded).count() == 1


@pytest.mark.django_db
def test_the_testers_two_table_howell(mbsz, make_user):
    """The defect as reported: PBN (v1), a correction approved (v2), a CSV (v3) lost it; a ruling (v5), the
    PBN again (v6) put the standings back. Now both uploads ask, and kept decisions stay in the standings."""
    event = sample.event_with_pairs(mbsz, pairs=4, title="Kéttáblás Howell", start=START)
    director = make_user("td@example.hu", kind=Role.DIRECTOR, event=event)
    session = setup.create_session(
        event, movement="howell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )
    rows = sample.play(session, random.Random(3))
    pbn, csv = sample.pbn_text(session, rows), sample.csv_text(session, rows)
    uploads.upload(session, uploads.parse_pbn(pbn), source="pbn", user=director)
    recompute_event(event.pk)
    row = played_row(rows)
    request = correct(session, director, make_user, row)
    corrected = standings(session)
    fixed = latest_row(session, row["board"], row["ns_id"], row["ew_id"]).tricks
    assert fixed != row["tricks"]
    with pytest.raises(decisions.DecisionsPending):
        uploads.upload(session, uploads.parse_csv(csv), source="csv", user=director)
    uploads.upload(
        session, uploads.parse_csv(csv), source="csv", user=director, resolutions={request.version_id: "keep"}
    )
    recompute_event(event.pk)
    assert standings(session) == corrected
    assert latest_row(session, row["board"], row["ns_id"], row["ew_id"]).tricks == fixed

    other = next(r for r in rows if r["board"] != request.board)
    ruling = apply_ruling(
        session, other["board"], SessionPair.objects.get(pk=other["ns_id"]),
        SessionPair.objects.get(pk=other["ew_id"]), artificial="A", reason="FA-2", user=director, source="appeal",
    )  # fmt: skip
    recompute_event(event.pk)
    ruled = standings(session)
    with pytest.raises(decisions.DecisionsPending) as pending:
        uploads.upload(session, uploads.parse_pbn(pbn), source="pbn", user=director)
    assert {a.decision.pk for a in pending.value.affected} == {request.version_id, ruling.pk}
    version = uploads.upload(
        session,
        uploads.parse_pbn(pbn),
        source="pbn",
        user=director,
        resolutions={request.version_id: "keep", ruling.pk: "keep"},
    )
    recompute_event(event.pk)
    assert standings(session) == ruled
    assert latest_row(session, row["board"], row["ns_id"], row["ew_id"]).tricks == fixed
    assert latest_row(session, other["board"], other["ns_id"], other["ew_id"]).artificial == "A"
    assert [d["decision"].pk for d in decisions.summary(version)] == [request.version_id, ruling.pk]
