"""Computer dealing (VSz 21): sealed until the session starts, for everybody; a seed is never reused."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone, translation
from freezegun import freeze_time

from bridge.engine import dealing as engine
from bridge.models import DealSet
from bridge.services import dealing, setup
from demo import bridge_sample as sample
from federation.models import Role

START = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))
BEFORE, AFTER = START - datetime.timedelta(hours=1), START + datetime.timedelta(minutes=1)


@pytest.fixture(autouse=True)
def _urls_loaded_before_freezing():
    # The URLconf imports psycopg; importing a C extension under freezegun's fake datetime warns.
    reverse("results")


@pytest.fixture(autouse=True)
def english():
    # Refusals are translated; these tests read the English ones.
    with translation.override("en"):
        yield


@pytest.fixture
def event(mbsz):
    return sample.event_with_pairs(mbsz, pairs=8, title="Gépi leosztás", start=START)


@pytest.fixture
def director(make_user, event):
    return make_user("td@example.hu", kind=Role.DIRECTOR, event=event)


@pytest.fixture
def superuser(db):
    return get_user_model().objects.create_superuser("root", "root@example.hu", "jelszo-12345")


@pytest.fixture
def session(event):
    return setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )


@pytest.fixture
def deal_set(session, director):
    with freeze_time(BEFORE - datetime.timedelta(days=1)):
        return dealing.create_deal_set(session, 16, director)


@pytest.mark.django_db
def test_deals_are_sealed_before_the_start_for_everybody(client, session, deal_set, director, superuser):
    with freeze_time(BEFORE):
        with pytest.raises(dealing.Sealed):
            dealing.open_set(deal_set)
        assert dealing.deals_of_session(session) == {}
        for user in (director, superuser):
            client.force_login(user)
            assert client.get(reverse("bridge_session_statistics", args=[session.pk])).status_code == 403
            page = client.get(reverse("bridge_dealing", args=[session.pk])).content.decode()
            assert deal_set.set_id in page and "N:" not in page
    # What is stored reveals nothing: the seed is masked, only its hash is in the clear.
    stored = DealSet.objects.values().get(pk=deal_set.pk)
    assert all("N:" not in str(value) for value in stored.values())


@pytest.mark.django_db
def test_deals_open_at_the_start_in_the_order_generated(client, session, deal_set, director):
    with freeze_time(AFTER):
        assert dealing.record_due_starts() == [session.pk]  # the beat sees the announced start pass
        deals = dealing.open_set(deal_set)
        assert len(deals) == 16 and len(set(deals)) == 16
        assert dealing.deals_of_session(session) == dict(enumerate(deals, start=1))
        client.force_login(director)
        page = client.get(reverse("bridge_session_statistics", args=[session.pk]))
        assert page.status_code == 200 and page.context["stats"].deals == 16


@pytest.mark.django_db
def test_a_seed_is_never_reused_and_no_set_is_made_after_the_start(session, director):
    seed = engine.new_seed()
    with freeze_time(BEFORE):
        dealing.create_deal_set(session, 8, director, seed=seed)
        with pytest.raises(ValueError, match="never reused"):
            dealing.create_deal_set(session, 8, director, seed=seed)
    with freeze_time(AFTER), pytest.raises(ValueError):
        dealing.create_deal_set(session, 8, director)
    assert DealSet.objects.count() == 1


@pytest.mark.django_db
def test_statistics_of_any_pbn_file(client):
    deals = engine.deal_set(engine.new_seed(), 40, "any")
    text = "\n\n".join(f'[Board "{i}"]\n[Deal "{deal}"]' for i, deal in enumerate(deals, start=1))
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = client.post(
        reverse("bridge_deal_statistics"), {"file": SimpleUploadedFile("d.pbn", text.encode())}
    )
    assert response.status_code == 200 and response.context["stats"].deals == 40
    bad = client.post(
        reverse("bridge_deal_statistics"), {"file": SimpleUploadedFile("d.pbn", b'[Deal "N:AKQ"]')}
    )
    assert bad.context["form"].errors
