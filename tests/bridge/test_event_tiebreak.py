"""An announced tie-break through the recompute: "3-4" becomes 3 and 4 in session and final standings."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from bridge.models import EventStanding, PairEvent, SessionStanding
from bridge.services import setup, upload_readers, uploads
from bridge.services.compute import recompute_event
from demo import bridge_sample as sample
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
    uploads.upload(howell, upload_readers.parse_csv(CSV), source=VersionedUpload.Source.CSV, user=director)
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


@pytest.mark.django_db
def test_the_api_reads_and_sets_the_tie_break_and_the_standings_follow(
    client, event, session, director, django_capture_on_commit_callbacks
):
    recompute_event(event.pk)
    url = f"/api/v1/bridge/events/{event.pk}/settings/"
    read = client.get(url)  # a public event: anybody reads its settings, logged in or not
    assert read.status_code == 200
    assert read.json() == {
        "event": event.pk,
        "scoring_method": "mp",
        "scale": 2,
        "rounding": "computer",
        "tie_break": "shared",
    }
    client.force_login(director)
    with django_capture_on_commit_callbacks(execute=True) as queued:
        changed = client.patch(url, {"tie_break": "head_to_head"}, content_type="application/json")
    assert changed.status_code == 200 and changed.json()["tie_break"] == "head_to_head"
    assert setup.pair_event(event).tie_break == PairEvent.TieBreak.HEAD_TO_HEAD
    assert queued  # the recompute was queued (Celery runs eagerly in the tests) ...
    assert [p for _n, _t, p in session_places(session)] == ["1", "4", "2", "3"]  # ... and reran with it
    assert event_places(event, session) == [(1, "1"), (2, "4"), (3, "2"), (4, "3")]


@pytest.mark.django_db
def test_the_api_refuses_an_unknown_tie_break_and_changes_nothing(client, event, director):
    client.force_login(director)
    url = f"/api/v1/bridge/events/{event.pk}/settings/"
    for body in ({"tie_break": "coin_toss"}, {"tie_break": ""}, {"tie_break": None}):
        response = client.patch(url, body, content_type="application/json")
        assert response.status_code == 400 and "tie_break" in response.json(), body
    # Read-only fields are ignored, not written.
    response = client.patch(url, {"scoring_method": "butler", "scale": 1}, content_type="application/json")
    assert response.status_code == 200
    settings = setup.pair_event(event)
    assert (settings.tie_break, settings.method, settings.scale) == ("shared", "mp", 2)


@pytest.mark.django_db
def test_the_tie_break_is_announced_before_any_session_exists(client, mbsz, make_user):
    # Announced in advance (VSz 26): the event has no session and no results yet.
    event = sample.event_with_pairs(mbsz, pairs=4, title="Előre kiírt", start=START)
    client.force_login(make_user("td3@example.hu", kind=Role.DIRECTOR, event=event))
    url = f"/api/v1/bridge/events/{event.pk}/settings/"
    assert client.get(url).json()["tie_break"] == "shared"
    assert not PairEvent.objects.filter(event=event).exists()  # reading writes nothing
    response = client.patch(url, {"tie_break": "best_boards"}, content_type="application/json")
    assert response.status_code == 200 and setup.pair_event(event).tie_break == "best_boards"
    assert client.get(f"/api/v1/bridge/events/{event.pk}/").status_code == 404  # no results to list yet
    other = sample.event_with_pairs(mbsz, pairs=4, title="Csapat", start=START)
    other.format = other.Format.TEAMS
    other.save(update_fields=["format"])
    assert client.get(f"/api/v1/bridge/events/{other.pk}/settings/").status_code == 404  # not a pair event


@pytest.mark.django_db
@pytest.mark.parametrize("pk", ["AAA", "null,null", "1.5", "٣", "99999999999999999999"])
def test_a_malformed_event_id_is_a_404_not_a_500(client, director, pk):
    # Found by the schema fuzzer: the settings route took any path segment as the event id.
    client.force_login(director)
    assert client.get(f"/api/v1/bridge/events/{pk}/settings/").status_code == 404
    response = client.patch(
        f"/api/v1/bridge/events/{pk}/settings/", {"tie_break": "shared"}, content_type="application/json"
    )
    assert response.status_code == 404
