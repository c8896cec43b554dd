"""Issue #20: the final standings show the masterpoints each pair earned (the ledger's current awards);
no column where the event awards none."""

import datetime
import random
from decimal import Decimal

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from freezegun import freeze_time

from bridge.models import EventStanding
from bridge.services import setup, upload_readers, uploads
from bridge.services.compute import recompute_event
from demo import bridge_sample as sample
from federation.models import Role
from rankings.models import Award, AwardVersion
from results import page_cache
from results.models import VersionedUpload
from tests.pdf_reading import pdf_of

START = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _urls_loaded_before_freezing():
    reverse("results")


@pytest.fixture
def event(mbsz, make_user):
    event = sample.event_with_pairs(mbsz, pairs=8, title="Pontszerző páros", start=START)
    director = make_user("td@example.hu", kind=Role.DIRECTOR, event=event)
    with freeze_time(START + datetime.timedelta(hours=4)):
        session = setup.create_session(
            event,
            movement="mitchell",
            pairs=setup.pairs_from_entries(event),
            announced=event.sessions.first(),
        )
        rows = sample.play(session, random.Random(3))
        uploads.upload(
            session,
            upload_readers.parse_csv(sample.csv_text(session, rows)),
            source=VersionedUpload.Source.CSV,
            user=director,
        )
        recompute_event(event.pk)
        setup.publish(session, director)
    return event


def award(event, person, amount, *, current=True):
    version, _ = AwardVersion.objects.get_or_create(
        event=event,
        federation=event.federation,
        version=1,
        defaults={"date": event.start_date, "field_size": 8},
    )
    return Award.objects.create(
        version=version,
        event=event,
        federation=event.federation,
        person=person,
        year=2026,
        date=event.start_date,
        amount=Decimal(amount),
        reason="final",
        place_from=1,
        place_to=1,
        is_current=current,
    )


def page(client, event):
    page_cache.bump(page_cache.event_scope(event.pk))  # as the ledger does when it writes awards
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "hu"
    return client.get(reverse("bridge_event", args=[event.pk])).content.decode()


def test_the_earned_masterpoints_are_shown_per_pair(client, event):
    winner = EventStanding.objects.filter(event=event).order_by("order").first().pair
    award(event, winner.player1, "12.50")
    award(event, winner.player2, "12.50")
    html = page(client, event)
    assert 'id="mp-column"' in html
    assert '<td class="text-end">12,50</td>' in html  # one amount for the pair, Hungarian decimal comma


def test_partners_with_different_amounts_show_both(client, event):
    winner = EventStanding.objects.filter(event=event).order_by("order").first().pair
    award(event, winner.player1, "10")
    award(event, winner.player2, "6.25")
    assert "10,00 / 6,25" in page(client, event)


def test_no_column_without_awards(client, event):
    old = EventStanding.objects.filter(event=event).order_by("order").first().pair
    award(event, old.player1, "3", current=False)  # superseded: not earned any more
    assert 'id="mp-column"' not in page(client, event)


def test_the_results_pdf_shows_the_earned_masterpoints_too(client, event):
    winner = EventStanding.objects.filter(event=event).order_by("order").first().pair
    award(event, winner.player1, "12.5")
    award(event, winner.player2, "12.5")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "hu"
    read = pdf_of(client.get(reverse("bridge_event_pdf", args=[event.pk])))
    assert "MP" in read.text and "12,50" in read.text


def test_the_results_pdf_has_no_masterpoint_column_without_awards(client, event):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "hu"
    read = pdf_of(client.get(reverse("bridge_event_pdf", args=[event.pk])))
    assert "Összesen" in read.text and "MP" not in read.text
