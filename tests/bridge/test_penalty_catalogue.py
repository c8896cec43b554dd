"""Procedural penalties from the VSz 32 catalogue with each offence's maximum, "other" free (VSz 32 h), and
lateness (VSz 30) as the artificial scores VSz 29 gives the boards a late pair could not play."""

import datetime
import random
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from bridge.engine.scoring.adjusted import PENALTY_CATALOGUE, PenaltyOutOfRange, check_penalty
from bridge.models import BoardScore, ResultPenalty, SessionStanding
from bridge.services import setup, upload_readers, uploads, versions
from bridge.services.adjustments import RulingError, apply_ruling
from bridge.services.compute import recompute_event
from demo import bridge_sample as sample
from federation.models import Role
from results.models import VersionedUpload

D = Decimal
START = timezone.now() - datetime.timedelta(hours=3)


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.mark.parametrize(
    ("code", "high"),
    [
        ("leaving_table", 50),
        ("wrong_or_missing_score", 50),
        ("wrong_board", 25),
        ("board_without_13_cards", 25),
        ("taking_other_cards", 50),
        ("early_card_exchange", 25),
        ("incomplete_convention_card", 50),
        ("missing_convention_card", 100),
    ],
)
def test_the_catalogue_has_the_vsz_32_maximum(code, high):
    assert PENALTY_CATALOGUE[code].high == high
    assert check_penalty(code, D(high)).code == code
    with pytest.raises(PenaltyOutOfRange):
        check_penalty(code, D(high) + D("0.5"))


def test_a_missing_convention_card_costs_at_least_half_a_top():
    with pytest.raises(PenaltyOutOfRange):
        check_penalty("missing_convention_card", D(40))
    assert check_penalty("missing_convention_card", D(50)).clause == "VSz 32 g"


@pytest.fixture
def event(mbsz):
    return sample.event_with_pairs(mbsz, pairs=10, title="Büntetések", start=START)


@pytest.fixture
def director(make_user, event):
    return make_user("td@example.hu", kind=Role.DIRECTOR, event=event)


@pytest.fixture
def session(event, director):
    session = setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )
    rows = sample.play(session, random.Random(3))
    uploads.upload(
        session,
        upload_readers.parse_csv(sample.csv_text(session, rows)),
        source=VersionedUpload.Source.CSV,
        user=director,
    )
    recompute_event(event.pk)
    return session


def a_row(session, board=3):
    return BoardScore.objects.filter(session=session, board=board).select_related("ns", "ew").first()


@pytest.mark.django_db
def test_over_the_maximum_is_refused_and_within_it_is_kept_with_its_offence(event, session, director):
    row = a_row(session)
    before = versions.latest_version(session).number
    with pytest.raises(
        RulingError, match=r"VSz 32 c: the penalty for playing the wrong board is 0-25% of the top"
    ):
        apply_ruling(
            session, row.board, penalties=[(row.ns, 30, row.board, "wrong_board")], reason="rossz tok",
            user=director, source="adjustment",
        )  # fmt: skip
    assert versions.latest_version(session).number == before
    total = SessionStanding.objects.get(pair=row.ns).total
    apply_ruling(
        session, row.board, penalties=[(row.ns, 25, row.board, "wrong_board")], reason="rossz tok",
        user=director, source="adjustment",
    )  # fmt: skip
    penalty = ResultPenalty.objects.get(version=versions.latest_version(session))
    assert (penalty.code, penalty.percent, penalty.reason) == (
        "wrong_board",
        D(25),
        "VSz 32 c: playing the wrong board",
    )
    recompute_event(event.pk)
    assert SessionStanding.objects.get(pair=row.ns).total == total - D(2)  # 25% of the top of 8


@pytest.mark.django_db
def test_other_is_the_free_percentage(event, session, director):
    row = a_row(session)
    apply_ruling(
        session, None, penalties=[(row.ew, 80, None, "other")], reason="sportszerűtlen", user=director,
        source="adjustment",
    )  # fmt: skip
    assert ResultPenalty.objects.get(version=versions.latest_version(session)).percent == D(80)


@pytest.fixture
def client_of(client):
    def login(user):
        client.force_login(user)
        return client

    return login


@pytest.mark.django_db
@pytest.mark.usefixtures("english_pages")
def test_the_page_picks_the_offence_and_gives_lateness(event, session, director, client_of):
    client = client_of(director)
    url = reverse("bridge_adjust", args=[session.pk])
    html = client.get(url).content.decode()
    assert 'name="penalty_offence"' in html and "VSz 32 c: playing the wrong board (up to 25%)" in html
    assert "fouling_duplication" not in html  # the fouling penalties are given on the fouled-board page
    row = a_row(session)
    number = versions.latest_version(session).number
    common = {"board": row.board, "reason": "x", "penalty_pair": row.ns.pk, "penalty_on_board": "on"}
    no_offence = client.post(url, {**common, "penalty_percent": "10"})
    assert "Choose the offence from the catalogue" in no_offence.content.decode()
    too_much = client.post(url, {**common, "penalty_percent": "60", "penalty_offence": "leaving_table"})
    assert "is 0-50% of the top, not 60" in too_much.content.decode()
    assert versions.latest_version(session).number == number
    # VSz 30: E-W came late, no vis major: average-minus to them, average-plus to N-S.
    late = client.post(
        url, {"board": row.board, "ns": row.ns.pk, "ew": row.ew.pk, "lateness": "EW", "reason": "késés"}
    )
    assert late.status_code == 302
    latest = versions.latest_version(session)
    assert latest.results.get(board=row.board, ns=row.ns).artificial == "A+/A-"
    recompute_event(event.pk)
    scored = BoardScore.objects.get(session=session, board=row.board, ns=row.ns)
    assert scored.pct_ew == D(40) and scored.pct_ns >= D(60)
