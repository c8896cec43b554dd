"""What the decision-layer tests share: reading the standings and rows, a player's approved correction, posting a file on the page and the API."""

import datetime

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from bridge.models import BoardResult, ResultVersion, SessionPair, SessionStanding, VersionDecision
from bridge.services import corrections, setup, upload_readers, versions
from bridge.services.compute import recompute_event
from demo import bridge_sample as sample
from results.models import VersionedUpload

Source = VersionedUpload.Source
START = timezone.now() - datetime.timedelta(hours=3)


def text_of(session, rows, kind):
    return sample.pbn_text(session, rows) if kind == "pbn" else sample.csv_text(session, rows)


def parse(text, kind):
    return upload_readers.parse_pbn(text) if kind == "pbn" else upload_readers.parse_csv(text)


def standings(session):
    return sorted(
        SessionStanding.objects.filter(session=session).values_list("pair__number", "total", "penalty")
    )


def counts():
    return ResultVersion.objects.count(), BoardResult.objects.count(), VersionDecision.objects.count()


def latest_row(session, board, ns_id, ew_id):
    return versions.results_of(versions.latest_version(session)).get(board=board, ns_id=ns_id, ew_id=ew_id)


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


def post_file(client, session, text, name, kind):
    return client.post(
        reverse("bridge_upload", args=[session.pk]),
        {"format": kind, "file": SimpleUploadedFile(name, text.encode()), "note": "újra"},
    )


def api_upload(api, session, text, name="session.csv", **extra):
    return api.post(
        f"/api/v1/bridge/sessions/{session.pk}/upload/",
        {"file": SimpleUploadedFile(name, text.encode()), **extra},
        format="multipart",
    )
