"""The version history: the diff between versions, restoring one, who may see it; and the tester's two-table Howell as reported."""

import random

import pytest
from django.urls import reverse
from django.utils import translation

from bridge.models import ResultVersion, SessionPair
from bridge.services import decisions, setup, upload_readers, uploads, versions
from bridge.services.adjustments import apply_ruling
from bridge.services.compute import recompute_event
from demo import bridge_sample as sample
from federation.models import Role
from tests.bridge.decisions.helpers import START, correct, counts, latest_row, played_row, standings


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
    uploads.upload(session, upload_readers.parse_pbn(pbn), source="pbn", user=director)
    recompute_event(event.pk)
    row = played_row(rows)
    request = correct(session, director, make_user, row)
    corrected = standings(session)
    fixed = latest_row(session, row["board"], row["ns_id"], row["ew_id"]).tricks
    assert fixed != row["tricks"]
    with pytest.raises(decisions.DecisionsPending):
        uploads.upload(session, upload_readers.parse_csv(csv), source="csv", user=director)
    uploads.upload(
        session,
        upload_readers.parse_csv(csv),
        source="csv",
        user=director,
        resolutions={request.version_id: "keep"},
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
        uploads.upload(session, upload_readers.parse_pbn(pbn), source="pbn", user=director)
    assert {a.decision.pk for a in pending.value.affected} == {request.version_id, ruling.pk}
    version = uploads.upload(
        session,
        upload_readers.parse_pbn(pbn),
        source="pbn",
        user=director,
        resolutions={request.version_id: "keep", ruling.pk: "keep"},
    )
    recompute_event(event.pk)
    assert standings(session) == ruled
    assert latest_row(session, row["board"], row["ns_id"], row["ew_id"]).tricks == fixed
    assert latest_row(session, other["board"], other["ns_id"], other["ew_id"]).artificial == "A"
    assert [d["decision"].pk for d in decisions.summary(version)] == [request.version_id, ruling.pk]
