import datetime

import pytest

from results.services import mark_uploaded, recompute, state_of
from tournaments.models import Event


@pytest.fixture
def event(mbsz):
    return Event.objects.create(
        federation=mbsz, title="Páros", format="pairs", start_date=datetime.date(2026, 12, 1)
    )


@pytest.mark.django_db
def test_standings_say_processing_until_the_recompute_catches_up(event):
    assert state_of(event.pk, "bridge-pairs") is None
    assert mark_uploaded(event.pk, "bridge-pairs") == 1
    assert state_of(event.pk, "bridge-pairs").processing
    with recompute(event.pk, "bridge-pairs") as state:
        assert state.latest_version == 1
    state = state_of(event.pk, "bridge-pairs")
    assert not state.processing and state.computed_version == 1 and state.computed_at


@pytest.mark.django_db
def test_a_failed_recompute_leaves_the_stamp_alone(event):
    mark_uploaded(event.pk, "ulti")
    with pytest.raises(RuntimeError), recompute(event.pk, "ulti"):
        raise RuntimeError("engine refused")
    assert state_of(event.pk, "ulti").processing


@pytest.mark.django_db
def test_scopes_are_independent(event):
    mark_uploaded(event.pk, "bridge-pairs")
    mark_uploaded(event.pk, "bridge-pairs")
    mark_uploaded(event.pk, "bridge-teams")
    assert state_of(event.pk, "bridge-pairs").latest_version == 2
    assert state_of(event.pk, "bridge-teams").latest_version == 1
