"""An announced tie-break through the recompute: "3-4" becomes 3 and 4 in session and final standings."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from bridge.models import EventStanding, PairEvent, SessionStanding
from bridge.services import sample, setup, uploads
from bridge.services.compute import recompute_event
from federation.models import Role
from results.models import VersionedUpload

START = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))

# The four-pair Howell of tests/bridge/test_tiebreak.py: pairs 1 and 3 total 7, pairs 2 and 4 total 5;
# head-to-head, pair 1 beat pair 3 and pair 4 beat pair 2 (3 matchpoints to 1 on boards 3-4).
CSV = """board;ns;ew;contract;declarer;lead;result;score
1;1;2;;;;;140
1;3;4;;;;;140
2;1;2;;;;;110
2;3;4;;;;;140
3;3;1;;;;;140
3;4;2;;;;;140
4;3;1;;;;;110
4;4;2;;;;;140
5;1;4;;;;;140
5;2;3;;;;;110
6;1;4;;;;;140
6;2;3;;;;;140
"""


@pytest.fixture
def event(mbsz):
    return sample.event_with_pairs(mbsz, pairs=4, title="Holtverseny", start=START)


@pytest.fixture
def director(make_user, event):
    return make_user("td@example.hu", kind=Role.DIRECTOR, event=event)


@pytest.fixture
def session(event, director):
    howell = setup.create_session(event, movement="uploaded", announced=event.sessions.first())
    uploads.upload(howell, uploads.parse_csv(CSV), source=VersionedUpload.Source.CSV, user=director)
    return howell


def session_places(session):
    return sorted(
        SessionStanding.objects.filter(session=session).values_list("pair__number", "total", "place")
    )


def event_places(event, session):
    numbers = dict(
        SessionStanding.objects.filter(session=session).values_list("pair__pair_id", "pair__number")
    )
    return sorted(
        (numbers[pair], place)
        for pair, place in EventStanding.objects.filter(event=event).values_list("pair_id", "place")
    )


@pytest.mark.django_db
def test_without_an_announced_method_equal_totals_share_the_place(event, session):
    recompute_event(event.pk)
    assert session_places(session) == [(1, 7, "1-2"), (2, 5, "3-4"), (3, 7, "1-2"), (4, 5, "3-4")]
    assert event_places(event, session) == [(1, "1-2"), (2, "3-4"), (3, "1-2"), (4, "3-4")]


@pytest.mark.django_db
def test_announced_head_to_head_separates_equal_totals(event, session):
    PairEvent.objects.update_or_create(event=event, defaults={"tie_break": PairEvent.TieBreak.HEAD_TO_HEAD})
    recompute_event(event.pk)
    assert session_places(session) == [(1, 7, "1"), (2, 5, "4"), (3, 7, "2"), (4, 5, "3")]
    assert event_places(event, session) == [(1, "1"), (2, "4"), (3, "2"), (4, "3")]


@pytest.mark.django_db
def test_best_boards_cannot_separate_these_pairs_so_they_still_share(event, session):
    # Pairs 2 and 4 each have one board above 50% and one top: still equal, the place is shared.
    PairEvent.objects.update_or_create(event=event, defaults={"tie_break": PairEvent.TieBreak.BEST_BOARDS})
    recompute_event(event.pk)
    assert [p for _n, _t, p in session_places(session)] == ["1-2", "3-4", "1-2", "3-4"]


@pytest.mark.django_db
def test_the_director_sets_the_method_and_the_standings_show_it(client, event, session, director):
    client.force_login(director)
    response = client.post(
        reverse("bridge_setup", args=[event.pk]),
        {
            "settings": "1",
            "settings-method": "mp",
            "settings-scale": "2",
            "settings-rounding": "computer",
            "settings-tie_break": "head_to_head",
        },
    )
    assert response.status_code == 302
    assert setup.pair_event(event).tie_break == "head_to_head"
    recompute_event(event.pk)
    assert [p for _n, _t, p in session_places(session)] == ["1", "4", "2", "3"]
    setup.publish(session, director)
    page = client.get(reverse("bridge_session", args=[session.pk])).content.decode()
    with translation.override("hu"):
        label = str(PairEvent.TieBreak.HEAD_TO_HEAD.label)
    assert 'id="tie-break"' in page and label in page
    page = client.get(reverse("bridge_event", args=[event.pk])).content.decode()
    assert 'id="tie-break"' in page and label in page
