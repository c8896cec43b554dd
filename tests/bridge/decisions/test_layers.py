"""Decisions survive every upload (issue #14): an approved correction, a board or session penalty and a withdrawal are layers re-applied on each new upload, kept or set aside with who and why."""

import json
from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from bridge.models import SessionPair
from bridge.services import decisions, roster, uploads, versions
from bridge.services.adjustments import apply_ruling
from bridge.services.compute import recompute_event
from demo import bridge_sample as sample
from tests.bridge.decisions.helpers import (
    api_upload,
    correct,
    counts,
    latest_row,
    parse,
    played_row,
    standings,
    text_of,
)


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
