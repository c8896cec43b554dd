"""Total-points scoring (Law 78C) chosen on the event's setup page: a pair's total is the sum of its scores."""

import datetime
import random
from collections import defaultdict
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from bridge.engine.scoring.session import Entry, score_session
from bridge.models import PairEvent, SessionStanding
from bridge.services import setup, upload_readers, uploads, versions
from bridge.services.compute import recompute_event
from demo import bridge_sample as sample
from federation.models import Role
from results.models import VersionedUpload

START = timezone.now() - datetime.timedelta(hours=3)


def test_the_engine_adds_the_scores():
    boards = {
        1: [Entry("1", "2", 420), Entry("3", "4", -50)],
        2: [Entry("1", "4", 100), Entry("3", "2", -620)],
    }
    score = score_session(boards, method="total")
    assert {p: t.total for p, t in score.pairs.items()} == {
        "1": Decimal(520), "2": Decimal(200), "3": Decimal(-670), "4": Decimal(-50)
    }  # fmt: skip
    # a Mitchell: each line ranked on its own, N-S 1 and 3, E-W 2 and 4
    assert [(p.pair, p.place) for p in score.ranking] == [("1", "1"), ("3", "2"), ("2", "1"), ("4", "2")]


def test_an_average_is_nought_and_average_plus_has_no_points():
    score = score_session(
        {1: [Entry("1", "2", None, artificial=_award("A")), Entry("3", "4", 50)]}, method="total"
    )
    assert score.pairs["1"].total == 0 and score.pairs["3"].total == 50
    with pytest.raises(ValueError, match="board 1: total-points scoring has no points for A\\+/A-"):
        score_session({1: [Entry("1", "2", None, artificial=_award("A+/A-"))]}, method="total")


def _award(text):
    from bridge.engine.scoring.adjusted import ArtificialScore

    return ArtificialScore.parse(text)


@pytest.mark.django_db
def test_the_director_chooses_total_points_and_the_standings_follow(mbsz, make_user, client):
    event = sample.event_with_pairs(mbsz, pairs=8, title="Összpontos", start=START)
    director = make_user("td@example.hu", kind=Role.DIRECTOR, event=event)
    session = setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )
    rows = sample.play(session, random.Random(2))
    uploads.upload(
        session,
        upload_readers.parse_csv(sample.csv_text(session, rows)),
        source=VersionedUpload.Source.CSV,
        user=director,
    )
    recompute_event(event.pk)
    assert setup.pair_event(event).method == PairEvent.Method.MATCHPOINTS  # the default
    client.force_login(director)
    with translation.override("en"):
        done = client.post(
            reverse("bridge_setup", args=[event.pk]),
            {"settings": "1", "settings-method": "total", "settings-scale": "2", "settings-rounding": "computer",
             "settings-tie_break": "shared"},
        )  # fmt: skip
    assert done.status_code == 302
    assert setup.pair_event(event).method == PairEvent.Method.TOTAL_POINTS
    recompute_event(event.pk)
    expected = defaultdict(int)
    for r in versions.rows_of(versions.latest_version(session)):
        if r["score"] is not None:
            expected[r["ns_id"]] += r["score"]
            expected[r["ew_id"]] -= r["score"]
    got = dict(SessionStanding.objects.filter(session=session).values_list("pair_id", "total"))
    assert got == {pair: Decimal(total) for pair, total in expected.items()}
    best = SessionStanding.objects.filter(session=session, field="NS").order_by("order").first()
    assert best.total == max(v for k, v in got.items() if k in {r["ns_id"] for r in rows})
