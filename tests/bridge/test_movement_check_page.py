"""VSz 24 movement check on the director's guide-card page: findings translated, director only."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from bridge.services import setup
from demo import bridge_sample as sample
from federation.models import Role

START = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))

pytestmark = pytest.mark.django_db


def _session(mbsz, pairs, movement):
    event = sample.event_with_pairs(mbsz, pairs=pairs, title=f"VSz 24 {pairs}", start=START)
    session = setup.create_session(
        event, movement=movement, pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )
    return event, session


def test_two_table_mitchell_is_warned_in_hungarian_and_english(client, mbsz, make_user):
    event, session = _session(mbsz, 4, "mitchell")
    director = make_user("vsz24@example.hu", kind=Role.DIRECTOR, event=event)
    client.force_login(director)
    url = reverse("bridge_guide_cards", args=[session.pk])
    page = client.get(url).content.decode()
    assert 'data-finding="two_table_mitchell"' in page
    assert 'data-finding="few_opponents"' in page and 'data-finding="few_boards"' in page
    assert "33,3" in page  # 1 of the 3 other pairs, with the Hungarian decimal comma
    client.cookies["django_language"] = "en"
    page = client.get(url).content.decode()
    assert "33.3" in page and "VSz 24" in page


def test_a_howell_for_eight_pairs_has_no_findings(client, mbsz, make_user):
    event, session = _session(mbsz, 8, "howell")
    client.force_login(make_user("vsz24h@example.hu", kind=Role.DIRECTOR, event=event))
    page = client.get(reverse("bridge_guide_cards", args=[session.pk])).content.decode()
    assert "data-finding" not in page


def test_only_the_director_sees_the_check(client, mbsz, make_user):
    event, session = _session(mbsz, 4, "mitchell")
    client.force_login(make_user("player24@example.hu"))
    response = client.get(reverse("bridge_guide_cards", args=[session.pk]))
    assert response.status_code in (403, 404)
