"""The demo event: 14 teams, 7 Swiss rounds, a knockout of 8 with a consolation bracket, all through the
services; running it again changes nothing."""

import pytest

from demo import federation as federation_demo
from demo import teams as demo
from teams.models import FinalPlace, MatchUpload, PairButler, PlayerBoards, Round
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def test_demo_plays_a_whole_event_and_is_idempotent():
    federation_demo.seed()
    demo.seed()
    event = Event.objects.get(title=demo.TITLE)
    assert event.teams.count() == 14
    assert event.team_rounds.filter(kind=Round.Kind.STAGE).count() == 7
    assert event.team_rounds.filter(kind=Round.Kind.KNOCKOUT).count() == 3
    assert event.team_progress.is_final and FinalPlace.objects.filter(event=event).count() == 14
    assert set(MatchUpload.objects.filter(match__round__event=event).values_list("source", flat=True)) == {
        "pbn", "csv", "form", "correction"
    }  # fmt: skip
    assert PlayerBoards.objects.filter(event=event, has_rights=False).exists()  # a fifth player under 50%
    assert PairButler.objects.filter(event=event, rank=1).exists()
    uploads = MatchUpload.objects.count()
    demo.seed()
    assert MatchUpload.objects.count() == uploads and event.team_rounds.count() == 10
