"""An ulti round upload is recomputed by a real Celery worker on Redis: "processing" until the worker ran.

Runs in CI (`E2E=1`, PostgreSQL DATABASE_URL, Redis CELERY_BROKER_URL); skipped elsewhere.
"""

import datetime

import pytest
from django.contrib.auth import get_user_model

from federation.models import Federation, Person
from results.services import state_of
from tournaments.models import Entry, EntryMember, Event
from ulti.models import Standing
from ulti.services import draw, setup, uploads

pytestmark = [pytest.mark.e2e]


def test_upload_is_recomputed_by_the_worker(worker, wait_for):
    mausz = Federation.objects.create(
        code="mausz", name="Magyar Ultiszövetség", short_name="MAUSZ", game="ulti"
    )
    event = Event.objects.create(
        federation=mausz,
        title="E2E ulti",
        format="ulti_individual",
        event_class="nub_qualifier",
        start_date=datetime.date(2026, 3, 7),
        status="approved",
        rule_set="mausz",
    )
    for i in range(6):
        person = Person.objects.create(
            first_name=f"J{i}", last_name="E2E", birth_date=datetime.date(1970, 1, 1), gender="M"
        )
        EntryMember.objects.create(entry=Entry.objects.create(event=event), person=person)
    user = get_user_model().objects.create_user("e2e.ulti@example.hu", "e2e.ulti@example.hu", "jelszo-12345")
    group = setup.start_event(event, user).groups.get()
    rnd = draw.publish_round(draw.generate_round(group, user), user)
    results = {}
    for table in rnd.tables.all():
        ids = list(table.seats.order_by("position").values_list("participant_id", flat=True))
        results[table.number] = dict(zip(ids, (300, -100, -200), strict=True))
    uploads.upload_round(rnd, results, user=user)
    done = wait_for(lambda: not state_of(event.pk, "ulti").processing)
    assert done, worker.log_path.read_text()[-3000:]
    assert Standing.objects.filter(stage=group.stage, after_round=1).count() == 6
    assert worker.poll() is None, "the worker died"
