"""An upload that touches a decision waits for the director (keep, re-confirm, set aside with a reason): on the page, for the traveller, and in the API (409)."""

import json

import pytest
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from bridge.models import SessionPair
from bridge.services import decisions, versions
from bridge.services.adjustments import apply_ruling
from bridge.services.compute import recompute_event
from demo import bridge_sample as sample
from tests.bridge.decisions.helpers import (
    api_upload,
    correct,
    counts,
    latest_row,
    played_row,
    post_file,
    standings,
    text_of,
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
