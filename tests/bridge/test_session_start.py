"""Issue #15: sealed deals open on the recorded start of the session (bridge.SessionStart, written once and
never cleared), not on the announced start time, which staff can still move; and a sealed session's start
time cannot be moved into the past."""

import datetime
import random

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone, translation
from freezegun import freeze_time

from bridge.models import HandRecord, SessionStart
from bridge.services import dealing, setup, upload_readers, uploads
from demo import bridge_sample as sample
from federation.models import Role
from results.models import VersionedUpload
from tournaments.forms import SessionForm
from tournaments.models import Session
from tournaments.refusals import Refused
from tournaments.services import workflow

START = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))
BEFORE = START - datetime.timedelta(hours=1)
PAST = BEFORE - datetime.timedelta(hours=2)


@pytest.fixture(autouse=True)
def _urls_loaded_before_freezing():
    reverse("results")


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def event(mbsz):
    return sample.event_with_pairs(mbsz, pairs=8, title="Lepecsételt", start=START)


@pytest.fixture
def director(make_user, event):
    return make_user("td@example.hu", kind=Role.DIRECTOR, event=event)


@pytest.fixture
def staff(make_user, mbsz):
    return make_user("staff@example.hu", kind=Role.FEDERATION_STAFF, federation=mbsz)


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
        return dealing.create_deal_set(session, 4, director)


def pages(client, session):
    return {
        name: client.get(reverse(name, args=[session.pk])).status_code
        for name in ("bridge_session_statistics", "bridge_hand_records")
    }


SEALED = {"bridge_session_statistics": 403, "bridge_hand_records": 403}
OPEN = {"bridge_session_statistics": 200, "bridge_hand_records": 200}


@pytest.mark.django_db
def test_moving_the_start_into_the_past_opens_nothing(client, session, deal_set, superuser):
    client.force_login(superuser)
    with freeze_time(BEFORE):
        assert pages(client, session) == SEALED
        # Whatever path moved the announced time back (it opened the deals before issue #15):
        Session.objects.filter(pk=session.announced_id).update(starts_at=PAST)
        session.refresh_from_db()
        assert session.starts_at == PAST
        assert pages(client, session) == SEALED
        with pytest.raises(dealing.Sealed):
            dealing.open_set(deal_set)
        assert dealing.deals_of_session(session) == {}
    assert not SessionStart.objects.exists()


@pytest.mark.django_db
def test_the_directors_start_opens_the_deals_and_moving_the_start_later_does_not_close_them(
    client, session, deal_set, director, django_capture_on_commit_callbacks
):
    client.force_login(director)
    with freeze_time(BEFORE):
        confirm = client.get(reverse("bridge_start_session", args=[session.pk]))
        assert confirm.status_code == 200 and not SessionStart.objects.exists()  # asking only
        with django_capture_on_commit_callbacks(execute=True):
            client.post(reverse("bridge_start_session", args=[session.pk]))
        start = SessionStart.objects.get(session=session)
        assert (start.source, start.by, start.at) == (SessionStart.Source.DIRECTOR, director, timezone.now())
        assert pages(client, session) == OPEN
        assert len(dealing.deals_of_session(session)) == 4
        assert HandRecord.objects.filter(session=session).count() == 4  # analysed on the start
        # The announced start moved later (it closed the deals again before issue #15):
        Session.objects.filter(pk=session.announced_id).update(starts_at=START + datetime.timedelta(days=7))
        assert pages(client, session) == OPEN
        # Recorded once: pressing again changes nothing, and the row cannot be changed or removed.
        client.post(reverse("bridge_start_session", args=[session.pk]))
    assert SessionStart.objects.get(session=session).at == start.at
    with pytest.raises(TypeError):
        SessionStart.objects.filter(session=session).delete()
    with pytest.raises(TypeError):
        start.save()


@pytest.mark.django_db
def test_only_the_director_starts_a_session(client, session, deal_set, make_user):
    client.force_login(make_user("player@example.hu"))
    with freeze_time(BEFORE):
        assert client.post(reverse("bridge_start_session", args=[session.pk])).status_code in (403, 404)
    assert not SessionStart.objects.exists()


@pytest.mark.django_db
def test_the_beat_records_the_start_when_the_servers_clock_passes_it(client, session, deal_set, director):
    client.force_login(director)
    with freeze_time(BEFORE):
        assert dealing.record_due_starts() == []
        assert pages(client, session) == SEALED
    after = START + datetime.timedelta(seconds=30)
    with freeze_time(after):
        assert dealing.record_due_starts() == [session.pk]
        assert dealing.record_due_starts() == []  # once
        assert pages(client, session) == OPEN
    start = SessionStart.objects.get(session=session)
    assert (start.source, start.at, start.by) == (SessionStart.Source.CLOCK, after, None)


@pytest.mark.django_db
def test_the_first_results_record_the_start(client, session, director):
    with freeze_time(BEFORE):
        rows = [r for r in sample.play(session, random.Random(4)) if r["board"] <= 2]
        uploads.upload(
            session,
            upload_readers.parse_pbn(sample.pbn_text(session, rows)),
            source=VersionedUpload.Source.PBN,
            user=director,
        )
        start = SessionStart.objects.get(session=session)
        assert (start.source, start.by) == (SessionStart.Source.RESULTS, director)
        client.force_login(director)
        assert pages(client, session) == OPEN


@pytest.mark.django_db
def test_a_sealed_start_cannot_be_moved_into_the_past(session, deal_set, staff):
    announced = Session.objects.get(pk=session.announced_id)
    with freeze_time(BEFORE):
        form = SessionForm({"name": announced.name, "starts_at": "2026-03-14 07:00"}, instance=announced)
        assert not form.is_valid()
        assert "cannot be moved into the past" in form.errors["starts_at"][0]
        later = SessionForm({"name": announced.name, "starts_at": "2026-03-14 12:00"}, instance=announced)
        assert later.is_valid(), later.errors
        with pytest.raises(Refused, match="cannot be moved into the past"):
            workflow.move(session.event_id, staff, START.date() - datetime.timedelta(days=1), None, "terem")
        announced.starts_at = PAST
        with pytest.raises(ValidationError):
            announced.save()
    assert Session.objects.get(pk=announced.pk).starts_at == START
    session.event.refresh_from_db()
    assert session.event.start_date == START.date()


@pytest.mark.django_db
def test_the_start_moves_freely_once_started_or_without_sealed_deals(session, director, staff):
    announced = Session.objects.get(pk=session.announced_id)
    with freeze_time(BEFORE):
        assert SessionForm({"name": "", "starts_at": "2026-03-14 07:00"}, instance=announced).is_valid()
        dealing.create_deal_set(session, 4, director)
        assert not SessionForm({"name": "", "starts_at": "2026-03-14 07:00"}, instance=announced).is_valid()
        dealing.record_start(session, SessionStart.Source.DIRECTOR, user=director)
        assert SessionForm({"name": "", "starts_at": "2026-03-14 07:00"}, instance=announced).is_valid()
        workflow.move(session.event_id, staff, START.date() - datetime.timedelta(days=1), None, "terem")
    assert Session.objects.get(pk=announced.pk).starts_at == START - datetime.timedelta(days=1)
